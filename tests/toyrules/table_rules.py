"""The "Pungs and a pair" engine as the table session drives it: its ``RulesAdapter``
(protocol/table/rules/rules_adapter.py), built by the rule set's ``RuleSetAdapter.table``
(ruleset.py).

It declares its own tile set and wall (``TILES``, a ``walls.TileSet``): the 136 suit tiles,
winds and dragons, no flowers, broken with four dice and dealt as MCR's wall without flowers
is; this module is the only place that says so, and nothing outside this folder changes for
it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.rules.engine_adapter import EngineDelegate
from fourwinds.protocol.table.rules.rules_adapter import (
    DeckOp,
    DeckOpKind,
    HandOutcome,
    HandSetup,
    WindowKind,
)
from fourwinds.protocol.table.wire.codec import ActionCodec
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet, WallSpec

from . import engine as E

NAME = "pungs"
"""The rules name: what ``--rules`` and an Open message carry."""

TILES = TileSet(
    NAME,
    "Pungs and a pair",
    tuple(Kind(kind) for kind in range(34) for _ in range(4)),
    WallSpec(
        break_dice=4,
        dice_choose_wall=True,
        last_tiles=(Seat.EAST, Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH),
    ),
)
"""The tile set and wall played: four of each suit tile, wind and dragon (136, 17 stacks a
side), no flowers; East's two dice choose the wall, four dice count the break."""

HANDS = 1
"""Hands in a match when the table option says 0: a toy match is one hand."""


class PungsRules(EngineDelegate[E.HandState, E.Action]):
    """Pungs and a pair at a table (``rules_text`` unused: no card)."""

    name = NAME
    tile_set = TILES
    engine = E

    def __init__(self, rules_text: str = "") -> None:
        self._codec = ActionCodec(E.ACTION_TYPES)

    def default_hands(self) -> int:
        return HANDS

    def option_problem(self, options: TableOptions) -> str | None:
        if options.rules:
            names = ", ".join(name for name, _ in options.rules)
            return f"the {NAME} rules take no options (not {names})"
        return None

    def flowers(self, options: TableOptions) -> bool:
        return False

    def start(self, setup: HandSetup) -> tuple[Any, tuple[Any, ...]]:
        plan = TILES.plan(setup.dice)
        return E.new_hand(plan.size, plan.deal, plan.live)

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        return E.legal_actions(state, seat)

    def offered_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        return E.legal_actions(state, seat)

    def knows_own_tiles(self, state: Any, seat: Seat) -> bool:
        s: E.HandState = state
        return all(s.faces[x] != Kind.HIDDEN for x in s.seats[seat].hand)

    def awaiting(self, state: Any) -> tuple[Seat, ...]:
        return E.awaiting(state)

    def window(self, state: Any, seat: Seat) -> WindowKind:
        s: E.HandState = state
        return WindowKind.CALL if s.phase is E.Phase.CALLS else WindowKind.TURN

    def default_action(self, state: Any, seat: Seat) -> Any:
        """Pass on a discard; on a turn Mahjong when the tiles win, else the tile just drawn
        (after a pung, the bot's discard)."""
        s: E.HandState = state
        legal = E.legal_actions(s, seat)
        if s.phase is E.Phase.CALLS:
            return E.Pass(seat)
        for action in legal:
            if isinstance(action, E.Mahjong):
                return action
        if s.drawn is not None and s.drawn in s.seats[seat].hand:
            return E.Discard(seat, s.drawn, s.faces[s.drawn])
        return _bot_discard(s, seat, legal)

    def forced_action(self, state: Any, seat: Seat) -> Any | None:
        return None

    def claimed_faces(self, state: Any, action: Any) -> Mapping[int, Kind]:
        if isinstance(action, E.Discard):
            return {action.slot: action.face}
        if isinstance(action, E.Pung):
            return dict(zip(action.slots, action.faces, strict=True))
        if isinstance(action, E.Mahjong):
            return dict(action.reveal)
        return {}

    def deck_ops(self, events: Sequence[Any]) -> tuple[DeckOp, ...]:
        ops = []
        for e in events:
            if isinstance(e, E.Dealt):
                ops.append(DeckOp(DeckOpKind.DRAW, e.slots, e.seat))
            elif isinstance(e, E.Drawn):
                ops.append(DeckOp(DeckOpKind.DRAW, (e.slot,), e.seat))
            elif isinstance(e, E.Discarded):
                ops.append(DeckOp(DeckOpKind.REVEAL, (e.slot,)))
            elif isinstance(e, E.Punged):
                ops.append(DeckOp(DeckOpKind.REVEAL, e.slots[:2]))
            elif isinstance(e, E.Won):
                ops.append(DeckOp(DeckOpKind.REVEAL, e.slots))
        return tuple(ops)

    def outcome(self, state: Any) -> HandOutcome | None:
        s: E.HandState = state
        r = s.result
        if r is None:
            return None
        if r.winner is None:
            return HandOutcome(None, r.payments, "draw: the wall is empty")
        how = "self-drawn" if r.self_drawn else "after a pung"
        return HandOutcome(
            r.winner, r.payments, f"{r.winner.name} wins All Pungs {E.ALL_PUNGS} from each ({how})"
        )

    def choose(
        self, state: Any, seat: Seat, entropy: bytes, level: BotLevel = BotLevel.NORMAL
    ) -> Any:
        """Mahjong when it can, every pung it can, else the discard it needs least (one bot
        for every level: the rules leave little to choose)."""
        s: E.HandState = state
        legal = E.legal_actions(s, seat)
        for kind in (E.Mahjong, E.Pung):
            for action in legal:
                if isinstance(action, kind):
                    return action
        if s.phase is E.Phase.CALLS:
            return E.Pass(seat)
        return _bot_discard(s, seat, legal)


def _bot_discard(s: E.HandState, seat: Seat, legal: Sequence[E.Action]) -> E.Action:
    """A tile of the kind it holds fewest of (a single before a pair; a pung is kept)."""
    discards = [a for a in legal if isinstance(a, E.Discard)]
    if not discards:
        return legal[0]
    counts = Counter(s.faces[x] for x in s.seats[seat].hand)
    return min(discards, key=lambda a: (counts[a.face], -int(a.face), a.slot))
