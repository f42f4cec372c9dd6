"""What a key press does at the table: pure, so every key path is tested without a terminal.

``handle_key(event, ui, key)`` returns the new screen state, the act request to send to the
daemon (or None) and whether to quit. Keys arrive as names: single characters (``"a"``,
``"1"``, ``"?"``) or ``LEFT RIGHT UP DOWN PGUP PGDN ENTER SPACE TAB ESC RESIZE``. Only
actions listed in the event's ``legal_actions`` are ever sent; a selection that cannot fit an
action is refused on screen with the reason, before anything reaches the daemon.

Lower-case letters pick the tiles of our rack (``a`` the first) while the rack is on screen;
``t``, ``n`` and ``h`` beyond the rack (a rack holds at most 14 tiles, ``a``-``n``; on the
end-of-hand and lobby screens there is none) mean ``T`` (more time), ``N`` (next hand) and
``H`` (hand history); ``L`` in the lobby leaves the table. Every key and what it does on
each screen is listed once, in ``table_help.SECTIONS``: the help and the README are made from
it, and tests/frontends/test_table_help.py checks this handler does what it says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fourwinds.frontends.client.acting import act_request, check_choice, decision_key, rack_tiles
from fourwinds.frontends.client.view_shapes import NO_EVENT, ViewEvent
from fourwinds.frontends.terminal.table_view import (
    RACK_LETTERS,
    UiState,
    is_tile_bound,
    menu_actions,
    screen_kind,
    shows_rack,
)
from fourwinds.protocol.table.views.view_types import ActionEntry

Event = ViewEvent
Action = ActionEntry


@dataclass(frozen=True)
class KeyResult:
    """The outcome of one key press."""

    ui: UiState
    request: dict[str, Any] | None = None
    quit: bool = False
    fetch_sheet: bool = False  # the card / fan sheet was opened: ask the daemon for it
    final: bool = True  # the request answers the decision (not so "more time")
    leave: bool = False  # the request leaves the table: the screen closes once it is done


def on_new_event(old: Event | None, new: Event, ui: UiState) -> UiState:
    """Screen state for a fresh view: keep the cursor, drop a selection the rack lost, and
    drop the last "sent: ..." / "refused: ..." line once the table has moved to another
    phase (it answered a decision of the phase before: "sent: Ready to start" has no place
    in the Charleston, nor "sent: Discard 8p" on the result screen)."""
    tiles = rack_tiles(new["view"])
    old_tiles = rack_tiles((old or NO_EVENT)["view"])
    selected = ui.selected if tiles == old_tiles else frozenset()
    menu = menu_actions(new.get("legal_actions") or (), tiles)
    default = next((i for i, a in enumerate(menu) if a.get("default")), 0)
    # the highlight stays while the same decision is asked (another seat's answer is a new
    # view of the same question); a new decision starts at its default
    asked_before = old is not None and decision_key(old) == decision_key(new)
    same = asked_before and ui.menu < len(menu)
    cursor = min(ui.cursor, max(0, len(tiles) - 1))
    menu_aimed = ui.menu_aimed
    if not asked_before:
        cursor = default_tile(new.get("legal_actions") or (), tiles, cursor)
        menu_aimed = any(a.get("default") for a in menu)
    return replace(
        ui,
        cursor=cursor,
        menu_aimed=menu_aimed,
        selected=frozenset(i for i in selected if i < len(tiles)),
        menu=ui.menu if same else default,
        elapsed=0.0,
        answered=ui.answered if decision_key(new) == ui.answered else None,
        message=ui.message if _phase(old) == _phase(new) else "",
    )


def default_tile(legal: Sequence[Action], tiles: Sequence[str], cursor: int) -> int:
    """Where the cursor starts on a new decision: on the tile of the discard the view marks as
    the default (the daemon's one decision: the built-in bot's choice, never a joker while
    another tile is held), its rightmost copy, so the tile just drawn when it is that one;
    ``cursor`` unchanged when the default is no discard from the rack. Enter then does what
    the screen calls the default, and a player who presses it at once does not throw away
    the leftmost tile."""
    marked = next((a for a in legal if a.get("default") and is_tile_bound(a, tiles)), None)
    if marked is None:
        return cursor
    code = str(marked["tiles"][0])
    return max(i for i, tile in enumerate(tiles) if tile == code)


def _phase(event: Event | None) -> object:
    """The table's phase (a call window counted as the play) and hand in an event (None for
    no event)."""
    if event is None:
        return None
    view = event["view"]
    phase = view.get("phase")
    # a call window is part of the play: "sent: Call chow" stays on when the call stands
    return ("play" if phase == "claim" else phase), view.get("hand_number")


SCROLL_STEPS = {"UP": -1, "DOWN": 1, "PGUP": -10, "PGDN": 10, "SPACE": 10, "LEFT": -10, "RIGHT": 10}
SCREEN_KEYS = {"?": "help", "S": "scores", "H": "history", "C": "sheet"}
COMMAND_LETTERS = {"t": "T", "n": "N", "h": "H"}  # when no rack tile has that letter


RESULT_GUARD_S = 1.0
"""A key that would say "next" within this long of a hand's end is not taken: a player who
pressed Enter or a number for the last call or discard as the hand ended would otherwise
say next without having seen the result (seen in a four-friends test under load)."""

_NEXT_KEYS = frozenset({"ENTER", "N", *"123456789"})


def handle_key(event: Event | None, ui: UiState, key: str) -> KeyResult:
    """Apply one key press (see the module docstring)."""
    if ui.screen != "table":
        step = SCROLL_STEPS.get(key)
        if step is not None:
            return KeyResult(replace(ui, scroll=max(0, ui.scroll + step)))
        return KeyResult(replace(ui, screen="table", scroll=0))
    if ui.leave_armed and key != "L":  # any other key: the player stays
        ui = replace(ui, leave_armed=False, message="")
    if key == "Q":
        return KeyResult(ui, quit=True)
    if key == "L" and event is not None and screen_kind(event) == "lobby":
        return _leave(event, ui)
    tiles = rack_tiles((event or NO_EVENT)["view"]) if shows_rack(event) else []
    if len(key) == 1 and key in COMMAND_LETTERS and RACK_LETTERS.index(key) >= len(tiles):
        key = COMMAND_LETTERS[key]
    if key in SCREEN_KEYS:
        screen = SCREEN_KEYS[key]
        fetch = screen == "sheet" and ui.sheet is None
        return KeyResult(replace(ui, screen=screen, scroll=0, message=""), fetch_sheet=fetch)
    if key in ("TAB", "\t"):
        return KeyResult(replace(ui, show_hints=not ui.show_hints))
    if event is None:
        return KeyResult(replace(ui, message="no view from the daemon yet"))
    legal: list[Action] = list(event.get("legal_actions") or ())
    if key in _NEXT_KEYS and ui.on_screen < RESULT_GUARD_S and screen_kind(event) == "result":
        return KeyResult(
            replace(
                ui, message="the hand has just ended: look at the result, then press n to go on"
            )
        )
    if key in ("T", "N"):
        return _act_of_type(event, ui, legal, key)
    menu = menu_actions(legal, tiles)
    if key in ("LEFT", "RIGHT"):
        step = -1 if key == "LEFT" else 1
        cursor = max(0, min(len(tiles) - 1, ui.cursor + step)) if tiles else 0
        return KeyResult(replace(ui, cursor=cursor, menu_aimed=False, message=""))
    if len(key) == 1 and key in RACK_LETTERS:
        index = RACK_LETTERS.index(key)
        if index >= len(tiles):
            return KeyResult(replace(ui, message=f"no tile '{key}' in your rack"))
        ui = replace(ui, cursor=index, menu_aimed=False, message="")
        if any("choose" in a for a in legal):
            ui = _toggle(ui, index)
        return KeyResult(ui)
    if key == "SPACE":
        if not tiles:
            return KeyResult(ui)
        return KeyResult(_toggle(replace(ui, message=""), ui.cursor))
    if key in ("UP", "DOWN"):
        if not menu:
            return KeyResult(ui)
        step = -1 if key == "UP" else 1
        return KeyResult(
            replace(ui, menu=(ui.menu + step) % len(menu), menu_aimed=True, message="")
        )
    if len(key) == 1 and key in "123456789":
        index = int(key) - 1
        if index >= len(menu):
            return KeyResult(replace(ui, message=f"no action {key}"))
        return _act(event, ui, menu[index], tiles)
    if key == "ENTER":
        bound = [a for a in legal if is_tile_bound(a, tiles)]
        if ui.menu_aimed and menu:  # the default is in the menu, or up/down chose there
            return _act(event, ui, menu[min(ui.menu, len(menu) - 1)], tiles)
        if bound and tiles:
            code = tiles[min(ui.cursor, len(tiles) - 1)]
            match = next((a for a in bound if a["tiles"][0] == code), None)
            if match is not None:
                return _act(event, ui, match, tiles)
            if not menu:
                return KeyResult(replace(ui, message=f"you may not discard {code} now"))
        if menu:
            return _act(event, ui, menu[min(ui.menu, len(menu) - 1)], tiles)
        return KeyResult(replace(ui, message="nothing to do now"))
    return KeyResult(ui)


def _leave(event: Event, ui: UiState) -> KeyResult:
    """L in the lobby: the ``leave`` request. When the daemon warns what leaving does to the
    others (``leave_warning``: a lobby we host where others wait, four seated players), the
    warning is shown first and a second L confirms, as `fourwinds leave` asks."""
    warning = str(event.get("leave_warning") or "")
    if warning and not ui.leave_armed:
        return KeyResult(
            replace(ui, leave_armed=True, message=f"{warning}: press L again to leave for good")
        )
    request = {"type": "leave", "table": event.get("table"), "force": bool(warning)}
    return KeyResult(
        replace(ui, leave_armed=False, message="", pending=("Leave",)), request, leave=True
    )


def _act_of_type(event: Event, ui: UiState, legal: Sequence[Action], key: str) -> KeyResult:
    """T: the "more time" action; N: the "next hand" one (an older daemon's "ready" at the
    end of a hand too). Refused on screen when the view does not offer it."""
    kinds = ("more_time",) if key == "T" else ("next", "ready")
    action = next((a for a in legal if a.get("type") in kinds), None)
    if action is None:
        what = (
            "more time is not offered now (one extension a discard, in a call window)"
            if key == "T"
            else "the table is not waiting for you to go on to the next hand"
        )
        return KeyResult(replace(ui, message=what))
    return _act(event, ui, action, [])


def _toggle(ui: UiState, index: int) -> UiState:
    selected = set(ui.selected)
    selected ^= {index}
    return replace(ui, selected=frozenset(selected))


def _act(event: Event, ui: UiState, action: Action, tiles: Sequence[str]) -> KeyResult:
    if ui.answered is not None and ui.answered == decision_key(event):
        return KeyResult(replace(ui, message="sent; waiting for the table"))
    chosen: list[str] = []
    if "choose" in action:
        chosen = [tiles[i] for i in sorted(ui.selected) if i < len(tiles)]
        problem = check_choice(action, chosen)
        if problem:
            return KeyResult(replace(ui, message=problem))
    label = str(action.get("label") or action.get("type"))
    pending = (label,)
    return KeyResult(
        replace(ui, message="", pending=pending),
        act_request(event, action, chosen),
        final=action.get("type") != "more_time",
    )
