"""Bot heuristics: how far a hand is from a *target plan* worth 8 points.

MCR needs 8 points to win, so a bot cannot just race to any complete shape. It picks among
target plans that are worth 8 on their own or nearly (Mixed Triple Chow, Mixed Straight, Pure
Straight, Knitted Straight, Honors and Knitted Tiles, Seven Pairs, Thirteen Orphans, a flush,
All Pungs) and measures each plan's *distance*: the number of tile exchanges before the hand is
one tile from completing that plan (0 = ready, -1 = complete), the shanten restricted to the
plan. This is not a fan calculator (the engine and the bots ask ``scoring`` for real points
before declaring); it only steers discards and claims. Everything is memoised: a suit's
block of nine counts is decomposed once, whatever the other suits hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import permutations

from .hand import MeldType

CACHE_ENTRIES = 1 << 12
"""Entries each of the bots' searches keeps (plans here, bots.py, strong.py): a hand's
decisions look up a few thousand, and a daemon that plays a bot seat keeps these for the
whole evening; at 1 << 14 to 1 << 16 they held about 1.5 MB of memory a hand played, up to
tens of MB (benchmarks/results/tournament_event.md)."""

HAND_KINDS = 34
INF = 99

Counts = tuple[int, ...]  # 34 counts, kinds 0-33
Option = tuple[int, int, int]  # (sets, partial sets, pair kept as the eye 0/1)


class PlanKind(Enum):
    FLUSH = "flush"
    ALL_PUNGS = "all pungs"
    SEVEN_PAIRS = "seven pairs"
    TEMPLATE = "template"  # three fixed chows/knitted groups plus a set and a pair
    HONORS_KNITTED = "honors and knitted"
    ORPHANS = "thirteen orphans"


@dataclass(frozen=True, eq=False)
class Plan:
    """A target; compared and hashed by identity (the plans are the fixed ``PLANS``)."""

    kind: PlanKind
    name: str
    tiles: tuple[int, ...] = ()  # the template tiles, or the suit's nine kinds for a flush
    chows: tuple[tuple[int, int, int], ...] = ()  # template groups usable as melded chows
    bonus: float = 0.0  # how much the plan is preferred at equal distance (its worth)

    @property
    def mask(self) -> int:
        """The plan's tiles as a bit set of kinds."""
        return sum(1 << k for k in set(self.tiles))


def _template(
    name: str, groups: tuple[tuple[int, int, int], ...], chows: bool, bonus: float
) -> Plan:
    tiles = tuple(k for g in groups for k in g)
    return Plan(PlanKind.TEMPLATE, name, tiles, groups if chows else (), bonus)


def _all_plans() -> tuple[Plan, ...]:
    plans: list[Plan] = []
    for s in range(3):
        plans.append(
            Plan(PlanKind.FLUSH, f"flush {'mps'[s]}", tuple(range(9 * s, 9 * s + 9)), bonus=0.1)
        )
    plans.append(Plan(PlanKind.ALL_PUNGS, "all pungs", bonus=0.1))
    plans.append(Plan(PlanKind.SEVEN_PAIRS, "seven pairs", bonus=0.4))
    for n in range(7):
        groups = tuple((9 * s + n, 9 * s + n + 1, 9 * s + n + 2) for s in range(3))
        plans.append(_template(f"mixed triple chow {n + 1}", groups, True, 0.3))
    for a, b, c in permutations(range(3)):
        groups = (
            (9 * a, 9 * a + 1, 9 * a + 2),
            (9 * b + 3, 9 * b + 4, 9 * b + 5),
            (9 * c + 6, 9 * c + 7, 9 * c + 8),
        )
        plans.append(_template(f"mixed straight {'mps'[a]}{'mps'[b]}{'mps'[c]}", groups, True, 0.3))
        knitted = (
            (9 * a, 9 * a + 3, 9 * a + 6),
            (9 * b + 1, 9 * b + 4, 9 * b + 7),
            (9 * c + 2, 9 * c + 5, 9 * c + 8),
        )
        name = f"knitted {'mps'[a]}{'mps'[b]}{'mps'[c]}"
        plans.append(_template(f"{name} straight", knitted, False, 0.35))
        plans.append(
            Plan(
                PlanKind.HONORS_KNITTED,
                f"honors and {name}",
                tuple(k for g in knitted for k in g),
                bonus=0.35,
            )
        )
    for s in range(3):
        groups = tuple((9 * s + i, 9 * s + i + 1, 9 * s + i + 2) for i in (0, 3, 6))
        plans.append(_template(f"pure straight {'mps'[s]}", groups, True, 0.5))
    plans.append(Plan(PlanKind.ORPHANS, "thirteen orphans", bonus=1.0))
    return tuple(plans)


PLANS: tuple[Plan, ...] = _all_plans()
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _pareto(options: set[Option]) -> tuple[Option, ...]:
    keep = [
        o
        for o in options
        if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
    ]
    return tuple(sorted(keep))


@lru_cache(maxsize=CACHE_ENTRIES)
def suit_options(block: tuple[int, ...]) -> tuple[Option, ...]:
    """Best (sets, partials, eye) decompositions of one suit's nine counts."""
    c = list(block)
    i = next((k for k, v in enumerate(c) if v), None)
    if i is None:
        return ((0, 0, 0),)
    out: set[Option] = set()

    def sub(delta: tuple[tuple[int, int], ...], add: Option) -> None:
        for k, d in delta:
            c[k] -= d
        for m, t, p in suit_options(tuple(c)):
            if p + add[2] <= 1:
                out.add((m + add[0], t + add[1], p + add[2]))
        for k, d in delta:
            c[k] += d

    if c[i] >= 3:
        sub(((i, 3),), (1, 0, 0))
    if c[i] >= 2:
        sub(((i, 2),), (0, 0, 1))
        sub(((i, 2),), (0, 1, 0))
    if i + 2 < 9 and c[i + 1] and c[i + 2]:
        sub(((i, 1), (i + 1, 1), (i + 2, 1)), (1, 0, 0))
    if i + 1 < 9 and c[i + 1]:
        sub(((i, 1), (i + 1, 1)), (0, 1, 0))
    if i + 2 < 9 and c[i + 2]:
        sub(((i, 1), (i + 2, 1)), (0, 1, 0))
    sub(((i, 1),), (0, 0, 0))
    return _pareto(out)


@lru_cache(maxsize=CACHE_ENTRIES)
def honor_options(block: tuple[int, ...]) -> tuple[Option, ...]:
    """Sets/pairs of kinds that cannot form runs (honors, or any kind in All Pungs)."""
    m = sum(1 for v in block if v >= 3)
    pairs = sum(1 for v in block if v == 2)
    opts = {(m, pairs, 0)}
    if pairs:
        opts.add((m, pairs - 1, 1))
    if m:  # a pung broken into the eye
        opts.add((m - 1, pairs, 1))
    return _pareto(opts)


@lru_cache(maxsize=CACHE_ENTRIES)
def _merge(a: tuple[Option, ...], b: tuple[Option, ...], need: int) -> tuple[Option, ...]:
    """Options of two blocks together, sets capped at ``need`` and partials at what is left."""
    best: dict[tuple[int, int], int] = {}  # (sets, eye) -> most partials
    for m, t, p in a:
        for m2, t2, p2 in b:
            if p + p2 > 1:
                continue
            mm = min(m + m2, need)
            tt = min(t + t2, need - mm)
            key = (mm, p + p2)
            if best.get(key, -1) < tt:
                best[key] = tt
    return tuple((m, t, p) for (m, p), t in best.items())


@lru_cache(maxsize=CACHE_ENTRIES)
def standard_distance(counts: Counts, need: int, runs: bool = True) -> int:
    """Shanten of ``need`` sets and a pair from these counts (no runs: pungs only)."""
    if need < 0:
        return INF
    block = suit_options if runs else honor_options
    acc = _merge(block(counts[0:9]), block(counts[9:18]), need)
    acc = _merge(acc, block(counts[18:27]), need)
    acc = _merge(acc, honor_options(counts[27:34]), need)
    return 2 * need - max(2 * m + t + p for m, t, p in acc)


@lru_cache(maxsize=CACHE_ENTRIES)
def _flush_distance(suit: tuple[int, ...], honors: tuple[int, ...], need: int) -> int:
    """Shanten of ``need`` sets and a pair from one suit and the honors only."""
    if need < 0:
        return INF
    acc = _merge(suit_options(suit), honor_options(honors), need)
    return 2 * need - max(2 * m + t + p for m, t, p in acc)


MeldKey = tuple[tuple[MeldType, int], ...]  # (type, first kind) of each meld


def presence(counts: Counts) -> int:
    """The kinds present in ``counts`` as a bit set."""
    mask = 0
    for k, v in enumerate(counts):
        if v:
            mask |= 1 << k
    return mask


TEMPLATE_MASKS: tuple[tuple[int, int], ...] = tuple(
    (i, p.mask) for i, p in enumerate(PLANS) if p.kind is PlanKind.TEMPLATE
)
PLAN_MASKS: tuple[int, ...] = tuple(p.mask for p in PLANS)
OTHER_PLANS: tuple[int, ...] = tuple(
    i for i, p in enumerate(PLANS) if p.kind is not PlanKind.TEMPLATE
)


def lower_bounds(counts: Counts, melds: MeldKey) -> list[tuple[int, int]]:
    """(bound, plan index) for every plan: a distance the plan never goes below, cheap to get.

    A template needs each of its nine tiles; a flush must exchange every number tile of the
    other suits (one can go as the discard of a 14-tile hand, one more as the last exchange
    before ready, hence the -2); All Pungs needs at most five kinds. The other plans are
    cheap enough to measure exactly."""
    out: list[tuple[int, int]] = []
    suits = (sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27]))
    numbers = suits[0] + suits[1] + suits[2]
    have = presence(counts)
    for i in OTHER_PLANS:
        plan = PLANS[i]
        if plan.kind is PlanKind.FLUSH:
            out.append((numbers - suits[plan.tiles[0] // 9] - 2, i))
        elif plan.kind is PlanKind.ALL_PUNGS:
            out.append((len(counts) - counts.count(0) - 7, i))
        elif plan.kind is PlanKind.HONORS_KNITTED:
            out.append(
                (
                    INF
                    if melds
                    else 13 - min(14, (have & (PLAN_MASKS[i] | HONOR_MASK)).bit_count()),
                    i,
                )
            )
        else:
            out.append((plan_distance(plan, counts, melds), i))
    covered = 0
    for t, first in melds:
        if t is MeldType.CHOW:
            covered |= 0b111 << first
    for i, mask in TEMPLATE_MASKS:
        chows = covered & mask if covered else 0
        if chows and any((chows >> g[0]) & 0b111 == 0b111 for g in PLANS[i].chows):
            out.append((lower_bound(PLANS[i], counts, melds), i))
            continue
        out.append((max(-1, 8 - (have & mask).bit_count()), i))
    return out


HONOR_MASK = sum(1 << k for k in range(27, 34))


def lower_bound(plan: Plan, counts: Counts, melds: MeldKey) -> int:
    """A cheap bound the distance never goes below (to skip hopeless templates)."""
    if plan.kind is PlanKind.TEMPLATE:
        covered = sum(
            3
            for t, first in melds
            if t is MeldType.CHOW and (first, first + 1, first + 2) in plan.chows
        )
        have = len(plan.tiles) - list(map(counts.__getitem__, plan.tiles)).count(0)
        return max(-1, len(plan.tiles) - covered - have - 1)
    return -1


def plan_distance(plan: Plan, counts: Counts, melds: MeldKey) -> int:
    """Distance of concealed ``counts`` plus ``melds`` from completing ``plan``."""
    need = 4 - len(melds)
    kind = plan.kind
    if kind is PlanKind.FLUSH:
        lo, hi = plan.tiles[0], plan.tiles[-1]
        for _t, first in melds:
            if first < 27 and not lo <= first <= hi:
                return INF
        return _flush_distance(counts[lo : hi + 1], counts[27:34], need)
    if kind is PlanKind.ALL_PUNGS:
        if any(t is MeldType.CHOW for t, _ in melds):
            return INF
        return standard_distance(counts, need, False)
    if melds and kind is not PlanKind.TEMPLATE:
        return INF
    if kind is PlanKind.SEVEN_PAIRS:
        singles = len(counts) - counts.count(0)
        pairs = singles - counts.count(1)
        return 6 - pairs + max(0, 7 - singles)
    if kind is PlanKind.ORPHANS:
        have = sum(1 for k in ORPHANS if counts[k])
        pair = any(counts[k] >= 2 for k in ORPHANS)
        return 13 - have - (1 if pair else 0)
    if kind is PlanKind.HONORS_KNITTED:
        have = sum(1 for k in plan.tiles if counts[k]) + sum(1 for k in range(27, 34) if counts[k])
        return 13 - min(have, 14)
    return _template_distance(plan, counts, melds)


def _template_distance(plan: Plan, counts: Counts, melds: MeldKey) -> int:
    rest = list(counts)
    covered: set[int] = set()
    free = 0
    for t, first in melds:
        group = (first, first + 1, first + 2)
        if t is MeldType.CHOW and group in plan.chows and not covered & set(group):
            covered.update(group)
        else:
            free += 1
    if free > 1:
        return INF
    missing = 0
    for k in plan.tiles:
        if k in covered:
            continue
        if rest[k]:
            rest[k] -= 1
        else:
            missing += 1
    return missing + standard_distance(tuple(rest), 1 - free)
