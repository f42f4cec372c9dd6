"""The MCR engine's actions and events in a table log for people
(``protocol/table/views/narration.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.table.views.narration import WIND, tiles_said

from . import actions as MA
from . import events as ME


@dataclass(frozen=True)
class MCRNarration:
    """One case per action or event the log tells."""

    actions: tuple[type, ...] = MA.Action.__args__

    def action_words(self, action: object) -> str | None:
        a = action
        if isinstance(a, MA.Pass):
            return "no claim"
        if isinstance(a, MA.FlowersDone):
            return "flowers done"
        if isinstance(a, (MA.ClaimChow, MA.ClaimPung, MA.ClaimKong)):
            kind = type(a).__name__.removeprefix("Claim").lower()
            return f"claims {kind} with {tiles_said(a.faces)}"
        if isinstance(a, MA.ClaimWin):
            return "claims the discard for Mahjong"
        return None

    def public_line(self, event: object) -> str | None:
        e = event
        if isinstance(e, ME.Discarded):
            return f"{WIND[e.seat]} discards {tile_code(e.face)}"
        if isinstance(e, ME.FlowerExposed):
            return f"{WIND[e.seat]} exposes flower {tile_code(e.face)}"
        if isinstance(e, ME.MeldMade):
            if e.concealed:
                return f"{WIND[e.seat]} declares a concealed {e.type.value}"
            source = f" from {WIND[e.claimed_from]}" if e.claimed_from is not None else ""
            return f"{WIND[e.seat]} calls {e.type.value} {tiles_said(e.faces)}{source}"
        if isinstance(e, ME.KongAdded):
            return f"{WIND[e.seat]} adds {tile_code(e.face)} to a pung: kong"
        if isinstance(e, ME.KongRobbed):
            return f"{WIND[e.winner]} robs the kong of {WIND[e.robbed]}"
        if isinstance(e, ME.FalseDeclaration):
            return (
                f"{WIND[e.seat]} declares a false win: {e.reason} (pays {e.penalty_each} to each)"
            )
        if isinstance(e, ME.HandWon):
            fans = ", ".join(
                f"{name} {points}" + (f" x{count}" if count > 1 else "")
                for name, points, count in e.fans
            )
            how = f"on {WIND[e.discarder]}'s discard" if e.discarder is not None else "self-drawn"
            return f"{WIND[e.seat]} declares Mahjong ({how}): {fans}; total {e.total}"
        return None

    def private_line(self, event: object) -> str | None:
        e = event
        if isinstance(e, ME.TilesSeen):
            return f"{WIND[e.seat]} sees {tiles_said(e.faces)}"
        if isinstance(e, ME.TileDrawn):
            where = "" if e.source is ME.DrawSource.WALL else f" ({e.source.value} replacement)"
            return f"{WIND[e.seat]} draws{where}"
        if isinstance(e, ME.Answered):
            if e.claim is ME.AnswerKind.PASS:
                return f"{WIND[e.seat]} no claim"
            return f"{WIND[e.seat]} claims {e.claim.value}"
        if isinstance(e, ME.FlowersFinished):
            return f"{WIND[e.seat]} flowers done"
        return None


NARRATION = MCRNarration()
