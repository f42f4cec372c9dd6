"""Which card hands a set of tiles makes, and which hands are nearest (docs/RULES.md A2, A6, A7).

Tiles are matched against the precompiled variants of :mod:`.compile`. A variant is made by 14
tiles when, kind by kind, the real tiles never exceed what it needs and every missing tile falls
in a group of 3+ that allows jokers, with exactly as many jokers as missing tiles. Exposures
must each be one whole group of the variant (docs/RULES.md A5: exposures are fixed), at most one of
them a pair (only the Mahjong tile is called for a pair), and concealed (C) hands take no
exposures at all. A card line may offer several patterns ("... or ..."): a match and a near
hand name the line and which of its patterns (``alternative``) the tiles make or are nearest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tiles import NUM_KINDS, Kind
from .card import Card, CardHand
from .compile import CompiledCard, Variant, compiled
from .targets import Target, TargetSet, exposure_key, has_target, targets_for

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
    alternative: int = 0  # which of the line's patterns the tiles make (0: the first)

    @property
    def pattern(self) -> str:
        """The pattern the tiles make, as printed."""
        return self.hand.alternatives[self.alternative].text


@dataclass(frozen=True)
class NearHand:
    """A hand the tiles are working towards: the tiles still missing (``Kind.JOKER`` for a slot
    only a joker can fill, e.g. the fifth tile of a quint) and how many."""

    hand: CardHand
    missing: tuple[Kind, ...]
    distance: int
    possible: bool
    alternative: int = 0  # which of the line's patterns is nearest (0: the first)

    @property
    def pattern(self) -> str:
        """The nearest pattern of the line, as printed."""
        return self.hand.alternatives[self.alternative].text


def _count(tiles: Sequence[int]) -> list[int] | None:
    counts = [0] * NUM_KINDS
    for kind in tiles:
        if kind not in _CARD_KINDS:
            return None
        counts[kind] += 1
    return counts


def _fits(
    counts: list[int],
    jokers: int,
    kinds: tuple[int, ...],
    need: tuple[int, ...],
    jneed: tuple[int, ...],
) -> bool:
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


def match_hand(
    card: Card, concealed: Sequence[Kind], exposures: Sequence[Sequence[Kind]]
) -> tuple[HandMatch, ...]:
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
            matches.append(
                HandMatch(variant.hand, jokerless, _assignment(variant), variant.alternative)
            )
            end = cc.hand_ranges[variant.hand_index][1]
            candidates = candidates >> end << end  # one match per hand is enough
    return _order(matches)


def _match_exposed(
    cc: CompiledCard,
    counts: list[int],
    jokers: int,
    exposures: Sequence[Sequence[Kind]],
    jokerless: bool,
) -> tuple[HandMatch, ...]:
    target_set = targets_for(cc, exposure_key(exposures))
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
            found[variant.hand_index] = HandMatch(
                variant.hand, jokerless, _assignment(variant), variant.alternative
            )
    return _order(list(found.values()))


def _distance(counts: list[int], jokers: int, target: Target) -> int:
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


def _missing(counts: list[int], jokers: int, target: Target) -> tuple[Kind, ...]:
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


def nearest_hands(
    card: Card, tiles: Sequence[Kind], exposures: Sequence[Sequence[Kind]], n: int
) -> tuple[NearHand, ...]:
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
    target_set = targets_for(cc, exposure_key(exposures))
    targets = target_set.targets
    if len(targets) > _PACK_FROM:
        distances = target_set.packed.distances(counts, jokers)
    else:
        distances = bytes(_distance(counts, jokers, target) for target in targets)
    out: list[NearHand] = []
    for distance, span in _best_spans(distances, target_set, n):
        _, start, end = target_set.spans[span]
        target = targets[distances.index(distance, start, end)]
        out.append(
            NearHand(
                target.variant.hand,
                _missing(counts, jokers, target),
                distance,
                True,
                target.variant.alternative,
            )
        )
    return tuple(out)


def _best_spans(distances: bytes, target_set: TargetSet, n: int) -> list[tuple[int, int]]:
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
    return has_target(compiled(card), exposure_key(exposures))
