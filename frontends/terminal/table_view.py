"""The table screen as plain lines of text: pure presentation of a local-API view event.

``render(event, ui, width, height, ascii_only)`` turns the daemon's view event (the "Local API
seat view" of docs/LOCAL-API.md: the seat's view plus its legal actions) and the screen's own
state (cursor, selected tiles, which screen is open) into at most ``height`` lines of at most
``width`` columns. ``layout`` gives the same screen as panels (table_layout.py), each in its
own rectangle, so the tests check that no two parts of the screen write the same cell. It
knows no rules: everything a player may do comes from the event's ``legal_actions``; the
curses table (curses_table.py) only draws these lines and reads keys.

The screen shown depends on the phase: the lobby (table_lobby.py), the table (seats, rack,
actions, hints), the end of a hand (table_result.py) and of the match (table_match.py); and on
what the player opened: help, scoreboard, card / fan sheet, hand history. When the window is
small the table is drawn with less detail (``DETAILS``), never by cutting a seat's tiles: a
seat's discards wrap onto further lines, so the newest one is always on screen.

Markers are plain characters (``*`` a selected tile, ``^`` the cursor, ``>`` the highlighted
action) so the screen reads the same in any terminal and in a captured tmux pane.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fourwinds.frontends.client.acting import rack_tiles
from fourwinds.frontends.client.view_shapes import NO_EVENT, ViewEvent
from fourwinds.frontends.terminal.table_help import help_lines
from fourwinds.frontends.terminal.table_layout import Panel, Stack, compose, place_footer
from fourwinds.frontends.terminal.table_lobby import lobby_lines
from fourwinds.frontends.terminal.table_match import history_lines, standings_lines
from fourwinds.frontends.terminal.table_panels import scoreboard_lines, seat_label
from fourwinds.frontends.terminal.table_result import Reveal, next_lines, result_lines
from fourwinds.frontends.terminal.table_sheet import sheet_lines
from fourwinds.frontends.terminal.tile_text import (
    TILE_CELL,
    codes_text,
    pad,
    seat_cell,
    text_width,
    tile_cell,
    tiles_text,
    wrap_cells,
    wrap_text,
)
from fourwinds.protocol.table.rules.registry import ruleset_named
from fourwinds.protocol.table.views.screens import screen_of
from fourwinds.protocol.table.views.view_types import ActionEntry, PlayerEntry, SeatView

View = SeatView
Action = ActionEntry

RACK_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def rules_title(name: str, view: View | None = None) -> str:
    """The rule set's name as people read it: the view's ``ruleset.title`` (the daemon says
    it), else its ``RuleSetAdapter.title``, or the rules name as the view gave it when no rule
    set has that name."""
    said = (view or NO_EVENT["view"]).get("ruleset")
    if isinstance(said, Mapping) and isinstance(said.get("title"), str) and said["title"]:
        return str(said["title"])
    try:
        return ruleset_named(name).title
    except KeyError:
        return name


KEY_LINES = {  # the keys line of each screen, longest first: the first that fits is shown
    "table": (
        "<-/-> or a-n tile  space select  Enter discard/act  up/down action  1-9 act  "
        "T more time  H history  C card  S scores  Tab hints  ? help  Q quit",
        "a-n tile  spc sel  Ent act  1-9 act  T more time  H hist  C card  ? help  Q quit",
        "a-n tile  spc sel  Ent act  1-9 act  ? help  Q quit",
        "? help  Q quit",
    ),
    "dealing": (
        "H history  C card  S scores  ? help  Q quit",
        "? help  Q quit",
    ),
    "result": (
        "Enter or n: next hand  up/down action  1-9 act  H history  C card  S scores  "
        "? help  Q quit",
        "Enter/n next hand  H history  C card  ? help  Q quit",
        "? help  Q quit",
    ),
    "over": (
        "H history of the hands  C card  S scores  ? help  Q quit (leave the table)",
        "H history  C card  ? help  Q quit",
        "? help  Q quit",
    ),
    "lobby": (
        "Enter or 1: ready  L leave the table  C card  S scores and timers  ? help  Q quit",
        "Enter ready  L leave  ? help  Q quit",
        "? help  Q quit",
    ),
    "reconnecting": (
        "Q quit (your daemon keeps your seat and goes on catching up)",
        "Q quit",
    ),
    "scroll": (
        "up/down PgUp/PgDn space: scroll   any other key: back to the table",
        "up/down: scroll  other key: back",
        "any key: back",
    ),
}
TINY_WIDTH = 20
RESULT_PHASES = ("hand_over", "match_over")


@dataclass(frozen=True)
class UiState:
    """What the screen itself remembers between view events (never part of the game)."""

    cursor: int = 0  # index into the rack
    selected: frozenset[int] = frozenset()  # rack indexes chosen for a "choose" action
    menu: int = 0  # highlighted entry of the action menu
    screen: str = "table"  # "table" | "help" | "scores" | "sheet" | "history"
    show_hints: bool = True
    message: str = ""  # the last refusal or notice, shown above the keys
    elapsed: float = 0.0  # seconds since the event arrived (the countdown runs locally)
    pending: tuple[str, ...] = field(default_factory=tuple)  # waiting for the daemon's answer
    answered: object = None  # decision_key of the view acted on: no second act for it
    scroll: int = 0  # first line shown of a scrolled screen (help, sheet, history)
    sheet: Mapping[str, Any] | None = field(default=None, compare=False)  # the `sheet` answer
    sheet_problem: str = ""  # why the daemon did not send the sheet
    daemon: str = ""  # what is wrong with the link to the daemon ("": nothing), e.g. a restart
    leave_armed: bool = False  # L was pressed once where leaving needs confirming
    # Enter does the highlighted action, not a discard of the tile under the cursor: set at a
    # decision whose default is in the menu (Mahjong, a flower laid out) and by up/down,
    # cleared by a move of the cursor. Enter does what the player last pointed at.
    menu_aimed: bool = False
    # seconds the current decision has been on the screen (the shell sets it for each key):
    # a key pressed within RESULT_GUARD_S of a hand's end was meant for the discard before
    on_screen: float = 10.0


@dataclass(frozen=True)
class Detail:
    """How much the table screen shows; ``DETAILS`` are tried in order until one fits."""

    full_seats: bool  # a seat takes a head line, an exposures line, discards lines
    seat_glyphs: bool  # other seats' tiles as glyph + code (else codes only)
    rules: bool  # horizontal rules around the seats
    full_rack: bool  # marks, tiles, codes, letters and the cursor each on a line
    hints: int  # most hint lines shown
    seats: bool  # the seats at all (only the smallest windows drop them)
    menu_rows: int  # most action menu entries listed
    packed_menu: bool  # the action menu packed on few lines
    reveal: Reveal = Reveal.GLYPHS  # the hand's end: how every seat's tiles are shown


DETAILS = (
    Detail(True, True, True, True, 99, True, 12, False),
    Detail(True, False, True, True, 99, True, 12, False),
    Detail(False, False, False, True, 99, True, 8, False, Reveal.CODES),
    Detail(False, False, False, False, 99, True, 8, True, Reveal.CODES),
    Detail(False, False, False, False, 3, True, 5, True, Reveal.CODES),
    Detail(False, False, False, False, 0, True, 4, True, Reveal.NOTE),
    Detail(False, False, False, False, 0, False, 3, True, Reveal.NOTE),
)


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


DRAWN_GAP = TILE_CELL
"""Columns of space before the tile just drawn, set apart at the right end of the rack (one
empty tile cell: testkit/screen.py reads a gap wider than the others as the drawn tile)."""


def drawn_apart(view: View, tiles: Sequence[str]) -> bool:
    """Is the rack's last tile the one just drawn, to be set apart? The view says so: its
    ``rack`` puts ``drawn`` at the right end (a view without ``rack`` sets nothing apart)."""
    drawn = view.get("drawn")
    return (
        bool(drawn)
        and isinstance(view.get("rack"), list | tuple)
        and bool(tiles)
        and tiles[-1] == drawn
    )


def received_places(view: View, tiles: Sequence[str]) -> set[int]:
    """The rack places of the tiles the last Charleston pass brought us (the view's
    ``received``: codes), each code marking one tile of that code."""
    out: set[int] = set()
    for wanted in view.get("received") or ():
        place = next((i for i, c in enumerate(tiles) if c == wanted and i not in out), None)
        if place is not None:
            out.add(place)
    return out


def screen_kind(event: ViewEvent | None) -> str:
    """Which screen the view asks for (its ``screen``: "lobby", "result", "dealing",
    "reconnecting" or "table", decided by the daemon's seat view,
    protocol/table/views/contract_view.py, and by the daemon for "reconnecting"). A view made
    without one (a test's sample) is read by the same rule."""
    view = (event or NO_EVENT)["view"]
    screen = view.get("screen")
    return screen if isinstance(screen, str) and screen else screen_of(dict(view))


def shows_rack(event: ViewEvent | None) -> bool:
    """Does the screen show our rack (so the letters pick its tiles)?"""
    return event is not None and screen_kind(event) == "table"


KEY_HINTS = {"more_time": "(T)", "next": "(n)"}


def action_text(action: Action, ascii_only: bool) -> str:
    """One menu entry: the action's label, its tiles, how many to choose, default mark."""
    label = str(action.get("label") or action.get("type") or "?")
    tiles = [str(t) for t in action.get("tiles") or ()]
    parts = [label]
    choose = action.get("choose")
    if choose is not None:
        parts.append(f"(select {choose} tile{'s' if choose != 1 else ''}, then this)")
    elif tiles and not _label_names_tiles(label, tiles):
        parts.append(tiles_text(tiles, True).rstrip())
    key = KEY_HINTS.get(str(action.get("type")))
    if key:
        parts.append(key)
    if action.get("default"):
        parts.append("[default]")
    return " ".join(parts)


def _label_names_tiles(label: str, tiles: Sequence[str]) -> bool:
    return all(code in label for code in tiles)


def deadline_left(view: View, elapsed: float) -> float | None:
    """Seconds left in the current window, counted down locally since the event arrived
    (the view's ``deadline``; at the end of a hand, ``next.deadline`` when that is all)."""
    deadline = view.get("deadline")
    if deadline is None:
        nxt = view.get("next")
        deadline = nxt.get("deadline") if isinstance(nxt, Mapping) else None
    if deadline is None:
        return None
    return max(0.0, float(deadline) - elapsed)


def render(
    event: ViewEvent | None,
    ui: UiState,
    width: int,
    height: int,
    ascii_only: bool,
) -> list[str]:
    """The whole screen for this event and screen state, fitted to ``width`` x ``height``."""
    return compose(layout(event, ui, width, height, ascii_only), ascii_only)


def layout(
    event: ViewEvent | None,
    ui: UiState,
    width: int,
    height: int,
    ascii_only: bool,
) -> list[Panel]:
    """The screen as panels, each within its own rectangle of the ``width`` x ``height``
    window (see table_layout.py)."""
    width = max(1, width)
    height = max(1, height)
    if width < TINY_WIDTH or height < 6:
        lines = ["window", "too small", f"{width}x{height}"][:height]
        stack = Stack(width, ascii_only)
        stack.add("too small", lines)
        return stack.panels
    view = (event or NO_EVENT)["view"]
    scrolled = _scrolled_body(view, ui, width, ascii_only)
    if scrolled is not None:
        return _scroll_screen(scrolled, ui, width, height, ascii_only)
    if event is None:
        body = ["fourwinds", "", "Waiting for the table...", "(the daemon has sent no view yet)"]
        stack = Stack(width, ascii_only)
        stack.add("waiting", body)
        return place_footer(stack.panels, _footer(ui, width, "table"), width, height, ascii_only)
    legal: list[Action] = list(event.get("legal_actions") or ())
    kind = screen_kind(event)
    if kind == "reconnecting":
        return _reconnecting(view, ui, width, height, ascii_only)
    over = view.get("phase") == "match_over" and not legal
    footer = _footer(ui, width, "over" if over else kind, view)
    stack = Stack(width, ascii_only)
    for detail in DETAILS:
        stack = Stack(width, ascii_only)
        if kind == "lobby":
            _lobby(stack, event, view, legal, ui, width, ascii_only)
        elif kind == "result":
            _end_of_hand(stack, view, legal, ui, width, detail, ascii_only)
        elif kind == "dealing":
            _dealing(stack, view, ui, width)
        else:
            _table(stack, view, legal, ui, width, detail, ascii_only)
        if stack.row + len(footer) <= height:
            break
    return place_footer(stack.panels, footer, width, height, ascii_only)


def _reconnecting(
    view: View, ui: UiState, width: int, height: int, ascii_only: bool
) -> list[Panel]:
    """Our daemon is catching up after a restart: what it does, and no table (the one it
    holds is the turn before) and no actions until it holds what the other seats hold."""
    stack = Stack(width, ascii_only)
    head = f"fourwinds | table {view.get('table') or '?'}"
    stack.add(
        "reconnecting",
        [
            *wrap_text(head, width, indent="  "),
            "",
            *wrap_text(
                str(view.get("phase_detail") or "Reconnecting").replace("\u2026", "...")
                if ascii_only
                else str(view.get("phase_detail") or "Reconnecting"),
                width,
                indent="  ",
            ),
            *wrap_text(
                "The table comes back as soon as your daemon holds what the other seats hold.",
                width,
                indent="  ",
            ),
        ],
    )
    return place_footer(stack.panels, _footer(ui, width, "reconnecting"), width, height, ascii_only)


def _scrolled_body(view: View, ui: UiState, width: int, ascii_only: bool) -> list[str] | None:
    if ui.screen == "help":
        return help_lines(ascii_only)
    if ui.screen == "sheet":
        return sheet_lines(ui.sheet, ui.sheet_problem)
    if ui.screen == "history":
        return history_lines(view, width)
    if ui.screen == "scores":
        return scoreboard_lines(view, ascii_only)
    return None


def _scroll_screen(
    body: list[str], ui: UiState, width: int, height: int, ascii_only: bool
) -> list[Panel]:
    """A screen of its own (help, sheet, history, scores): a window of ``body`` from
    ``ui.scroll``, the title always on top, and where we are in it."""
    title, rest = body[:1], body[1:]
    room = max(1, height - 1 - len(title))
    start = max(0, min(ui.scroll, len(rest) - room))
    shown = rest[start : start + room]
    stack = Stack(width, ascii_only)
    stack.add("title", title)
    stack.add("page", shown)
    if len(rest) > room:
        where = f"lines {start + 1}-{start + len(shown)} of {len(rest)}  "
        keys = where + _pick(KEY_LINES["scroll"], width - len(where))
    else:
        keys = "Press any key to go back"
    return place_footer(stack.panels, [keys], width, height, ascii_only)


def scroll_room(height: int) -> int:
    """How many lines a scrolled screen shows in a window ``height`` rows tall."""
    return max(1, height - 2)


def _pick(variants: Sequence[str], width: int) -> str:
    return next((v for v in variants if text_width(v) <= width), variants[-1])


def _footer(ui: UiState, width: int, kind: str, view: View | None = None) -> list[str]:
    lines = []
    if ui.daemon:
        lines.append(f"! {ui.daemon}")
    if ui.message:
        lines.append(f"! {ui.message}")
    lines.append(_pick(_key_lines(kind, view), width))
    return lines


def _key_lines(kind: str, view: View | None) -> tuple[str, ...]:
    """The keys line's variants for the screen; at the end of a hand, Enter's words are what
    the view says comes next (its ``next.then``: "Final standings" after the match's last
    hand), as the countdown and the prompt above say."""
    lines: tuple[str, ...] = KEY_LINES[kind]
    nxt = view.get("next") if view is not None else None
    then = nxt.get("then") if kind == "result" and isinstance(nxt, Mapping) else None
    if isinstance(then, str) and then and then.lower() != "next hand":
        lines = tuple(line.replace("next hand", then.lower()) for line in lines)
    return lines


# -- the header -------------------------------------------------------------------------------


def _head_line(view: View, ui: UiState) -> str:
    rules = rules_title(str(view.get("rules") or "?"), view)
    parts = []
    waiting = view.get("waiting")
    left = deadline_left(view, ui.elapsed)
    if isinstance(waiting, Mapping) and waiting.get("text"):
        parts.append(str(waiting["text"]))  # instead of a countdown stuck at 0
    elif left is not None:
        parts.append(f"time {left:.0f}s")
    parts += [
        "fourwinds",
        f"table {view.get('name') or view.get('table', '?')}",
        rules
        + (" practice" if view.get("practice") else "")
        + ("" if view.get("flowers", True) else " no flowers"),
        f"hand {view.get('hand_number', '?')}/{view.get('hands_in_match', '?')}",
    ]
    if view.get("phase") not in ("lobby", *RESULT_PHASES):
        parts.append(f"wall {view.get('wall_remaining', '?')}")
    prevalent = view.get("prevalent_wind")
    if prevalent is not None:
        parts.append(f"prevalent {seat_label(int(prevalent))}")
    return " | ".join(parts)


def _head_lines(view: View, ui: UiState, width: int) -> list[str]:
    """The head line (countdown first), without the program's name when it is too long."""
    head = _head_line(view, ui)
    if text_width(head) > width:
        head = head.replace("fourwinds | ", "", 1)
    return wrap_cells(head.split(" | "), width, sep=" | ")


def _header(view: View, ui: UiState, width: int, ascii_only: bool) -> list[str]:
    lines = _head_lines(view, ui, width)
    phase = f"Phase: {view.get('phase_detail') or view.get('phase') or '?'}"
    lines.extend(wrap_text(phase, width, indent="  "))
    for item in view.get("news") or ():  # a lost call, who stopped the Charleston, tiles in
        lines.extend(wrap_text(f"News: {item}", width, indent="  "))
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
    thinking = [_who(players, s, view) for s, p in sorted(players.items()) if p.get("thinking")]
    status.extend(f"{name} is thinking" for name in thinking)
    wins = live_wins_text(view)
    if wins:
        status.append(wins)
    if status:
        lines.extend(wrap_cells(status, width, sep="  "))
    return lines


def live_wins_text(view: View) -> str:
    """ "5 live tiles win for you: 6p 9p" from the view's ``live_wins`` (MCR, a ready hand:
    the tiles that win and how many of them are unseen); "" when the view gives none."""
    wins = view.get("live_wins")
    if not isinstance(wins, Mapping) or not wins.get("tiles"):
        return ""
    left = int(wins.get("left") or 0)
    tiles = " ".join(str(t) for t in wins.get("tiles") or ())
    return (
        f"{left} live tile{'' if left == 1 else 's'} win{'s' if left == 1 else ''} for you: {tiles}"
    )


def _players_by_seat(view: View) -> dict[int, PlayerEntry]:
    return {int(p.get("seat", i)): p for i, p in enumerate(view.get("players") or ())}


def _who(players: Mapping[int, PlayerEntry], seat: int, view: View) -> str:
    if seat == view.get("seat"):
        return f"{seat_label(seat)} (you)"
    player = players.get(seat)
    name = player.get("name") if player is not None else None
    return f"{seat_label(seat)} ({name})" if name else seat_label(seat)


def _seat_order(view: View) -> list[int]:
    """The other seats in turn order after ours (right, across, left), then ours."""
    me = int(view.get("seat") or 0)
    return [(me + k) % 4 for k in (1, 2, 3, 0)]


# -- the seats --------------------------------------------------------------------------------

FLAG_SHORT = {
    "you": "you",
    "dealer": "dealer",
    "<- turn": "TURN",
    "dead hand": "dead",
    "OFFLINE": "OFF",
    "thinking": "thinking",
}


def _flags(view: View, player: PlayerEntry) -> list[str]:
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
    if player.get("thinking"):
        flags.append("thinking")
    return flags


def _meld_texts(player: PlayerEntry, glyphs: bool, ascii_only: bool) -> list[str]:
    melds = []
    for meld in player.get("exposures") or ():
        tiles = "".join(
            seat_cell(str(t), ascii_only, glyphs) for t in meld.get("tiles") or ()
        ).rstrip()
        label = str(meld.get("label") or "")
        source = meld.get("from")
        origin = f"<{seat_label(int(source))[0]}" if source is not None else ""
        melds.append(f"[{tiles} {label}{origin}]".replace(" ]", "]"))
    return melds


def _player_block(
    view: View, player: PlayerEntry, width: int, detail: Detail, ascii_only: bool
) -> list[str]:
    """One seat: who, score, tiles in hand, flags, then every exposed tile, flower and
    discard (wrapped, never cut)."""
    seat = int(player.get("seat", 0))
    flags = _flags(view, player)
    wind = str(player.get("wind", seat_label(seat)[0]))
    glyphs = detail.seat_glyphs and not ascii_only
    melds = _meld_texts(player, glyphs, ascii_only)
    flowers = [seat_cell(str(t), ascii_only, glyphs).rstrip() for t in player.get("flowers") or ()]
    discards = [seat_cell(str(t), ascii_only, glyphs) for t in player.get("discards") or ()]
    indent = "    "
    if not detail.full_seats:
        head = (
            f"{wind} {str(player.get('name', '?'))[:8]:<8}"
            f"{player.get('score', 0):>5} {player.get('concealed_count', '?'):>2}t"
        )
        if flags:
            head += " " + ",".join(FLAG_SHORT[f] for f in flags)
        tokens = [head, *melds]
        if flowers:
            tokens.append("fl:" + " ".join(flowers))
        if discards:
            cells = [c.rstrip() for c in discards]
            tokens.extend(["d:" + cells[0], *cells[1:]])
        return _wrap_tokens(tokens, width, indent)
    head = (
        f"{wind} {pad(str(player.get('name', '?')), 12)} "
        f"{player.get('score', 0):>5} pts  {player.get('concealed_count', '?'):>2} in hand"
    )
    if flags:
        head += "  [" + ", ".join(flags) + "]"
    lines = [head]
    if melds or flowers:
        tokens = [indent + "exposed:", *(melds or ["-"])]
        if flowers:
            tokens += ["flowers:", *flowers]
        lines.extend(_wrap_tokens(tokens, width, indent + "  "))
    label = indent + "discards: "
    if not discards:
        lines.append(label + "-")
    else:
        wrapped = wrap_cells(discards, max(TILE_CELL, width - text_width(label)))
        lines.append(label + wrapped[0].rstrip())
        lines.extend(" " * text_width(label) + rest.rstrip() for rest in wrapped[1:])
    return lines


def _wrap_tokens(tokens: Sequence[str], width: int, indent: str) -> list[str]:
    """Tokens separated by spaces, wrapped to ``width``; continuation lines after ``indent``."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        candidate = token if not line else f"{line} {token}"
        if line and text_width(candidate) > width:
            lines.append(line)
            line = indent + token
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


# -- our rack and the actions -----------------------------------------------------------------


def _rack_lines(view: View, ui: UiState, detail: Detail, ascii_only: bool) -> list[str]:
    tiles = rack_tiles(view)
    me = int(view.get("seat") or 0)
    drawn = view.get("drawn")
    title = f"Your hand ({seat_label(me)}): {len(tiles)} tiles"
    if drawn:
        title += f", drew {drawn}" + (" (far right)" if drawn_apart(view, tiles) else "")
    new = received_places(view, tiles)
    if new:
        title += "  (+ received)"
    lines = [title]
    cell = TILE_CELL
    cursor = min(ui.cursor, max(0, len(tiles) - 1))
    apart = drawn_apart(view, tiles)

    def row(cells: Sequence[str]) -> str:
        """One row of the rack, a cell per tile, the drawn tile's after a gap."""
        if apart and cells:
            return "".join(cells[:-1]) + " " * DRAWN_GAP + cells[-1]
        return "".join(cells)

    glyphs = row([tile_cell(code, ascii_only) for code in tiles])
    codes = row([pad(code, cell) for code in tiles])
    if detail.full_rack:
        marks = row(
            [
                pad("*" if i in ui.selected else "+" if i in new else "", cell)
                for i in range(len(tiles))
            ]
        )
        letters = row([pad(RACK_LETTERS[i] if i < 26 else "", cell) for i in range(len(tiles))])
        lines.append(marks.rstrip() or " ")
        lines.append(glyphs.rstrip() or "(no tiles)")
        if not ascii_only:
            lines.append(codes.rstrip())
        lines.append(letters.rstrip())
        shift = DRAWN_GAP if apart and cursor == len(tiles) - 1 else 0
        lines.append(" " * (cursor * cell + shift) + "^" if tiles else "")
        return lines
    # compact: the letters row carries the cursor (^) and the selection (*) after each letter
    letters = row(
        [
            (RACK_LETTERS[i] if i < 26 else " ")
            + ("^" if i == cursor else " ")
            + ("*" if i in ui.selected else "+" if i in new else " ")
            for i in range(len(tiles))
        ]
    )
    lines.append(glyphs.rstrip() or "(no tiles)")
    if not ascii_only:
        lines.append(codes.rstrip())
    if tiles:
        lines.append(letters.rstrip())
    return lines


def _action_lines(
    legal: Sequence[Action],
    rack: Sequence[str],
    ui: UiState,
    width: int,
    detail: Detail,
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
        f"{'>' if i == ui.menu else ' '}{i + 1 if i < 9 else ' '} {action_text(a, ascii_only)}"
        for i, a in enumerate(menu_actions(legal, rack))
    ]
    room = detail.menu_rows
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
    if detail.packed_menu and entries:
        packed = wrap_cells([e.strip() for e in entries], width - 9, sep="   ")
        lines.append("Actions: " + packed[0])
        lines.extend(" " * 9 + rest for rest in packed[1:])
    elif entries:
        lines.append("Actions:")
        lines.extend(entries)
    return lines


def _hint_lines(view: View, width: int) -> list[str]:
    hints = [str(h) for h in view.get("hints") or ()]
    if not hints:
        return []
    lines = ["Hints:"]
    for hint in hints:
        lines.extend(wrap_text("  " + hint, width, indent="      "))
    return lines


# -- the screens ------------------------------------------------------------------------------


def _table(
    stack: Stack,
    view: View,
    legal: Sequence[Action],
    ui: UiState,
    width: int,
    detail: Detail,
    ascii_only: bool,
) -> None:
    """The table during a hand: header, the seats (ours last), our rack, actions, hints."""
    rule = "-" * min(width, 100)
    stack.add("header", _header(view, ui, width, ascii_only))
    if detail.rules:
        stack.add("rule", [rule])
    hints = _hint_lines(view, 40)[: detail.hints + 1] if ui.show_hints and detail.hints else []
    side_by_side = bool(hints) and width >= 110 and detail.full_seats
    seat_width = width - 41 if side_by_side else width
    players = _players_by_seat(view)
    seat_lines: list[str] = []
    for seat in _seat_order(view) if detail.seats else ():
        if seat in players:
            seat_lines.extend(_player_block(view, players[seat], seat_width, detail, ascii_only))
    if side_by_side:
        stack.beside(("seats", seat_lines), ("hints", hints), seat_width)
    else:
        stack.add("seats", seat_lines)
    if detail.rules:
        stack.add("rule2", [rule])
    stack.add("rack", _rack_lines(view, ui, detail, ascii_only))
    stack.add("actions", _action_lines(legal, rack_tiles(view), ui, width, detail, ascii_only))
    if hints and not side_by_side:
        stack.add("hints", _hint_lines(view, width)[: detail.hints + 1])


def _dealing(stack: Stack, view: View, ui: UiState, width: int) -> None:
    """A hand being seated and dealt (the dice, the wall): no seat of ours yet, so no table
    drawn from one; what the table is doing instead (the page says the same)."""
    stack.add("header", _head_lines(view, ui, width))
    detail = view.get("phase_detail") or "the hand is being dealt"
    stack.add(
        "dealing",
        wrap_text(
            f"Hand {view.get('hand_number', '?')} of {view.get('hands_in_match', '?')}: {detail}",
            width,
            indent="  ",
        ),
    )


def _end_of_hand(
    stack: Stack,
    view: View,
    legal: Sequence[Action],
    ui: UiState,
    width: int,
    detail: Detail,
    ascii_only: bool,
) -> None:
    """The end of a hand (and of the match): the result, the countdown to the next hand and
    who the table waits for, the standings when the match is over, the actions."""
    stack.add("header", _head_lines(view, ui, width))
    over = view.get("phase") == "match_over"
    if over:
        stack.add("standings", standings_lines(view) or scoreboard_lines(view, ascii_only))
    if view.get("result"):
        compact = not detail.full_rack
        stack.add("result", result_lines(view, width, compact, ascii_only, detail.reveal))
    our_next = any(a.get("type") == "next" for a in legal)
    stack.add("next", next_lines(view, deadline_left(view, ui.elapsed), our_next))
    if legal:
        stack.add("actions", _action_lines(legal, [], ui, width, detail, ascii_only))


def _lobby(
    stack: Stack,
    event: ViewEvent,
    view: View,
    legal: Sequence[Action],
    ui: UiState,
    width: int,
    ascii_only: bool,
) -> None:
    """Before the match: the places, who is ready, the timers, and the ready action."""
    stack.add("header", _head_lines(view, ui, width))
    members = [m for m in event.get("members") or () if isinstance(m, Mapping)]
    code = event.get("code")
    stack.add(
        "lobby",
        lobby_lines(
            view, members, code if isinstance(code, str) else None, str(event.get("name") or "")
        ),
    )
    if legal:
        stack.add("actions", _action_lines(legal, [], ui, width, DETAILS[2], ascii_only))
    else:
        stack.add("actions", ["The match starts when all four players are seated and ready."])
