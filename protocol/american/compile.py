"""Expanding card hands into concrete variants, precompiled for fast matching.

A hand like ``11a 222a 3333a 444a 55a`` with numbers ``any`` stands for every run of five
consecutive numbers in every suit: 5 shifts x 3 suits = 15 concrete *variants*. Each variant
lists its groups as real kinds and, as count arrays in sparse form, how many tiles of each kind
it needs (``need``) and how many of those may be jokers (``jneed``: slots in groups of 3+ of a
hand that allows jokers, RULES.md A2). A card is compiled once (cached per card object) into
all its variants plus, per kind, a bitset of the variants that do *not* use that kind, so a
matcher rules out most variants with a few integer ORs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from ..tiles import NUM_KINDS, WINDS, Kind
from .card import FIXED_SUITS, WIND_VARIABLES, Card, CardHand, NumberRule, TileSpec

JOKERS_IN_SET = 8
_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
# Matching dragons (RULES.md A1): craks-Red, dots-White, bams-Green.
DRAGON_OF_SUIT = (Kind.RED, Kind.WHITE, Kind.GREEN)
_PLAIN_KINDS = {
    "0": Kind.WHITE, "N": Kind.NORTH, "E": Kind.EAST, "W": Kind.WEST, "S": Kind.SOUTH,
    "R": Kind.RED, "G": Kind.GREEN, "F": Kind.FLOWER,
}


def copies(kind: int) -> int:
    """Real tiles of a kind in the American set: 8 flowers, 4 of everything else."""
    return 8 if kind == Kind.FLOWER else 4


@dataclass(frozen=True)
class ConcreteGroup:
    """A group of a variant: its real kinds, and whether jokers may stand in it."""

    kinds: tuple[Kind, ...]
    jokers: bool


@dataclass(frozen=True)
class Variant:
    """One concrete way to make a hand. ``kinds``/``need``/``jneed`` are parallel tuples."""

    hand: CardHand
    hand_index: int
    groups: tuple[ConcreteGroup, ...]
    kinds: tuple[int, ...]
    need: tuple[int, ...]
    jneed: tuple[int, ...]
    mask: int  # bit k set when the variant uses kind k
    min_jokers: int  # jokers needed whatever tiles are held (quints of numbers...)


def _spec_kind(spec: TileSpec, suits: dict[str, int], shift: int) -> Kind:
    if spec.symbol in _PLAIN_KINDS:
        return _PLAIN_KINDS[spec.symbol]
    if spec.symbol in WIND_VARIABLES:
        return WINDS[suits[spec.symbol]]
    assert spec.suit is not None  # the parser requires a suit letter on numbers and D
    suit = suits[spec.suit]
    if spec.symbol == "D":
        return DRAGON_OF_SUIT[suit]
    return Kind(suit * 9 + int(spec.symbol) - 1 + shift)


def _suit_assignments(hand: CardHand) -> list[dict[str, int]]:
    """Every injective map of the hand's suit letters to suits (different letters differ)."""
    letters: list[str] = []
    for group in hand.groups:
        for spec in group.specs:
            if spec.suit is not None and spec.suit not in letters:
                letters.append(spec.suit)
    fixed = {letter: _SUIT_INDEX[letter] for letter in letters if letter in FIXED_SUITS}
    variables = [letter for letter in letters if letter not in FIXED_SUITS]
    free = [suit for suit in range(3) if suit not in fixed.values()]
    return [fixed | dict(zip(variables, chosen, strict=True))
            for chosen in permutations(free, len(variables))]


def _wind_assignments(hand: CardHand) -> list[dict[str, int]]:
    """Every injective map of the hand's wind variables (X, Y, Z) to the winds the hand does
    not name (like suit letters, different letters and named winds are different winds)."""
    letters: list[str] = []
    named: set[Kind] = set()
    for group in hand.groups:
        for spec in group.specs:
            if spec.symbol in WIND_VARIABLES and spec.symbol not in letters:
                letters.append(spec.symbol)
            elif _PLAIN_KINDS.get(spec.symbol) in WINDS:
                named.add(_PLAIN_KINDS[spec.symbol])
    free = [index for index, wind in enumerate(WINDS) if wind not in named]
    return [dict(zip(letters, chosen, strict=True)) for chosen in permutations(free, len(letters))]


def _shifts(hand: CardHand) -> list[int]:
    numbers = [int(spec.symbol) for group in hand.groups for spec in group.specs
               if spec.is_number]
    if hand.numbers is NumberRule.FIXED or not numbers:
        return [0]
    low, high = 1 - min(numbers), 9 - max(numbers)
    step = 2 if hand.numbers is NumberRule.STEP2 else 1
    return [shift for shift in range(low, high + 1) if shift % step == 0]


def _make_variant(hand: CardHand, hand_index: int,
                  groups: tuple[ConcreteGroup, ...]) -> Variant | None:
    need = [0] * NUM_KINDS
    jneed = [0] * NUM_KINDS
    for group in groups:
        for tile in group.kinds:
            need[tile] += 1
            if group.jokers:
                jneed[tile] += 1
    kinds = tuple(k for k in range(NUM_KINDS) if need[k])
    min_jokers = 0
    for kind in kinds:
        if need[kind] - jneed[kind] > copies(kind):
            return None  # more real tiles than exist, where no joker may stand
        min_jokers += max(0, need[kind] - copies(kind))
    if min_jokers > JOKERS_IN_SET:
        return None
    return Variant(
        hand=hand, hand_index=hand_index, groups=groups, kinds=kinds,
        need=tuple(need[k] for k in kinds), jneed=tuple(jneed[k] for k in kinds),
        mask=sum(1 << k for k in kinds), min_jokers=min_jokers,
    )


@lru_cache(maxsize=4096)
def hand_variants(hand: CardHand, hand_index: int = 0) -> tuple[Variant, ...]:
    """Every distinct concrete variant of a hand that real tiles and jokers can make.

    Memoised: the parser checks each hand has a variant, then compiling reuses them.
    """
    seen: set[tuple[tuple[tuple[Kind, ...], bool], ...]] = set()
    out: list[Variant] = []
    assignments = [suits | winds for suits in _suit_assignments(hand)
                   for winds in _wind_assignments(hand)]
    for suits in assignments:
        for shift in _shifts(hand):
            groups = tuple(
                ConcreteGroup(tuple(_spec_kind(spec, suits, shift) for spec in group.specs),
                              hand.group_jokers_allowed(index))
                for index, group in enumerate(hand.groups)
            )
            key = tuple(sorted((tuple(sorted(g.kinds)), g.jokers) for g in groups))
            if key in seen:
                continue
            seen.add(key)
            variant = _make_variant(hand, hand_index, groups)
            if variant is not None:
                out.append(variant)
    return tuple(out)


@dataclass(frozen=True)
class CompiledCard:
    """All variants of a card, in card order, with indexes for pruning."""

    card: Card
    variants: tuple[Variant, ...]
    hand_ranges: tuple[tuple[int, int], ...]  # per hand: its variants are [start, end)
    absent: tuple[int, ...]  # per kind: bitset of variants that do not use the kind
    all_variants: int  # bitset with every variant


def _compile(card: Card) -> CompiledCard:
    variants: list[Variant] = []
    ranges: list[tuple[int, int]] = []
    for index, hand in enumerate(card.hands):
        start = len(variants)
        variants.extend(hand_variants(hand, index))
        ranges.append((start, len(variants)))
    everything = (1 << len(variants)) - 1
    absent = []
    for kind in range(NUM_KINDS):
        present = sum(1 << i for i, v in enumerate(variants) if v.mask >> kind & 1)
        absent.append(everything & ~present)
    return CompiledCard(card, tuple(variants), tuple(ranges), tuple(absent), everything)


_CACHE: dict[int, tuple[Card, CompiledCard]] = {}


def compiled(card: Card) -> CompiledCard:
    """The compiled form of a card, built once per card object."""
    entry = _CACHE.get(id(card))
    if entry is not None and entry[0] is card:
        return entry[1]
    result = _compile(card)
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(card)] = (card, result)
    return result
