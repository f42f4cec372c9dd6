"""Wall geometry as pure functions: where every tile is dealt and drawn from.

The four walls form a ring of stacks of two tiles. A *slot* is one tile position in that ring:
``slot = 2 * stack + level`` with level 0 the top tile and 1 the bottom. Stacks are numbered in
the direction tiles are taken: East's wall first, from its right end (as East sees it) to its
left end, then the wall of the player on East's left (North), then West's, then South's. So
with ``n`` stacks per wall, North's wall is stacks ``n..2n-1``, West's ``2n..3n-1`` and South's
``3n..4n-1``. The fair deck shuffles *tiles into slots*; this module only says which slot goes
to whom and when, from the dice.

American (RULES.md A3): East's two dice ``d`` separate ``d`` stacks at the right end of East's
wall; dealing starts at the next stack and those ``d`` stacks are drawn last. The deal is 4-4-4
(two stacks at a time, E S W N, three rounds), then East's jump (tops of the 1st and 3rd next
stacks), South the bottom of the 1st, West the top of the 2nd, North the bottom of the 2nd.
Drawing then continues where dealing stopped, top before bottom.

MCR (RULES.md B3): East's two dice pick the wall (1, 5, 9 East; 2, 6, 10 South; 3, 7, 11 West;
4, 8, 12 North, counted counter-clockwise); the sum of those and two more dice rolled by the
wall's owner counts stacks from that wall's right end (running onto the next wall past 18).
Dealing starts at the next stack: two stacks each E S W N three times, then East two tiles and
South, West, North one each. Replacement tiles (flowers, kongs) come from the other end: the
last tile of the wall in draw order. Without flowers (the MCR table option ``flowers`` off,
protocol/mcr/config.py) the 136 tiles stand in walls of 17 stacks: the same deal, counted on
17 stacks a wall (running onto the next wall past 17).
"""

from __future__ import annotations

from dataclasses import dataclass

from .seats import Seat
from .tiles import RuleSet

AMERICAN_STACKS_PER_WALL = 19
MCR_STACKS_PER_WALL = 18
MCR_NO_FLOWERS_STACKS_PER_WALL = 17


def stacks_per_wall(ruleset: RuleSet, *, flowers: bool = True) -> int:
    """19 American, 18 MCR, 17 MCR without flowers (``ValueError`` for American without)."""
    if ruleset is RuleSet.AMERICAN:
        if not flowers:
            raise ValueError("an American wall always has its flowers")
        return AMERICAN_STACKS_PER_WALL
    return MCR_STACKS_PER_WALL if flowers else MCR_NO_FLOWERS_STACKS_PER_WALL


def wall_size(ruleset: RuleSet, *, flowers: bool = True) -> int:
    """Tiles in the whole wall: 152 American, 144 MCR, 136 MCR without flowers."""
    return 8 * stacks_per_wall(ruleset, flowers=flowers)


def ring_wall_index(seat: Seat) -> int:
    """Position of a seat's wall in the ring: East 0, North 1, West 2, South 3."""
    return (-int(seat)) % 4


@dataclass(frozen=True)
class WallPlan:
    """Who gets which slot at the deal, and the order of the rest.

    ``deal[seat]`` lists the slots dealt to that seat, in dealing order (East 14, others 13).
    ``live`` lists the undealt slots in draw order: play draws from the front; MCR replacement
    tiles come from the back. ``break_stack`` is the ring stack where dealing started.
    ``flowers``: False for an MCR wall without its flowers and seasons (136 slots).
    """

    ruleset: RuleSet
    dice: tuple[int, ...]
    break_stack: int
    deal: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    live: tuple[int, ...]
    flowers: bool = True

    @property
    def size(self) -> int:
        return wall_size(self.ruleset, flowers=self.flowers)


def _check_dice(dice: tuple[int, ...], count: int) -> None:
    if len(dice) != count or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"expected {count} dice of 1-6, got {dice!r}")


def _slots_from(start_stack: int, total_stacks: int) -> list[int]:
    """Every slot in draw order, starting at ``start_stack`` and wrapping round the ring."""
    order: list[int] = []
    for offset in range(total_stacks):
        stack = (start_stack + offset) % total_stacks
        order.extend((2 * stack, 2 * stack + 1))
    return order


def american_plan(dice: tuple[int, int]) -> WallPlan:
    """The American deal for East's two dice (RULES.md A3)."""
    _check_dice(dice, 2)
    n = AMERICAN_STACKS_PER_WALL
    break_stack = sum(dice)  # that many stacks set aside from the right end of East's wall
    order = _slots_from(break_stack, 4 * n)
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _round in range(3):
        for seat in range(4):
            hands[seat].extend(order[pos : pos + 4])
            pos += 4
    # The jump: next stacks a, b, c (slots pos.. pos+5, top then bottom).
    a_top, a_bottom, b_top, b_bottom, c_top = (order[pos + i] for i in range(5))
    hands[Seat.EAST].extend((a_top, c_top))
    hands[Seat.SOUTH].append(a_bottom)
    hands[Seat.WEST].append(b_top)
    hands[Seat.NORTH].append(b_bottom)
    taken = {a_top, a_bottom, b_top, b_bottom, c_top}
    live = tuple(s for s in order[pos:] if s not in taken)
    deal = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))
    return WallPlan(RuleSet.AMERICAN, tuple(dice), break_stack, deal, live)


def mcr_break_wall(first_two: tuple[int, int]) -> Seat:
    """Whose wall East's two dice break: counted counter-clockwise with East as 1."""
    _check_dice(first_two, 2)
    return Seat((sum(first_two) - 1) % 4)


def mcr_plan(dice: tuple[int, int, int, int], *, flowers: bool = True) -> WallPlan:
    """The MCR deal for East's two dice and the wall owner's two dice (RULES.md B3);
    ``flowers=False``: the 136-tile wall of 17 stacks a side."""
    _check_dice(dice, 4)
    n = stacks_per_wall(RuleSet.MCR, flowers=flowers)
    owner = mcr_break_wall((dice[0], dice[1]))
    break_stack = (ring_wall_index(owner) * n + sum(dice)) % (4 * n)
    order = _slots_from(break_stack, 4 * n)
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _round in range(3):
        for seat in range(4):
            hands[seat].extend(order[pos : pos + 4])
            pos += 4
    hands[Seat.EAST].extend(order[pos : pos + 2])
    pos += 2
    for seat in (Seat.SOUTH, Seat.WEST, Seat.NORTH):
        hands[seat].append(order[pos])
        pos += 1
    deal = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))
    return WallPlan(RuleSet.MCR, tuple(dice), break_stack, deal, tuple(order[pos:]), flowers)


def break_dice_count(ruleset: RuleSet) -> int:
    """How many dice break the wall: East's two (American, A3), or East's two and the wall
    owner's two (MCR, B3). The wall's geometry says it, with the plan the dice make."""
    return 2 if ruleset is RuleSet.AMERICAN else 4


def plan_for(ruleset: RuleSet, dice: tuple[int, ...], *, flowers: bool = True) -> WallPlan:
    """The deal plan for either rule set (2 dice American, 4 dice MCR); ``flowers=False``:
    MCR's wall without flowers (``ValueError`` for American)."""
    if ruleset is RuleSet.AMERICAN:
        if len(dice) != 2:
            raise ValueError("American breaks the wall with 2 dice")
        if not flowers:
            raise ValueError("an American wall always has its flowers")
        return american_plan((dice[0], dice[1]))
    if len(dice) != 4:
        raise ValueError("MCR breaks the wall with 4 dice")
    return mcr_plan((dice[0], dice[1], dice[2], dice[3]), flowers=flowers)


@dataclass(frozen=True)
class LiveWall:
    """The undealt part of a wall during play: ``front`` tiles drawn, ``back`` replacements.

    Immutable: ``draw_front`` and ``draw_back`` return the slot and the new wall.
    """

    live: tuple[int, ...]
    front: int = 0
    back: int = 0

    @property
    def remaining(self) -> int:
        return len(self.live) - self.front - self.back

    def draw_front(self) -> tuple[int, LiveWall]:
        if self.remaining <= 0:
            raise IndexError("the wall is exhausted")
        return self.live[self.front], LiveWall(self.live, self.front + 1, self.back)

    def draw_back(self) -> tuple[int, LiveWall]:
        if self.remaining <= 0:
            raise IndexError("the wall is exhausted")
        slot = self.live[len(self.live) - 1 - self.back]
        return slot, LiveWall(self.live, self.front, self.back + 1)

    def peek_front(self) -> int:
        if self.remaining <= 0:
            raise IndexError("the wall is exhausted")
        return self.live[self.front]

    def next_back(self) -> int:
        if self.remaining <= 0:
            raise IndexError("the wall is exhausted")
        return self.live[len(self.live) - 1 - self.back]

    def in_last_wall(self, stacks_per_wall: int) -> bool:
        """True once no more than one wall's worth of tiles is left (for the hot-wall option)."""
        return self.remaining <= 2 * stacks_per_wall
