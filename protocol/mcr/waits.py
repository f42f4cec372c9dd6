"""Which tiles complete a hand (tiles to win) and how far a hand is from ready (shanten).

Both work on count arrays. ``winning_kinds`` only tries tiles that can possibly join the
hand: a kind held or within two ranks of a held tile of its suit (any other tile would be an
isolated single), plus, for a hand without melds, the tiles the special shapes lack.
Shanten is the usual "sets, partial sets and pair" count (8 - 2 x sets - partials - pair,
with at most four sets and partials), taken together with Seven Pairs, Thirteen Orphans,
Honors and Knitted Tiles and Knitted Straight; -1 means complete, 0 ready.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from fourwinds.protocol.tiles import Kind

from .hand import NUM_HAND_KINDS, TERMINALS_AND_HONORS, InvalidHand, Meld, MeldType
from .shapes import (
    HONOR_KINDS,
    KNITTED_SETS,
    SETS_AND_PAIR,
    SETS_ONLY,
    honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_complete,
    standard_complete,
    suit_flags,
)


def hand_counts(
    melds: Sequence[Meld], hand: Sequence[int], extra: int
) -> tuple[list[int], list[int]]:
    """(concealed counts, all counts) of a hand, checking it is a possible hand.

    ``extra`` is how many tiles beyond 13 the caller supplies (0 for a waiting hand, 1 with the
    winning tile). Raises ``InvalidHand`` for a wrong tile count, a non-hand tile or a fifth
    copy of a tile.
    """
    if len(melds) > 4:
        raise InvalidHand(f"a hand has at most 4 melds, not {len(melds)}")
    want = 13 + extra - 3 * len(melds)
    if len(hand) != want:
        raise InvalidHand(
            f"with {len(melds)} meld(s) the concealed hand needs {want} tiles, not {len(hand)}"
        )
    concealed = [0] * NUM_HAND_KINDS
    for k in hand:
        if not 0 <= k < NUM_HAND_KINDS:
            raise InvalidHand(f"{_name(k)} cannot be part of a hand (flowers are counted apart)")
        concealed[k] += 1
    total = list(concealed)
    for m in melds:
        for k in m.tiles:
            total[k] += 1
    if max(total) > 4:
        k = total.index(max(total))
        raise InvalidHand(f"{total[k]} copies of {_name(k)}: there are only 4")
    return concealed, total


def _name(kind: int) -> str:
    from fourwinds.protocol.notation import tile_code

    try:
        return tile_code(Kind(kind))
    except ValueError:
        return f"kind {kind}"


def complete_counts(c: Sequence[int], n_melds: int) -> bool:
    """Concealed counts ``c`` (with ``n_melds`` melds beside) make a complete hand."""
    if standard_complete(c):
        return True
    if n_melds == 0 and (is_seven_pairs(c) or is_thirteen_orphans(c) or honors_and_knitted(c)):
        return True
    return n_melds <= 1 and knitted_straight_complete(c)


def _group_ok(c: Sequence[int], group: int) -> bool:
    """Group (0-2 a suit, 3 the honors) splits into sets, plus a pair if its size says so."""
    if group == 3:
        pairs = 0
        for k in HONOR_KINDS:
            n = c[k]
            if n == 2:
                pairs += 1
            elif n not in (0, 3):
                return False
        return pairs <= 1
    base = group * 9
    key = tuple(c[base : base + 9])
    size = sum(key)
    if size == 0:
        return True
    rest = size % 3
    if rest == 1:
        return False
    return bool(suit_flags(key) & (SETS_ONLY if rest == 0 else SETS_AND_PAIR))


@cache
def _suit_winners(key: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks (0-8) whose addition makes this suit pattern sets (plus a pair if its size says
    so). Counts may reach 5: wait fans judge the shape, not the tiles left."""
    winners = []
    counts = list(key)
    size = sum(key) + 1
    rest = size % 3
    if rest == 1:
        return ()
    want = SETS_ONLY if rest == 0 else SETS_AND_PAIR
    for r in range(9):
        counts[r] += 1
        if suit_flags(tuple(counts)) & want:
            winners.append(r)
        counts[r] -= 1
    return tuple(winners)


def _honor_winners(c: Sequence[int]) -> list[int]:
    winners = []
    for k in HONOR_KINDS:
        if c[k]:
            c2 = list(c[27:34])
            c2[k - 27] += 1
            if all(n in (0, 2, 3) for n in c2) and c2.count(2) <= 1:
                winners.append(k)
    return winners


def winning_kinds(c: list[int], n_melds: int, total: Sequence[int], limit: int = 34) -> list[int]:
    """Kinds completing the waiting counts ``c`` (stops after ``limit`` found).

    A kind of which the hand itself already shows all four copies (``total``) cannot be won.
    Four sets and a pair: a group (suit or honors) that already fails must receive the tile,
    so only groups with at most one failure need trying; a suit's winning ranks depend only
    on its nine counts and are kept in a table.
    """
    found: list[int] = []
    ok = [_group_ok(c, g) for g in range(4)]
    bad = [g for g in range(4) if not ok[g]]
    groups = bad if len(bad) == 1 else ([] if bad else [0, 1, 2, 3])
    sizes = [sum(c[g * 9 : g * 9 + 9]) for g in range(3)] + [sum(c[k] for k in HONOR_KINDS)]
    pairs = sum(1 for n in sizes if n % 3 == 2)
    for g in groups:
        # Exactly one group may hold the pair once the tile is added.
        after = pairs - (sizes[g] % 3 == 2) + ((sizes[g] + 1) % 3 == 2)
        if after != 1:
            continue
        if g == 3:
            kinds = _honor_winners(c)
        else:
            base = g * 9
            kinds = [base + r for r in _suit_winners(tuple(c[base : base + 9]))]
        for k in kinds:
            if total[k] < 4:
                found.append(k)
                if len(found) >= limit:
                    return found
    special = _special_checks(c, n_melds)
    if special:
        for k in range(NUM_HAND_KINDS):
            if total[k] >= 4 or k in found:
                continue
            c[k] += 1
            if any(check(c) for check in special):
                found.append(k)
            c[k] -= 1
            if len(found) >= limit:
                break
        found.sort()
    return found


def _special_checks(c: Sequence[int], n_melds: int) -> list[Callable[[Sequence[int]], bool]]:
    """The special shapes this waiting hand could still complete (cheap pre-checks)."""
    checks: list[Callable[[Sequence[int]], bool]] = []
    if n_melds > 1:
        return checks
    if any(sum(1 for k in tiles if c[k]) >= 8 for tiles in KNITTED_SETS):
        checks.append(knitted_straight_complete)
    if n_melds == 1:
        return checks
    if sum(n // 2 for n in c) >= 6:
        checks.append(is_seven_pairs)
    if sum(1 for k in TERMINALS_AND_HONORS if c[k]) >= 12:
        checks.append(is_thirteen_orphans)
    if max(c) == 1 and sum(c) == 13:
        held = sum(1 << k for k in range(NUM_HAND_KINDS) if c[k])
        if any(held & ~allowed == 0 for allowed in _KNITTED_OR_HONOR_MASKS):
            checks.append(lambda counts: honors_and_knitted(counts) > 0)
    return checks


_HONOR_BITS = sum(1 << k for k in HONOR_KINDS)
_KNITTED_OR_HONOR_MASKS = tuple(sum(1 << k for k in tiles) | _HONOR_BITS for tiles in KNITTED_SETS)


def tiles_to_win(melds: Sequence[Meld], hand: Sequence[Kind]) -> tuple[Kind, ...]:
    """The kinds that complete a waiting hand (13 tiles counting melds), in kind order."""
    concealed, total = hand_counts(melds, hand, 0)
    return tuple(Kind(k) for k in winning_kinds(concealed, len(melds), total))


def is_complete(melds: Sequence[Meld], hand_with_win: Sequence[Kind]) -> bool:
    """True when melds plus these 14-tile-hand concealed tiles form a winning shape."""
    concealed, _total = hand_counts(melds, hand_with_win, 1)
    return complete_counts(concealed, len(melds))


# --- shanten ---------------------------------------------------------------------------------

Blocks = tuple[tuple[int, int, int], ...]
"""Pareto-best (sets, partial sets, pair used as head 0/1) of a group of tiles."""


def _pareto(options: set[tuple[int, int, int]]) -> Blocks:
    best = [
        o
        for o in options
        if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
    ]
    return tuple(sorted(best))


@cache
def _suit_blocks(key: tuple[int, ...]) -> Blocks:
    found: set[tuple[int, int, int]] = set()
    _blocks(list(key), 0, 0, 0, 0, found)
    return _pareto(found)


def _blocks(
    c: list[int], i: int, sets: int, partial: int, head: int, found: set[tuple[int, int, int]]
) -> None:
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        found.add((sets, partial, head))
        return
    if c[i] >= 3:
        c[i] -= 3
        _blocks(c, i, sets + 1, partial, head, found)
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        _blocks(c, i, sets + 1, partial, head, found)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if not head:
            _blocks(c, i, sets, partial, 1, found)
        _blocks(c, i, sets, partial + 1, head, found)
        c[i] += 2
    for gap in (1, 2):
        if i + gap <= 8 and c[i + gap] and (i // 9 == (i + gap) // 9):
            c[i] -= 1
            c[i + gap] -= 1
            _blocks(c, i, sets, partial + 1, head, found)
            c[i] += 1
            c[i + gap] += 1
    c[i] -= 1
    _blocks(c, i, sets, partial, head, found)
    c[i] += 1


def _honor_blocks(c: Sequence[int]) -> Blocks:
    sets = sum(1 for k in HONOR_KINDS if c[k] >= 3)
    pairs = sum(1 for k in HONOR_KINDS if c[k] == 2)
    if pairs:
        return ((sets, pairs, 0), (sets, pairs - 1, 1))
    return ((sets, 0, 0),)


def _standard_shanten(c: Sequence[int], fixed_sets: int) -> int:
    groups = [_suit_blocks(tuple(c[b : b + 9])) for b in (0, 9, 18)]
    groups.append(_honor_blocks(c))
    best = 8
    combos: list[tuple[int, int, int]] = [(fixed_sets, 0, 0)]
    for group in groups:
        combos = [
            (s + gs, p + gp, h + gh) for s, p, h in combos for gs, gp, gh in group if h + gh <= 1
        ]
    for sets, partial, head in combos:
        partial = min(partial, 4 - sets) if sets < 4 else 0
        best = min(best, 8 - 2 * sets - partial - head)
    return best


def shanten(melds: Sequence[Meld], hand: Sequence[Kind]) -> int:
    """Tiles away from ready: -1 complete (14 tiles), 0 ready, 1 one tile from ready..."""
    if len(melds) > 4:
        raise InvalidHand(f"a hand has at most 4 melds, not {len(melds)}")
    size = 3 * len(melds) + len(hand)
    if size not in (13, 14):
        raise InvalidHand(f"a hand has 13 or 14 tiles counting melds, not {size}")
    concealed, _total = hand_counts(melds, hand, size - 13)
    best = _standard_shanten(concealed, len(melds))
    if not melds:
        pairs = sum(n // 2 for n in concealed)
        best = min(best, 6 - min(pairs, 7))
        orphans = [concealed[k] for k in TERMINALS_AND_HONORS]
        best = min(
            best, 13 - sum(1 for n in orphans if n) - (1 if any(n >= 2 for n in orphans) else 0)
        )
        for tiles in KNITTED_SETS:
            useful = sum(1 for k in tiles if concealed[k]) + sum(
                1 for k in HONOR_KINDS if concealed[k]
            )
            best = min(best, 13 - min(useful, 14))
    if len(melds) <= 1:
        for tiles in KNITTED_SETS:
            held = [k for k in tiles if concealed[k]]
            if 9 - len(held) - 1 >= best:  # the rest needs at least a pair's wait: no gain
                continue
            rest = list(concealed)
            for k in held:
                rest[k] -= 1
            best = min(best, 9 - len(held) + _standard_shanten(rest, 3 + len(melds)))
    return best


def meld_kinds(melds: Sequence[Meld]) -> tuple[int, ...]:
    """Kinds declared as kongs (for Tile Hog: four tiles in a kong are not a hog)."""
    return tuple(m.first for m in melds if m.type is MeldType.KONG)
