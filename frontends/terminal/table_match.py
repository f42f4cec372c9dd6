"""The match as a whole: every finished hand (the view's ``history``) and, once the match is
over, the final standings (``standings``). Pure text, like table_view.py."""

from __future__ import annotations

from collections.abc import Mapping

from fourwinds.frontends.terminal.table_panels import player_name
from fourwinds.frontends.terminal.tile_text import wrap_cells
from fourwinds.protocol.table.views.view_types import SeatView

View = SeatView

KIND_WORDS = {
    "mahjong": "Mahjong",
    "wall_game": "Wall game",
    "draw": "Draw",
    "dead_hand": "Dead hand",
    "unfinished": "Unfinished at the time call",
}


def history_lines(view: View, width: int) -> list[str]:
    """Every finished hand, oldest first: its result, the summary, each player's payment."""
    hands = [h for h in view.get("history") or () if isinstance(h, Mapping)]
    lines = [
        f"=== Hands of this match: {len(hands)} finished of {view.get('hands_in_match', '?')} ==="
    ]
    if not hands:
        lines.append("No hand has finished yet.")
    for hand in hands:
        kind = str(hand.get("kind") or "?")
        text = f"Hand {hand.get('hand_number', '?')}: {KIND_WORDS.get(kind, kind)}"
        if hand.get("winner"):
            text += f" by {hand['winner']}"
            if hand.get("self_drawn"):
                text += ", self-drawn"
            elif hand.get("from"):
                text += f", off {hand['from']}'s discard"
        if hand.get("summary"):
            text += f" - {hand['summary']}"
        lines.extend(wrap_cells(text.split(" "), width, sep=" ") or [text])
        payments = [
            f"{name} {int(amount):+d}"
            for name, amount in (p for p in hand.get("payments") or () if len(p) == 2)
        ]
        if payments:
            packed = wrap_cells(payments, max(10, width - 4), sep="   ")
            lines.extend("    " + row for row in packed)
    return lines


def standings_lines(view: View) -> list[str]:
    """The final standings, best first, with our own line marked; "" when the view has none."""
    standings = [s for s in view.get("standings") or () if isinstance(s, Mapping)]
    if not standings:
        return []
    me = player_name(view, int(view.get("seat") or 0)) if view.get("seat") is not None else ""
    lines = ["=== Final standings ==="]
    for entry in standings:
        name = str(entry.get("name", "?"))
        you = "  (you)" if name == me and me else ""
        lines.append(
            f"{entry.get('rank', '?')!s:>2}. {name:<16}{int(entry.get('score', 0)):>7}{you}"
        )
    return lines
