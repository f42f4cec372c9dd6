"""Small panels of the table screen and the names they share: seats, scoreboard, timers.

Pure text, like table_view.py: each function turns (part of) a local-API view into lines.
The end of a hand is in table_result.py, the match's hands and standings in table_match.py,
the lobby in table_lobby.py, the card / fan sheet in table_sheet.py, the help in
table_help.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from fourwinds.protocol.table.views.view_types import SeatView

SEAT_NAMES = ("East", "South", "West", "North")
WINDOW_NAMES: tuple[tuple[Literal["call", "turn", "charleston", "next"], str], ...] = (
    ("call", "call"),
    ("turn", "turn"),
    ("charleston", "Charleston"),
    ("next", "next hand"),
)


def seat_label(seat: int) -> str:
    """A seat number 0-3 as its wind this hand."""
    return SEAT_NAMES[seat % 4] if 0 <= seat < 4 else f"seat {seat}"


def player_name(view: SeatView, seat: int) -> str:
    """The name the view gives the player at ``seat`` ("" when it gives none)."""
    for player in view.get("players") or ():
        if int(player.get("seat", -1)) == seat and player.get("name"):
            return str(player["name"])
    return ""


def who(view: SeatView, seat: int) -> str:
    """A seat as its wind and its player's name: ``South (Bob)``."""
    name = player_name(view, seat)
    return f"{seat_label(seat)} ({name})" if name else seat_label(seat)


def windows_text(view: SeatView) -> str:
    """The table's timers (``windows``) in one line, or "" when the view has none."""
    windows = view.get("windows")
    if not isinstance(windows, Mapping):
        return ""
    parts = []
    for key, label in WINDOW_NAMES:
        if key not in windows:
            continue
        seconds = float(windows[key] or 0)
        if seconds > 0:
            parts.append(f"{label} {seconds:g}s")
        else:
            parts.append(f"{label} " + ("waits for everyone" if key == "next" else "no limit"))
    return "Timers: " + ", ".join(parts) if parts else ""


def scoreboard_lines(view: SeatView, ascii_only: bool) -> list[str]:
    """The match standings, best score first, with the hands played."""
    players = sorted(
        view.get("players") or (), key=lambda p: (-int(p.get("score", 0)), p.get("seat", 0))
    )
    lines = [
        f"=== Scoreboard: hand {view.get('hand_number', '?')} of "
        f"{view.get('hands_in_match', '?')} ==="
    ]
    for place, player in enumerate(players, start=1):
        seat = int(player.get("seat", 0))
        you = "  (you)" if seat == view.get("seat") else ""
        lines.append(
            f"{place}. {player.get('name', '?')!s:<14} {seat_label(seat):<6}"
            f"{int(player.get('score', 0)):>7}{you}"
        )
    if view.get("phase") == "match_over":
        lines.append("The match is over.")
    timers = windows_text(view)
    if timers:
        lines.extend(["", timers])
    return lines
