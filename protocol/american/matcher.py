"""Which card hands a set of tiles makes, and which hands are nearest (RULES.md A2, A6, A7).

Tiles are matched against the precompiled variants of :mod:`.compile`. A variant is made by 14
tiles when, kind by kind, the real tiles never exceed what it needs and every missing tile falls
in a group of 3+ that allows jokers, with exactly as many jokers as missing tiles. Exposures
must each be one whole group of the variant (RULES.md A5: exposures are fixed), and concealed
(C) hands take no exposures at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tiles import NUM_KINDS, Kind
from .card import Card, CardHand
from .compile import CompiledCard, ConcreteGroup, Variant, compiled
from .packed import PackedTargets, pack

HAND_SIZE = 14
_PACK_FROM = 16  # target sets larger than this are scored with packed tables
_JOKER = int(Kind.JOKER)
_KINDS = tuple(Kind)
_FLOWER = int(Kind.FLOWER)
_CARD_KINDS = frozenset([*range(34), int(Kind.FLOWER), _JOKER])


@dataclass(frozen=True)
class HandMatch:
    """A card hand the tiles make: the tiles grouped as the hand's groups (jokers shown as
    the kind they stand for) and whether no joker was used at all (A7 jokerless payouts)."""

    hand: CardHand
    jokerless: bool
    assignment: tuple[tuple[Kind, ...], ...]


@dataclass(frozen=True)
class NearHand:
    """A hand the tiles are working towards: the tiles still missing (``Kind.JOKER`` for a slot
    only a joker can fill, e.g. the fifth tile of a quint) and how many."""

    hand: CardHand
    missing: tuple[Kind, ...]
    distance: int
    possible: bool


@dataclass(frozen=True)
class _Target:
    """What a variant still needs from the concealed tiles once the exposures are placed."""

    variant: Variant
    kinds: tuple[int, ...]
    need: tuple[int, ...]
    jneed: tuple[int, ...]
    mask: int


def _exposure_fits(exposure: tuple[int, ...], group: ConcreteGroup) -> bool:
    if len(exposure) != len(group.kinds):
        return False
    first = group.kinds[0]
    if any(kind != first for kind in group.kinds):
        return False  # singles (NEWS, 2026, 123) are never called, so never exposed (A5)
    if group.jokers:
        return all(kind in (first, _JOKER) for kind in exposure)
    return all(kind == first for kind in exposure)  # a pair: only ever exposed at Mahjong


def _placements(groups: tuple[ConcreteGroup, ...], exposures: tuple[tuple[int, ...], ...],
                used: frozenset[int]) -> list[frozenset[int]]:
    """Every distinct way to lay each exposure on its own group (as sets of group indexes)."""
    if not exposures:
        return [used]
    out: list[frozenset[int]] = []
    tried: list[ConcreteGroup] = []
    for index, group in enumerate(groups):
        if index in used or group in tried or not _exposure_fits(exposures[0], group):
            continue
        tried.append(group)
        out.extend(_placements(groups, exposures[1:], used | {index}))
    return out


def _targets(variant: Variant, exposures: tuple[tuple[int, ...], ...]) -> list[_Target]:
    if not exposures:
        return [_Target(variant, variant.kinds, variant.need, variant.jneed, variant.mask)]
    if variant.hand.concealed:
        return []
    out: list[_Target] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = set()
    for used in _placements(variant.groups, exposures, frozenset()):
        need = [0] * NUM_KINDS
        jneed = [0] * NUM_KINDS
        for index, group in enumerate(variant.groups):
            if index in used:
                continue
            for kind in group.kinds:
                need[kind] += 1
                jneed[kind] += group.jokers
        kinds = tuple(k for k in range(NUM_KINDS) if need[k])
        key = (kinds, tuple(need[k] for k in kinds), tuple(jneed[k] for k in kinds))
        if key in seen:
            continue
        seen.add(key)
        out.append(_Target(variant, *key, mask=sum(1 << k for k in kinds)))
    return out


def _exposure_key(exposures: Sequence[Sequence[Kind]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(int(k) for k in exposure)) for exposure in exposures))


class _TargetSet:
    """The targets left by one set of exposures, grouped by hand, with packed tables built on
    first use by ``nearest_hands`` (exposure checks alone never pay for them)."""

    __slots__ = ("_absent", "_packed", "span_of", "spans", "targets", "ties")

    def __init__(self, targets: tuple[_Target, ...]) -> None:
        self.targets = targets
        spans: list[tuple[int, int, int]] = []
        for index, target in enumerate(targets):
            hand_index = target.variant.hand_index
            if spans and spans[-1][0] == hand_index:
                spans[-1] = (hand_index, spans[-1][1], index + 1)
            else:
                spans.append((hand_index, index, index + 1))
        self.spans = tuple(spans)
        order = sorted(range(len(spans)), key=lambda i: (
            -targets[spans[i][1]].variant.hand.value, spans[i][0]))
        ties = [0] * len(spans)
        for tie, span in enumerate(order):
            ties[span] = tie
        self.ties = tuple(ties)  # per span: its rank among equal distances (value, card order)
        self.span_of = tuple(i for i, (_, start, end) in enumerate(spans)
                             for _ in range(start, end))
        self._packed: PackedTargets | None = None
        self._absent: tuple[int, ...] | None = None

    @property
    def absent(self) -> tuple[int, ...]:
        """Per kind, the bitset of targets that do not use it (built on first use)."""
        if self._absent is None:
            everything = (1 << len(self.targets)) - 1
            present = [0] * NUM_KINDS
            for index, target in enumerate(self.targets):
                for kind in target.kinds:
                    present[kind] |= 1 << index
            self._absent = tuple(everything & ~bits for bits in present)
        return self._absent

    @property
    def packed(self) -> PackedTargets:
        if self._packed is None:
            self._packed = pack([(t.kinds, t.need, t.jneed) for t in self.targets])
        return self._packed


_TARGETS: dict[tuple[int, tuple[tuple[int, ...], ...]], _Cached] = {}


def _targets_for(cc: CompiledCard, key: tuple[tuple[int, ...], ...]) -> _TargetSet:
    """Every variant's targets given these exposures (memoised: exposures change rarely)."""
    cache_key = (id(cc), key)
    found = _TARGETS.get(cache_key)
    if found is not None and found.card is cc:
        return found.value
    real_mask = 0
    for exposure in key:
        for kind in exposure:
            if kind != _JOKER:
                real_mask |= 1 << kind
    result: list[_Target] = []
    for variant in cc.variants:
        if real_mask & ~variant.mask:
            continue
        result.extend(_targets(variant, key))
    if len(_TARGETS) > 4096:
        _TARGETS.clear()
    target_set = _TargetSet(tuple(result))
    _TARGETS[cache_key] = _Cached(cc, target_set)
    return target_set


@dataclass(frozen=True)
class _Cached:
    card: CompiledCard
    value: _TargetSet


def _count(tiles: Sequence[int]) -> list[int] | None:
    counts = [0] * NUM_KINDS
    for kind in tiles:
        if kind not in _CARD_KINDS:
            return None
        counts[kind] += 1
    return counts


def _fits(counts: list[int], jokers: int, kinds: tuple[int, ...], need: tuple[int, ...],
          jneed: tuple[int, ...]) -> bool:
    """The concealed counts (no kind outside ``kinds``) make exactly this need."""
    deficit = 0
    for kind, wanted, jokerable in zip(kinds, need, jneed, strict=True):
        short = wanted - counts[kind]
        if short < 0 or short > jokerable:
            return False
        deficit += short
    return deficit == jokers


def _assignment(variant: Variant) -> tuple[tuple[Kind, ...], ...]:
    return tuple(group.kinds for group in variant.groups)


def _order(matches: list[HandMatch]) -> tuple[HandMatch, ...]:
    return tuple(sorted(matches, key=lambda m: (-m.hand.value, not m.jokerless)))


def match_hand(card: Card, concealed: Sequence[Kind],
               exposures: Sequence[Sequence[Kind]]) -> tuple[HandMatch, ...]:
    """Every card hand made by exactly these 14 tiles, highest value (then jokerless) first.

    Tiles that are not American tiles, or a count other than 14, make no hand.
    """
    cc = compiled(card)
    if len(concealed) + sum(len(e) for e in exposures) != HAND_SIZE:
        return ()
    counts = _count(concealed)
    if counts is None:
        return ()
    jokers = counts[_JOKER]
    exposed_jokers = sum(1 for e in exposures for k in e if k == _JOKER)
    jokerless = jokers == 0 and exposed_jokers == 0
    if exposures:
        return _match_exposed(cc, counts, jokers, exposures, jokerless)
    candidates = cc.all_variants
    for kind in range(34):
        if counts[kind]:
            candidates &= ~cc.absent[kind]
    if counts[Kind.FLOWER]:
        candidates &= ~cc.absent[Kind.FLOWER]
    matches: list[HandMatch] = []
    variants = cc.variants
    while candidates:
        low = candidates & -candidates
        index = low.bit_length() - 1
        candidates ^= low
        variant = variants[index]
        if variant.min_jokers > jokers:
            continue
        if _fits(counts, jokers, variant.kinds, variant.need, variant.jneed):
            matches.append(HandMatch(variant.hand, jokerless, _assignment(variant)))
            end = cc.hand_ranges[variant.hand_index][1]
            candidates = candidates >> end << end  # one match per hand is enough
    return _order(matches)


def _match_exposed(cc: CompiledCard, counts: list[int], jokers: int,
                   exposures: Sequence[Sequence[Kind]], jokerless: bool) -> tuple[HandMatch, ...]:
    target_set = _targets_for(cc, _exposure_key(exposures))
    targets = target_set.targets
    absent = target_set.absent
    candidates = (1 << len(targets)) - 1
    for kind in range(NUM_KINDS):
        if counts[kind] and kind != _JOKER:
            candidates &= ~absent[kind]
    found: dict[int, HandMatch] = {}
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        target = targets[low.bit_length() - 1]
        variant = target.variant
        if variant.hand_index in found:
            continue
        if _fits(counts, jokers, target.kinds, target.need, target.jneed):
            found[variant.hand_index] = HandMatch(variant.hand, jokerless, _assignment(variant))
    return _order(list(found.values()))


def _distance(counts: list[int], jokers: int, target: _Target) -> int:
    held = 0
    jokerable_missing = 0
    total = 0
    for kind, wanted, jokerable in zip(target.kinds, target.need, target.jneed, strict=True):
        have = counts[kind]
        if have > wanted:
            have = wanted
        held += have
        total += wanted
        short = wanted - have
        jokerable_missing += short if short < jokerable else jokerable
    return total - held - (jokers if jokers < jokerable_missing else jokerable_missing)


def _missing(counts: list[int], jokers: int, target: _Target) -> tuple[Kind, ...]:
    """The tiles still needed. Jokers in hand go first to slots no real tile can fill (the
    fifth tile of a quint), then to other joker slots; unfilled joker-only slots show as
    ``Kind.JOKER``."""
    forced_total = 0
    jokerable: list[Kind] = []
    out: list[Kind] = []
    for kind, wanted, jok in zip(target.kinds, target.need, target.jneed, strict=True):
        have = counts[kind]
        if have >= wanted:
            continue
        short = wanted - have
        cap = 8 if kind == _FLOWER else 4  # copies in the set
        forced = wanted - (cap if cap > have else have)  # more than the set holds
        if forced < 0:
            forced = 0
        flexible = (short if short < jok else jok) - forced
        tile = _KINDS[kind]
        forced_total += forced
        jokerable.extend([tile] * flexible)
        out.extend([tile] * (short - forced - flexible))
    spare = jokers - forced_total
    if spare < 0:
        out.extend([Kind.JOKER] * -spare)
        spare = 0
    out.extend(jokerable[spare:])
    out.sort()
    return tuple(out)


def nearest_hands(card: Card, tiles: Sequence[Kind], exposures: Sequence[Sequence[Kind]],
                  n: int) -> tuple[NearHand, ...]:
    """The ``n`` card hands needing the fewest more tiles, with the tiles they miss.

    ``tiles`` are the concealed tiles (13 or 14); jokers count towards groups that allow them.
    Only hands the exposures leave possible are listed; ties go to the higher value.
    """
    cc = compiled(card)
    counts = [0] * NUM_KINDS
    for kind in tiles:
        if kind in _CARD_KINDS:
            counts[kind] += 1
    jokers = counts[_JOKER]
    counts[_JOKER] = 0
    target_set = _targets_for(cc, _exposure_key(exposures))
    targets = target_set.targets
    if len(targets) > _PACK_FROM:
        distances = target_set.packed.distances(counts, jokers)
    else:
        distances = bytes(_distance(counts, jokers, target) for target in targets)
    out: list[NearHand] = []
    for distance, span in _best_spans(distances, target_set, n):
        _, start, end = target_set.spans[span]
        target = targets[distances.index(distance, start, end)]
        out.append(NearHand(target.variant.hand, _missing(counts, jokers, target), distance,
                            True))
    return tuple(out)


def _best_spans(distances: bytes, target_set: _TargetSet, n: int) -> list[tuple[int, int]]:
    """The ``n`` hands (spans) with the smallest distance, as (distance, span), best first.

    Walks distance levels upwards with ``bytes.find``, so the usual small ``n`` looks at a
    few positions instead of every hand."""
    if not distances or n <= 0:
        return []
    found: list[tuple[int, int]] = []
    seen: set[int] = set()
    spans, span_of, ties = target_set.spans, target_set.span_of, target_set.ties
    level, worst = min(distances), max(distances)
    while len(found) < n and level <= worst:
        needle = bytes((level,))
        at_level: list[tuple[int, int]] = []
        position = distances.find(needle)
        while position >= 0:
            span = span_of[position]
            if span not in seen:
                seen.add(span)
                at_level.append((ties[span], span))
            position = distances.find(needle, spans[span][2])
        at_level.sort()
        found.extend((level, span) for _, span in at_level)
        level += 1
    return found[:n]


def exposures_possible(card: Card, exposures: Sequence[Sequence[Kind]]) -> bool:
    """Some hand of the card can still use all these exposures (A7 dead-hand check)."""
    if not exposures:
        return True
    if sum(len(e) for e in exposures) > HAND_SIZE:
        return False
    return bool(_targets_for(compiled(card), _exposure_key(exposures)).targets)
