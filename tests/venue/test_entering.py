"""A director makes an event and the players enter it at once, on machines of their own
(issue 38, defects 1 and 2).

Two machines, each a network namespace on one bridge that carries multicast (testkit's
``Network``: link-local addresses, no route anywhere else), no daemon running on either:
the director types `fourwinds tournament create`, which starts her daemon and prints how the
players enter, with her machine's real address where multicast is blocked (it printed "this
daemon listens on None:7420"); a player then types `fourwinds tournament join NAME` at once,
which starts his daemon and enters the event by name once that daemon has seen it announced
(it failed in 0.29 s: a daemon just started has seen nothing yet).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator

import pytest

from testkit.dirs import short_dir
from testkit.machines import Machine, Network, Unavailable

pytestmark = [pytest.mark.netns, pytest.mark.slow]


@pytest.fixture
def room() -> Iterator[list[Machine]]:
    """The director's machine and a player's, on one network with multicast."""
    base = short_dir()
    try:
        try:
            net = Network(base, ["Dora", "Pat"], 71)
        except Unavailable as why:
            pytest.skip(str(why))
        try:
            yield net.machines
        finally:
            net.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _ok(machine: Machine, command: str) -> str:
    done = machine.run(command, timeout=60)
    assert done.returncode == 0, f"{machine.login}$ {command}\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr


def test_a_player_enters_by_name_right_after_create_at_the_address_it_printed(
    room: list[Machine],
) -> None:
    dora, pat = room
    made = _ok(dora, "fourwinds tournament create club --rules mcr --rounds 1 --hands 1")
    assert "None" not in made, made
    assert "players enter with: fourwinds tournament join club\n" in made, made
    assert f"fourwinds tournament join club --peer {dora.address}:7420" in made, made
    entered = _ok(pat, "fourwinds tournament join club")
    assert "you are entrant" in entered, entered
    with contextlib.closing(dora.client()) as client:
        listed = client.request({"type": "tournament_list"})
    [event] = listed["events"]
    assert [e["name"] for e in event["entrants"]] == ["Pat"], event
