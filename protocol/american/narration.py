"""The American engine's actions and events in a table log for people
(``protocol/table/views/narration.py``)."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.table.views.narration import WIND, tiles_said

from . import actions as AA
from . import events as AE

_SET_NAMES = {2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


@dataclass(frozen=True)
class AmericanNarration:
    """One case per action or event the log tells."""

    actions: tuple[type, ...] = AA.Action.__args__

    def action_words(self, action: object) -> str | None:
        a = action
        if isinstance(a, AA.NoCall):
            return "no call"
        if isinstance(a, AA.StopVote):
            return "votes to stop the Charleston" if a.stop else "votes to go on"
        if isinstance(a, AA.CharlestonPass):
            blind = f" ({a.blind} blind)" if a.blind else ""
            return f"chooses {len(a.tiles)} tiles to pass{blind}"
        if isinstance(a, AA.CourtesyPass):
            return f"offers {len(a.tiles)} tiles across (courtesy)"
        if isinstance(a, AA.PoolIn):
            return f"chooses {len(a.tiles)} tiles for the pool"
        if isinstance(a, AA.PoolTake):
            return "chooses from the pool"
        if isinstance(a, AA.Call):
            return f"calls the discard with {tiles_said(a.faces)}"
        if isinstance(a, AA.CallMahjong):
            return "calls the discard for Mahjong"
        return None

    def public_line(self, event: object) -> str | None:
        e = event
        if isinstance(e, AE.Discarded):
            return f"{WIND[e.seat]} discards {tile_code(e.face)}"
        if isinstance(e, AE.PassMade):
            blind = f", {e.blind} blind" if e.blind else ""
            return (
                f"{WIND[e.seat]} passes {e.count} tile{'s' * (e.count != 1)} to "
                f"{WIND[e.to]} ({e.step.value}{blind})"
            )
        if isinstance(e, AE.Pooled):
            return f"{WIND[e.seat]} puts {tiles_said(e.faces)} into the pool" if e.faces else None
        if isinstance(e, AE.PoolTaken):
            n = len(e.slots)
            return f"{WIND[e.seat]} takes {n} tile{'s' * (n != 1)} from the pool" if n else None
        if isinstance(e, AE.Called):
            if e.mahjong:
                return (
                    f"{WIND[e.seat]} calls {tile_code(e.kinds[0])} for Mahjong"
                    if e.kinds
                    else f"{WIND[e.seat]} calls for Mahjong"
                )
            name = _SET_NAMES.get(len(e.kinds), "set")
            return f"{WIND[e.seat]} calls {name} {tiles_said(e.kinds)}"
        if isinstance(e, AE.JokerExchanged):
            return f"{WIND[e.seat]} exchanges {tile_code(e.face)} for a joker from {WIND[e.owner]}"
        if isinstance(e, AE.SeatDead):
            return f"{WIND[e.seat]} is dead: {e.reason}"
        if isinstance(e, AE.MahjongDeclared):
            how = "self-drawn" if e.self_drawn else "on a discard"
            extra = ", jokerless" if e.jokerless else ""
            return (
                f"{WIND[e.seat]} declares Mahjong: {e.hand_id}{e.made} ({e.value}{extra}, "
                f"{how}): {tiles_said(e.faces)}"
            )
        return None

    def private_line(self, event: object) -> str | None:
        e = event
        if isinstance(e, AE.Dealt):
            return f"{WIND[e.seat]} is dealt {tiles_said(e.faces)}"
        if isinstance(e, AE.TilesReceived):
            return f"{WIND[e.seat]} receives {tiles_said(e.faces)}"
        if isinstance(e, AE.Drew):
            return f"{WIND[e.seat]} draws ({e.remaining} left)"
        if isinstance(e, AE.TileSeen):
            return f"{WIND[e.seat]} draws {tile_code(e.face)}"
        if isinstance(e, AE.StepStarted):
            return f"-- {e.step.value}"
        return None


NARRATION = AmericanNarration()
