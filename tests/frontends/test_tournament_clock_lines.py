"""`tournament status` shows the round clock and its records (tournament_cmds.py)."""

from __future__ import annotations

from fourwinds.daemon.events.clock import clock_says
from fourwinds.frontends.cli.commands.tournament_cmds import _clock_lines


def test_time_left_an_extension_and_the_clock_records_are_shown() -> None:
    lines = _clock_lines(
        {
            "clock": {
                "round": 2,
                "minutes": 90,
                "seconds_left": 754,
                "time_called": False,
                "says": clock_says(False, 754, 90),
                "my_extension": 5,
                "my_extension_seconds_left": None,
                "my_table_ended": None,
            },
            "clock_history": [
                {
                    "kind": "extension",
                    "round": 2,
                    "table": 3,
                    "minutes": 5,
                    "reason": "started late",
                }
            ],
        }
    )
    assert lines == [
        "  clock, round 2: about 12:34 left of 90 minutes (the director's clock calls time)",
        "    your table has 5 extra minute(s)",
        "  extension: round 2, table 3 +5 min: started late",
    ]


def test_time_called_and_a_table_ended_by_force() -> None:
    lines = _clock_lines(
        {
            "clock": {
                "round": 1,
                "minutes": 90,
                "seconds_left": None,
                "time_called": True,
                "says": clock_says(True, None, 90),
                "my_extension": 0,
                "my_table_ended": "the venue closes",
            },
            "clock_history": [
                {"kind": "time_call", "round": 1},
                {"kind": "end_table", "round": 1, "table": 1, "reason": "the venue closes"},
            ],
        }
    )
    assert lines[0] == "  clock, round 1: time called: the hand in progress is the last"
    assert "ended by the director: the venue closes" in lines[1]
    assert lines[2:] == [
        "  time called: round 1",
        "  table ended: round 1, table 1: the venue closes",
    ]


def test_an_event_of_hands_shows_no_clock() -> None:
    assert _clock_lines({"clock": None, "clock_history": []}) == []


def test_the_clock_in_words_is_said_once_by_the_daemon() -> None:
    assert clock_says(False, 754, 90) == (
        "about 12:34 left of 90 minutes (the director's clock calls time)"
    )
    assert clock_says(True, 12, 90) == "time called: the hand in progress is the last"
    assert clock_says(False, None, None) == ""
