"""The American engine (protocol/american) as the table session drives it: the rule set's
RulesAdapter (protocol/table/rules/rules_adapter.py), found through its RuleSetAdapter
(ruleset.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from fourwinds.protocol.american import actions as A
from fourwinds.protocol.american import engine
from fourwinds.protocol.american import events as E
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.call_offers import call_offer
from fourwinds.protocol.american.card import Card
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.config import DeadPlayer, DeclarationMode, TableOptions
from fourwinds.protocol.american.declare import mahjong_matches
from fourwinds.protocol.american.exchange import find_joker
from fourwinds.protocol.american.levels import make_bot
from fourwinds.protocol.american.match import HANDS_PER_GAME
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.options import TableOptions as TableAgreed
from fourwinds.protocol.table.rules.bot_rng import HashRng
from fourwinds.protocol.table.rules.engine_adapter import EngineDelegate, fields_as_faces
from fourwinds.protocol.table.rules.rules_adapter import (
    DeckOp,
    DeckOpKind,
    HandOutcome,
    HandSetup,
    RulesAdapter,
    WindowKind,
)
from fourwinds.protocol.table.wire.codec import ActionCodec
from fourwinds.protocol.tiles import Kind

ACTION_TYPES = (
    A.CharlestonPass,
    A.PoolIn,
    A.PoolTake,
    A.StopVote,
    A.CourtesyPass,
    A.Discard,
    A.Call,
    A.CallMahjong,
    A.NoCall,
    A.ExchangeJoker,
    A.DeclareMahjong,
)


@lru_cache(maxsize=8)
def card_from_text(card_text: str) -> Card:
    """The table's card: the text every seat got in the Open message, or the house card."""
    return parse_card(card_text, "table card") if card_text else house_card()


class _Reseeded:
    """The bots' random source, reseeded before every decision so that a decision depends
    only on the state and the entropy given for it."""

    def __init__(self) -> None:
        self.rng = HashRng(b"")

    def random(self) -> float:
        return self.rng.random()


ENGINE_OPTIONS = ("hot_wall", "dead_player", "exchange_from_own_exposure", "declaration", "pooling")
"""The engine option pairs an American table may carry (``engine_options``)."""


def engine_options(pairs: tuple[tuple[str, str | int | bool], ...]) -> TableOptions:
    """American table options from the Open message's ``rules`` pairs (unknown names are
    refused when the table is opened)."""
    rules = dict(pairs)
    return TableOptions(
        hot_wall=bool(rules.get("hot_wall", False)),
        dead_player=DeadPlayer(str(rules.get("dead_player", DeadPlayer.KEEPS_PLAYING.value))),
        exchange_from_own_exposure=bool(rules.get("exchange_from_own_exposure", True)),
        declaration=DeclarationMode(str(rules.get("declaration", DeclarationMode.FRIENDLY.value))),
        pooling=bool(rules.get("pooling", False)),
    )


class AmericanRules(EngineDelegate[AmericanState, A.Action]):
    """American (NMJL-style) rules with the table's card; engine in protocol/american."""

    name = AMERICAN_SET.name
    tile_set = AMERICAN_SET
    engine = engine

    def __init__(self, card_text: str = "") -> None:
        self.card = card_from_text(card_text)
        self._codec = ActionCodec(ACTION_TYPES)
        self._chooser = _Reseeded()
        self._bots: dict[tuple[Seat, BotLevel], AmericanBot] = {}

    def default_hands(self) -> int:
        return HANDS_PER_GAME

    def option_problem(self, options: TableAgreed) -> str | None:
        """The engine options must be American ones of the right values (``engine_options``);
        ``flowers`` is refused with its own reason: an American wall always has its 8
        flowers, card hands are made with them."""
        for name, _ in options.rules:
            if name == "flowers":
                return (
                    "the flowers option is for MCR tables: an American wall always has "
                    "its flowers (card hands use them)"
                )
            if name not in ENGINE_OPTIONS:
                return (
                    f"unknown American table option {name!r} (known: {', '.join(ENGINE_OPTIONS)})"[
                        :200
                    ]
                )
        try:
            engine_options(options.rules)
        except ValueError as error:
            return f"options.rules: {error}"[:200]
        return None

    def flowers(self, options: TableAgreed) -> bool:
        return True

    def start(self, setup: HandSetup) -> tuple[Any, tuple[Any, ...]]:
        self._bots = {}
        state, events = engine.new_hand(
            self.card,
            (Kind.HIDDEN,) * 152,
            (setup.dice[0], setup.dice[1]),
            engine_options(setup.options.rules),
        )
        return state, tuple(events)

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        return engine.legal_actions(state, seat)

    def offered_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        """The legal actions without the exposure calls that bring the hand no nearer to
        any card line (``call_offers``: with two jokers nearly every discard could be
        called for a pung, and each such call was a prompt)."""
        legal = engine.legal_actions(state, seat)
        if not any(isinstance(a, A.Call) for a in legal):
            return legal
        return tuple(
            a
            for a in legal
            if not isinstance(a, A.Call) or call_offer(state, seat, a).worth_offering
        )

    def knows_own_tiles(self, state: Any, seat: Seat) -> bool:
        faces = state.faces
        return all(faces[x] != Kind.HIDDEN for x in state.hands[seat])

    def awaiting(self, state: Any) -> tuple[Seat, ...]:
        return engine.seats_to_act(state)

    def window(self, state: Any, seat: Seat) -> WindowKind:
        s: AmericanState = state
        if s.step is not CharlestonStep.PLAY:
            return WindowKind.EXCHANGE
        return WindowKind.CALL if s.stage is Stage.CALLS else WindowKind.TURN

    def default_action(self, state: Any, seat: Seat) -> Any:
        """Timeouts: no call; in the Charleston the first three passable tiles, no courtesy
        tiles, and a vote to stop (an absent player should not hold up a second Charleston);
        with pooling, nothing into the pool and, when owed tiles, the first ones in it. On
        our turn: Mahjong when the tiles make a card hand (a timeout never throws a won
        hand away), else the discard the built-in bot would make, never a joker while
        another tile is held (``AmericanBot.default_discard``; the tile drawn last was the
        default, and after a joker exchange that was the joker). The view marks this same
        action as the default (``contract_view.our_choices``), so what is shown is what a
        timeout takes."""
        s: AmericanState = state
        if s.step is CharlestonStep.POOL:
            return A.PoolIn(seat, (), ())
        if s.step is CharlestonStep.POOL_TAKE:
            return A.PoolTake(seat, ())
        if s.step is CharlestonStep.STOP_VOTE:
            return A.StopVote(seat, True)
        if s.step is CharlestonStep.COURTESY:
            return A.CourtesyPass(seat, ())
        if s.step is not CharlestonStep.PLAY:
            tiles = tuple(x for x in s.hands[seat] if s.faces[x] != Kind.JOKER)[:3]
            return A.CharlestonPass(seat, tiles, 0)
        if s.stage is Stage.CALLS:
            return A.NoCall(seat)
        legal = engine.legal_actions(s, seat)
        for action in legal:
            if isinstance(action, A.DeclareMahjong) and mahjong_matches(s, seat, action.faces):
                return action
        discards = [a for a in legal if isinstance(a, A.Discard)]
        if not discards:
            return legal[0]
        chosen = self._bot(seat).default_discard(s)
        if chosen in discards:
            return chosen
        plain = [a for a in discards if a.face != Kind.JOKER]
        return (plain or discards)[-1]

    def _bot(self, seat: Seat, level: BotLevel = BotLevel.NORMAL) -> AmericanBot:
        """The seat's built-in bot of ``level`` (one per seat, level and hand: it keeps its
        plans)."""
        bot = self._bots.get((seat, level))
        if bot is None:
            bot = self._bots[(seat, level)] = make_bot(seat, self.card, self._chooser, level)
        return bot

    def forced_action(self, state: Any, seat: Seat) -> Any | None:
        """None: every American decision is the player's (``auto_pass`` covers calls)."""
        return None

    def choice_faces(self, state: AmericanState, action: Any) -> tuple[object, ...] | None:
        """As every rule set reads a choice, and: a joker to exchange is the exposure holding
        it (which joker is no choice), and of a blind pass only the own tiles that go out
        count (the view picks the fall-back tiles itself)."""
        read: dict[str, Any] = {"joker_slot": lambda slot: find_joker(state, slot)}
        if isinstance(action, A.CharlestonPass) and action.blind:
            kept = 3 - action.blind
            read["tiles"] = lambda slots: tuple(state.faces[x] for x in slots[:kept])
        return fields_as_faces(state.faces, action, read)

    def claimed_faces(self, state: Any, action: Any) -> Mapping[int, Kind]:
        if isinstance(action, (A.Discard, A.ExchangeJoker)):
            return {action.slot: action.face}
        if isinstance(action, (A.Call, A.PoolIn)):  # the pool is face up
            slots = action.slots if isinstance(action, A.Call) else action.tiles
            return dict(zip(slots, action.faces, strict=False))
        if isinstance(action, A.DeclareMahjong):
            return dict(zip(state.hands[action.seat], action.faces, strict=False))
        return {}

    def deck_ops(self, events: Sequence[Any]) -> tuple[DeckOp, ...]:
        ops = []
        for e in events:
            if isinstance(e, E.Dealt):
                ops.append(DeckOp(DeckOpKind.DRAW, e.slots, e.seat))
            elif isinstance(e, E.Drew):
                ops.append(DeckOp(DeckOpKind.DRAW, (e.slot,), e.seat))
            elif isinstance(e, E.TilesReceived):
                ops.append(DeckOp(DeckOpKind.TRANSFER, e.slots, e.seat))
            elif isinstance(e, (E.Discarded, E.JokerExchanged)):
                ops.append(DeckOp(DeckOpKind.REVEAL, (e.slot,)))
            elif isinstance(e, E.Pooled) and e.slots:
                ops.append(DeckOp(DeckOpKind.REVEAL, e.slots))
        return tuple(ops)

    def outcome(self, state: Any) -> HandOutcome | None:
        result = state.result
        if result is None:
            return None
        if result.winner is None:
            return HandOutcome(None, result.payments, "wall game")
        how = (
            "self-drawn"
            if result.self_drawn
            else (f"on {result.discarder.name}'s discard" if result.discarder is not None else "")
        )
        extra = ", jokerless" if result.jokerless else ""
        return HandOutcome(
            result.winner,
            result.payments,
            f"{result.winner.name} Mahjong with {result.hand_id} "
            f"({result.value}{extra}) {how}".strip(),
        )

    def choose(
        self, state: Any, seat: Seat, entropy: bytes, level: BotLevel = BotLevel.NORMAL
    ) -> Any:
        bot = self._bot(seat, level)
        self._chooser.rng = HashRng(entropy)
        action = bot.act(state)
        return action if action is not None else self.default_action(state, seat)


def adapter(card_text: str) -> RulesAdapter:
    return AmericanRules(card_text)


__all__ = ["SEATS", "AmericanRules", "adapter", "card_from_text"]
