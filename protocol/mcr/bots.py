"""Built-in MCR bots: pure and deterministic given the ``rng`` passed in.

A bot aims for a hand worth 8 points: it measures its hand against target plans
(``plans.py``) and keeps the tiles of the nearest plan. Once a discard would leave it ready,
it asks the fan calculator (``scoring.tiles_to_win`` and ``score_hand``) which waits really
win (8 points without flowers) and how many of those tiles are still unseen; a ready hand with
no winning wait counts as one step further away. It declares Mahjong only when the engine's
judge (the calculator) says winning, claims a discard only when that brings it nearer, and
always declares kongs (they add points and never cost a step). Every heavy answer is
memoised, keyed by the tiles, so a position is never worked out twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from ..seats import Seat
from ..tiles import Kind, is_bonus, is_honor, is_terminal, rank_of
from .actions import (
    Action,
    AddedKong,
    ClaimChow,
    ClaimKong,
    ClaimPung,
    ClaimWin,
    ConcealedKong,
    DeclareWin,
    Discard,
    ExposeFlower,
    FlowersDone,
    Pass,
)
from .engine import claim_options
from .events import DrawSource
from .hand import InvalidHand, Meld, MeldType
from .plans import (
    CACHE_ENTRIES,
    HAND_KINDS,
    INF,
    PLANS,
    Counts,
    MeldKey,
    Plan,
    lower_bounds,
    plan_distance,
)
from .scoring import WinContext, score_hand
from .state import HandState, Phase, public_slots
from .waits import tiles_to_win
from .wins import calc_melds, judge, reveal_of

__all__ = ["Rng", "choose", "default_discard"]

SLACK = 0


class Rng(Protocol):
    """What a bot needs from a random source (``random.Random`` fits)."""

    def random(self) -> float: ...


def _counts(kinds: Sequence[int]) -> list[int]:
    c = [0] * HAND_KINDS
    for k in kinds:
        if k < HAND_KINDS:
            c[k] += 1
    return c


def _meld_key(melds: Sequence[Meld]) -> MeldKey:
    return tuple((m.type, int(m.tiles[0])) for m in melds)


@lru_cache(maxsize=CACHE_ENTRIES)
def candidate_plans(counts: Counts, melds: MeldKey) -> tuple[Plan, ...]:
    """Plans within one step of the nearest for this hand (13 or 14 tiles)."""
    bounded = sorted(lower_bounds(counts, melds))
    best = INF
    scored: list[tuple[int, Plan]] = []
    for bound, i in bounded:
        if bound > best + SLACK:
            break
        d = plan_distance(PLANS[i], counts, melds)
        best = min(best, d)
        scored.append((d, PLANS[i]))
    if best >= INF:
        return ()
    return tuple(p for d, p in scored if d <= best + SLACK)


@lru_cache(maxsize=CACHE_ENTRIES)
def _plan_value(counts: Counts, melds: MeldKey, plans: tuple[Plan, ...]) -> tuple[int, float]:
    best = (INF, 0.0)
    for plan in plans:
        d = plan_distance(plan, counts, melds)
        if d < INF and (d - plan.bonus) < (best[0] - best[1]):
            best = (d, plan.bonus)
    return best


@lru_cache(maxsize=CACHE_ENTRIES)
def winning_waits(
    melds: tuple[Meld, ...], hand: tuple[Kind, ...], seat_wind: int, prevalent: int
) -> tuple[tuple[Kind, bool], ...]:
    """Waits of a ready 13-tile hand that score 8: (kind, also wins on a discard)."""
    try:
        waits = tiles_to_win(melds, hand)
    except InvalidHand:
        return ()
    out: list[tuple[Kind, bool]] = []
    for kind in waits:
        on_discard = score_hand(
            melds, hand, WinContext(kind, False, seat_wind=seat_wind, prevalent_wind=prevalent)
        ).winning
        drawn = (
            on_discard
            or score_hand(
                melds, hand, WinContext(kind, True, seat_wind=seat_wind, prevalent_wind=prevalent)
            ).winning
        )
        if drawn:
            out.append((kind, on_discard))
    return tuple(out)


class _Position:
    """One seat's view of its hand for one decision (built once, used for every option)."""

    def __init__(self, state: HandState, seat: Seat) -> None:
        self.state = state
        self.seat = seat
        own = state.seats[seat]
        self.kinds = [state.faces[s] for s in own.hand if not is_bonus(state.faces[s])]
        self.melds = calc_melds(state, seat)
        seen = _counts([state.faces[s] for s in public_slots(state)])
        for k in self.kinds:
            seen[k] += 1
        self.seen = seen
        self._plans: dict[MeldKey, tuple[Plan, ...]] = {}
        self.counts: Counts = tuple(_counts(self.kinds))
        self.key = _meld_key(self.melds)

    def plans(self, key: MeldKey, counts: Counts) -> tuple[Plan, ...]:
        """Candidate plans, worked out once per meld set from the whole current hand."""
        found = self._plans.get(key)
        if found is None:
            found = self.candidates(counts, key)
            self._plans[key] = found
        return found

    def candidates(self, counts: Counts, key: MeldKey) -> tuple[Plan, ...]:
        """The plans nearest this hand (a stronger bot weighs more plans)."""
        return candidate_plans(counts, key)

    def value(self, counts: Counts, melds: tuple[Meld, ...], key: MeldKey) -> float:
        """Smaller is better: plan distance, minus a small bonus for live winning waits."""
        plans = self.plans(key, self.counts if key == self.key else counts)
        if not plans:
            return float(INF)
        dist, bonus = _plan_value(counts, key, plans)
        if dist > 0:
            return dist - bonus
        hand = tuple(Kind(k) for k in range(HAND_KINDS) for _ in range(counts[k]))
        waits = winning_waits(melds, hand, int(self.seat), self.state.prevalent_wind)
        live = sum((4 - self.seen[k]) * (1.0 if on_discard else 0.4) for k, on_discard in waits)
        if live <= 0:
            return 1.0 - bonus
        return -0.5 - min(live, 8) / 16

    def best_discard(self, counts: Counts, melds: tuple[Meld, ...]) -> tuple[float, int]:
        """(value after the best discard, the kind to discard); ties go to the tile that
        looks least useful on its own."""
        key = _meld_key(melds)
        scored: list[tuple[float, int]] = []
        work = list(counts)
        for k in range(HAND_KINDS):
            if not work[k]:
                continue
            work[k] -= 1
            scored.append((self.value(tuple(work), melds, key), k))
            work[k] += 1
        best = min(v for v, _ in scored)
        tied = [k for v, k in scored if v == best]
        kind = tied[0] if len(tied) == 1 else min(tied, key=lambda k: (_keep_worth(k, counts), k))
        return best, kind


def _keep_worth(kind: int, counts: Counts) -> float:
    """Tie-break: how useful a tile looks on its own (neighbours, copies, middle ranks)."""
    copies = counts[kind]
    if is_honor(kind):
        return 2.0 * (copies - 1)
    base = kind - kind % 9
    near = sum(counts[j] for j in range(max(base, kind - 2), min(base + 9, kind + 3)) if j != kind)
    middle = 0.3 if 3 <= rank_of(kind) <= 7 else (0.0 if is_terminal(kind) else 0.15)
    return 2.0 * (copies - 1) + near + middle


def choose(
    state: HandState, seat: Seat, rng: Rng, position: type[_Position] = _Position
) -> Action | None:
    """The bot's action for ``seat`` now, or None when the seat has nothing to do.
    ``position``: how the bot sees its hand (a stronger bot weighs more plans)."""
    phase = state.phase
    if phase is Phase.ENDED:
        return None
    if phase in (Phase.CLAIMS, Phase.ROB):
        if seat == state.turn or state.answers[seat] is not None:
            return None
        return _answer(state, seat, position)
    if seat != state.turn:
        return None
    own = state.seats[seat]
    for slot in own.hand:
        if is_bonus(state.faces[slot]):
            return ExposeFlower(seat, slot, state.faces[slot])
    if phase is Phase.FLOWERS:
        return FlowersDone(seat)
    return _turn(state, seat, rng, position)


def _turn(state: HandState, seat: Seat, rng: Rng, position: type[_Position]) -> Action:
    own = state.seats[seat]
    if state.may_declare and not own.dead:
        drawn = state.drawn
        if drawn is not None and _may_complete(state, seat, drawn):
            verdict = judge(
                state,
                seat,
                drawn,
                self_drawn=True,
                kong_related=state.drawn_source is DrawSource.KONG_REPLACEMENT,
            )
            if verdict.winning:
                return DeclareWin(seat, reveal_of(state, seat))
        kong = _kong(state, seat)
        if kong is not None:
            return kong
    pos = position(state, seat)
    _, kind = pos.best_discard(pos.counts, pos.melds)
    slots = [s for s in own.hand if state.faces[s] == kind]
    slot = slots[int(rng.random() * len(slots)) % len(slots)]
    return Discard(seat, slot, Kind(kind))


def default_discard(state: HandState, seat: Seat) -> Discard | None:
    """The discard a timeout makes for ``seat`` on its turn: the bot's own (the tile whose
    loss leaves the hand nearest a winning one, so a ready hand keeps its waits), the copy
    just drawn when that kind was drawn, else the last copy held; without chance, so the
    view's default and the timeout's action agree. None when the seat holds nothing to
    discard."""
    own = state.seats[seat]
    pos = _Position(state, seat)
    if not pos.kinds:
        return None
    _, kind = pos.best_discard(pos.counts, pos.melds)
    slots = [s for s in own.hand if state.faces[s] == kind]
    if not slots:
        return None
    slot = state.drawn if state.drawn in slots else slots[-1]
    assert slot is not None
    return Discard(seat, slot, Kind(kind))


def _kong(state: HandState, seat: Seat) -> Action | None:
    """A concealed or added kong the seat can declare (bots always declare them)."""
    if state.wall.remaining <= 0:
        return None
    own = state.seats[seat]
    faces = state.faces
    by_kind: dict[Kind, list[int]] = {}
    for s in own.hand:
        by_kind.setdefault(faces[s], []).append(s)
    for slots in by_kind.values():
        if len(slots) == 4:
            return ConcealedKong(seat, (slots[0], slots[1], slots[2], slots[3]))
    for meld in own.melds:
        if meld.type is MeldType.PUNG:
            kind = faces[meld.slots[0]]
            if kind in by_kind:
                return AddedKong(seat, by_kind[kind][0], kind)
    return None


@lru_cache(maxsize=CACHE_ENTRIES)
def _waits(melds: tuple[Meld, ...], hand: tuple[Kind, ...]) -> frozenset[Kind]:
    """Every kind completing the hand in shape (points aside); cached per hand."""
    try:
        return frozenset(tiles_to_win(melds, hand))
    except InvalidHand:
        return frozenset()


def _may_complete(state: HandState, seat: Seat, drawn: int) -> bool:
    """Whether the drawn tile completes the hand in shape (cached per 13-tile hand)."""
    faces = state.faces
    rest = tuple(sorted(faces[s] for s in state.seats[seat].hand if s != drawn))
    return faces[drawn] in _waits(calc_melds(state, seat), rest)


def _answer(state: HandState, seat: Seat, position: type[_Position]) -> Action:
    own = state.seats[seat]
    if own.dead:
        return Pass(seat)
    assert state.pending is not None
    tile = state.faces[state.pending]
    melds = calc_melds(state, seat)
    hand = tuple(sorted(state.faces[s] for s in own.hand))
    if tile in _waits(melds, hand):
        verdict = judge(
            state, seat, state.pending, self_drawn=False, kong_related=state.phase is Phase.ROB
        )
        if verdict.winning:
            return ClaimWin(seat, reveal_of(state, seat))
    if state.phase is Phase.ROB:
        return Pass(seat)
    same = hand.count(tile)
    chow_seat = seat == state.turn.right and tile < 27
    if same < 2 and not (
        chow_seat
        and any(
            0 <= tile + d < 27 and (tile + d) // 9 == tile // 9 and (tile + d) in hand
            for d in (-2, -1, 1, 2)
        )
    ):
        return Pass(seat)
    claims = [
        a for a in claim_options(state, seat) if isinstance(a, (ClaimPung, ClaimChow, ClaimKong))
    ]
    if not claims:
        return Pass(seat)
    pos = position(state, seat)
    now = pos.value(pos.counts, pos.melds, pos.key)
    if now < 0:
        return Pass(seat)  # ready with live winning waits: keep the hand
    best: tuple[float, Action] | None = None
    for claim in claims:
        work = list(pos.counts)
        for k in claim.faces:
            work[k] -= 1
        rest: Counts = tuple(work)
        if isinstance(claim, ClaimChow):
            meld = Meld(MeldType.CHOW, tuple(sorted((tile, *claim.faces))))
        elif isinstance(claim, ClaimPung):
            meld = Meld(MeldType.PUNG, (tile, tile, tile))
        else:
            meld = Meld(MeldType.KONG, (tile,) * 4)
        new_melds = (*pos.melds, meld)
        new_key = _meld_key(new_melds)
        plans = pos.plans(new_key, rest)  # measured on the hand as it would be after the claim
        if not plans:
            continue
        quick, bonus = _plan_value(rest, new_key, plans)  # as a 14-tile hand: after a discard
        if quick - bonus >= now - 0.5:
            continue  # the claim cannot bring the hand nearer
        if isinstance(claim, ClaimKong):
            after = pos.value(rest, new_melds, new_key) + 0.5
        else:
            after, _ = pos.best_discard(rest, new_melds)
        if after < now - 0.5 and (best is None or after < best[0]):
            best = (after, claim)
    return best[1] if best is not None else Pass(seat)
