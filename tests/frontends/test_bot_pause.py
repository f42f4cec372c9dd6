"""The bots' pause at a table with a person (frontends/bots/bot_pause.py): how long each decision
waits, and that a seat counts it from the view's asking, at a scripted table."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.bots.bot_pause import SAFE_SHARE, chosen_pause, pause_for
from fourwinds.frontends.bots.bot_seat import FunctionBrain, play_seat
from fourwinds.frontends.bots.view_bot import choose_request
from fourwinds.frontends.cli.player_config import ConfigError, parse_config
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError
from tests.frontends import sample_views
from tests.frontends.scripted_table import ScriptedTable


def test_a_decision_of_its_own_waits_the_pause() -> None:
    for event in (
        sample_views.play_event(),
        sample_views.call_event(),
        sample_views.charleston_event(),
    ):
        assert event["view"]["deadline"] is None or event["view"]["deadline"] * SAFE_SHARE > 1
        assert pause_for(event, 1.0) == 1.0


def test_the_pause_is_bounded_by_the_time_left() -> None:
    event = sample_views.call_event()
    event["view"]["deadline"] = 2.0  # a short call window, partly gone
    assert pause_for(event, 1.0) == pytest.approx(2.0 * SAFE_SHARE)
    event["view"]["deadline"] = 0.0  # out of time: act at once
    assert pause_for(event, 1.0) == 0.0
    event["view"]["deadline"] = None  # no timer (a turn window of 0): the whole pause
    assert pause_for(event, 1.0) == 1.0


def test_ready_and_next_are_answered_without_a_pause() -> None:
    ready = sample_views.lobby_event(seated=4)
    assert [a["type"] for a in ready["legal_actions"]] == ["ready"]
    assert pause_for(ready, 1.0) == 0.0
    hand_over = sample_views.hand_over_event()
    assert {a["type"] for a in hand_over["legal_actions"]} == {"next"}
    assert pause_for(hand_over, 1.0) == 0.0
    # more time beside a real choice is still the bot's own decision
    assert pause_for(sample_views.more_time_call_event(), 1.0) == 1.0


def test_no_pause_at_zero_or_when_nothing_is_asked() -> None:
    assert pause_for(sample_views.play_event(), 0.0) == 0.0
    quiet = sample_views.play_event()
    quiet["legal_actions"] = []
    assert pause_for(quiet, 1.0) == 0.0


def test_the_setting_comes_from_the_option_else_the_config() -> None:
    assert parse_config("").bot_pause == 1.0
    configured = parse_config("bot_pause = 0").bot_pause
    assert configured == 0.0
    assert chosen_pause(None, configured) == 0.0
    assert chosen_pause(0.5, configured) == 0.5
    with pytest.raises(FourwindsError, match="--bot-pause -1: must be 0 to 10"):
        chosen_pause(-1.0, 1.0)
    with pytest.raises(ConfigError, match="'bot_pause' must be 0 to 10"):
        parse_config("bot_pause = 11")
    with pytest.raises(ConfigError, match="'bot_pause' must be a number"):
        parse_config('bot_pause = "slow"')


class TimedTable(ScriptedTable):
    """A scripted table noting when each view was handed out and each act arrived."""

    def __init__(self, events: list[ViewEvent]) -> None:
        super().__init__(events)
        self.asked: dict[int, float] = {}
        self.acted: dict[int, float] = {}

    def latest_event(self, timeout: float) -> ViewEvent | None:
        event = super().latest_event(timeout)
        if event is not None:
            self.asked.setdefault(int(event["seq"]), time.monotonic())
        return event

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self.acted.setdefault(int(request["seq"]), time.monotonic())
        return super().act(request)


def _script() -> list[ViewEvent]:
    return [
        sample_views.lobby_event(seq=1, seated=4),
        sample_views.play_event(seq=2),
        sample_views.result_event(seq=3, match_over=True),
    ]


def _waits(pause: float, think: float = 0.0) -> dict[int, float]:
    def choose(event: ViewEvent) -> dict[str, Any] | None:
        # sleep-ok: the bot's think time is the test's input (measured against the pause)
        time.sleep(think)
        return choose_request(event)

    table = TimedTable(_script())
    assert play_seat(table, FunctionBrain(choose), poll=0.01, pause=pause) == 0
    return {seq: table.acted[seq] - table.asked[seq] for seq in table.acted}


def test_a_seat_waits_the_pause_from_the_asking_but_not_for_ready() -> None:
    waits = _waits(0.4)
    assert waits[1] < 0.2  # ready: at once
    assert 0.38 <= waits[2] < 0.8  # the discard: about the pause
    thinking = _waits(0.4, think=0.3)  # a bot that thought waits only the rest
    assert 0.38 <= thinking[2] < 0.8
    assert _waits(0.0)[2] < 0.2  # no pause: at once


def test_bad_pauses_are_one_line_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from fourwinds.frontends import cli
    from fourwinds.frontends.client.local_seats import is_running

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    data = ["--data-dir", str(tmp_path / "d")]
    assert cli.main(["bot", "--rules", "mcr", "--pause", "-1", *data]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "fourwinds: --pause -1: must be 0 to 10 seconds"
    )
    assert cli.main(["bot", "--botzone", "./b", "--pause", "1", *data]) == 2
    assert "--pause is for --rules and --exec bots" in capsys.readouterr().err
    assert cli.main(["play", "--bot-pause", "12", *data]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "fourwinds: --bot-pause 12: must be 0 to 10 seconds"
    )
    assert not is_running(str(tmp_path / "d"))  # no daemon was started


def test_the_web_pages_bots_get_the_pause_they_were_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fourwinds.frontends.client.local_seats import BotSeats
    from fourwinds.frontends.web import seats

    given: list[float] = []
    monkeypatch.setattr(seats, "seat_new_bots", lambda *a, **k: given.append(k["pause"]))
    monkeypatch.setattr(seats, "resume_bot_seats", lambda *a, **k: given.append(k["pause"]))
    monkeypatch.setattr(
        seats, "load_bot_seats", lambda state, table: BotSeats(tmp_path, table, "mcr", 3)
    )
    keeper = seats.BotKeeper(tmp_path, pause=0.7)
    keeper.seat(table="t", rules="mcr", count=3, host_port=1, host_key="k", code=None)
    assert keeper.resume("t", 1) == 3
    assert given == [0.7, 0.7]
    assert seats.BotKeeper(tmp_path).pause == 0.0  # only a server told so pauses its bots


def test_a_bot_seat_ends_when_its_daemon_left_the_table() -> None:
    """A table the daemon left under the bot (a tournament table gone on under another id
    after a substitute took a seat): the client says ``gone`` and the seat ends, so that
    `fourwinds bot --tournament` goes on to the table's new id."""
    gone: ViewEvent = {**sample_views.play_event(seq=2), "gone": True}
    table = TimedTable([sample_views.lobby_event(seq=1, seated=4), gone])
    assert play_seat(table, FunctionBrain(choose_request), poll=0.01) == 0
