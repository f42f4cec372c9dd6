"""`fourwinds bot --rules`'s brain: the daemon's suggestion first, the view bot when there is
none, and on a refused act the view bot's choice before the default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.bots.bot_seat import play_seat
from fourwinds.frontends.bots.suggest_bot import engine_brain, suggested_request
from fourwinds.frontends.bots.view_bot import choose_request
from fourwinds.frontends.client.acting import act_request
from tests.frontends import sample_views
from tests.frontends.scripted_table import ScriptedTable


class SuggestApi:
    """Answers ``suggest`` with ``answer`` (or raises ``error``); records the requests."""

    def __init__(
        self, answer: dict[str, Any] | None = None, error: Exception | None = None
    ) -> None:
        self.answer = answer
        self.error = error
        self.sent: list[dict[str, Any]] = []

    def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        self.sent.append(dict(message))
        if self.error is not None:
            raise self.error
        if self.answer is None:
            return {"ok": False, "error": "unknown request type 'suggest'"}
        return self.answer

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        pass


def _suggesting(
    action: Mapping[str, Any], tiles: list[str] | None = None, step: int | None = None
) -> dict[str, Any]:
    return {"ok": True, "suggestion": {"action": dict(action), "tiles": tiles or [], "step": step}}


def test_the_suggestion_becomes_the_act_request_with_expected_and_tiles() -> None:
    event = sample_views.call_event()
    api = SuggestApi(_suggesting(event["legal_actions"][0]))
    request = suggested_request(api, event)
    assert request == act_request(event, event["legal_actions"][0])
    assert request is not None and request["action"] == 0
    assert request["expected"]["label"] == "Pung 4p"
    assert api.sent == [{"type": "suggest", "table": "kitchen"}]
    charleston = sample_views.charleston_event()
    pick = ["1m", "2m", "F"]
    request = suggested_request(
        SuggestApi(_suggesting(charleston["legal_actions"][0], pick)), charleston
    )
    assert request is not None and request["tiles"] == pick


def test_no_suggestion_for_another_step_an_unlisted_action_or_an_old_daemon() -> None:
    event = sample_views.call_event()
    event["view"]["step"] = 12
    pung = event["legal_actions"][0]
    assert suggested_request(SuggestApi(_suggesting(pung, step=12)), event) is not None
    assert suggested_request(SuggestApi(_suggesting(pung, step=13)), event) is None
    other = {**pung, "label": "Pung 9p"}
    assert suggested_request(SuggestApi(_suggesting(other, step=12)), event) is None
    assert suggested_request(SuggestApi({"ok": True, "suggestion": None}), event) is None
    assert suggested_request(SuggestApi(None), event) is None
    assert suggested_request(SuggestApi(error=TimeoutError("slow")), event) is None


def test_without_a_suggestion_the_view_bot_decides() -> None:
    event = sample_views.play_event()
    brain = engine_brain(SuggestApi({"ok": True, "suggestion": None}))
    assert brain.decide(event).request == choose_request(event)


class RefusingExchange(ScriptedTable):
    """Refuses the joker exchange (as a daemon refuses an act the table moved past)."""

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if (request.get("expected") or {}).get("type") == "exchange":
            self.requests.append(dict(request))
            return {"ok": False, "error": "too late"}
        return super().act(request)


def test_a_refused_suggestion_falls_back_to_the_view_bot_before_the_default() -> None:
    play = sample_views.play_event(seq=2)
    play["legal_actions"] = [a for a in play["legal_actions"] if a["type"] != "mahjong"]
    for action in play["legal_actions"]:  # the default: another tile than the view bot's
        action.pop("default", None)
        if action["tiles"] == ["1z"]:
            action["default"] = True
    exchange = next(a for a in play["legal_actions"] if a["type"] == "exchange")
    table = RefusingExchange([play, sample_views.result_event(seq=4, match_over=True)])
    api = SuggestApi(_suggesting(exchange))
    assert play_seat(table, engine_brain(api), poll=0.01) == 0
    labels = [r["expected"]["label"] for r in table.requests]
    assert labels == ["Exchange 5p for joker", "Discard 6s"]  # not the default, Discard 1z
    assert choose_request(play) == table.requests[1]
