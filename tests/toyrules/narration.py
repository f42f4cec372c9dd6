"""The "Pungs and a pair" engine's actions and events in a table log for people
(protocol/table/views/narration.py)."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.table.views.narration import WIND

from . import engine as E


@dataclass(frozen=True)
class PungsNarration:
    """One case per action or event the log tells."""

    actions: tuple[type, ...] = E.ACTION_TYPES

    def action_words(self, action: object) -> str | None:
        if isinstance(action, E.Pass):
            return "no call"
        if isinstance(action, E.Pung):
            return f"calls pung with {tile_code(action.faces[0])}"
        return None

    def public_line(self, event: object) -> str | None:
        e = event
        if isinstance(e, E.Discarded):
            return f"{WIND[e.seat]} discards {tile_code(e.face)}"
        if isinstance(e, E.Punged):
            return f"{WIND[e.seat]} pungs {tile_code(e.face)} from {WIND[e.source]}"
        if isinstance(e, E.Won):
            how = "self-drawn" if e.self_drawn else "after a pung"
            return f"{WIND[e.seat]} declares Mahjong ({how}): All Pungs {E.ALL_PUNGS}"
        if isinstance(e, E.WallEmpty):
            return "the wall is empty: a draw"
        return None

    def private_line(self, event: object) -> str | None:
        if isinstance(event, E.Drawn):
            return f"{WIND[event.seat]} draws"
        return None


NARRATION = PungsNarration()
