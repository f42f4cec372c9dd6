"""The lobby: who sits at the table, who said ready, which places are free, the timers.

Before the first hand the view's seats are table places (0 = the host, then join order). A
place nobody holds yet is named ``seat N`` by the view (or marked ``free``). The screen may
also carry ``members`` (the daemon's table summary: who its daemon has admitted, in join
order, each with its ``place``: a player who left the lobby leaves a free place between
them); a member the view does not name yet is shown from there, so an admitted friend shows
up at once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.frontends.terminal.table_panels import windows_text
from fourwinds.protocol.table.views.view_types import PlayerEntry, SeatView

View = SeatView
_PLACEHOLDER = re.compile(r"^seat \d+$")


def is_free(player: PlayerEntry | None) -> bool:
    """A place nobody holds yet (the view names it ``seat N``, or says ``free``; None: the
    view has no seat there)."""
    if player is None:
        return True
    if "free" in player:
        return bool(player["free"])
    name = str(player.get("name") or "")
    return not name or bool(_PLACEHOLDER.match(name))


def lobby_seats(view: View, members: Sequence[Mapping[str, Any]] = ()) -> list[tuple[str, str]]:
    """(name, state) of the four places, in place order; state is "free", "ready", or ""."""
    players = {int(p.get("seat", i)): p for i, p in enumerate(view.get("players") or ())}
    # a member's place (a daemon before `leave` sends none: the join order)
    by_place = {int(m.get("place", i)): m for i, m in enumerate(members)}
    out: list[tuple[str, str]] = []
    for place in range(4):
        player = players.get(place)
        name = str(player.get("name") or "") if player is not None else ""
        if is_free(player) and place in by_place:
            member = by_place[place]
            # a name, never a fingerprint (the name arrives with the member's first Hello)
            name = str(member.get("player") or "")
            out.append((name or "a player (joining)", ""))
            continue
        if is_free(player):
            out.append(("", "free"))
            continue
        out.append((name, "ready" if player is not None and player.get("ready") else ""))
    return out


def lobby_lines(
    view: View, members: Sequence[Mapping[str, Any]] = (), code: str | None = None, table: str = ""
) -> list[str]:
    """The lobby panel: the places, taken or free and ready or not, then the timers. A
    private table's host also sees the code its friends need (``code``: the daemon's view
    event carries it to the host only, while places are free)."""
    seats = lobby_seats(view, members)
    taken = sum(1 for _, state in seats if state != "free")
    detail = str(view.get("phase_detail") or "Waiting for players")
    lines = [
        f"=== Lobby: {detail} ===",
        f"Places: {taken} of 4 taken" + (f", {4 - taken} free" if taken < 4 else ""),
    ]
    if code:
        lines.append(
            f"Private table: code {code}; friends join with "
            f"`fourwinds play --join {table or 'TABLE'} --code {code}`"
        )
    me = view.get("seat")
    for place, (name, state) in enumerate(seats):
        if state == "free":
            lines.append(f"  {place + 1}. (free)")
            continue
        marks = []
        if place == me:
            marks.append("you")
        if place == 0:
            marks.append("host")
        label = f"{name} ({', '.join(marks)})" if marks else name
        status = "ready" if state == "ready" else ("not ready yet" if taken == 4 else "")
        lines.append(f"  {place + 1}. {label:<28} {status}".rstrip())
    if view.get("flowers") is False:
        lines.append("Played without flowers and seasons: 136 tiles, no flower points")
    timers = windows_text(view)
    if timers:
        lines.append(timers)
    return lines
