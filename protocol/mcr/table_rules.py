"""The MCR engine (protocol/mcr) as the table session drives it: the rule set's RulesAdapter
(protocol/table/rules/rules_adapter.py), found through its RuleSetAdapter (ruleset.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.mcr import actions as A
from fourwinds.protocol.mcr import bots, engine, levels
from fourwinds.protocol.mcr import events as E
from fourwinds.protocol.mcr.config import HANDS_PER_MATCH, TableOptions, check_pairs, from_pairs
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.options import TableOptions as TableAgreed
from fourwinds.protocol.table.rules.bot_rng import HashRng
from fourwinds.protocol.table.rules.engine_adapter import EngineDelegate
from fourwinds.protocol.table.rules.rules_adapter import (
    DeckOp,
    DeckOpKind,
    HandOutcome,
    HandSetup,
    RulesAdapter,
    WindowKind,
)
from fourwinds.protocol.table.wire.codec import ActionCodec
from fourwinds.protocol.tiles import Kind, is_bonus

ACTION_TYPES = (
    A.ExposeFlower,
    A.FlowersDone,
    A.Discard,
    A.ConcealedKong,
    A.AddedKong,
    A.DeclareWin,
    A.Pass,
    A.ClaimChow,
    A.ClaimPung,
    A.ClaimKong,
    A.ClaimWin,
)


class MCRRules(EngineDelegate[HandState, A.Action]):
    """Chinese Official rules: 16 hands, four dice, flowers, chows; engine in protocol/mcr."""

    name = MCR_SET.name
    tile_set = MCR_SET
    engine = engine

    def __init__(self, rules_text: str = "") -> None:
        self._codec = ActionCodec(ACTION_TYPES)

    def default_hands(self) -> int:
        return HANDS_PER_MATCH

    def option_problem(self, options: TableAgreed) -> str | None:
        """``mode`` and ``flowers`` (protocol/mcr/config.py) must have their types."""
        return check_pairs(options.rules)

    def flowers(self, options: TableAgreed) -> bool:
        return from_pairs(options.rules).flowers

    def _options(self, setup: HandSetup) -> TableOptions:
        return from_pairs(setup.options.rules)

    def start(self, setup: HandSetup) -> tuple[Any, tuple[Any, ...]]:
        d = setup.dice
        options = self._options(setup)
        size = MCR_SET.played(flowers=options.flowers).size
        return engine.new_hand(
            options, (Kind.HIDDEN,) * size, (d[0], d[1], d[2], d[3]), setup.prevalent_wind
        )

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        return engine.legal_actions(state, seat)

    def offered_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        """Every legal action: MCR offers each claim it allows."""
        return self.legal_actions(state, seat)

    def knows_own_tiles(self, state: Any, seat: Seat) -> bool:
        faces = state.faces
        return all(faces[x] != Kind.HIDDEN for x in state.seats[seat].hand)

    def awaiting(self, state: Any) -> tuple[Seat, ...]:
        s: HandState = state
        if s.phase is Phase.ENDED:
            return ()
        if s.phase in (Phase.CLAIMS, Phase.ROB):
            return tuple(w for w in SEATS if w != s.turn and s.answers[w] is None)
        return (s.turn,)

    def window(self, state: Any, seat: Seat) -> WindowKind:
        phase = state.phase
        return WindowKind.CALL if phase in (Phase.CLAIMS, Phase.ROB) else WindowKind.TURN

    def default_action(self, state: Any, seat: Seat) -> Any:
        """Timeouts: pass on a discard; on our turn, Mahjong when the tiles win (a timeout
        never throws the winning tile away), then any flower held laid out (also one drawn
        on an earlier turn and kept: the drawn tile was the default then), else the discard
        the built-in bot would make (``bots.default_discard``: the drawn tile was the default
        even when the hand needed it). The view marks this same action as the default."""
        s: HandState = state
        if s.phase in (Phase.CLAIMS, Phase.ROB):
            return A.Pass(seat)
        legal = engine.legal_actions(s, seat)
        if s.phase is Phase.TURN:
            for kind in (A.DeclareWin, A.ExposeFlower):  # a win, then any flower held
                for action in legal:
                    if isinstance(action, kind):
                        return action
            chosen = bots.default_discard(s, seat)
            if chosen is not None and chosen in legal:
                return chosen
        drawn = s.drawn
        if s.phase is Phase.TURN and drawn is not None and not is_bonus(s.faces[drawn]):
            return A.Discard(seat, drawn, s.faces[drawn])
        return legal[0]

    def forced_action(self, state: Any, seat: Seat) -> Any | None:
        """ "No more flowers" from a seat whose turn it is in the flowers round and that
        holds no flower or season (its only legal move: nothing to ask its player)."""
        s: HandState = state
        if s.phase is not Phase.FLOWERS or s.turn != seat:
            return None
        hand = s.seats[seat].hand
        if any(s.faces[x] == Kind.HIDDEN or is_bonus(s.faces[x]) for x in hand):
            return None
        return A.FlowersDone(seat)

    def claimed_faces(self, state: Any, action: Any) -> Mapping[int, Kind]:
        if isinstance(action, (A.Discard, A.ExposeFlower, A.AddedKong)):
            return {action.slot: action.face}
        if isinstance(action, (A.ClaimChow, A.ClaimPung, A.ClaimKong)):
            return dict(zip(action.slots, action.faces, strict=True))
        if isinstance(action, (A.ClaimWin, A.DeclareWin)):
            return dict(action.reveal)
        return {}

    def deck_ops(self, events: Sequence[Any]) -> tuple[DeckOp, ...]:
        ops = []
        for e in events:
            if isinstance(e, E.Dealt):
                ops.append(DeckOp(DeckOpKind.DRAW, e.slots, e.seat))
            elif isinstance(e, E.TileDrawn):
                ops.append(DeckOp(DeckOpKind.DRAW, (e.slot,), e.seat))
            elif isinstance(e, (E.FlowerExposed, E.Discarded, E.KongAdded)):
                ops.append(DeckOp(DeckOpKind.REVEAL, (e.slot,)))
            elif isinstance(e, E.MeldMade) and not e.concealed:
                ops.append(DeckOp(DeckOpKind.REVEAL, e.slots))
        return tuple(ops)

    def outcome(self, state: Any) -> HandOutcome | None:
        result = state.result
        if result is None:
            return None
        if result.winner is None:
            return HandOutcome(None, result.payments, "draw: the wall is exhausted")
        how = (
            "self-drawn"
            if result.self_drawn
            else (f"on {result.discarder.name}'s discard" if result.discarder is not None else "")
        )
        return HandOutcome(
            result.winner,
            result.payments,
            f"{result.winner.name} wins {result.total} points {how}".strip(),
        )

    def choose(
        self, state: Any, seat: Seat, entropy: bytes, level: BotLevel = BotLevel.NORMAL
    ) -> Any:
        action = levels.choose(state, seat, HashRng(entropy), level)
        return action if action is not None else engine.legal_actions(state, seat)[0]


def adapter(rules_text: str) -> RulesAdapter:
    return MCRRules(rules_text)
