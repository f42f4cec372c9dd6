"""The terminal draws the view's ``waiting`` where the countdown was, and a reconnecting
screen instead of the stale table (issue 22 items 4 and 5), for hand-written views."""

from __future__ import annotations

from fourwinds.frontends.terminal.table_view import UiState, render, screen_kind
from fourwinds.protocol.table.views.view_types import WaitingEntry
from tests.frontends import sample_views

WAITING: WaitingEntry = {
    "seats": [2],
    "names": ["Bob"],
    "unreachable": True,
    "seconds": 42,
    "text": "Waiting for Bob (unreachable for 42 s)",
}


def _screen(event: object, ascii_only: bool = True) -> str:
    return "\n".join(render(event, UiState(), 100, 40, ascii_only))  # type: ignore[arg-type]


def test_the_header_says_whom_the_table_waits_for_instead_of_time_0s() -> None:
    event = sample_views.clone(sample_views.play_event())
    event["view"].update({"deadline": 0.0, "waiting": WAITING})
    head = _screen(event).splitlines()[0]
    assert head.startswith("Waiting for Bob (unreachable for 42 s) | fourwinds"), head
    assert "time 0s" not in _screen(event)
    event["view"].update({"deadline": 5.0, "waiting": None})
    assert _screen(event).splitlines()[0].startswith("time 5s | "), _screen(event)


def test_the_hand_end_waits_with_the_same_text() -> None:
    event = sample_views.clone(sample_views.hand_over_event())
    event["view"].update(
        {"deadline": 0.0, "waiting": {**WAITING, "seconds": 7, "text": "Waiting for Bob (7 s)"}}
    )
    event["view"]["next"] = {"waiting": [2], "deadline": 0.0, "then": "Next hand"}
    screen = _screen(event)
    assert "Waiting for Bob (7 s)" in screen and "Next hand in 0s" not in screen, screen


def test_reconnecting_shows_the_line_alone_with_no_rack_and_no_action() -> None:
    event = sample_views.clone(sample_views.call_event())
    event["view"].update(
        {"reconnecting": True, "phase_detail": "Reconnecting: asking the other seats\u2026"}
    )
    assert screen_kind(event) == "reconnecting"
    for ascii_only in (True, False):
        screen = _screen(event, ascii_only)
        assert "Reconnecting: asking the other seats" in screen, screen
        assert "Actions" not in screen and "Pass" not in screen and "time " not in screen
        assert not ascii_only or screen.isascii()
    event["view"]["reconnecting"] = False
    assert screen_kind(event) == "table"
