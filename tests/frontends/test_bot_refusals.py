"""A bot seat's refused act is routine, not a warning on the terminal (issue 38, defect 9:
"bot action refused" lines reached a person running `fourwinds bot --tournament`).

The table moves on between a view and the seat's act (a call window closes, another claim
wins); the seat then tries its fall-back and the default (frontends/bots/bot_seat.py
``_send``). Only when the daemon takes none of them does the seat warn, once for that view.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import pytest

from fourwinds.frontends.bots.bot_seat import FunctionBrain, _send
from fourwinds.frontends.bots.exec_bot import default_request
from tests.frontends import sample_views


class Daemon:
    """Refuses the first ``refusals`` acts, then takes every act."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.acts: list[dict[str, Any]] = []

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        self.acts.append(dict(request))
        if len(self.acts) <= self.refusals:
            return {"ok": False, "error": "the table moved on"}
        return {"ok": True}


def _other_than_default(event: Any) -> dict[str, Any]:
    default = default_request(event)
    assert default is not None
    return {**default, "action": "not-the-default"}


def test_a_refusal_the_default_then_answers_is_logged_below_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    event = sample_views.play_event()
    daemon = Daemon(refusals=1)
    with caplog.at_level(logging.INFO):
        assert _send(daemon, FunctionBrain(lambda e: None), event, _other_than_default(event))  # type: ignore[arg-type]
    assert len(daemon.acts) == 2 and daemon.acts[1] == default_request(event)
    assert [r.levelno for r in caplog.records if "refused" in r.getMessage()] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_when_no_answer_is_taken_the_seat_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    event = sample_views.play_event()
    daemon = Daemon(refusals=10)
    with caplog.at_level(logging.INFO):
        assert not _send(daemon, FunctionBrain(lambda e: None), event, _other_than_default(event))  # type: ignore[arg-type]
    [warning] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "took none of the seat's answers" in warning.getMessage()
    assert "the table moved on" in warning.getMessage()
