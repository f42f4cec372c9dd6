"""What `tournament create` tells the players (frontends/cli/commands/tournament_cmds.py's
``entering_lines``): by name where the event is announced, ``--peer`` at each address of the
director's machine where multicast is blocked, and a plain line when no other machine can
reach it."""

from __future__ import annotations

from fourwinds.frontends.cli.commands.tournament_cmds import entering_lines


def test_an_announced_event_is_entered_by_name_or_by_each_address() -> None:
    lines = entering_lines("club night", {}, 7420, ["10.0.4.17", "192.168.1.5"], announced=True)
    assert lines == [
        "players enter with: fourwinds tournament join 'club night'",
        "  where multicast is blocked: fourwinds tournament join 'club night' "
        "--peer 10.0.4.17:7420 or --peer 192.168.1.5:7420",
    ]


def test_an_event_not_announced_is_entered_by_address_with_its_code() -> None:
    lines = entering_lines("club", {"code": "K7QX"}, 7500, ["10.0.4.17"], announced=False)
    assert lines == [
        "players enter with: fourwinds tournament join club --code CODE --peer 10.0.4.17:7500"
    ]


def test_a_director_reached_on_loopback_only_is_told_no_one_can_enter_yet() -> None:
    [line] = entering_lines("club", {}, 7420, ["127.0.0.1"], announced=True)
    assert "cannot enter yet" in line and "127.0.0.1:7420 only" in line
