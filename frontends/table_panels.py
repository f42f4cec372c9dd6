"""Panels of the table screen that stand on their own: end of hand, scoreboard, help.

Pure text, like table_view.py: each function turns (part of) a local-API view into lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.tile_text import tiles_text

SEAT_NAMES = ("East", "South", "West", "North")
RESULT_TITLES = {"mahjong": "Mahjong", "wall_game": "Wall game (no winner)", "draw": "Draw"}


def seat_label(seat: int) -> str:
    """A seat number 0-3 as its wind this hand."""
    return SEAT_NAMES[seat % 4] if 0 <= seat < 4 else f"seat {seat}"


def _name(view: Mapping[str, Any], seat: int) -> str:
    for player in view.get("players") or ():
        if int(player.get("seat", -1)) == seat and player.get("name"):
            return f"{seat_label(seat)} ({player['name']})"
    return seat_label(seat)


def result_lines(view: Mapping[str, Any], ascii_only: bool) -> list[str]:
    """The end-of-hand panel: who won with what, the payouts, and the audit outcome."""
    result = view.get("result") or {}
    kind = str(result.get("kind") or "?")
    title = RESULT_TITLES.get(kind, kind)
    winner = result.get("winner")
    if winner is not None:
        title += f" by {_name(view, int(winner))}"
    lines = [f"=== Hand {view.get('hand_number', '?')} over: {title} ==="]
    if result.get("hand"):
        lines.append(f"Hand: {result['hand']}")
    tiles = [str(t) for t in result.get("tiles") or ()]
    if tiles:
        lines.append("Tiles: " + tiles_text(tiles, ascii_only).rstrip())
    payouts = list(result.get("payouts") or ())
    if payouts:
        lines.append(
            "Payouts: "
            + "  ".join(f"{_name(view, i)} {int(p):+d}" for i, p in enumerate(payouts))
        )
    audit = result.get("audit")
    if audit == "ok":
        lines.append("Audit: ok - the wall and every seat's transcript check out")
    elif audit:
        lines.append(f"Audit: FAILED - {audit}")
    return lines


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
    return lines


def help_lines(ascii_only: bool) -> list[str]:
    """The help screen: every key of the table and what the screen shows."""
    return [
        "=== fourwinds: help ===",
        "",
        "Your rack is at the bottom; each tile has a letter under it.",
        "  <- ->  or  a-z     move the cursor (^) to a tile",
        "  space              select / unselect the tile under the cursor (*)",
        "  Enter              discard the tile under the cursor when it is your turn,",
        "                     otherwise do the highlighted action (>)",
        "  up / down          highlight an action in the list",
        "  1-9                do that action now (uses the selected tiles when it asks",
        "                     you to select some: Charleston passes, courtesy, blind pass)",
        "  H                  show / hide hints (nearest hands, tiles to win)",
        "  S                  scoreboard",
        "  ?                  this help",
        "  Q                  quit the screen. At a table with friends your daemon keeps",
        "                     your seat: `fourwinds play --join TABLE` brings you back.",
        "                     A table with bot seats ends (the bots stop with you).",
        "",
        "Only legal actions are ever offered; a call prompt lists exactly the calls you",
        "may make, with Pass. 'time Ns' counts down the call window; when it ends the",
        "action marked [default] is taken for you.",
        "Other seats: exposures as [tiles label<from], then their discards, oldest first.",
        "Tiles are shown as " + ("codes (3m, 5z, J...)." if ascii_only else "glyphs."),
    ]
