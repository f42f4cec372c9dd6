"""Tile sets and wall geometry as pure values: what tiles a wall holds, where every tile is
dealt and drawn from.

A rule set declares its ``TileSet`` in its own folder (``protocol/<rules>/tileset.py``): the
kind of every physical tile id, and its ``WallSpec`` (how many dice break the wall, whose wall
they break, who takes the last tiles of the deal). This module only does the arithmetic every
such wall shares, so a new tile set or deal is a value in a rule folder, not a branch here.

The four walls form a ring of stacks of two tiles. A *slot* is one tile position in that ring:
``slot = 2 * stack + level`` with level 0 the top tile and 1 the bottom. Stacks are numbered in
the direction tiles are taken: East's wall first, from its right end (as East sees it) to its
left end, then the wall of the player on East's left (North), then West's, then South's. So
with ``n`` stacks per wall (a set of ``8 * n`` tiles), North's wall is stacks ``n..2n-1``,
West's ``2n..3n-1`` and South's ``3n..4n-1``. The fair deck shuffles *tiles into slots*; this
module only says which slot goes to whom and when, from the dice.

The break: the sum of all the break dice counts stacks from the right end of the broken wall
(running onto the next wall past its end): East's own wall, or, when the first two dice choose
it (``WallSpec.dice_choose_wall``), the wall they count to counter-clockwise with East as 1
(1, 5, 9 East; 2, 6, 10 South; 3, 7, 11 West; 4, 8, 12 North). Dealing starts at the next
stack: two stacks each to East, South, West and North, three times; then the next five tiles
(top before bottom) go to the seats ``WallSpec.last_tiles`` names, East two and the others one.
Drawing continues where dealing stopped, top before bottom; replacement tiles (flowers, kongs)
come from the other end: the last tile of the wall in draw order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .seats import SEATS, Seat
from .tiles import Kind, is_bonus

DEAL_ROUNDS = 3
"""Rounds of two stacks (four tiles) to each seat before the last tiles of the deal."""

LAST_TILES = 5
"""Tiles dealt after the rounds: East two (14 in all), every other seat one (13)."""

DEALT = 4 * 4 * DEAL_ROUNDS + LAST_TILES
"""Tiles the deal takes from the wall (53)."""


def ring_wall_index(seat: Seat) -> int:
    """Position of a seat's wall in the ring: East 0, North 1, West 2, South 3."""
    return (-int(seat)) % 4


def _check_dice(dice: tuple[int, ...], count: int) -> None:
    if len(dice) != count or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"expected {count} dice of 1-6, got {dice!r}")


def dice_wall(first_two: tuple[int, int]) -> Seat:
    """Whose wall two dice break when they choose it: counted counter-clockwise with East as
    1 (docs/RULES.md B3)."""
    _check_dice(first_two, 2)
    return Seat((sum(first_two) - 1) % 4)


@dataclass(frozen=True)
class WallSpec:
    """How a rule set breaks its wall and deals from it (the module docstring tells the
    shared part). Checked when made, so a house rule set's wall is refused where it enters
    (its module does not import) rather than dealing wrongly at a table.

    ``break_dice``: how many dice break the wall; their sum counts the stacks.
    ``dice_choose_wall``: the first two of them choose whose wall breaks (else East's).
    ``last_tiles``: who takes each of the five tiles after the three rounds, in draw order.
    """

    break_dice: int
    dice_choose_wall: bool
    last_tiles: tuple[Seat, Seat, Seat, Seat, Seat]

    def __post_init__(self) -> None:
        if not 1 <= self.break_dice <= 8:
            raise ValueError(f"a wall is broken with 1 to 8 dice, not {self.break_dice}")
        if self.dice_choose_wall and self.break_dice < 2:
            raise ValueError("two dice choose the wall: it needs at least two break dice")
        taken = Counter(Seat(s) for s in self.last_tiles)
        if len(self.last_tiles) != LAST_TILES or taken != Counter(
            {Seat.EAST: 2, Seat.SOUTH: 1, Seat.WEST: 1, Seat.NORTH: 1}
        ):
            raise ValueError(
                "the last five tiles of the deal go two to East and one to each"
                f" other seat, not {self.last_tiles!r}"
            )


@dataclass(frozen=True)
class TileSet:
    """A rule set's physical tiles and how they stand in the wall.

    ``kinds[tile_id]`` is the kind of every physical tile (several share a kind: four 3
    Craks); the wall has ``len(kinds) // 8`` stacks a side. ``name`` is the rules name of the
    rule set that declares it: a table adapter registered alone (``registry.register_rules``)
    borrows that rule set's view, seating and sheet. ``title`` names it in refusals.
    ``without_flowers``: the set a table plays when it leaves the flower tiles out (None: it
    cannot; a set with no flower tiles is its own set without them), broken and dealt by the
    same ``WallSpec`` on its fewer stacks.
    """

    name: str
    title: str
    kinds: tuple[Kind, ...]
    wall: WallSpec
    without_flowers: TileSet | None = None

    def __post_init__(self) -> None:
        size = len(self.kinds)
        if size % 8 or size <= DEALT:
            raise ValueError(
                f"the {self.title} wall needs four sides of stacks of two and more"
                f" than the deal's {DEALT} tiles, not {size}"
            )
        if any(not isinstance(k, Kind) or k is Kind.HIDDEN for k in self.kinds):
            raise ValueError(f"the {self.title} set holds a tile that is not a face")
        bare = self.without_flowers
        if bare is not None and bare.has_flowers:
            raise ValueError(f"the {self.title} set without flowers holds flower tiles")
        if bare is not None and bare.wall != self.wall:
            # the table rolls the break dice (deck/dice.break_dice) before it reads the wall
            raise ValueError(
                f"the {self.title} set without flowers is broken and dealt as"
                " the set is: one WallSpec"
            )

    @property
    def size(self) -> int:
        """Tiles in the whole wall."""
        return len(self.kinds)

    @property
    def stacks_per_wall(self) -> int:
        return len(self.kinds) // 8

    @property
    def has_flowers(self) -> bool:
        """Whether any tile is a flower or season (``tiles.is_bonus``)."""
        return any(is_bonus(k) for k in self.kinds)

    def played(self, *, flowers: bool) -> TileSet:
        """The set a table plays: this one, or without its flowers (``ValueError`` when the
        set cannot leave them out)."""
        if flowers or not self.has_flowers:
            return self
        if self.without_flowers is None:
            raise ValueError(f"the {self.title} wall always has its flowers")
        return self.without_flowers

    def copies(self, kind: int) -> int:
        """How many physical tiles of a kind the set has."""
        return self.kinds.count(Kind(kind))

    def plan(self, dice: tuple[int, ...]) -> WallPlan:
        """The deal plan for the break dice (``ValueError`` for the wrong number of dice or
        a die outside 1-6)."""
        return plan(self, dice)


@dataclass(frozen=True)
class WallPlan:
    """Who gets which slot at the deal, and the order of the rest.

    ``deal[seat]`` lists the slots dealt to that seat, in dealing order (East 14, others 13).
    ``live`` lists the undealt slots in draw order: play draws from the front; replacement
    tiles come from the back. ``break_stack`` is the ring stack where dealing started.
    ``tiles``: the tile set (with or without flowers) whose wall this is.
    """

    tiles: TileSet
    dice: tuple[int, ...]
    break_stack: int
    deal: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    live: tuple[int, ...]

    @property
    def size(self) -> int:
        return self.tiles.size


def _slots_from(start_stack: int, total_stacks: int) -> list[int]:
    """Every slot in draw order, starting at ``start_stack`` and wrapping round the ring."""
    order: list[int] = []
    for offset in range(total_stacks):
        stack = (start_stack + offset) % total_stacks
        order.extend((2 * stack, 2 * stack + 1))
    return order


def plan(tiles: TileSet, dice: tuple[int, ...]) -> WallPlan:
    """The deal plan of a tile set's wall for its break dice (the module docstring)."""
    spec, n = tiles.wall, tiles.stacks_per_wall
    _check_dice(tuple(dice), spec.break_dice)
    owner = dice_wall((dice[0], dice[1])) if spec.dice_choose_wall else Seat.EAST
    break_stack = (ring_wall_index(owner) * n + sum(dice)) % (4 * n)
    order = _slots_from(break_stack, 4 * n)
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _round in range(DEAL_ROUNDS):
        for seat in SEATS:
            hands[seat].extend(order[pos : pos + 4])
            pos += 4
    for seat in spec.last_tiles:
        hands[seat].append(order[pos])
        pos += 1
    deal = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))
    return WallPlan(tiles, tuple(dice), break_stack, deal, tuple(order[pos:]))


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

    def in_last_wall(self, stacks_per_wall: int) -> bool:
        """True once no more than one wall's worth of tiles is left (for the hot-wall option)."""
        return self.remaining <= 2 * stacks_per_wall
