"""Small panels of the table screen and the names they share: seats, scoreboard, timers, help.

Pure text, like table_view.py: each function turns (part of) a local-API view into lines.
The end of a hand is in table_result.py, the match's hands and standings in table_match.py,
the lobby in table_lobby.py, the card / fan sheet in table_sheet.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SEAT_NAMES = ("East", "South", "West", "North")
WINDOW_NAMES = (("call", "call"), ("turn", "turn"), ("charleston", "Charleston"),
                ("next", "next hand"))


def seat_label(seat: int) -> str:
    """A seat number 0-3 as its wind this hand."""
    return SEAT_NAMES[seat % 4] if 0 <= seat < 4 else f"seat {seat}"


def player_name(view: Mapping[str, Any], seat: int) -> str:
    """The name the view gives the player at ``seat`` ("" when it gives none)."""
    for player in view.get("players") or ():
        if int(player.get("seat", -1)) == seat and player.get("name"):
            return str(player["name"])
    return ""


def who(view: Mapping[str, Any], seat: int) -> str:
    """A seat as its wind and its player's name: ``South (Bob)``."""
    name = player_name(view, seat)
    return f"{seat_label(seat)} ({name})" if name else seat_label(seat)


def windows_text(view: Mapping[str, Any]) -> str:
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


def scoreboard_lines(view: Mapping[str, Any], ascii_only: bool) -> list[str]:
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


HELP_KEYS = (  # the key column, then what it does (at most 57 columns: fits 80)
    ("<- ->  or  a-n", "move the cursor (^) to a tile of your rack (its letter)"),
    ("space", "select / unselect the tile under the cursor (*)"),
    ("Enter", "discard the tile under the cursor on your turn, else"),
    ("", "do the highlighted action (>); after a hand: next hand"),
    ("up / down", "highlight an action in the list"),
    ("1-9", "do that action now (with the selected tiles when it asks"),
    ("", "you to select some: Charleston, courtesy, blind pass)"),
    ("T or t", "more time: one extension of a call window, if offered"),
    ("N or n", "next hand, on the end-of-hand screen (as Enter)"),
    ("H or h", "history: every finished hand of the match"),
    ("", "(h: only when no rack is shown; on the rack h is a tile)"),
    ("C", "the card (every hand: pattern, value, concealed) or,"),
    ("", "for MCR, every fan with its points"),
    ("S", "scoreboard and the table's timers"),
    ("Tab", "show / hide hints (nearest card hands, tiles to win)"),
    ("?", "this help"),
    ("Q", "quit the screen. At a table with friends your daemon"),
    ("", "keeps your seat: `fourwinds play --join TABLE` brings"),
    ("", "you back. A table with bot seats ends (bots stop too)."),
    ("", ""),
    ("help, card, history", "up/down, PgUp/PgDn, space scroll; other keys: back"),
)


def help_lines(ascii_only: bool) -> list[str]:
    """The help screen: every key of the table, as ``table_keys`` reads them."""
    lines = ["=== fourwinds: help ===", ""]
    for key, text in HELP_KEYS:
        lines.append(f"  {key:<19} {text}".rstrip())
    lines += [
        "",
        "Only legal actions are ever offered; a call prompt lists exactly the calls you",
        "may make, with Pass. 'time Ns' counts down the window the table waits on; when",
        "it ends, the action marked [default] is taken for you. 'X is thinking': that",
        "seat asked for more time.",
        "Seats: exposures as [tiles label<from], flowers (fl:), then discards (d:),",
        "oldest first, wrapped so the newest is always shown.",
        "Tiles are shown as " + ("codes (3m, 5z, J...)." if ascii_only
                                 else "glyphs, with their codes (3m, 5z, J...) beside them."),
    ]
    return lines
