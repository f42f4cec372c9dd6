"""Wall geometry (docs/RULES.md A3 and B3): every slot dealt or drawn exactly once."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.american.tileset import AMERICAN_SET, american_plan
from fourwinds.protocol.mcr.tileset import MCR_SET, mcr_plan
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import LiveWall, TileSet, WallSpec, dice_wall, ring_wall_index

die = st.integers(1, 6)


@given(die, die)
def test_a3_american_deal_every_tile_once_east_14_others_13_and_99_left(a: int, b: int) -> None:
    plan = american_plan((a, b))
    sizes = [len(hand) for hand in plan.deal]
    assert sizes == [14, 13, 13, 13]
    every = [slot for hand in plan.deal for slot in hand] + list(plan.live)
    assert sorted(every) == list(range(152))
    assert len(plan.live) == 99


@given(die, die, die, die)
def test_b3_mcr_deal_every_tile_once_east_14_others_13_and_91_left(
    a: int, b: int, c: int, d: int
) -> None:
    plan = mcr_plan((a, b, c, d))
    assert [len(hand) for hand in plan.deal] == [14, 13, 13, 13]
    every = [slot for hand in plan.deal for slot in hand] + list(plan.live)
    assert sorted(every) == list(range(144))
    assert len(plan.live) == 91


@given(die, die, die, die)
def test_b3_no_flowers_deal_every_tile_once_from_17_stacks_a_wall_and_83_left(
    a: int, b: int, c: int, d: int
) -> None:
    plan = mcr_plan((a, b, c, d), flowers=False)
    assert plan == MCR_SET.played(flowers=False).plan((a, b, c, d))
    assert plan.size == 136 and MCR_SET.played(flowers=False).size == 136
    assert [len(hand) for hand in plan.deal] == [14, 13, 13, 13]
    every = [slot for hand in plan.deal for slot in hand] + list(plan.live)
    assert sorted(every) == list(range(136))
    assert len(plan.live) == 83
    owner = dice_wall((a, b))  # the break counts on 17 stacks a wall
    assert plan.break_stack == (ring_wall_index(owner) * 17 + a + b + c + d) % 68


def test_b3_no_flowers_is_refused_for_an_american_wall() -> None:
    with pytest.raises(ValueError, match="American wall always has its flowers"):
        AMERICAN_SET.played(flowers=False).plan((3, 4))


def test_a3_american_break_sets_aside_stacks_drawn_last() -> None:
    plan = american_plan((3, 4))  # 7 stacks set aside at the right end of East's wall
    assert plan.break_stack == 7
    assert plan.deal[Seat.EAST][:4] == (14, 15, 16, 17)  # two stacks just left of the break
    set_aside = list(range(0, 14))
    assert list(plan.live[-14:]) == set_aside


def test_a3_american_jump_takes_tops_of_first_and_third_stack() -> None:
    plan = american_plan((1, 1))
    first = 2 + 24  # stacks 2..25 dealt 4-4-4 (48 tiles); the next stacks are 26, 27, 28
    assert plan.deal[Seat.EAST][-2:] == (2 * first, 2 * (first + 2))
    assert plan.deal[Seat.SOUTH][-1] == 2 * first + 1
    assert plan.deal[Seat.WEST][-1] == 2 * (first + 1)
    assert plan.deal[Seat.NORTH][-1] == 2 * (first + 1) + 1
    assert plan.live[0] == 2 * (first + 2) + 1  # the bottom of the third stack comes next


def test_a3_american_walls_go_out_to_the_left_of_east() -> None:
    # After East's wall (stacks 0-18) the next stacks are North's wall (19-37).
    plan = american_plan((6, 6))  # East's wall keeps stacks 12..18 after the break
    assert plan.deal[Seat.NORTH][:4] == (36, 37, 38, 39)  # East's last stack, then North's first
    assert [slot // 2 for slot in plan.live[-2:]] == [11, 11]


@pytest.mark.parametrize(
    ("two", "owner"),
    [
        ((1, 1), Seat.SOUTH),
        ((2, 3), Seat.EAST),
        ((1, 2), Seat.WEST),
        ((2, 2), Seat.NORTH),
        ((6, 6), Seat.NORTH),
        ((5, 6), Seat.WEST),
    ],
)
def test_b3_mcr_dice_choose_the_wall_counter_clockwise(two: tuple[int, int], owner: Seat) -> None:
    assert dice_wall(two) == owner


def test_b3_mcr_break_counts_from_the_right_end_of_the_chosen_wall() -> None:
    plan = mcr_plan((1, 1, 3, 3))  # 2 -> South's wall (ring stacks 54..71); sum 8
    assert plan.break_stack == 54 + 8
    assert plan.deal[Seat.EAST][0] == 2 * 62


def test_b3_mcr_replacement_tiles_come_from_the_far_end() -> None:
    plan = mcr_plan((1, 2, 3, 4))
    wall = LiveWall(plan.live)
    slot, wall = wall.draw_back()
    assert slot == plan.live[-1]
    front, wall = wall.draw_front()
    assert front == plan.live[0]
    assert wall.remaining == 89


def test_live_wall_exhausts() -> None:
    wall = LiveWall((1, 2, 3))
    _, wall = wall.draw_front()
    _, wall = wall.draw_back()
    _, wall = wall.draw_front()
    assert wall.remaining == 0
    with pytest.raises(IndexError):
        wall.draw_front()


def test_a_plan_checks_its_dice() -> None:
    assert AMERICAN_SET.plan((2, 5)).tiles is AMERICAN_SET
    with pytest.raises(ValueError):
        MCR_SET.plan((2, 5))
    with pytest.raises(ValueError):
        american_plan((0, 7))


DEAL_TAIL = (Seat.EAST, Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH)
FOUR_OF_EACH = tuple(Kind(k) for k in range(34) for _ in range(4))


def test_a_tile_set_or_wall_that_cannot_deal_is_refused_when_made() -> None:
    """A house rule set's tile set is checked where it is declared: its module does not
    import, and the registry refuses it by name, instead of a table dealing wrongly."""
    spec = WallSpec(break_dice=4, dice_choose_wall=True, last_tiles=DEAL_TAIL)
    with pytest.raises(ValueError, match="four sides of stacks of two"):
        TileSet("house", "House", FOUR_OF_EACH[:-4], spec)  # 132 tiles: not four equal sides
    with pytest.raises(ValueError, match="four sides of stacks of two"):
        TileSet("house", "House", FOUR_OF_EACH[:48], spec)  # fewer than the deal takes
    with pytest.raises(ValueError, match="not a face"):
        TileSet("house", "House", (*FOUR_OF_EACH[:-1], Kind.HIDDEN), spec)
    with pytest.raises(ValueError, match="two to East and one to each other seat"):
        WallSpec(4, True, (Seat.EAST, Seat.SOUTH, Seat.SOUTH, Seat.WEST, Seat.NORTH))
    with pytest.raises(ValueError, match="two dice choose the wall"):
        WallSpec(1, True, DEAL_TAIL)
    with pytest.raises(ValueError, match="1 to 8 dice"):
        WallSpec(0, False, DEAL_TAIL)
    with pytest.raises(ValueError, match="without flowers holds flower tiles"):
        TileSet("house", "House", MCR_SET.kinds, spec, without_flowers=MCR_SET)
    other = WallSpec(break_dice=2, dice_choose_wall=False, last_tiles=DEAL_TAIL)
    with pytest.raises(ValueError, match="one WallSpec"):
        TileSet(
            "house",
            "House",
            MCR_SET.kinds,
            spec,
            without_flowers=TileSet("house", "House", FOUR_OF_EACH, other),
        )


def test_a_set_with_no_flower_tiles_is_its_own_set_without_them() -> None:
    spec = WallSpec(break_dice=2, dice_choose_wall=False, last_tiles=DEAL_TAIL)
    plain = TileSet("house", "House", FOUR_OF_EACH, spec)
    assert not plain.has_flowers and plain.played(flowers=False) is plain
    assert plain.stacks_per_wall == 17 and plain.copies(Kind.EAST) == 4
    assert MCR_SET.played(flowers=True) is MCR_SET and MCR_SET.copies(Kind.FLOWER_1) == 1
    assert AMERICAN_SET.copies(Kind.JOKER) == 8 and AMERICAN_SET.stacks_per_wall == 19
    with pytest.raises(ValueError, match="expected 2 dice of 1-6"):
        plain.plan((1, 2, 3, 4))
    assert plain.plan((3, 4)).break_stack == 7  # East's own wall: the dice choose none
