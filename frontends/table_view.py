"""The table screen as plain lines of text: pure presentation of a local-API view event.

``render(event, ui, width, height, ascii_only)`` turns the daemon's view event (the "Local API
seat view" of docs/PROTOCOL.md: the seat's view plus its legal actions) and the screen's own
state (cursor, selected tiles, which panel is open) into at most ``height`` lines of at most
``width`` columns. It knows no rules: everything a player may do comes from the event's
``legal_actions``; the curses table (curses_table.py) only draws these lines and reads keys.

Markers are plain characters (``*`` a selected tile, ``^`` the cursor, ``>`` the highlighted
action) so the screen reads the same in any terminal and in a captured tmux pane.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fourwinds.frontends.table_panels import (
    help_lines,
    result_lines,
    scoreboard_lines,
    seat_label,
)
from fourwinds.frontends.tile_text import (
    TILE_CELL,
    codes_text,
    fit,
    pad,
    text_width,
    tile_cell,
    tiles_text,
    wrap_cells,
)

View = Mapping[str, Any]
Action = Mapping[str, Any]

RACK_LETTERS = "abcdefghijklmnopqrstuvwxyz"
RULES_NAMES = {"american": "American", "mcr": "Chinese Official (MCR)"}
KEYS_LINE = (
    "<-/-> or a-z tile  space select  Enter discard/act  up/down action  1-9 act  "
    "? help  H hints  S scores  Q quit"
)
SHORT_KEYS_LINE = "a-z tile  spc sel  Ent act  1-9 act  ? help  Q quit"
TINY_WIDTH = 20
MENU_ROWS = (12, 8, 5, 4, 3)  # most menu entries listed at each level of detail


@dataclass(frozen=True)
class UiState:
    """What the screen itself remembers between view events (never part of the game)."""

    cursor: int = 0  # index into the rack
    selected: frozenset[int] = frozenset()  # rack indexes chosen for a "choose" action
    menu: int = 0  # highlighted entry of the action menu
    screen: str = "table"  # "table" | "help" | "scores"
    show_hints: bool = True
    message: str = ""  # the last refusal or notice, shown above the keys
    elapsed: float = 0.0  # seconds since the event arrived (the countdown runs locally)
    pending: tuple[str, ...] = field(default_factory=tuple)  # waiting for the daemon's answer
    answered: object = None  # decision_key of the view acted on: no second act for it


def is_tile_bound(action: Action, rack: Sequence[str] | None = None) -> bool:
    """A discard of one named tile on the rack: done from the rack (cursor + Enter), not from
    the menu. With ``rack`` given, the tile must be on it (a view without a rack lists its
    discards in the menu instead)."""
    tiles = list(action.get("tiles") or ())
    return (
        action.get("type") == "discard"
        and "choose" not in action
        and len(tiles) == 1
        and (rack is None or tiles[0] in rack)
    )


def menu_actions(legal: Sequence[Action], rack: Sequence[str] | None = None) -> list[Action]:
    """The legal actions the menu lists: every one except discards made from the rack."""
    return [a for a in legal if not is_tile_bound(a, rack)]


def rack_tiles(view: View) -> list[str]:
    """Our concealed tiles in rack order (the order the view gives them); empty when the
    view carries none (a ``hand`` that is not a list of codes is not a rack)."""
    hand = view.get("hand")
    if not isinstance(hand, list | tuple):
        return []
    return [str(code) for code in hand]


def action_text(action: Action, ascii_only: bool) -> str:
    """One menu entry: the action's label, its tiles, how many to choose, default mark."""
    label = str(action.get("label") or action.get("type") or "?")
    tiles = [str(t) for t in action.get("tiles") or ()]
    parts = [label]
    choose = action.get("choose")
    if choose is not None:
        parts.append(f"(select {choose} tile{'s' if choose != 1 else ''}, then this)")
    elif tiles and not _label_names_tiles(label, tiles):
        parts.append(tiles_text(tiles, ascii_only).rstrip())
    if action.get("default"):
        parts.append("[default]")
    return " ".join(parts)


def _label_names_tiles(label: str, tiles: Sequence[str]) -> bool:
    return all(code in label for code in tiles)


def deadline_left(view: View, elapsed: float) -> float | None:
    """Seconds left in the current window, counted down locally since the event arrived."""
    deadline = view.get("deadline")
    if deadline is None:
        return None
    return max(0.0, float(deadline) - elapsed)


def render(
    event: Mapping[str, Any] | None,
    ui: UiState,
    width: int,
    height: int,
    ascii_only: bool,
) -> list[str]:
    """The whole screen for this event and screen state, fitted to ``width`` x ``height``."""
    width = max(1, width)
    height = max(1, height)
    if width < TINY_WIDTH or height < 6:
        lines = ["window", "too small", f"{width}x{height}"]
        return [fit(line, width, ascii_only=ascii_only) for line in lines[:height]]
    if ui.screen == "help":
        body = help_lines(ascii_only)
        return _finish(body, ["Press any key to go back"], width, height, ascii_only)
    if event is None:
        body = ["fourwinds", "", "Waiting for the table...", "(the daemon has sent no view yet)"]
        return _finish(body, _footer(ui, width), width, height, ascii_only)
    view: View = event.get("view") or {}
    legal: list[Action] = list(event.get("legal_actions") or ())
    if ui.screen == "scores":
        body = scoreboard_lines(view, ascii_only)
        return _finish(body, ["Press any key to go back"], width, height, ascii_only)
    for level in range(5):
        body = _table_body(view, legal, ui, width, level, ascii_only)
        footer = _footer(ui, width)
        if len(body) + len(footer) <= height:
            return _finish(body, footer, width, height, ascii_only)
    return _finish(body, footer, width, height, ascii_only)


def _finish(
    body: list[str], footer: list[str], width: int, height: int, ascii_only: bool
) -> list[str]:
    room = max(0, height - len(footer))
    lines = body[:room] + footer[: height - min(room, len(body))]
    return [fit(line, width, ascii_only=ascii_only) for line in lines[:height]]


def _footer(ui: UiState, width: int) -> list[str]:
    lines = []
    if ui.message:
        lines.append(f"! {ui.message}")
    lines.append(KEYS_LINE if width >= text_width(KEYS_LINE) else SHORT_KEYS_LINE)
    return lines


def _header(view: View, ui: UiState, ascii_only: bool) -> list[str]:
    rules = RULES_NAMES.get(str(view.get("rules")), str(view.get("rules") or "?"))
    parts = [
        "fourwinds",
        f"table {view.get('name') or view.get('table', '?')}",
        rules + (" practice" if view.get("practice") else ""),
        f"hand {view.get('hand_number', '?')}/{view.get('hands_in_match', '?')}",
        f"wall {view.get('wall_remaining', '?')}",
    ]
    prevalent = view.get("prevalent_wind")
    if prevalent is not None:
        parts.append(f"prevalent {seat_label(int(prevalent))}")
    left = deadline_left(view, ui.elapsed)
    if left is not None:
        parts.append(f"time {left:.0f}s")
    head = " | ".join(parts)
    phase = f"Phase: {view.get('phase_detail') or view.get('phase') or '?'}"
    status: list[str] = []
    players = _players_by_seat(view)
    turn = view.get("turn")
    if turn is not None:
        status.append(f"turn: {_who(players, int(turn), view)}")
    last = view.get("last_discard")
    if last:
        tile = str(last.get("tile"))
        status.append(
            f"last discard {tile_cell(tile, ascii_only).rstrip()}"
            f"{'' if ascii_only else ' ' + tile} by {_who(players, int(last.get('seat', 0)), view)}"
        )
    waiting = [int(s) for s in view.get("waiting_for") or ()]
    if waiting:
        status.append("waiting for " + ", ".join(_who(players, s, view) for s in waiting))
    return [head, phase, "  ".join(status)] if status else [head, phase]


def _players_by_seat(view: View) -> dict[int, Mapping[str, Any]]:
    return {int(p.get("seat", i)): p for i, p in enumerate(view.get("players") or ())}


def _who(players: Mapping[int, Mapping[str, Any]], seat: int, view: View) -> str:
    if seat == view.get("seat"):
        return f"{seat_label(seat)} (you)"
    name = players.get(seat, {}).get("name")
    return f"{seat_label(seat)} ({name})" if name else seat_label(seat)


def _seat_order(view: View) -> list[int]:
    """The other seats in turn order after ours (right, across, left), then ours."""
    me = int(view.get("seat") or 0)
    return [(me + k) % 4 for k in (1, 2, 3, 0)]


def _player_block(
    view: View, player: Mapping[str, Any], width: int, level: int, ascii_only: bool
) -> list[str]:
    seat = int(player.get("seat", 0))
    flags = []
    if seat == view.get("seat"):
        flags.append("you")
    if seat == view.get("dealer"):
        flags.append("dealer")
    if seat == view.get("turn"):
        flags.append("<- turn")
    if player.get("dead"):
        flags.append("dead hand")
    if player.get("connected") is False:
        flags.append("OFFLINE")
    head = (
        f"{player.get('wind', seat_label(seat)[0])} {pad(str(player.get('name', '?')), 12)} "
        f"{player.get('score', 0):>5} pts  {player.get('concealed_count', '?'):>2} in hand"
    )
    if flags:
        head += "  [" + ", ".join(flags) + "]"
    exposures = list(player.get("exposures") or ())
    flowers = [str(t) for t in player.get("flowers") or ()]
    discards = [str(t) for t in player.get("discards") or ()]
    indent = "    "
    melds = []
    for meld in exposures:
        tiles = tiles_text([str(t) for t in meld.get("tiles") or ()], ascii_only).rstrip()
        label = str(meld.get("label") or "")
        source = meld.get("from")
        origin = f"<{seat_label(int(source))[0]}" if source is not None else ""
        melds.append(f"[{tiles} {label}{origin}]".replace(" ]", "]"))
    if level >= 2:
        # one line per player: a short head, exposures, then the latest discards as they fit
        short = {"you": "you", "dealer": "dealer", "<- turn": "TURN", "dead hand": "dead",
                 "OFFLINE": "OFF"}
        line = (
            f"{player.get('wind', seat_label(seat)[0])} {str(player.get('name', '?'))[:8]:<8}"
            f"{player.get('score', 0):>5} {player.get('concealed_count', '?'):>2}t"
        )
        if flags:
            line += " " + ",".join(short[f] for f in flags)
        if melds:
            line += " " + " ".join(melds)
        room = width - text_width(line) - 6
        if discards and room > TILE_CELL:
            shown = discards[-max(1, room // TILE_CELL) :]
            more = ".." if len(shown) < len(discards) else ""
            line += " d:" + more + tiles_text(shown, ascii_only).rstrip()
        return [line]
    lines = [head]
    if melds or flowers:
        text = indent + "exposed: " + (" ".join(melds) if melds else "-")
        if flowers:
            text += "  flowers: " + tiles_text(flowers, ascii_only)
        lines.append(text)
    cells = [tile_cell(code, ascii_only) for code in discards]
    label = indent + "discards: "
    if not cells:
        lines.append(label + "-")
    elif level == 0:
        wrapped = wrap_cells(cells, max(TILE_CELL, width - text_width(label)))
        lines.append(label + wrapped[0])
        lines.extend(" " * text_width(label) + rest for rest in wrapped[1:])
    else:
        room = max(1, (width - text_width(label) - 1) // TILE_CELL)
        shown = cells[-room:]
        lines.append(label + (".." if len(shown) < len(cells) else "") + "".join(shown))
    return lines


def _rack_lines(view: View, ui: UiState, level: int, ascii_only: bool) -> list[str]:
    tiles = rack_tiles(view)
    me = int(view.get("seat") or 0)
    drawn = view.get("drawn")
    title = f"Your hand ({seat_label(me)}): {len(tiles)} tiles"
    if drawn:
        title += f", drew {drawn}"
    lines = [title]
    cell = TILE_CELL
    marks = "".join(pad("*" if i in ui.selected else "", cell) for i in range(len(tiles)))
    glyphs = "".join(tile_cell(code, ascii_only) for code in tiles)
    codes = "".join(pad(code, cell) for code in tiles)
    letters = "".join(pad(RACK_LETTERS[i] if i < 26 else "", cell) for i in range(len(tiles)))
    cursor = min(ui.cursor, max(0, len(tiles) - 1))
    pointer = " " * (cursor * cell) + "^" if tiles else ""
    if ui.selected or level < 2:
        lines.append(marks.rstrip() or " ")
    lines.append(glyphs.rstrip() or "(no tiles)")
    if not ascii_only and level < 1:
        lines.append(codes.rstrip())
    lines.append(letters.rstrip())
    lines.append(pointer)
    return lines


def _action_lines(
    legal: Sequence[Action],
    rack: Sequence[str],
    ui: UiState,
    width: int,
    level: int,
    ascii_only: bool,
) -> list[str]:
    if not legal:
        return ["Nothing to do now."]
    lines = []
    discards = [a for a in legal if is_tile_bound(a, rack)]
    if discards:
        default = next((a for a in discards if a.get("default")), None)
        text = "Discard: move to a tile and press Enter"
        if default:
            text += f" (default {codes_text(default.get('tiles') or ())})"
        lines.append(text)
    entries = [
        f"{'>' if i == ui.menu else ' '}{i + 1 if i < 9 else ' '} "
        f"{action_text(a, ascii_only)}"
        for i, a in enumerate(menu_actions(legal, rack))
    ]
    room = MENU_ROWS[min(level, len(MENU_ROWS) - 1)]
    if len(entries) > room:
        # a long menu: a window around the highlighted entry, with what is above and below
        start = max(0, min(ui.menu - room // 2, len(entries) - room))
        shown = entries[start : start + room]
        lines.append(f"Actions ({len(entries)}, up/down to see all):")
        if start:
            lines.append(f"   ... {start} more above")
        lines.extend(shown)
        if start + room < len(entries):
            lines.append(f"   ... {len(entries) - start - room} more below")
        return lines
    if level >= 2 and entries:
        packed = wrap_cells([e.strip() for e in entries], width - 9, sep="   ")
        lines.append("Actions: " + packed[0])
        lines.extend(" " * 9 + rest for rest in packed[1:])
    elif entries:
        lines.append("Actions:")
        lines.extend(entries)
    return lines


def _hint_lines(view: View) -> list[str]:
    hints = [str(h) for h in view.get("hints") or ()]
    return ["Hints:", *("  " + h for h in hints)] if hints else []


def _table_body(
    view: View,
    legal: Sequence[Action],
    ui: UiState,
    width: int,
    level: int,
    ascii_only: bool,
) -> list[str]:
    """The table at a level of detail: 0 everything, 1 compact, 2 one line a seat, 3 the same
    without hints, 4 bare (header, rack, actions)."""
    rule = "-" * min(width, 100)
    body = _header(view, ui, ascii_only)
    if level == 0:
        body.append(rule)
    players = _players_by_seat(view)
    seat_lines: list[str] = []
    for seat in _seat_order(view) if level < 4 else ():  # bare: the rack and actions first
        if seat in players:
            seat_lines.extend(_player_block(view, players[seat], width, level, ascii_only))
    hints = _hint_lines(view) if ui.show_hints and level < 3 else []
    side_by_side = hints and width >= 110 and level < 2
    if side_by_side:
        left_width = width - 40
        seat_lines = [fit(line, left_width - 2) for line in seat_lines]
        rows = max(len(seat_lines), len(hints))
        seat_lines += [""] * (rows - len(seat_lines))
        hints_col = hints + [""] * (rows - len(hints))
        body.extend(pad(a, left_width) + b for a, b in zip(seat_lines, hints_col, strict=True))
    else:
        body.extend(seat_lines)
    if level == 0:
        body.append(rule)
    result = view.get("result")
    if result and view.get("phase") in ("hand_over", "match_over"):
        body.extend(result_lines(view, ascii_only))
        if view.get("phase") == "match_over":
            body.extend(scoreboard_lines(view, ascii_only))
    if not (result and level >= 2):
        body.extend(_rack_lines(view, ui, level, ascii_only))
    body.extend(_action_lines(legal, rack_tiles(view), ui, width, level, ascii_only))
    if hints and not side_by_side:
        body.extend(hints if level < 2 else hints[:3])
    return body
