"""Expanding card lines into concrete variants, precompiled for fast matching.

A hand like ``11a 222a 3333a 444a 55a`` with numbers ``any`` stands for every run of five
consecutive numbers in every suit: 5 shifts x 3 suits = 15 concrete *variants*. A format 2
line expands every one of its patterns ("... or ...") under every choice of its variables
(suits, winds, the any-dragon, each number variable); each variant remembers its pattern.
Each variant lists its groups as real kinds and, as count arrays in sparse form, how many
tiles of each kind it needs (``need``) and how many of those may be jokers (``jneed``: slots
in groups of 3+ of a hand that allows jokers, docs/RULES.md A2). A card is compiled once (cached
per card object) into all its variants plus, per kind, a bitset of the variants that do *not*
use that kind, so a matcher rules out most variants with a few integer ORs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations, product

from ..memo import Memo
from ..tiles import NUM_KINDS, WINDS, Kind
from .card import (
    FIXED_SUITS,
    WIND_VARIABLES,
    Alternative,
    Card,
    CardHand,
    Group,
    NumberVariable,
    TileSpec,
    ValueRule,
)
from .cardvary import repeated_number, value_tag

JOKERS_IN_SET = 8
_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
# Matching dragons (docs/RULES.md A1): craks-Red, dots-White, bams-Green.
DRAGON_OF_SUIT = (Kind.RED, Kind.WHITE, Kind.GREEN)
_PLAIN_KINDS = {
    "0": Kind.WHITE,
    "N": Kind.NORTH,
    "E": Kind.EAST,
    "W": Kind.WEST,
    "S": Kind.SOUTH,
    "R": Kind.RED,
    "G": Kind.GREEN,
    "F": Kind.FLOWER,
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
    alternative: int = 0  # which of the line's patterns ("... or ...") it comes from


Combo = dict[str, int]  # variable name -> shift ("" is the main number variable)
MAX_COMBINATIONS = 200_000  # suit x wind x dragon x number choices tried for one pattern
_ANY_DRAGON = (Kind.RED, Kind.GREEN, Kind.WHITE)


@dataclass(frozen=True)
class _Choice:
    """One choice of every variable of a pattern: suits and winds by letter, the any-dragon,
    and the number shifts by variable name."""

    suits: dict[str, int]
    dragon: Kind
    shifts: Combo


_KIND_OF = {int(kind): kind for kind in Kind}
"""Each kind by its number (a look-up: reading a card makes ~30,000 of them)."""


def _spec_kind(spec: TileSpec, choice: _Choice, shift: int) -> Kind | None:
    """The real kind of a printed tile under a choice (None: a number left 1-9)."""
    if spec.symbol in _PLAIN_KINDS:
        return _PLAIN_KINDS[spec.symbol]
    if spec.symbol in WIND_VARIABLES:
        return WINDS[choice.suits[spec.symbol]]
    if spec.suit is None:  # format 2: D without a suit letter is the any-dragon
        return choice.dragon
    suit = choice.suits[spec.suit]
    if spec.symbol == "D":
        return DRAGON_OF_SUIT[suit]
    number = int(spec.symbol) + shift
    if not 1 <= number <= 9:
        return None
    return _KIND_OF[suit * 9 + number - 1]


def _letters(groups: tuple[Group, ...]) -> list[str]:
    letters: list[str] = []
    for group in groups:
        for spec in group.specs:
            if spec.suit is not None and spec.suit not in letters:
                letters.append(spec.suit)
    return letters


def _suit_assignments(hand: CardHand, groups: tuple[Group, ...]) -> list[dict[str, int]]:
    """Every map of the pattern's suit letters to suits: injective (A6: different letters are
    different suits), or, with a suit choice (format 2 ``suits=1,2``), every map whose
    number of different suits is allowed."""
    letters = _letters(groups)
    fixed = {letter: _SUIT_INDEX[letter] for letter in letters if letter in FIXED_SUITS}
    variables = [letter for letter in letters if letter not in FIXED_SUITS]
    if not hand.suit_counts:
        free = [suit for suit in range(3) if suit not in fixed.values()]
        return [
            fixed | dict(zip(variables, chosen, strict=True))
            for chosen in permutations(free, len(variables))
        ]
    out = []
    for chosen in product(range(3), repeat=len(variables)):
        if len({*fixed.values(), *chosen}) in hand.suit_counts:
            out.append(fixed | dict(zip(variables, chosen, strict=True)))
    return out


def _wind_assignments(groups: tuple[Group, ...]) -> list[dict[str, int]]:
    """Every injective map of the pattern's wind variables (X, Y, Z) to the winds it does
    not name (like suit letters, different letters and named winds are different winds)."""
    letters: list[str] = []
    named: set[Kind] = set()
    for group in groups:
        for spec in group.specs:
            if spec.symbol in WIND_VARIABLES and spec.symbol not in letters:
                letters.append(spec.symbol)
            elif _PLAIN_KINDS.get(spec.symbol) in WINDS:
                named.add(_PLAIN_KINDS[spec.symbol])
    free = [index for index, wind in enumerate(WINDS) if wind not in named]
    return [dict(zip(letters, chosen, strict=True)) for chosen in permutations(free, len(letters))]


def _dragons(groups: tuple[Group, ...]) -> tuple[Kind, ...]:
    bare = any(s.symbol == "D" and s.suit is None for g in groups for s in g.specs)
    return _ANY_DRAGON if bare else (Kind.RED,)


def _numbers(groups: list[Group]) -> list[int]:
    return [int(spec.symbol) for group in groups for spec in group.specs if spec.is_number]


def _variable_shifts(
    hand: CardHand, alternative: Alternative, variable: NumberVariable
) -> list[int]:
    """The shifts a variable may give its groups in this pattern, before the 1-9 check."""
    if variable.position:
        for group in alternative.groups:
            if variable.name in group.tags and not group.alike:
                extra = repeated_number(group)
                assert extra is not None  # checked when the card is read
                written = int(group.specs[extra].symbol)
                numbers = sorted(set(_numbers([group])))
                return [number - written for number in numbers]
        return [0]
    moved = [g for g in alternative.groups if value_tag(g, hand.variables) == variable.name]
    numbers = _numbers(moved)
    if not numbers:
        return [0]
    low = min(numbers)
    if variable.rule is ValueRule.LISTED:
        return [value - low for value in variable.values]
    shifts = range(-8, 9)
    if variable.rule is ValueRule.STEP2:
        return [s for s in shifts if s % 2 == 0]
    if variable.rule is ValueRule.ODD:
        return [s for s in shifts if (low + s) % 2 == 1]
    if variable.rule is ValueRule.EVEN:
        return [s for s in shifts if (low + s) % 2 == 0]
    return list(shifts)


def _combos(hand: CardHand, alternative: Alternative) -> list[Combo]:
    names = [v.name for v in hand.variables]
    lists = [_variable_shifts(hand, alternative, v) for v in hand.variables]
    return [dict(zip(names, chosen, strict=True)) for chosen in product(*lists)]


@dataclass(frozen=True)
class _GroupPlan:
    """What a group of a pattern is, whatever the choice: read once per pattern, not once
    per choice (a line has up to thousands of choices)."""

    group: Group
    tag: str | None  # the value variable moving it (None: fixed numbers)
    moves: tuple[str, ...]  # the position variables that shift it
    extra: int | None  # a run with one number paired at a variable place: its index
    jokers: bool  # whether jokers may stand in it


def _plan(hand: CardHand, alternative: int) -> tuple[_GroupPlan, ...]:
    positions = {v.name for v in hand.variables if v.position}
    plans = []
    for index, group in enumerate(hand.alternatives[alternative].groups):
        moves = tuple(t for t in group.tags if t in positions)
        extra = repeated_number(group) if moves and not group.alike else None
        if moves and not group.alike:
            assert extra is not None
        plans.append(
            _GroupPlan(
                group,
                value_tag(group, hand.variables),
                moves,
                extra,
                hand.group_jokers_allowed(index, alternative),
            )
        )
    return tuple(plans)


def _concrete(plans: tuple[_GroupPlan, ...], choice: _Choice) -> tuple[ConcreteGroup, ...] | None:
    """The pattern's groups as real kinds under one choice (None: a number left 1-9)."""
    out: list[ConcreteGroup] = []
    for plan in plans:
        group = plan.group
        base = choice.shifts[plan.tag] if plan.tag is not None else 0
        shift = base + sum(choice.shifts[t] for t in plan.moves)
        if plan.extra is not None:  # a run with one number paired, at a variable place
            kinds = [
                _spec_kind(s, choice, base) for i, s in enumerate(group.specs) if i != plan.extra
            ]
            pair = _spec_kind(group.specs[plan.extra], choice, shift)
            if pair is None or None in kinds:
                return None
            rest = [k for k in kinds if k is not None]
            rest.remove(pair)
            out.append(ConcreteGroup((pair, pair), False))
            out.append(ConcreteGroup(tuple(rest), False))
            continue
        tiles = [_spec_kind(spec, choice, shift) for spec in group.specs]
        if None in tiles:
            return None
        out.append(ConcreteGroup(tuple(k for k in tiles if k is not None), plan.jokers))
    return tuple(out)


def _choices(hand: CardHand, alternative: Alternative) -> list[_Choice]:
    suits = _suit_assignments(hand, alternative.groups)
    winds = _wind_assignments(alternative.groups)
    dragons = _dragons(alternative.groups)
    combos = _combos(hand, alternative)
    if len(suits) * len(winds) * len(dragons) * len(combos) > MAX_COMBINATIONS:
        raise ValueError(f"more than {MAX_COMBINATIONS} variations")
    return [
        _Choice(s | w, dragon, combo)
        for s in suits
        for w in winds
        for dragon in dragons
        for combo in combos
    ]


def _make_variant(
    hand: CardHand, hand_index: int, alternative: int, groups: tuple[ConcreteGroup, ...]
) -> Variant | None:
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
        hand=hand,
        hand_index=hand_index,
        groups=groups,
        kinds=kinds,
        need=tuple(need[k] for k in kinds),
        jneed=tuple(jneed[k] for k in kinds),
        mask=sum(1 << k for k in kinds),
        min_jokers=min_jokers,
        alternative=alternative,
    )


@lru_cache(maxsize=4096)
def _expand(hand: CardHand, hand_index: int) -> tuple[tuple[Variant | None, bool, int, Combo], ...]:
    """Every choice of every pattern of the line that keeps its numbers within 1-9, as
    (the variant, or None when it repeats an earlier one or no tiles can make it; whether
    tiles can make it; the pattern's index; the number shifts)."""
    made: dict[tuple[tuple[tuple[Kind, ...], bool], ...], bool] = {}
    out: list[tuple[Variant | None, bool, int, Combo]] = []
    for index, alternative in enumerate(hand.alternatives):
        plans = _plan(hand, index)
        for choice in _choices(hand, alternative):
            groups = _concrete(plans, choice)
            if groups is None:
                continue
            key = tuple(sorted((tuple(sorted(g.kinds)), g.jokers) for g in groups))
            if key in made:
                out.append((None, made[key], index, choice.shifts))
                continue
            variant = _make_variant(hand, hand_index, index, groups)
            made[key] = variant is not None
            out.append((variant, variant is not None, index, choice.shifts))
    return tuple(out)


@lru_cache(maxsize=4096)
def hand_variants(hand: CardHand, hand_index: int = 0) -> tuple[Variant, ...]:
    """Every distinct concrete variant of a line (all its patterns) that real tiles and
    jokers can make, pattern by pattern in the order written.

    Memoised: the parser checks each hand has a variant, then compiling reuses them.
    """
    return tuple(variant for variant, _, _, _ in _expand(hand, hand_index) if variant is not None)


def forget_expansions() -> None:
    """Drop the memoised expansions, so the next card read expands every line again (for
    ``scripts/bench card``, which times reading a card from its text)."""
    _expand.cache_clear()
    hand_variants.cache_clear()


def values_made(hand: CardHand, hand_index: int = 0) -> dict[str, set[int]]:
    """For each listed number variable, the listed values some tiles can make (the parser
    refuses a value that leaves 1-9 or that no tiles can make)."""
    out: dict[str, set[int]] = {v.name: set() for v in hand.variables if v.rule is ValueRule.LISTED}
    lows: dict[tuple[int, str], int | None] = {}
    for index, alternative in enumerate(hand.alternatives):
        for variable in hand.variables:
            if variable.rule is ValueRule.LISTED:
                moved = [
                    g for g in alternative.groups if value_tag(g, hand.variables) == variable.name
                ]
                lows[(index, variable.name)] = min(_numbers(moved), default=None)
    for _, possible, index, shifts in _expand(hand, hand_index):
        if not possible:
            continue
        for name, made in out.items():
            low = lows[(index, name)]
            if low is not None:
                made.add(low + shifts[name])
    return out


def alternatives_made(hand: CardHand, hand_index: int = 0) -> set[int]:
    """The indexes of the line's patterns that some tiles can make."""
    return {index for _, possible, index, _ in _expand(hand, hand_index) if possible}


@dataclass(frozen=True)
class CompiledCard:
    """All variants of a card, in card order, with indexes for pruning."""

    card: Card
    variants: tuple[Variant, ...]
    hand_ranges: tuple[tuple[int, int], ...]  # per hand: its variants are [start, end)
    absent: tuple[int, ...]  # per kind: bitset of variants that do not use the kind
    all_variants: int  # bitset with every variant
    memo: Memo = field(default_factory=Memo, init=False, compare=False, hash=False, repr=False)
    """Answers derived from these variants (targets, needs): memo.py."""


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


def compiled(card: Card) -> CompiledCard:
    """The compiled form of a card, built once per card object (kept in its memo)."""
    return card.memo.one(__name__, _compile, card)
