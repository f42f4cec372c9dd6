"""The end-of-hand screen: who won, with which tile and from whom, the winning hand laid out,
the card hand or the fans, every seat's concealed tiles (once the view reveals them), each
seat's payment, the match scores, and what the table waits for.

Pure text from the view's ``result`` and ``next`` (docs/LOCAL-API.md, "the seat view"). A view
from an older daemon, whose result has only ``kind``, ``winner``, ``hand``, ``tiles`` and
``payouts``, is shown with what it has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from fourwinds.frontends.terminal.table_panels import seat_label, who
from fourwinds.frontends.terminal.tile_text import codes_text, describe_tile, group_rows, wrap_cells
from fourwinds.protocol.table.views.view_types import HandResult, PaymentEntry, SeatView

View = SeatView

RESULT_TITLES = {
    "mahjong": "Mahjong",
    "wall_game": "Wall game (no winner)",
    "draw": "Draw (the wall ran out, no winner)",
    "dead_hand": "Dead hand (no seat can win; no winner)",
    "unfinished": "Unfinished when time was called (0 for everyone)",
}


def result_title(view: View) -> str:
    """``=== Hand 2 over: Mahjong by South (Bob) ===``."""
    result = view.get("result")
    kind = str(result.get("kind") or "?") if result else "?"
    title = RESULT_TITLES.get(kind, kind.replace("_", " "))
    winner = result.get("winner") if result else None
    if winner is not None:
        title += f" by {who(view, int(winner))}"
    return f"=== Hand {view.get('hand_number', '?')} over: {title} ==="


class Reveal(Enum):
    """How the end-of-hand screen shows every seat's tiles: glyphs over codes (two rows a
    seat), codes only (one row a seat), or, in a window too small for them, one line that
    says they are there."""

    GLYPHS = "glyphs"
    CODES = "codes"
    NOTE = "note"


def result_lines(
    view: View, width: int, compact: bool, ascii_only: bool, reveal: Reveal = Reveal.CODES
) -> list[str]:
    """The result of the hand (everything but the countdown and the actions). ``compact``:
    fans packed on few lines instead of one a line; ``reveal``: how every seat's tiles are
    shown."""
    result = view.get("result")
    lines = [result_title(view)]
    if not result:  # none: a view from before the hand's end, or an older daemon's
        return lines
    lines.extend(_winning_tile(view, result))
    lines.extend(_hand_rows(result, width, ascii_only))
    lines.extend(_card_or_fans(result, width, compact))
    lines.extend(_every_hand(view, result, width, reveal, ascii_only))
    lines.extend(_payments(view, result, width))
    audit = result.get("audit")
    if audit == "ok":
        lines.append("Audit: ok - the wall and every seat's transcript check out")
    elif audit:
        lines.append(f"Audit: FAILED - {audit}")
    return lines


def _winning_tile(view: View, result: HandResult) -> list[str]:
    tile = result.get("winning_tile")
    if not tile:
        return []
    text = f"Winning tile: {tile} ({describe_tile(str(tile))})"
    source = result.get("from_seat")
    if result.get("self_drawn"):
        text += ", self-drawn"
    elif source is not None:
        name = result.get("from_name")
        origin = f"{seat_label(int(source))} ({name})" if name else who(view, int(source))
        text += f", discarded by {origin}"
    return [text]


def _hand_rows(result: HandResult, width: int, ascii_only: bool) -> list[str]:
    concealed = [str(t) for t in result.get("concealed") or ()]
    exposures = [[str(t) for t in group] for group in result.get("exposures") or ()]
    flowers = [str(t) for t in result.get("flowers") or ()]
    lines: list[str] = []
    indent = "  "
    if concealed or exposures:
        lines.append("Winning hand (concealed, then each exposure):")
        groups = ([concealed] if concealed else []) + exposures
        lines.extend(
            indent + row for row in group_rows(groups, width - len(indent), ascii_only, gap=3)
        )
    elif result.get("tiles"):
        lines.append("Winning hand:")
        tiles = [str(t) for t in result.get("tiles") or ()]
        lines.extend(indent + row for row in group_rows([tiles], width - len(indent), ascii_only))
    if flowers:
        label = "Flowers: "
        rows = group_rows([flowers], width - len(label), ascii_only)
        lines.extend((label if i == 0 else " " * len(label)) + row for i, row in enumerate(rows))
    return lines


def _every_hand(
    view: View, result: HandResult, width: int, reveal: Reveal, ascii_only: bool
) -> list[str]:
    """Every seat's concealed tiles, one seat under the other (the view's ``hands``, by
    wind), or the view's word on why they are not shown yet."""
    hands = result.get("hands")
    if not isinstance(hands, Sequence) or len(hands) != 4:
        detail = result.get("hands_detail")
        return [str(detail)] if detail else []
    if reveal is Reveal.NOTE:
        return ["Every seat's tiles are shown in a taller window"]
    labels = [f"  {who(view, seat)}: " for seat in range(4)]
    room = max(len(label) for label in labels)
    lines = ["Every seat's tiles:"]
    for label, tiles in zip(labels, hands, strict=True):
        codes = [str(t) for t in tiles]
        if not codes:
            lines.append(label + "(none concealed)")
        elif ascii_only or reveal is Reveal.CODES:
            lines.append(f"{label:<{room}}" + codes_text(codes))
        else:
            rows = group_rows([codes], width - room, ascii_only)
            lines.extend(
                (f"{label:<{room}}" if i == 0 else " " * room) + row for i, row in enumerate(rows)
            )
    return lines


def _card_or_fans(result: Mapping[str, Any], width: int, compact: bool) -> list[str]:
    # the result as a map: ``card_hand`` and ``fans`` are a rule set's own keys (view_types)
    card = result.get("card_hand")
    if isinstance(card, Mapping):
        pattern = str(card.get("pattern", ""))
        worth = ""
        value = card.get("value")
        if value is not None:
            worth += f"  value {value}"
        if card.get("jokerless"):
            worth += " (jokerless)"
        head = f"Card hand: {card.get('id', '?')}"
        one_line = f"{head}  {pattern}".rstrip() + worth
        if len(one_line) <= width:
            return [one_line]
        # too wide for the screen: the value first (a cut line would lose it), then the
        # pattern wrapped under it
        rows = wrap_cells(pattern.split(), width - 2, sep=" ") if pattern else []
        return [head + worth, *("  " + row for row in rows)]
    fans = [f for f in result.get("fans") or () if isinstance(f, Mapping)]
    if fans:
        total = result.get(
            "total", sum(int(f.get("points", 0)) * int(f.get("count", 1) or 1) for f in fans)
        )
        entries = [_fan_text(f) for f in fans]
        if compact:
            packed = wrap_cells([e + "," for e in entries[:-1]] + entries[-1:], width - 6, sep=" ")
            return [
                f"Fans: {packed[0]}",
                *("      " + rest for rest in packed[1:]),
                f"Total: {total} points",
            ]
        name_width = max(len(str(f.get("name", ""))) for f in fans) + 2
        lines = [f"Fans ({len(fans)}):"]
        for fan in fans:
            count = int(fan.get("count", 1) or 1)
            times = f" x{count}" if count > 1 else ""
            lines.append(
                f"  {fan.get('name', '?')!s:<{name_width}}{int(fan.get('points', 0)):>3}{times}"
            )
        lines.append(f"  {'Total':<{name_width}}{total:>3} points")
        return lines
    if result.get("hand"):
        return [f"Hand: {result['hand']}"]
    return []


def _fan_text(fan: Mapping[str, Any]) -> str:
    count = int(fan.get("count", 1) or 1)
    times = f" x{count}" if count > 1 else ""
    return f"{fan.get('name', '?')} {fan.get('points', 0)}{times}"


def _payments(view: View, result: HandResult, width: int) -> list[str]:
    lines: list[str] = []
    payments = [p for p in result.get("payments") or () if isinstance(p, Mapping)]
    if payments:
        entries = [f"{_payer(view, p)} {int(p.get('amount', 0)):+d}" for p in payments]
        lines.extend(_labelled("Payments: ", entries, width))
    elif result.get("payouts"):
        entries = [f"{who(view, i)} {int(p):+d}" for i, p in enumerate(result["payouts"])]
        lines.extend(_labelled("Payouts: ", entries, width))
    scores = list(result.get("scores") or ())
    if scores:
        entries = [f"{who(view, i)} {int(s)}" for i, s in enumerate(scores)]
        lines.extend(_labelled("Scores:   ", entries, width))
    return lines


def _payer(view: View, payment: PaymentEntry) -> str:
    seat = payment.get("seat")
    name = payment.get("name")
    if seat is None:
        return str(name or "?")
    return f"{seat_label(int(seat))} ({name})" if name else who(view, int(seat))


def _labelled(label: str, entries: Sequence[str], width: int) -> list[str]:
    packed = wrap_cells(list(entries), max(10, width - len(label)), sep="   ")
    return [label + packed[0], *(" " * len(label) + rest for rest in packed[1:])]


def next_lines(view: View, left: float | None, our_next: bool) -> list[str]:
    """What the table waits for after the hand: the countdown to the next hand, who has not
    said "next" yet, and the key that says it for us."""
    if view.get("phase") == "match_over":
        return ["The match is over. H: every hand of the match, Q: leave the table."]
    nxt = view.get("next")
    waiting = (
        [int(s) for s in (nxt or {}).get("waiting") or ()]
        if isinstance(nxt, Mapping)
        else [int(s) for s in view.get("waiting_for") or ()]
    )
    me = view.get("seat")
    others = [who(view, s) for s in waiting if s != me]
    lines = []
    held = view.get("waiting")
    if isinstance(held, Mapping) and held.get("text"):
        return [str(held["text"])]  # past the window: whom and how long, not "0s"
    then = str((nxt.get("then") if isinstance(nxt, Mapping) else None) or "Next hand")
    if left is not None:
        lines.append(f"{then} in {left:.0f}s")
    if others:
        lines.append(
            "Waiting for " + ", ".join(others) + (" (no time limit)" if left is None else "")
        )
    if our_next:
        lines.append(f"Press Enter or n when you are ready for the {then.lower()}.")
    elif me in waiting:
        lines.append("Waiting for the table to offer the next hand.")
    return lines
