"""What each variant of a card still needs once some exposures are on the table.

An exposure must be one whole group of a variant (docs/RULES.md A5: exposures are fixed; singles
are never called, so never exposed), at most one exposure is a pair (a discard is called for a
pair only to go Mahjong, so only the last tile's pair is ever exposed), and concealed (C)
hands take none. For a set of exposures
every variant gives zero or more *targets*: the variant's needs minus the groups the exposures
fill. Target sets are memoised per card and exposures (exposures change rarely in a hand) and
carry lazily built indexes: per-kind bitsets for matching, packed tables for distances.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tiles import NUM_KINDS, Kind
from .compile import CompiledCard, ConcreteGroup, Variant
from .packed import PackedTargets, pack

_JOKER = int(Kind.JOKER)


@dataclass(frozen=True)
class Target:
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


def _placements(
    groups: tuple[ConcreteGroup, ...], exposures: tuple[tuple[int, ...], ...], used: frozenset[int]
) -> list[frozenset[int]]:
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


def _fits(
    groups: tuple[ConcreteGroup, ...], exposures: tuple[tuple[int, ...], ...], used: frozenset[int]
) -> bool:
    """Whether each exposure can lie on a group of its own (the first way found is enough)."""
    if not exposures:
        return True
    return any(
        index not in used
        and _exposure_fits(exposures[0], group)
        and _fits(groups, exposures[1:], used | {index})
        for index, group in enumerate(groups)
    )


def _targets(variant: Variant, exposures: tuple[tuple[int, ...], ...]) -> list[Target]:
    if not exposures:
        return [Target(variant, variant.kinds, variant.need, variant.jneed, variant.mask)]
    if variant.hand.concealed:
        return []
    out: list[Target] = []
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
        out.append(Target(variant, *key, mask=sum(1 << k for k in kinds)))
    return out


def exposure_key(exposures: Sequence[Sequence[Kind]]) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(sorted(int(k) for k in exposure)) for exposure in exposures))


def too_many_pairs(key: tuple[tuple[int, ...], ...]) -> bool:
    """More than one exposure of fewer than 3 tiles: only the Mahjong tile may be called for
    a pair (docs/RULES.md A5), so no hand can have two exposed pairs."""
    return sum(1 for exposure in key if len(exposure) < 3) > 1


_Key = tuple[tuple[int, ...], ...]
_POSSIBLE = __name__ + ".has_target"
_TARGETS = __name__ + ".targets_for"
"""The names of this module's tables in a compiled card's memo (memo.py), by exposures."""


def has_target(cc: CompiledCard, key: tuple[tuple[int, ...], ...]) -> bool:
    """Whether ``targets_for(cc, key)`` has any target, without building them: it stops at
    the first hand that can still take these exposures. Call checks ask this for every
    possible call of every seat on every discard, mostly about exposures never seen again."""
    if not key:
        return bool(cc.variants)
    if too_many_pairs(key):
        return False
    listed: TargetSet | None = cc.memo.table(_TARGETS).get(key)
    if listed is not None:
        return bool(listed.targets)
    possible: dict[_Key, bool] = cc.memo.table(_POSSIBLE)
    known = possible.get(key)
    if known is not None:
        return known
    real_mask = 0
    for exposure in key:
        for kind in exposure:
            if kind != _JOKER:
                real_mask |= 1 << kind
    found = any(
        not real_mask & ~variant.mask
        and not variant.hand.concealed
        and _fits(variant.groups, key, frozenset())
        for variant in cc.variants
    )
    if len(possible) > 4096:
        possible.clear()
    possible[key] = found
    return found


class TargetSet:
    """The targets left by one set of exposures, grouped by hand, with packed tables built on
    first use by ``nearest_hands`` (exposure checks alone never pay for them)."""

    __slots__ = ("_absent", "_packed", "span_of", "spans", "targets", "ties")

    def __init__(self, targets: tuple[Target, ...]) -> None:
        self.targets = targets
        spans: list[tuple[int, int, int]] = []
        for index, target in enumerate(targets):
            hand_index = target.variant.hand_index
            if spans and spans[-1][0] == hand_index:
                spans[-1] = (hand_index, spans[-1][1], index + 1)
            else:
                spans.append((hand_index, index, index + 1))
        self.spans = tuple(spans)
        order = sorted(
            range(len(spans)), key=lambda i: (-targets[spans[i][1]].variant.hand.value, spans[i][0])
        )
        ties = [0] * len(spans)
        for tie, span in enumerate(order):
            ties[span] = tie
        self.ties = tuple(ties)  # per span: its rank among equal distances (value, card order)
        self.span_of = tuple(
            i for i, (_, start, end) in enumerate(spans) for _ in range(start, end)
        )
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


def targets_for(cc: CompiledCard, key: tuple[tuple[int, ...], ...]) -> TargetSet:
    """Every variant's targets given these exposures (memoised: exposures change rarely)."""
    made: dict[_Key, TargetSet] = cc.memo.table(_TARGETS)
    found = made.get(key)
    if found is not None:
        return found
    real_mask = 0
    for exposure in key:
        for kind in exposure:
            if kind != _JOKER:
                real_mask |= 1 << kind
    result: list[Target] = []
    for variant in cc.variants:
        if real_mask & ~variant.mask or too_many_pairs(key):
            continue
        result.extend(_targets(variant, key))
    if len(made) > 4096:
        made.clear()
    target_set = TargetSet(tuple(result))
    made[key] = target_set
    return target_set
