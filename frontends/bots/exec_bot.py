"""The JSON-lines protocol between a seat and a bot program (`fourwinds bot --exec CMD`).

A bot in any language reads lines on its stdin and writes lines on its stdout:

* ``{"type": "view", "seq": ..., "view": {...}, "legal_actions": [...]}`` (the daemon's view
  event, unchanged) asks for exactly one answer line: ``{"action": ID}`` with the id of one
  legal action (a number or a string, exactly as listed), plus ``"tiles": [codes]`` when that
  action has ``"choose"``;
* ``{"type": "error", "error": REASON}`` tells the program its last answer was refused and the
  seat's default action was taken instead; no answer is expected;
* ``{"type": "end", "reason": ...}`` says the match is over; stdin closes after it.

This module is pure (no processes, no I/O): encoding events, judging answers and picking the
seat's default action, so all of it is tested without a daemon. ``bot_seat.py`` drives it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fourwinds.frontends.client.acting import act_request, check_choice
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.table.views.view_types import ActionEntry

Event = ViewEvent
Action = ActionEntry


@dataclass(frozen=True)
class Decision:
    """What the seat does with one answer: the request to send, and the refusal (if any)."""

    request: dict[str, Any] | None
    error: str | None = None


def needs_answer(event: Event) -> bool:
    """A view event the program must answer: it lists at least one legal action."""
    return event.get("type") == "view" and bool(event.get("legal_actions"))


def event_line(event: Event) -> str:
    """One view event as a line for the program (the event itself, compact JSON)."""
    return json.dumps(dict(event), separators=(",", ":"), sort_keys=True) + "\n"


def error_line(reason: str) -> str:
    """The line telling the program its answer was refused, and why."""
    return json.dumps({"type": "error", "error": reason}) + "\n"


def end_line(reason: str) -> str:
    """The last line the program receives."""
    return json.dumps({"type": "end", "reason": reason}) + "\n"


def default_action(event: Event) -> tuple[Action, list[str]] | None:
    """The seat's default: what a timeout would do, so a broken bot never stalls the table.

    In order: the action the view marks ``"default"`` (the daemon decides it once, for every
    frontend: the rule set's timeout action); a ``pass``; the first listed action. An action
    that chooses tiles takes the first ones listed. No tile is picked here by a rule of its
    own (this fell back to "the tile just drawn", which could be a joker: issue 22 item 12).
    """
    legal: list[Action] = list(event.get("legal_actions") or ())
    if not legal:
        return None
    picks = (
        [a for a in legal if a.get("default")]
        + [a for a in legal if a.get("type") == "pass"]
        + legal
    )
    action = picks[0]
    tiles = [str(t) for t in action.get("tiles") or ()][: int(action.get("choose", 0))]
    return action, tiles


def default_request(event: Event) -> dict[str, Any] | None:
    """The act request for the seat's default action (None when nothing is legal)."""
    choice = default_action(event)
    if choice is None:
        return None
    action, tiles = choice
    return act_request(event, action, tiles)


def judge_answer(line: str, event: Event) -> Decision:
    """The request for the program's answer ``line``, or the default with the refusal reason."""
    problem = _problem(line, event)
    if problem is None:
        answer = json.loads(line)
        action = _action_by_id(event, answer["action"])
        assert action is not None  # _problem checked it
        return Decision(act_request(event, action, answer.get("tiles") or []))
    return refuse(problem, event)


def refuse(reason: str, event: Event) -> Decision:
    """Refuse with ``reason`` and take the seat's default action instead."""
    return Decision(default_request(event), reason)


def _action_by_id(event: Event, action_id: object) -> Action | None:
    legal: list[Action] = list(event.get("legal_actions") or ())
    return next((action for action in legal if action.get("id") == action_id), None)


def _problem(line: str, event: Event) -> str | None:
    text = line.strip()
    if not text:
        return 'empty answer: expected one JSON object like {"action": 0}'
    try:
        answer = json.loads(text)
    except json.JSONDecodeError as error:
        return f"answer is not JSON ({error.msg} at column {error.colno})"
    if not isinstance(answer, dict):
        return 'answer must be a JSON object like {"action": 0}'
    action_id = answer.get("action")
    if not isinstance(action_id, (int, str)) or isinstance(action_id, bool):
        return 'answer needs "action": the id of a legal action'
    action = _action_by_id(event, action_id)
    if action is None:
        ids = [a.get("id") for a in event.get("legal_actions") or ()]
        return f"action {action_id} is not legal now (legal ids: {ids})"
    tiles = answer.get("tiles", [])
    if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
        return '"tiles" must be a list of tile codes like ["3m", "J"]'
    if "choose" in action:
        return check_choice(action, tiles)
    return None
