"""Score an MCR hand: every reading of the hand, its fans after the combination principles,
and the reading with the highest total.

How a hand is scored:
1. The tile fans (flushes, tiers, Tile Hog...) are computed once from the tiles.
2. Each reading of the concealed tiles (four sets and a pair with the melds, Seven Pairs,
   Thirteen Orphans, Honors and Knitted Tiles, Knitted Straight) is scored; in a four-sets
   reading, each place the winning tile can take (pair, pung, a chow's edge, middle or side)
   is a separate reading: it decides whether a pung completed on a discard is concealed and
   which wait fan applies (only when exactly one kind of tile completes the hand).
3. Exclusions (``fans.EXCLUDES``) drop the fans implied by, or not combined with, others.
4. The best total wins; a hand worth nothing is a Chicken Hand (8). ``winning`` needs 8
   points before flowers; flowers (1 each) are added after that check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fourwinds.protocol.notation import format_tiles
from fourwinds.protocol.tiles import Kind

from .fans import EXCLUDES, FAN_NAME, FAN_POINTS, Fan
from .fans_sets import chow_fans, concealed_pung_fan, honor_fans, kong_fans, pung_fans
from .fans_tiles import all_even, kinds_mask, nine_gates, present_mask, tile_fans
from .hand import InvalidHand, Meld, MeldType
from .shapes import (
    KNITTED_SETS,
    Reading,
    honors_and_knitted,
    is_seven_pairs,
    is_seven_shifted_pairs,
    is_thirteen_orphans,
    knitted_straight_readings,
    standard_readings,
)
from .waits import hand_counts, is_complete, shanten, tiles_to_win, winning_kinds

__all__ = [
    "FanScore",
    "InvalidHand",
    "WinContext",
    "is_complete",
    "score_hand",
    "shanten",
    "tiles_to_win",
]

MIN_POINTS = 8
KNITTED_MASKS = tuple(kinds_mask(tiles) for tiles in KNITTED_SETS)
_NO_LIMIT = (0,) * 34  # "tiles already shown": none, so every kind may complete a shape


@dataclass(frozen=True)
class WinContext:
    """How the hand was won (docs/MCR-FANS.md, "How a hand is scored")."""

    win_tile: Kind
    self_drawn: bool = False
    last_tile: bool = False  # the winning tile is the last of its kind (other 3 visible)
    kong_related: bool = False  # kong replacement (self-drawn) / robbing a kong (discard)
    wall_last: bool = False  # won on the last tile of the wall (draw or discard)
    seat_wind: int = 0  # 0-3 = E S W N
    prevalent_wind: int = 0
    flowers: int = 0


@dataclass(frozen=True)
class FanScore:
    """The fans of the best reading, the total (flowers included) and whether it may win."""

    fans: tuple[tuple[str, int, int], ...]  # (name as docs/RULES.md B5, points each, count)
    total: int
    winning: bool  # complete hand AND total without flowers >= 8


FanDict = dict[Fan, int]


class _Hand:
    """Everything about a hand that does not depend on the reading (computed once)."""

    __slots__ = (
        "concealed_kongs",
        "ctx",
        "exposed",
        "hand13",
        "kong_kinds",
        "last_tile",
        "mask",
        "melded_chows",
        "melded_kongs",
        "melded_pungs",
        "n_melds",
        "open_melds",
        "tiles",
        "total",
        "wait_unique",
        "win",
    )

    def __init__(
        self, melds: Sequence[Meld], hand13: list[int], total: list[int], ctx: WinContext
    ) -> None:
        self.ctx = ctx
        self.win = int(ctx.win_tile)
        self.hand13 = hand13
        self.total = total
        self.n_melds = len(melds)
        self.melded_chows = tuple(m.first for m in melds if m.type is MeldType.CHOW)
        self.melded_pungs = tuple(m.first for m in melds if m.type is not MeldType.CHOW)
        self.kong_kinds = tuple(m.first for m in melds if m.type is MeldType.KONG)
        self.concealed_kongs = sum(1 for m in melds if m.type is MeldType.KONG and m.concealed)
        self.melded_kongs = len(self.kong_kinds) - self.concealed_kongs
        self.open_melds = sum(1 for m in melds if not m.concealed)
        self.exposed = self.open_melds > 0
        mask = present_mask(total)
        self.mask = mask
        self.tiles: FanDict = dict(tile_fans(mask, total, self.kong_kinds))
        if all_even(mask):
            self.tiles[Fan.ALL_EVEN_PUNGS] = 1  # kept only by four-pung readings
        if not melds and nine_gates(hand13):
            self.tiles[Fan.NINE_GATES] = 1
        self.wait_unique: bool | None = None
        # Last Tile: the other three copies are visible. Three of them in the hand's own
        # melds make it so whatever the caller says; another copy hidden in the hand rules
        # it out (only two could then be visible).
        in_melds = total[self.win] - hand13[self.win] - 1
        self.last_tile = in_melds == 3 or (ctx.last_tile and hand13[self.win] == 0)

    def single_wait_kind(self) -> bool:
        """Exactly one kind of tile completes the hand's shape (wait fans need it).

        Judged on the shape alone, as referees do: a kind whose copies are all visible, or
        all four in this hand, still counts as a second wait (docs/MCR-FANS.md).
        """
        if self.wait_unique is None:
            found = winning_kinds(list(self.hand13), self.n_melds, _NO_LIMIT, 2)
            self.wait_unique = len(found) == 1
        return self.wait_unique


def _context_fans(fans: FanDict, h: _Hand, concealed_by_nature: bool) -> None:
    """Self-Drawn, concealment and the fans of how the last tile came."""
    ctx = h.ctx
    concealed = not h.exposed and not concealed_by_nature
    if ctx.self_drawn:
        fans[Fan.FULLY_CONCEALED_HAND if concealed else Fan.SELF_DRAWN] = 1
        if ctx.wall_last:
            fans[Fan.LAST_TILE_DRAW] = 1
        if ctx.kong_related and h.kong_kinds:  # a replacement tile needs a kong of one's own
            fans[Fan.OUT_WITH_REPLACEMENT_TILE] = 1
    else:
        if concealed:
            fans[Fan.CONCEALED_HAND] = 1
        if ctx.wall_last:
            fans[Fan.LAST_TILE_CLAIM] = 1
        if ctx.kong_related and h.total[h.win] == 1:  # a robbed tile's 3 others are melded
            fans[Fan.ROBBING_THE_KONG] = 1
    if h.last_tile:
        fans[Fan.LAST_TILE] = 1


def _add(fans: FanDict, found: Sequence[tuple[Fan, int]]) -> None:
    for fan, count in found:
        fans[fan] = fans.get(fan, 0) + count


def _settle(fans: FanDict) -> tuple[int, FanDict]:
    """Drop excluded fans; return the total (without flowers) and the fans kept."""
    excluded: set[Fan] = set()
    for fan in fans:
        excluded.update(EXCLUDES[fan])
    kept = {f: n for f, n in fans.items() if f not in excluded}
    return sum(FAN_POINTS[f] * n for f, n in kept.items()), kept


def _is_terminal_set(chow_or_pung: int, chow: bool) -> bool:
    if chow:
        return chow_or_pung % 9 in (0, 6)
    return chow_or_pung >= 27 or chow_or_pung % 9 in (0, 8)


def _standard_fans(h: _Hand, r: Reading, win_pung_melded: bool, wait: Fan | None) -> FanDict:
    fans = dict(h.tiles)
    chows = tuple(sorted(h.melded_chows + r.chows))
    pungs = tuple(sorted(h.melded_pungs + r.pungs))
    pair = r.pair
    knitted = r.knitted >= 0
    _add(fans, chow_fans(chows))
    _add(fans, pung_fans(tuple(k for k in pungs if k < 27)))
    _add(fans, honor_fans(pungs, pair, h.ctx.seat_wind, h.ctx.prevalent_wind))
    for fan in kong_fans(h.melded_kongs, h.concealed_kongs):
        fans[fan] = 1
    hidden = len(r.pungs) - (1 if win_pung_melded else 0) + h.concealed_kongs
    hidden_fan = concealed_pung_fan(hidden)
    if hidden_fan is not None:
        fans[hidden_fan] = 1
    if knitted:
        fans[Fan.KNITTED_STRAIGHT] = 1
        if len(chows) == 1 and pair < 27:
            fans[Fan.ALL_CHOWS] = 1
    else:
        if len(pungs) == 4:
            fans[Fan.ALL_PUNGS] = 1
        elif len(chows) == 4:
            if pair < 27:
                fans[Fan.ALL_CHOWS] = 1
            _four_chow_shapes(fans, chows, pair)
        if (
            all(_is_terminal_set(c, True) for c in chows)
            and all(_is_terminal_set(p, False) for p in pungs)
            and _is_terminal_set(pair, False)
        ):
            fans[Fan.OUTSIDE_HAND] = 1
        if (
            pair < 27
            and pair % 9 == 4
            and all(c % 9 in (2, 3, 4) for c in chows)
            and all(p < 27 and p % 9 == 4 for p in pungs)
        ):
            fans[Fan.ALL_FIVES] = 1
    if Fan.ALL_EVEN_PUNGS in fans and len(pungs) != 4:
        del fans[Fan.ALL_EVEN_PUNGS]
    if h.open_melds == 4 and not h.ctx.self_drawn:
        fans[Fan.MELDED_HAND] = 1
    if wait is not None:
        fans[wait] = 1
    if Fan.NINE_GATES in fans and Fan.PUNG_OF_TERMINALS_OR_HONORS in fans:
        # The 111 (or 999) that Nine Gates is built on is no extra Pung of Terminals.
        fans[Fan.PUNG_OF_TERMINALS_OR_HONORS] -= 1
        if not fans[Fan.PUNG_OF_TERMINALS_OR_HONORS]:
            del fans[Fan.PUNG_OF_TERMINALS_OR_HONORS]
    nature = Fan.NINE_GATES in fans or Fan.FOUR_CONCEALED_PUNGS in fans
    _context_fans(fans, h, nature)
    return fans


def _four_chow_shapes(fans: FanDict, chows: tuple[int, ...], pair: int) -> None:
    """Pure Terminal Chows and Three-Suited Terminal Chows (four chows and a pair)."""
    a, b, c, d = chows
    if a == b and c == d and a % 9 == 0 and c == a + 6 and pair == a + 4:
        fans[Fan.PURE_TERMINAL_CHOWS] = 1
        return
    if pair < 27 and pair % 9 == 4:
        suits = sorted({x // 9 for x in chows})
        pair_suit = pair // 9
        if (
            len(suits) == 2
            and pair_suit not in suits
            and all(sorted(x % 9 for x in chows if x // 9 == s) == [0, 6] for s in suits)
        ):
            fans[Fan.THREE_SUITED_TERMINAL_CHOWS] = 1


def _win_slots(h: _Hand, r: Reading) -> set[tuple[bool, Fan | None]]:
    """(winning pung counts as melded, wait fan) for each place the winning tile can take."""
    w = h.win
    self_drawn = h.ctx.self_drawn
    slots: set[tuple[bool, Fan | None]] = set()
    waits: list[Fan] = []
    if r.pair == w:
        waits.append(Fan.SINGLE_WAIT)
    if w in r.pungs:
        slots.add((not self_drawn, None))
    for start in r.chows:
        if start <= w <= start + 2 and start // 9 == w // 9:
            pos = w - start
            if pos == 1:
                waits.append(Fan.CLOSED_WAIT)
            elif (pos == 2 and start % 9 == 0) or (pos == 0 and start % 9 == 6):
                waits.append(Fan.EDGE_WAIT)
            else:
                slots.add((False, None))
    if r.knitted >= 0 and w in KNITTED_SETS[r.knitted]:
        slots.add((False, None))
    if waits:
        if h.single_wait_kind():
            slots.update((False, fan) for fan in waits)
        else:
            slots.add((False, None))
    return slots


def _best(h: _Hand, concealed: list[int]) -> tuple[int, FanDict] | None:
    best: tuple[int, FanDict] | None = None
    readings = standard_readings(concealed)
    if h.n_melds <= 1 and any(h.mask & m == m for m in KNITTED_MASKS):
        readings += knitted_straight_readings(concealed)
    for reading in readings:
        for win_pung_melded, wait in _win_slots(h, reading):
            result = _settle(_standard_fans(h, reading, win_pung_melded, wait))
            if best is None or result[0] > best[0]:
                best = result
    if h.n_melds == 0 and (h.mask.bit_count() >= 7 or all(n % 2 == 0 for n in concealed)):
        for special in _special_fans(h, concealed):
            result = _settle(special)
            if best is None or result[0] > best[0]:
                best = result
    return best


def _special_fans(h: _Hand, c: list[int]) -> list[FanDict]:
    found: list[FanDict] = []
    shape: list[tuple[Fan, int]] = []
    if is_seven_pairs(c):
        shape = [(Fan.SEVEN_SHIFTED_PAIRS if is_seven_shifted_pairs(c) else Fan.SEVEN_PAIRS, 1)]
    elif is_thirteen_orphans(c):
        shape = [(Fan.THIRTEEN_ORPHANS, 1)]
    else:
        knit = honors_and_knitted(c)
        if knit == 2:
            shape = [(Fan.GREATER_HONORS_AND_KNITTED_TILES, 1)]
        elif knit == 1:
            shape = [(Fan.LESSER_HONORS_AND_KNITTED_TILES, 1)]
            if any(all(c[k] for k in tiles) for tiles in KNITTED_SETS):
                shape.append((Fan.KNITTED_STRAIGHT, 1))
    if shape:
        fans: FanDict = {
            f: n for f, n in h.tiles.items() if f not in (Fan.ALL_EVEN_PUNGS, Fan.NINE_GATES)
        }
        _add(fans, shape)
        _context_fans(fans, h, True)
        found.append(fans)
    return found


_WINDS = frozenset(range(4))
_FLOWERS = frozenset(range(9))


def _check_context(ctx: WinContext) -> None:
    if not 0 <= int(ctx.win_tile) < 34:
        raise InvalidHand(
            f"the winning tile must be a suit, wind or dragon tile, not {ctx.win_tile!r}"
        )
    if ctx.seat_wind not in _WINDS or ctx.prevalent_wind not in _WINDS:
        for name, value in (("seat_wind", ctx.seat_wind), ("prevalent_wind", ctx.prevalent_wind)):
            if value not in _WINDS:
                raise InvalidHand(f"{name} must be 0-3 (East, South, West, North), not {value!r}")
    if ctx.flowers not in _FLOWERS:
        raise InvalidHand(f"flowers must be 0-8, not {ctx.flowers!r}")


def score_hand(melds: Sequence[Meld], hand: Sequence[Kind], ctx: WinContext) -> FanScore:
    """Score melds + concealed ``hand`` (WITHOUT the winning tile) won on ``ctx.win_tile``.

    Raises ``InvalidHand`` for an impossible input; an incomplete hand scores
    ``FanScore((), 0, False)``.
    """
    _check_context(ctx)
    for m in melds:
        if not isinstance(m, Meld):
            raise InvalidHand(f"not a meld: {m!r}")
    win = int(ctx.win_tile)
    hand13, total = hand_counts(melds, hand, 0)
    if total[win] >= 4:
        raise InvalidHand(f"5 copies of {format_tiles([win])}: there are only 4")
    concealed = list(hand13)
    concealed[win] += 1
    total[win] += 1
    h = _Hand(melds, hand13, total, ctx)
    best = _best(h, concealed)
    if best is None:
        return FanScore((), 0, False)
    points, fans = best
    if points == 0:
        fans = {Fan.CHICKEN_HAND: 1}
        points = FAN_POINTS[Fan.CHICKEN_HAND]
    if ctx.flowers:
        fans[Fan.FLOWER_TILES] = ctx.flowers
    ordered = sorted(fans.items(), key=lambda item: (-FAN_POINTS[item[0]], item[0]))
    return FanScore(
        fans=tuple((FAN_NAME[f], FAN_POINTS[f], n) for f, n in ordered),
        total=points + ctx.flowers,
        winning=points >= MIN_POINTS,
    )
