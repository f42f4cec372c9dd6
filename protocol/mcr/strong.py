"""The ``strong`` MCR bot: the normal bot's plans and more, plus tile counting, hand value
and defence.

Its plans are the normal bot's and Mixed Shifted Chows (6 points, often 8 with what such a
hand brings besides: ``EXTRA_PLANS``), ranked as the 8-point templates, so it is not held to
a far 8-point plan when a shifted-chows hand is nearer. On its turn it ranks every
discard by three things, all from what its seat can see:

* how near the hand stays to a plan (``bots._Position.value``: plan distance, and for a
  ready hand its live winning waits, here weighted by what each wait scores);
* its ways forward, counted over the still-unseen tiles (for each kind, 4 minus the copies
  this seat can see; 40 of them weigh as much as a step): one step from ready, the tiles that
  would make it ready with a live wait worth 8 points (a ready shape whose waits score too
  little or are all seen is no way forward); further away, the tiles that bring it a step
  nearer. So between two discards of the same distance it keeps the one with more ways on;
* how likely the tile is to deal in (``defence.danger``) once another seat looks ready:
  weighed lightly while its own hand is near, heavily when its hand is far (it folds).

Claims, kongs and Mahjong are the normal bot's, measured with its own plans, except that a
folding bot claims nothing but a win (a meld laid would only cost it safe tiles). Pure:
randomness only through ``rng``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from ..seats import Seat
from ..tiles import Kind
from . import bots
from .actions import Action, ClaimWin, Discard, Pass
from .defence import danger, threats
from .hand import InvalidHand, Meld, MeldType
from .plans import (
    CACHE_ENTRIES,
    HAND_KINDS,
    HONOR_MASK,
    INF,
    ORPHANS,
    Counts,
    MeldKey,
    Plan,
    PlanKind,
    plan_distance,
    presence,
)
from .scoring import WinContext, score_hand
from .state import HandState, Phase
from .waits import tiles_to_win

__all__ = ["choose", "discard_scores"]

IMPROVE_WEIGHT = 1 / 40  # one unseen tile that helps, in plan steps (40 tiles = a step);
# heavier (1/20, 1/12) did much worse: far hands have more such tiles, so a discard that
# stepped back won on them
FOLD_THREAT = 0.5  # a seat this likely ready makes a far hand fold
# How much a unit of danger weighs, in plan steps, by how far our own hand is. Light: a win
# brings 24 points and more, a deal-in costs only the hand's value beyond the 8 every seat
# pays, so folding early loses more than it saves (heavier weights and an earlier fold did
# worse in the duplicate bench).
DANGER_WEIGHT = {"ready": 0.18, "near": 0.5, "far": 2.0}


def _shifted_chows() -> tuple[Plan, ...]:
    """Mixed Shifted Chows (6 points: three chows, each in its own suit, each one rank up):
    two points short of 8, which a hand of them often finds (All Chows, a concealed hand,
    a self-draw and a one-point fan)."""
    out: list[Plan] = []
    for a, b, c in permutations(range(3)):
        for n in range(5):
            groups = (
                (9 * a + n, 9 * a + n + 1, 9 * a + n + 2),
                (9 * b + n + 1, 9 * b + n + 2, 9 * b + n + 3),
                (9 * c + n + 2, 9 * c + n + 3, 9 * c + n + 4),
            )
            out.append(
                Plan(
                    PlanKind.TEMPLATE,
                    f"mixed shifted chows {'mps'[a]}{'mps'[b]}{'mps'[c]} {n + 1}",
                    tuple(k for g in groups for k in g),
                    groups,
                    EXTRA_BONUS,
                )
            )
    return tuple(out)


# As the 8-point templates' (0.3): though worth 6 on its own, a shifted-chows hand found its
# last 2 points often enough (walls 1000-1399, win rate: 26.7% at -0.2, 28.0% at 0, 28.2%
# at 0.3; lead over normal +3.0, +3.6, +3.7 a hand)
EXTRA_BONUS = 0.3
EXTRA_PLANS: tuple[Plan, ...] = _shifted_chows()
_EXTRA_MASKS = tuple((p, p.mask) for p in EXTRA_PLANS)


@lru_cache(maxsize=CACHE_ENTRIES)
def candidate_plans(counts: Counts, melds: MeldKey) -> tuple[Plan, ...]:
    """The normal bot's nearest plans, and the extra plans as near or nearer (only the
    extra ones when they are nearer)."""
    base = bots.candidate_plans(counts, melds)
    best = min((plan_distance(p, counts, melds) for p in base[:1]), default=INF)
    have = presence(counts)
    bounded = not any(t is MeldType.CHOW for t, _ in melds)  # a laid chow may fill a group
    found: list[tuple[int, Plan]] = []
    for plan, mask in _EXTRA_MASKS:
        if bounded and 8 - (have & mask).bit_count() > best:
            continue  # each of the nine tiles it lacks is a step, less the last
        d = plan_distance(plan, counts, melds)
        if d <= best:
            found.append((d, plan))
    if not found:
        return base
    near = min(d for d, _ in found)
    extra = tuple(p for d, p in found if d == near)
    return extra if near < best else base + extra


class _Position(bots._Position):
    """The normal bot's view of the hand, weighing the extra plans too."""

    def candidates(self, counts: Counts, key: MeldKey) -> tuple[Plan, ...]:
        return candidate_plans(counts, key)


@lru_cache(maxsize=CACHE_ENTRIES)
def wait_points(
    melds: tuple[Meld, ...], hand: tuple[Kind, ...], seat_wind: int, prevalent: int
) -> tuple[tuple[Kind, int, bool], ...]:
    """Each winning wait of a ready 13-tile hand, the points it scores on a discard
    (self-drawn when only that wins) and whether it also wins on a discard."""
    try:
        waits = tiles_to_win(melds, hand)
    except InvalidHand:
        return ()
    out: list[tuple[Kind, int, bool]] = []
    for kind in waits:
        for drawn in (False, True):
            found = score_hand(
                melds, hand, WinContext(kind, drawn, seat_wind=seat_wind, prevalent_wind=prevalent)
            )
            if found.winning:
                out.append((kind, found.total, not drawn))
                break
    return tuple(out)


ALL_KINDS = (1 << HAND_KINDS) - 1


@lru_cache(maxsize=1 << 12)
def _plan_tiles(plans: tuple[Plan, ...]) -> int:
    """Kinds a drawn tile must be among to help one of ``plans`` by being one of its fixed
    tiles (a template's, the knitted and honor tiles, the orphans) as a bit set; every kind
    when a plan is Seven Pairs (any new kind can be a pair's start)."""
    mask = 0
    for plan in plans:
        if plan.kind is PlanKind.SEVEN_PAIRS:
            return ALL_KINDS
        if plan.kind is PlanKind.ORPHANS:
            mask |= sum(1 << k for k in ORPHANS)
        elif plan.kind is PlanKind.HONORS_KNITTED:
            mask |= plan.mask | HONOR_MASK
        elif plan.kind is PlanKind.TEMPLATE:
            mask |= plan.mask
    return mask


def _draws_that_may_help(after: Counts, plans: tuple[Plan, ...]) -> list[int]:
    """The kinds a drawn tile may bring ``after`` nearer a plan as: one held (a pair, a
    pung), a suited tile within two ranks of a held one (a chow or its part), or one of a
    plan's fixed tiles. Any other kind lies alone in every shape: the distances skip it."""
    mask = _plan_tiles(plans)
    for k in range(HAND_KINDS):
        if after[k]:
            if k < 27:
                base = k - k % 9
                lo, hi = max(base, k - 2), min(base + 8, k + 2)
                mask |= ((1 << (hi - lo + 1)) - 1) << lo
            else:
                mask |= 1 << k
    return [k for k in range(HAND_KINDS) if mask >> k & 1 and after[k] < 4]


def _improving(
    pos: bots._Position, after: Counts, key: MeldKey, plans: tuple[Plan, ...], dist: int
) -> int:
    """Unseen tiles that would bring the 13 tiles ``after`` a step nearer a plan."""
    work = list(after)
    total = 0
    for t in _draws_that_may_help(after, plans):
        unseen = 4 - pos.seen[t]
        if unseen <= 0:
            continue
        work[t] += 1
        d, _ = bots._plan_value(tuple(work), key, plans)
        work[t] -= 1
        if d < dist:
            total += unseen
    return total


def _wins_after_discard(
    pos: bots._Position,
    work: list[int],
    melds: tuple[Meld, ...],
    key: MeldKey,
    plans: tuple[Plan, ...],
    drawn: int,
) -> bool:
    """Whether some discard from the 14 counts ``work`` leaves a hand ready to win 8 points
    on a tile still unseen (``drawn``, the tile just added, is no longer unseen)."""
    for j in range(HAND_KINDS):
        if not work[j]:
            continue
        work[j] -= 1
        rest = tuple(work)
        ok = False
        if bots._plan_value(rest, key, plans)[0] <= 0:
            hand = tuple(Kind(k) for k in range(HAND_KINDS) for _ in range(rest[k]))
            ok = any(
                4 - pos.seen[k] - (k == drawn) > 0
                for k, _, _ in wait_points(melds, hand, int(pos.seat), pos.state.prevalent_wind)
            )
        work[j] += 1
        if ok:
            return True
    return False


def _ready_draws(
    pos: bots._Position,
    after: Counts,
    melds: tuple[Meld, ...],
    key: MeldKey,
    plans: tuple[Plan, ...],
) -> int:
    """Unseen tiles that would make the 13 tiles ``after`` (one step from ready) ready with
    a live wait worth 8 points, after the best discard."""
    work = list(after)
    total = 0
    for t in _draws_that_may_help(after, plans):
        unseen = 4 - pos.seen[t]
        if unseen <= 0:
            continue
        work[t] += 1
        if bots._plan_value(tuple(work), key, plans)[0] <= 0 and _wins_after_discard(
            pos, work, melds, key, plans, t
        ):
            total += unseen
        work[t] -= 1
    return total


def _ready_value(pos: bots._Position, after: Counts, melds: tuple[Meld, ...]) -> float | None:
    """For a ready hand: minus its live winning waits, each weighted by its points (a wait
    worth 16 counts double one worth 8) and, as the normal bot does, by 0.4 when it wins
    only self-drawn; None when ``after`` is not ready."""
    hand = tuple(Kind(k) for k in range(HAND_KINDS) for _ in range(after[k]))
    waits = wait_points(melds, hand, int(pos.seat), pos.state.prevalent_wind)
    if not waits:
        return None
    live = sum(
        (4 - pos.seen[k]) * min(points / 8, 3.0) * (1.0 if on_discard else 0.4)
        for k, points, on_discard in waits
    )
    return -0.5 - min(live, 12) / 16 if live > 0 else 1.0


def discard_scores(state: HandState, seat: Seat) -> dict[int, float]:
    """Each kind the seat may discard and its score (smaller is better)."""
    pos = _Position(state, seat)
    key = pos.key
    plans = pos.plans(key, pos.counts)
    kinds = [k for k in range(HAND_KINDS) if pos.counts[k]]
    offence: dict[int, float] = {}
    work = list(pos.counts)
    for k in kinds:
        work[k] -= 1
        after: Counts = tuple(work)
        value = pos.value(after, pos.melds, key)
        if value < 0:
            ready = _ready_value(pos, after, pos.melds)
            value = ready if ready is not None else value
        elif plans and value < INF:
            dist, _ = bots._plan_value(after, key, plans)
            if dist == 1:
                value -= IMPROVE_WEIGHT * _ready_draws(pos, after, pos.melds, key, plans)
            else:
                value -= IMPROVE_WEIGHT * _improving(pos, after, key, plans, dist)
        offence[k] = value
        work[k] += 1
    best = min(offence.values())
    threat = max(threats(state, seat).values())
    if threat < 0.1:
        return offence
    stage = "ready" if best < 0 else ("near" if best < 1.5 else "far")
    if stage == "far" and threat < FOLD_THREAT:
        stage = "near"
    risk = danger(state, seat, kinds, pos.seen)
    weight = DANGER_WEIGHT[stage]
    return {k: v + weight * risk[k] for k, v in offence.items()}


def folding(state: HandState, seat: Seat) -> bool:
    """Whether the seat has given up on its hand: far from ready while another looks ready."""
    if max(threats(state, seat).values()) < FOLD_THREAT:
        return False
    pos = _Position(state, seat)
    return pos.value(pos.counts, pos.melds, pos.key) >= 2


def choose(state: HandState, seat: Seat, rng: bots.Rng) -> Action | None:
    """The strong bot's action for ``seat`` now, or None when the seat has nothing to do."""
    action = bots.choose(state, seat, rng, _Position)
    if isinstance(action, Discard):
        scores = discard_scores(state, seat)
        best = min(scores.values())
        tied = sorted(k for k, v in scores.items() if v == best)
        kind = (
            tied[0]
            if len(tied) == 1
            else min(tied, key=lambda k: (bots._keep_worth(k, _Position(state, seat).counts), k))
        )
        if kind == action.face:
            return action
        own = state.seats[seat].hand
        slots = [s for s in own if state.faces[s] == kind]
        slot = slots[int(rng.random() * len(slots)) % len(slots)]
        return Discard(seat, slot, Kind(kind))
    if (
        state.phase is Phase.CLAIMS
        and action is not None
        and not isinstance(action, (Pass, ClaimWin))
        and folding(state, seat)
    ):
        return Pass(seat)
    return action
