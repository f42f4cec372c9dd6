"""Built-in American bots: pick a target from ``nearest_hands``, pass, discard, call and
exchange jokers towards it.

Pure and deterministic: randomness only through the ``Chooser`` passed in (e.g. a seeded
``random.Random``), and only to break ties. A bot keeps one ``Plan`` per distinct hand state
(concealed tiles + exposures), so answering many discards with the same tiles costs nothing:
``nearest_hands`` runs once per new hand state and the rest is count arithmetic on the
target's compiled variant (``compile.py``, the card helper's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..seats import Seat
from ..tiles import Kind
from .actions import (
    Action,
    Call,
    CallMahjong,
    CharlestonPass,
    CourtesyPass,
    DeclareMahjong,
    Discard,
    ExchangeJoker,
    NoCall,
    PoolIn,
    PoolTake,
    StopVote,
)
from .card import Card, CardHand
from .charleston import BLIND_STEPS
from .compile import ConcreteGroup, compiled
from .engine import apply, seats_to_act
from .events import AmericanEvent
from .matcher import NearHand, exposures_possible, match_hand, nearest_hands
from .state import AmericanState, CharlestonStep, Stage

STOP_AT_DISTANCE = 4  # vote to stop the Charleston once this close to a hand
PLAN_CACHE_LIMIT = 4096


class Chooser(Protocol):
    """What a bot needs of a random source (``random.Random`` fits)."""

    def random(self) -> float: ...


@dataclass(frozen=True)
class Plan:
    """What a bot aims for with one hand state: the target and what it needs."""

    hand: CardHand | None
    distance: int
    need: dict[int, int]  # concealed kinds the target still uses, by kind
    jokerable: int  # how many of the target's open places a joker may fill
    groups: tuple[ConcreteGroup, ...]  # the target's groups not yet exposed
    surplus: tuple[int, ...]  # kinds to let go, least wanted first (repeats = copies)


PlanKey = tuple[tuple[Kind, ...], tuple[tuple[Kind, int], ...]]


def _derive(old_key: PlanKey, old: Plan, key: PlanKey) -> Plan | None:
    """The plan for ``key`` without a new search, when the tiles that left were surplus to
    the old target and the tiles that came are of no use to it (a useless draw, a discard,
    a Charleston pass that brought nothing wanted): the target and its distance stand."""
    if old.hand is None or old_key[1] != key[1]:
        return None
    left = list(old_key[0])
    added: list[Kind] = []
    for kind in key[0]:
        if kind in left:
            left.remove(kind)
        else:
            added.append(kind)
    removed = list(old_key[0])
    for kind in key[0]:
        if kind in removed:
            removed.remove(kind)
    surplus = list(old.surplus)
    for kind in removed:
        if kind not in surplus:
            return None
        surplus.remove(kind)
    kept = list(key[0])
    for kind in added:
        if kind == Kind.JOKER or old.need.get(kind, 0) > kept.count(kind) - added.count(kind):
            return None
    return Plan(old.hand, old.distance, old.need, old.jokerable, old.groups, (*added, *surplus))


def _exposed_groups(state: AmericanState, seat: Seat) -> list[tuple[Kind, int]]:
    return [(e.kind, len(e.slots)) for e in state.exposures[seat]]


class AmericanBot:
    """One seat's bot. ``act(state)`` gives its next action, or None if it has none to give.

    ``state`` may be the full state or ``view(state, seat)``: the bot reads only its own
    tiles and public ones.
    """

    def __init__(self, seat: Seat, card: Card, chooser: Chooser, blind_passes: bool = True) -> None:
        self.seat = seat
        self.blind_passes = blind_passes
        self.card = card
        self.chooser = chooser
        self._plans: dict[PlanKey, Plan] = {}
        self._index = {hand.id: i for i, hand in enumerate(card.hands)}
        self._last: tuple[PlanKey, Plan] | None = None
        self._last_tiles: tuple[object, object] = (None, None)

    # ----- planning -------------------------------------------------------------------
    NEAR_LINES = 1  # card lines ``_pick_near`` chooses among (the nearest only, here)

    def _pick_near(self, near: tuple[NearHand, ...]) -> NearHand | None:
        """The card line to aim for among the nearest ones: the nearest (a stronger bot
        weighs them by the tiles still unseen)."""
        return near[0] if near else None

    def plan(self, state: AmericanState) -> Plan:
        hand, laid = state.hands[self.seat], state.exposures[self.seat]
        if self._last is not None and hand is self._last_tiles[0] and (laid is self._last_tiles[1]):
            return self._last[1]  # the very same tiles as last time (answering discards)
        concealed = tuple(sorted(state.concealed_kinds(self.seat)))
        exposed = tuple(_exposed_groups(state, self.seat))
        key = (concealed, exposed)
        self._last_tiles = (hand, laid)
        plan = self._plans.get(key)
        # In the Charleston a fresh search pays: a better target found early wins hands.
        if plan is None and self._last is not None and state.step is CharlestonStep.PLAY:
            plan = _derive(self._last[0], self._last[1], key)
        if plan is None:
            plan = self._make_plan(concealed, state.exposure_kinds(self.seat), exposed)
        if len(self._plans) > PLAN_CACHE_LIMIT:
            self._plans.clear()
        self._plans[key] = plan
        self._last = (key, plan)
        return plan

    def _make_plan(
        self,
        concealed: tuple[Kind, ...],
        exposures: tuple[tuple[Kind, ...], ...],
        exposed: tuple[tuple[Kind, int], ...],
    ) -> Plan:
        have = [0] * (int(Kind.HIDDEN) + 1)
        for kind in concealed:
            have[kind] += 1
        jokers = have[Kind.JOKER]
        near = self._pick_near(nearest_hands(self.card, concealed, exposures, self.NEAR_LINES))
        hand = near.hand if near is not None else None
        best = self._best_groups(hand, exposed, have, jokers) if hand is not None else None
        if best is None:
            return Plan(None, 99, {}, 0, (), _surplus_order(concealed, {}, 0, have))
        groups = best[1]
        need: dict[int, int] = {}
        jokerable = 0
        for group in groups:
            for kind in group.kinds:
                need[kind] = need.get(kind, 0) + 1
        for group in groups:
            if group.jokers:
                short = max(0, len(group.kinds) - have[group.kinds[0]])
                jokerable += short
        assert near is not None
        return Plan(
            hand,
            near.distance,
            need,
            jokerable,
            groups,
            _surplus_order(concealed, need, jokerable, have),
        )

    def _best_groups(
        self, hand: CardHand, exposed: tuple[tuple[Kind, int], ...], have: list[int], jokers: int
    ) -> tuple[int, tuple[ConcreteGroup, ...]] | None:
        """The variant of card line ``hand`` using most of our tiles (``have``: counts by
        kind, jokers apart): how many it uses and its groups not yet exposed."""
        best: tuple[int, tuple[ConcreteGroup, ...]] | None = None
        cc = compiled(self.card)
        start, end = cc.hand_ranges[self._index[hand.id]]
        for variant in cc.variants[start:end]:
            if exposed:
                groups = _without_exposed(variant.groups, exposed)
                if groups is None:
                    continue
                score = _held(groups, have, jokers)
            else:
                groups = variant.groups
                score = _held_plain(variant.kinds, variant.need, variant.jneed, have, jokers)
            if best is None or score > best[0]:
                best = (score, groups)
        return best

    def _remember_after_discard(self, state: AmericanState, plan: Plan, kind: Kind) -> None:
        """Letting a surplus tile go leaves the target as it was: keep the plan for the
        13 tiles that remain, so answering the next discards needs no new search."""
        concealed = list(sorted(state.concealed_kinds(self.seat)))
        concealed.remove(kind)
        surplus = list(plan.surplus)
        surplus.remove(kind)
        key = (tuple(concealed), tuple(_exposed_groups(state, self.seat)))
        self._plans[key] = Plan(
            plan.hand, plan.distance, plan.need, plan.jokerable, plan.groups, tuple(surplus)
        )

    # ----- acting ---------------------------------------------------------------------
    def act(self, state: AmericanState) -> Action | None:
        seat = self.seat
        if state.result is not None:
            return None
        if state.step is not CharlestonStep.PLAY:
            return None if state.pending[seat] is not None else self._charleston(state)
        if state.stage is Stage.CALLS:
            return None if state.pending[seat] is not None else self._answer(state)
        if state.turn != seat:
            return None
        if state.stage is Stage.MAHJONG:
            return DeclareMahjong(seat, state.concealed_kinds(seat))
        return self._turn(state)

    def _charleston(self, state: AmericanState) -> Action:
        seat = self.seat
        plan = self.plan(state)
        if state.step is CharlestonStep.STOP_VOTE:
            return StopVote(seat, plan.distance <= STOP_AT_DISTANCE)
        if state.step is CharlestonStep.COURTESY:
            return CourtesyPass(seat, self._pick(state, plan, 3, strict=True))
        if state.step is CharlestonStep.POOL:
            tiles = self._pick(state, plan, 3, strict=True)
            return PoolIn(seat, tiles, state.kinds(tiles))
        if state.step is CharlestonStep.POOL_TAKE:
            held = state.concealed_kinds(seat)
            wanted = [
                s
                for s in state.pool
                if plan.need.get(state.faces[s], 0) > held.count(state.faces[s])
            ]
            return PoolTake(seat, tuple(wanted))
        tiles = self._pick(state, plan, 3, strict=False)
        blind = 0
        if state.step in BLIND_STEPS and self.blind_passes:
            # Fewer than three tiles to spare: pass the rest on unseen rather than break up
            # the target (the named tiles stay in hand unless the blind pass falls through).
            spare = len(self._pick(state, plan, 3, strict=True))
            blind = 3 - spare
        return CharlestonPass(seat, tiles, blind)

    def _pick(self, state: AmericanState, plan: Plan, count: int, strict: bool) -> tuple[int, ...]:
        """Up to ``count`` non-joker slots to give away, least wanted first. ``strict``: only
        true surplus (the courtesy pass may give fewer)."""
        wanted = list(plan.surplus)
        if not strict:
            wanted.extend(
                k for k in sorted(plan.need, key=lambda k: plan.need[k]) if k not in wanted
            )
            wanted.extend(state.concealed_kinds(self.seat))
        chosen: list[int] = []
        for kind in wanted:
            if kind == Kind.JOKER or len(chosen) == count:
                continue
            for slot in state.hands[self.seat]:
                if state.faces[slot] == kind and slot not in chosen:
                    chosen.append(slot)
                    break
            if strict and len(chosen) >= len([k for k in plan.surplus if k != Kind.JOKER]):
                break
        return tuple(chosen[:count])

    def _answer(self, state: AmericanState) -> Action:
        seat = self.seat
        if state.dead[seat]:
            return NoCall(seat)
        assert state.last_discard is not None
        kind = state.faces[state.last_discard]
        plan = self.plan(state)
        if plan.distance <= 1:
            concealed = (*state.concealed_kinds(seat), kind)
            if match_hand(self.card, concealed, state.exposure_kinds(seat)):
                return CallMahjong(seat)
        call = self._exposure_call(state, plan, kind)
        return call if call is not None else NoCall(seat)

    def _exposure_call(self, state: AmericanState, plan: Plan, kind: Kind) -> Call | None:
        if plan.hand is None or plan.hand.concealed or plan.distance > 6:
            return None
        if state.options.hot_wall and state.wall.in_last_wall(19):
            return None
        hand = state.hands[self.seat]
        real = [s for s in hand if state.faces[s] == kind]
        jokers = [s for s in hand if state.faces[s] == Kind.JOKER]
        for group in plan.groups:
            size = len(group.kinds)
            if size < 3 or any(k != kind for k in group.kinds):
                continue
            use = real[: size - 1]
            if len(use) < size - 1:
                if not group.jokers:
                    continue
                use = use + jokers[: size - 1 - len(use)]
            if len(use) != size - 1:
                continue
            faces = state.kinds(use)
            laid = (*state.exposure_kinds(self.seat), (*faces, kind))
            if not exposures_possible(self.card, laid):
                continue
            return Call(self.seat, tuple(use), faces)
        return None

    def _turn(self, state: AmericanState) -> Action:
        seat = self.seat
        concealed = state.concealed_kinds(seat)
        if state.dead[seat]:
            return self._discard(state, None)
        plan = self.plan(state)
        if plan.distance == 0 and match_hand(self.card, concealed, state.exposure_kinds(seat)):
            return DeclareMahjong(seat, concealed)
        exchange = self._exchange(state, plan)
        if exchange is not None:
            return exchange
        return self._discard(state, plan)

    def _exchange(self, state: AmericanState, plan: Plan) -> ExchangeJoker | None:
        surplus = set(plan.surplus)
        if not surplus:
            return None
        for owner in Seat:
            if owner == self.seat and not state.options.exchange_from_own_exposure:
                continue
            for exposure in state.exposures[owner]:
                if exposure.kind not in surplus:
                    continue
                jokers = [s for s in exposure.slots if state.faces[s] == Kind.JOKER]
                mine = [s for s in state.hands[self.seat] if state.faces[s] == exposure.kind]
                if jokers and mine:
                    return ExchangeJoker(self.seat, mine[0], exposure.kind, jokers[0])
        return None

    def _discard(self, state: AmericanState, plan: Plan | None) -> Discard:
        hand = state.hands[self.seat]
        order: Sequence[int] = plan.surplus if plan is not None else ()
        for kind in order:
            for slot in reversed(hand):
                if state.faces[slot] == kind:
                    if plan is not None:
                        self._remember_after_discard(state, plan, Kind(kind))
                    return Discard(self.seat, slot, Kind(kind))
        slot = hand[int(self.chooser.random() * len(hand)) % len(hand)]
        return Discard(self.seat, slot, state.faces[slot])

    def _surplus_discard(self, state: AmericanState, plan: Plan) -> Discard | None:
        """The first of the plan's surplus kinds that is not a joker (its copy drawn last),
        or None when the plan has no such surplus."""
        hand = state.hands[self.seat]
        for kind in plan.surplus:
            if kind == Kind.JOKER:
                continue
            for slot in reversed(hand):
                if state.faces[slot] == kind:
                    return Discard(self.seat, slot, Kind(kind))
        return None

    def default_discard(self, state: AmericanState) -> Discard:
        """The discard a timeout makes for this seat on its turn: the bot's own choice
        (its plan's least wanted tile, ``_discard``), but never a joker while another tile
        is held (a player who let the time run out did not mean to throw away the one tile
        that fits every hand; the bot itself may let a surplus joker go), and without
        chance: when the plan spares nothing, the tile its target needs least. The
        same state gives the same discard at the view (the action marked default) and at
        the timeout (the action taken), and no tile the bot keeps for its hand goes."""
        plan = self.plan(state)
        chosen = self._surplus_discard(state, plan)
        if chosen is not None:
            return chosen
        hand = state.hands[self.seat]
        picked = self._pick(state, plan, 1, strict=False)
        slot = picked[0] if picked else hand[-1]
        return Discard(self.seat, slot, state.faces[slot])


def _without_exposed(
    groups: tuple[ConcreteGroup, ...], exposed: tuple[tuple[Kind, int], ...]
) -> tuple[ConcreteGroup, ...] | None:
    """The variant's groups left once each exposure takes a whole group (None: no fit)."""
    left = list(groups)
    for kind, size in exposed:
        for i, group in enumerate(left):
            if len(group.kinds) == size and all(k == kind for k in group.kinds):
                del left[i]
                break
        else:
            return None
    return tuple(left)


def _held(groups: tuple[ConcreteGroup, ...], have: list[int], jokers: int) -> int:
    """How many of our tiles a variant's groups would use (jokers where they may stand)."""
    need: dict[int, int] = {}
    for group in groups:
        for kind in group.kinds:
            need[kind] = need.get(kind, 0) + 1
    held = sum(min(have[k], n) for k, n in need.items())
    open_joker = sum(max(0, len(g.kinds) - have[g.kinds[0]]) for g in groups if g.jokers)
    return held + min(jokers, open_joker)


def _held_plain(
    kinds: tuple[int, ...],
    need: tuple[int, ...],
    jneed: tuple[int, ...],
    have: list[int],
    jokers: int,
) -> int:
    """``_held`` for a variant with nothing exposed, from its precompiled counts."""
    held = 0
    open_joker = 0
    for kind, wanted, jokerable in zip(kinds, need, jneed, strict=True):
        got = have[kind]
        if got >= wanted:
            held += wanted
        else:
            held += got
            short = wanted - got
            open_joker += short if short < jokerable else jokerable
    return held + (jokers if jokers < open_joker else open_joker)


def _surplus_order(
    concealed: tuple[Kind, ...], need: dict[int, int], jokerable: int, have: list[int]
) -> tuple[int, ...]:
    """Kinds we hold beyond the target's needs, loners before pairs (repeats = copies)."""
    out: list[tuple[int, int]] = []
    for kind in sorted(set(concealed)):
        wanted = jokerable if kind == Kind.JOKER else need.get(kind, 0)
        spare = have[kind] - wanted
        out.extend([(have[kind], int(kind))] * max(0, spare))
    out.sort()
    return tuple(kind for _, kind in out)


def run_hand(
    state: AmericanState, bots: Sequence[AmericanBot]
) -> tuple[AmericanState, list[AmericanEvent]]:
    """Let four bots (indexed by seat) play the hand to its end; every event, in order."""
    events: list[AmericanEvent] = []
    while state.result is None:
        for seat in seats_to_act(state):
            action = bots[seat].act(state)
            if action is None:
                continue
            state, new = apply(state, action)
            events.extend(new)
            if state.result is not None:
                break
    return state, events
