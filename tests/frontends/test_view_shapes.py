"""The frontends' entry check of a view event (frontends/client/view_shapes.py): a view the core
builds passes it as the daemon sends it; a map without a key every event carries, or no map at
all, is refused with one line naming what is wrong."""

from __future__ import annotations

import typing
from typing import Any

import msgpack
import pytest

from fourwinds.frontends.client.daemon_link import current_view
from fourwinds.frontends.client.view_shapes import BadViewEvent, ViewEvent, view_event
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.views.contract_view import build_seat_view
from fourwinds.protocol.table.views.view_types import SeatView


def _wire_event(rules: str) -> dict[str, Any]:
    """A view event as the daemon sends one (daemon/local_api/views.py), over msgpack: a
    seat's view built by the core in the middle of a hand, with the daemon's keys around it."""
    h = open_harness(rules, b"shapes", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    while (
        h.sessions[0].phase is not Phase.PLAY or not build_seat_view(h.sessions[0])["legal_actions"]
    ):
        assert not h.done(), "the hand ended before our seat was asked anything"
        if not any(bot_moves(h, p) for p in SEATS):
            assert h.queue, "the hand stalled"
            deliver_one(h)
    built = build_seat_view(h.sessions[0])
    event = {
        "type": "view",
        "table": "ab0cd",
        "name": "kitchen",
        "rules": rules,
        "seq": 1,
        "view": {**built["view"], "step": h.sessions[0].step},
        "legal_actions": built["legal_actions"],
        "offline": [],
        "events": [],
        "problems": [],
    }
    unpacked: dict[str, Any] = msgpack.unpackb(msgpack.packb(event, use_bin_type=True), raw=False)
    return unpacked


def _required(shape: type) -> list[str]:
    hints = typing.get_type_hints(shape, include_extras=True)
    return [k for k, v in hints.items() if typing.get_origin(v) is not typing.NotRequired]


@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_a_view_the_core_built_passes_as_it_came(rules: str) -> None:
    message = _wire_event(rules)
    event = view_event(message)
    assert event is message  # narrowed, not copied
    assert event["legal_actions"] and all("label" in a for a in event["legal_actions"])
    # the contract's view carries every key SeatView requires (view_types names them all)
    assert [k for k in _required(SeatView) if k not in event["view"]] == []


def test_the_daemons_view_before_a_session_passes() -> None:
    """Before the table has its session the daemon sends an empty view; while it rebuilds,
    only a phase_detail (daemon/local_api/views.py): every screen shows those as they are."""
    views: list[dict[str, Any]] = [{}, {"phase_detail": "Rebuilding", "rebuilding": "lost"}]
    for view in views:
        event = view_event({"type": "view", "table": "ab0cd", "view": view, "legal_actions": []})
        assert event["view"] is view


@pytest.mark.parametrize("key", ["type", "table", "view", "legal_actions"])
def test_an_event_without_a_required_key_is_refused_naming_it(key: str) -> None:
    message = _wire_event("mcr")
    del message[key]
    with pytest.raises(BadViewEvent) as refused:
        view_event(message)
    assert f"without {key!r}" in str(refused.value)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("wrong", [None, [], "view", 7])
def test_what_is_not_a_map_is_refused(wrong: object) -> None:
    with pytest.raises(BadViewEvent, match="not a map") as refused:
        view_event(wrong)
    assert "\n" not in str(refused.value)


def test_a_view_or_its_actions_of_the_wrong_kind_are_refused_naming_them() -> None:
    message = _wire_event("american")
    with pytest.raises(BadViewEvent, match="'view' is a list"):
        view_event({**message, "view": []})
    with pytest.raises(BadViewEvent, match="'legal_actions' is None"):
        view_event({**message, "legal_actions": None})
    with pytest.raises(BadViewEvent, match=r"action \(#1\) that is not a map"):
        view_event({**message, "legal_actions": [message["legal_actions"][0], "discard"]})
    unlabelled = {k: v for k, v in message["legal_actions"][0].items() if k != "label"}
    with pytest.raises(BadViewEvent, match=r"action \(#0\) without 'label'"):
        view_event({**message, "legal_actions": [unlabelled]})


class _Answers:
    """A daemon connection whose ``view`` answer is ``event``."""

    def __init__(self, event: object) -> None:
        self.event = event

    def request(self, message: object) -> dict[str, Any]:
        return {"ok": True, "event": self.event}

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        pass


def test_the_cli_gets_the_checked_view_or_one_line_why_not() -> None:
    good = _wire_event("mcr")
    event: ViewEvent = current_view(_Answers(good), "kitchen")
    assert event["view"]["players"] == good["view"]["players"]
    bad = {k: v for k, v in good.items() if k != "legal_actions"}
    with pytest.raises(FourwindsError, match="without 'legal_actions'") as refused:
        current_view(_Answers(bad), "kitchen")
    assert "\n" not in str(refused.value)
