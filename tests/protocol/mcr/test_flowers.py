"""Flowers and seasons (docs/RULES.md B3): exposed and replaced from the far end of the wall."""

from __future__ import annotations

import pytest

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.actions import ClaimWin, Discard, ExposeFlower, FlowersDone
from fourwinds.protocol.mcr.engine import apply, legal_actions
from fourwinds.protocol.mcr.events import DrawSource, TileDrawn
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.wins import reveal_of
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.tiles import Kind

from .rig import discard, pass_others, rig, slot_of

E, S, W, N = SEATS
EAST = "1f 4m 1m9m 1p9p 1s9s 1z2z 5z6z7z 5p"
SOUTH = "2f 2m2m 3s3s 6s6s 7s7s 8s8s 9m 4p"


def opening() -> HandState:
    return rig({E: EAST, S: SOUTH}, back="3z 5f 4z", start=False)


def expose(state: HandState, seat: int, kind: Kind) -> tuple[HandState, list[TileDrawn]]:
    seat_ = SEATS[seat]
    state, events = apply(state, ExposeFlower(seat_, slot_of(state, seat_, kind), kind))
    return state, [e for e in events if isinstance(e, TileDrawn)]


def test_b3_flowers_at_the_start_east_first_replaced_from_the_far_end() -> None:
    state = opening()
    live = state.wall.live
    assert state.phase is Phase.FLOWERS and state.turn is E
    assert legal_actions(state, S) == ()
    with pytest.raises(IllegalAction, match="own turn"):
        apply(state, ExposeFlower(S, slot_of(state, S, Kind.FLOWER_2), Kind.FLOWER_2))
    state, drawn = expose(state, 0, Kind.FLOWER_1)
    assert drawn[0].slot == live[-1] and drawn[0].source is DrawSource.FLOWER_REPLACEMENT
    assert state.faces[live[-1]] == Kind.WEST
    state, _ = apply(state, FlowersDone(E))
    assert state.turn is S
    state, drawn = expose(state, 1, Kind.FLOWER_2)
    assert drawn[0].slot == live[-2] and state.faces[live[-2]] == Kind.SEASON_1
    # the replacement is a season again: South must expose it before finishing
    with pytest.raises(IllegalAction, match="still hold"):
        apply(state, FlowersDone(S))
    state, drawn = expose(state, 1, Kind.SEASON_1)
    assert drawn[0].slot == live[-3]
    for seat in (S, W, N):
        state, _ = apply(state, FlowersDone(seat))
    assert state.phase is Phase.TURN and state.turn is E
    assert [len(state.seats[s].flowers) for s in SEATS] == [1, 2, 0, 0]
    assert len(state.seats[E].hand) == 14 and len(state.seats[S].hand) == 13
    assert state.wall.remaining == 91 - 3


def test_b3_flower_drawn_later_is_exposed_and_replaced() -> None:
    state = rig({E: "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z"}, front="7f", back="6z")
    state = pass_others(discard(state, E, "5p"))
    flower = state.drawn
    assert flower is not None and state.faces[flower] == Kind.SEASON_3
    with pytest.raises(IllegalAction, match="never discarded"):
        apply(state, Discard(S, flower, Kind.SEASON_3))
    assert ExposeFlower(S, flower, Kind.SEASON_3) in legal_actions(state, S)
    state, events = apply(state, ExposeFlower(S, flower, Kind.SEASON_3))
    drawn = [e for e in events if isinstance(e, TileDrawn)]
    assert drawn[0].slot == state.wall.live[-1] and state.drawn == drawn[0].slot
    assert state.seats[S].flowers == (flower,)


def test_b3_only_flowers_can_be_exposed() -> None:
    state = opening()
    slot = slot_of(state, E, Kind.M4)
    with pytest.raises(IllegalAction, match="not a flower"):
        apply(state, ExposeFlower(E, slot, Kind.M4))


def _north_with_flowers(north: str, replacements: str) -> HandState:
    """North is dealt three flowers and replaces them; then East discards 5p."""
    state = rig({E: "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z", N: north}, back=replacements, start=False)
    for seat in SEATS:
        while True:
            flowers = [s for s in state.seats[seat].hand if state.faces[s] >= Kind.FLOWER_1]
            if not flowers:
                break
            state, _ = apply(state, ExposeFlower(seat, flowers[0], state.faces[flowers[0]]))
        state, _ = apply(state, FlowersDone(seat))
    return discard(state, E, "5p")


def test_b5_flowers_do_not_count_toward_the_8_points() -> None:
    # 5 points of fans and 3 flowers: 8 in total, but not a winning hand
    state = _north_with_flowers("1f2f3f 123m234p678s5p", "2m3m4m")
    assert len(state.seats[N].flowers) == 3
    with pytest.raises(IllegalAction, match="only 5 points without flowers"):
        apply(state, ClaimWin(N, reveal_of(state, N)))


def test_b5_flowers_are_added_to_a_winning_total() -> None:
    state = _north_with_flowers("1f2f3f 123456789m4p", "6p5s5s")
    state, _ = apply(state, ClaimWin(N, reveal_of(state, N)))
    state = pass_others(state)
    assert state.result is not None and state.result.winner is N
    assert ("Flower Tiles", 1, 3) in state.result.fans
    fans_only = sum(p * n for name, p, n in state.result.fans if name != "Flower Tiles")
    assert state.result.total == fans_only + 3
    assert state.result.payments[E] == -(state.result.total + 8)
