"""How long a frontend waits for its daemon's answer (frontends/client/client.py ``timeout_for``):
a request that asks the daemon to wait is given that long and a margin, so the daemon's
answer after its wait ("its seed waits for Ann") reaches the person instead of "the daemon
did not answer"."""

from __future__ import annotations

from fourwinds.daemon.events.requests import START_WAIT_S
from fourwinds.frontends.client.client import (
    REQUEST_TIMEOUT,
    SLOW_REQUEST_TIMEOUT,
    WAIT_MARGIN,
    timeout_for,
)


def test_a_plain_request_waits_the_default() -> None:
    assert timeout_for({"type": "view"}) == REQUEST_TIMEOUT


def test_a_round_start_outlasts_the_daemons_own_default_wait() -> None:
    assert timeout_for({"type": "tournament_start"}) == SLOW_REQUEST_TIMEOUT
    assert timeout_for({"type": "tournament_start"}) > START_WAIT_S


def test_a_request_that_names_its_wait_is_given_it_and_a_margin() -> None:
    assert timeout_for({"type": "tournament_start", "wait": 60}) == 60 + WAIT_MARGIN
    assert timeout_for({"type": "tournament_result", "wait": 12.5}) == 12.5 + WAIT_MARGIN
    assert timeout_for({"type": "tournament_result", "wait": 1}) == REQUEST_TIMEOUT


def test_a_wait_that_is_no_number_changes_nothing() -> None:
    assert timeout_for({"type": "view", "wait": True}) == REQUEST_TIMEOUT
    assert timeout_for({"type": "view", "wait": "60"}) == REQUEST_TIMEOUT
