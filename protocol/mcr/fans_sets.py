"""Fans made by combining sets: chow families, pung families, winds and dragons.

The account-once principle decides how many combination fans several sets may give: a set
already used in a combination fan may be combined once more with ONE other set. For chows
(and likewise for pungs):

- four sets forming a four-set fan (Quadruple Chow, Four Pure Shifted Chows/Pungs) give that
  fan alone;
- otherwise the best three-set fan counts, and the fourth set may add one two-set fan with one
  of those three;
- otherwise two-set fans are counted along a spanning forest of the "forms a fan with" graph:
  never a cycle, so 3 chows give at most 2 such fans and 4 chows at most 3.

Results depend only on the sorted tuple of set kinds, so they are memoised (a small table).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations

from .fans import FAN_POINTS, Fan

FanCounts = tuple[tuple[Fan, int], ...]
PairFan = Callable[[int, int], Fan | None]
TripleFan = Callable[[int, int, int], Fan | None]


def _pair_chow_fan(a: int, b: int) -> Fan | None:
    """The two-chow fan of chows starting at kinds a <= b, if any."""
    if a == b:
        return Fan.PURE_DOUBLE_CHOW
    if a // 9 != b // 9:
        return Fan.MIXED_DOUBLE_CHOW if a % 9 == b % 9 else None
    gap = b - a
    if gap == 3:
        return Fan.SHORT_STRAIGHT
    if gap == 6:
        return Fan.TWO_TERMINAL_CHOWS
    return None


def _triple_chow_fan(a: int, b: int, c: int) -> Fan | None:
    """The three-chow fan of sorted chow starts a <= b <= c, if any."""
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return Fan.PURE_TRIPLE_CHOW
        if b - a == c - b and b - a in (1, 2):
            return Fan.PURE_SHIFTED_CHOWS
        if b - a == 3 and c - b == 3:
            return Fan.PURE_STRAIGHT
        return None
    if sa in (sb, sc) or sb == sc:
        return None
    ranks = sorted((a % 9, b % 9, c % 9))
    if ranks[0] == ranks[2]:
        return Fan.MIXED_TRIPLE_CHOW
    if ranks == [0, 3, 6]:
        return Fan.MIXED_STRAIGHT
    if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
        return Fan.MIXED_SHIFTED_CHOWS
    return None


def _pair_pung_fan(a: int, b: int) -> Fan | None:
    if a // 9 != b // 9 and a % 9 == b % 9:
        return Fan.DOUBLE_PUNG
    return None


def _triple_pung_fan(a: int, b: int, c: int) -> Fan | None:
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if b - a == 1 and c - b == 1:
            return Fan.PURE_SHIFTED_PUNGS
        return None
    if sa in (sb, sc) or sb == sc:
        return None
    ranks = sorted((a % 9, b % 9, c % 9))
    if ranks[0] == ranks[2]:
        return Fan.TRIPLE_PUNG
    if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
        return Fan.MIXED_SHIFTED_PUNGS
    return None


def _forest(items: tuple[int, ...], pair_fan: PairFan) -> list[Fan]:
    """Two-set fans along a spanning forest (account-once without a bigger fan)."""
    finder = list(range(len(items)))

    def root(i: int) -> int:
        while finder[i] != i:
            i = finder[i]
        return i

    chosen: list[Fan] = []
    edges: list[tuple[Fan, int, int]] = []
    for i, j in combinations(range(len(items)), 2):
        fan = pair_fan(items[i], items[j])
        if fan is not None:
            edges.append((fan, i, j))
    edges.sort(key=lambda e: (-FAN_POINTS[e[0]], e[0]))
    for fan, i, j in edges:
        ri, rj = root(i), root(j)
        if ri != rj:
            finder[ri] = rj
            chosen.append(fan)
    return chosen


def _combine(
    items: tuple[int, ...], four: Fan | None, triple: TripleFan, pair: PairFan
) -> FanCounts:
    if four is not None:
        return ((four, 1),)
    best: list[Fan] = []
    best_points = 0
    if len(items) >= 3:
        for trio in combinations(range(len(items)), 3):
            fan = triple(items[trio[0]], items[trio[1]], items[trio[2]])
            if fan is None:
                continue
            found = [fan]
            rest = [i for i in range(len(items)) if i not in trio]
            if rest:
                other = items[rest[0]]
                extras = [
                    f
                    for i in trio
                    if (f := pair(min(other, items[i]), max(other, items[i]))) is not None
                ]
                if extras:
                    found.append(min(extras, key=lambda f: (-FAN_POINTS[f], f)))
            points = sum(FAN_POINTS[f] for f in found)
            if points > best_points:
                best, best_points = found, points
    if not best:
        best = _forest(items, pair)
    counted: dict[Fan, int] = {}
    for fan in best:
        counted[fan] = counted.get(fan, 0) + 1
    return tuple(counted.items())


@cache
def chow_fans(chows: tuple[int, ...]) -> FanCounts:
    """Fans formed among chows (sorted starts, melded and concealed alike)."""
    if len(chows) < 2:
        return ()
    four = None
    if len(chows) == 4:
        a, b, c, d = chows
        if a == d:
            four = Fan.QUADRUPLE_CHOW
        elif a // 9 == d // 9 and b - a == c - b == d - c and b - a in (1, 2):
            four = Fan.FOUR_PURE_SHIFTED_CHOWS
    return _combine(chows, four, _triple_chow_fan, _pair_chow_fan)


@cache
def pung_fans(pungs: tuple[int, ...]) -> FanCounts:
    """Fans formed among pungs and kongs of number tiles (sorted kinds)."""
    if len(pungs) < 2:
        return ()
    four = None
    if len(pungs) == 4:
        a, b, c, d = pungs
        if a // 9 == d // 9 and b - a == c - b == d - c == 1:
            four = Fan.FOUR_PURE_SHIFTED_PUNGS
    return _combine(pungs, four, _triple_pung_fan, _pair_pung_fan)


@lru_cache(maxsize=4096)
def honor_fans(pungs: tuple[int, ...], pair: int, seat_wind: int, prevalent_wind: int) -> FanCounts:
    """Wind and dragon fans plus Pung of Terminals or Honors, from all pungs/kongs and the pair.

    Pung of Terminals or Honors counts terminal pungs and the wind pungs that are neither the
    seat nor the prevalent wind; dragon pungs score Dragon Pung instead. When three or four
    wind pungs already score a wind family fan, those wind pungs give no Pung of Terminals or
    Honors (non-repeat).
    """
    fans: list[tuple[Fan, int]] = []
    winds = [k for k in pungs if 27 <= k <= 30]
    dragons = sum(1 for k in pungs if k >= 31)
    terminal_pungs = sum(1 for k in pungs if k < 27 and k % 9 in (0, 8))
    n_winds = len(winds)
    if n_winds == 4:
        fans.append((Fan.BIG_FOUR_WINDS, 1))
    elif n_winds == 3:
        fans.append((Fan.LITTLE_FOUR_WINDS if 27 <= pair <= 30 else Fan.BIG_THREE_WINDS, 1))
    seat_kind = 27 + seat_wind
    prevalent_kind = 27 + prevalent_wind
    if seat_kind in winds:
        fans.append((Fan.SEAT_WIND, 1))
    if prevalent_kind in winds:
        fans.append((Fan.PREVALENT_WIND, 1))
    if n_winds < 3:
        terminal_pungs += sum(1 for k in winds if k not in (seat_kind, prevalent_kind))
    if terminal_pungs:
        fans.append((Fan.PUNG_OF_TERMINALS_OR_HONORS, terminal_pungs))
    if dragons == 3:
        fans.append((Fan.BIG_THREE_DRAGONS, 1))
    elif dragons == 2:
        fans.append((Fan.LITTLE_THREE_DRAGONS if pair >= 31 else Fan.TWO_DRAGON_PUNGS, 1))
    elif dragons == 1:
        fans.append((Fan.DRAGON_PUNG, 1))
    return tuple(fans)


def kong_fans(melded: int, concealed: int) -> tuple[Fan, ...]:
    """Kong fans with the kong combinations 4 / 6 / 8 of docs/RULES.md B5."""
    total = melded + concealed
    if total == 4:
        return (Fan.FOUR_KONGS,)
    if total == 3:
        return (Fan.THREE_KONGS,)
    if total == 2:
        if concealed == 2:
            return (Fan.TWO_CONCEALED_KONGS,)
        if concealed == 1:
            return (Fan.CONCEALED_KONG_AND_MELDED_KONG,)
        return (Fan.TWO_MELDED_KONGS,)
    if concealed:
        return (Fan.CONCEALED_KONG,)
    if melded:
        return (Fan.MELDED_KONG,)
    return ()


def concealed_pung_fan(count: int) -> Fan | None:
    """Two, Three or Four Concealed Pungs (concealed kongs included)."""
    if count >= 4:
        return Fan.FOUR_CONCEALED_PUNGS
    if count == 3:
        return Fan.THREE_CONCEALED_PUNGS
    if count == 2:
        return Fan.TWO_CONCEALED_PUNGS
    return None
