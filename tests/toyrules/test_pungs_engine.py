"""The "Pungs and a pair" engine on its own: what wins, what is refused and why, and that
the same actions give every seat the same public state."""

from __future__ import annotations

import pytest

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from . import engine as E


def kinds(text: str) -> list[Kind]:
    return list(parse_tiles(text))


def test_four_pungs_and_a_pair_win_and_nothing_else_does() -> None:
    assert E.pungs_and_pair(kinds("111m 222p 333s 444z 55z"))
    assert E.pungs_and_pair(kinds("111m 55z"))  # after three laid-out pungs
    assert not E.pungs_and_pair(kinds("123m 222p 333s 444z 55z"))  # a chow
    assert not E.pungs_and_pair(kinds("11m 22p 33s 44z 55z 66z 77z"))  # pairs only
    assert not E.pungs_and_pair(kinds("111m 222p 333s 444z 5z 6z"))
    assert not E.pungs_and_pair([Kind.HIDDEN] * 2)


def _hand(deal: dict[Seat, str], live: str = "9m 9p 9s") -> E.HandState:
    """A hand whose faces are all known, dealt ``deal`` (slots numbered in order)."""
    faces: list[Kind] = []
    slots: list[list[int]] = []
    for seat in SEATS:
        tiles = kinds(deal[seat])
        slots.append(list(range(len(faces), len(faces) + len(tiles))))
        faces.extend(tiles)
    rest = kinds(live)
    wall = list(range(len(faces), len(faces) + len(rest)))
    faces.extend(rest)
    state, events = E.new_hand(len(faces), slots, wall)
    assert [type(e) for e in events] == [E.Dealt] * 4
    return E.learn(state, dict(enumerate(faces)))


DEAL = {
    Seat.EAST: "111m 222p 333s 444z 5z 6z",
    Seat.SOUTH: "5z 5z 1p 3p 5p 7p 9p 1s 3s 5s 7s 9s 7z",
    Seat.WEST: "2m 3m 4m 5m 6m 7m 8m 9m 1p 2s 4s 6s 8s",
    Seat.NORTH: "6z 6z 3m 4p 6p 8p 2z 3z 1z 7m 8m 9m 4s",
}


def _discard(s: E.HandState, seat: Seat, text: str) -> E.HandState:
    face = kinds(text)[0]
    slot = next(x for x in s.seats[seat].hand if s.faces[x] == face)
    return E.apply(s, E.Discard(seat, slot, face))[0]


def test_a_pung_is_the_only_call_and_the_nearest_one_takes_the_discard() -> None:
    s = _discard(_hand(DEAL), Seat.EAST, "5z")
    assert E.awaiting(s) == (Seat.SOUTH, Seat.WEST, Seat.NORTH)
    south = E.legal_actions(s, Seat.SOUTH)
    assert [type(a) for a in south] == [E.Pass, E.Pung]  # no chow, no win call
    assert [type(a) for a in E.legal_actions(s, Seat.WEST)] == [E.Pass]
    s, events = E.apply(s, south[1])
    assert events == ()
    s = E.apply(s, E.Pass(Seat.WEST))[0]
    s, events = E.apply(s, E.Pass(Seat.NORTH))
    assert [type(e) for e in events] == [E.Punged]
    assert s.turn == Seat.SOUTH and s.called and s.drawn is None
    assert E.awaiting(s) == (Seat.SOUTH,)
    assert len(s.seats[Seat.SOUTH].melds) == 1 and len(s.seats[Seat.SOUTH].hand) == 11


def _all_pass(s: E.HandState) -> E.HandState:
    for seat in E.awaiting(s):
        assert E.legal_actions(s, seat) == (E.Pass(seat),)  # nobody holds a pair of it
        s = E.apply(s, E.Pass(seat))[0]
    return s


def test_mahjong_on_a_draw_pays_the_one_fan_from_each_player() -> None:
    deal = {**DEAL, Seat.NORTH: "1z 2z 3z 3m 4p 6p 8p 7m 8m 9m 4s 1s 2s"}
    s = _all_pass(_discard(_hand(deal, live="9m 9p 9s 5z"), Seat.EAST, "6z"))
    for _ in range(3):  # South, West and North throw what they draw
        assert s.drawn is not None and E.awaiting(s) == (s.turn,)
        s = _all_pass(E.apply(s, E.Discard(s.turn, s.drawn, s.faces[s.drawn]))[0])
    assert s.turn == Seat.EAST
    win = E.legal_actions(s, Seat.EAST)[0]
    assert isinstance(win, E.Mahjong)
    s, events = E.apply(s, win)
    assert events == (E.Won(Seat.EAST, s.seats[Seat.EAST].hand, True, (24, -8, -8, -8)),)
    assert s.result == E.Result(Seat.EAST, True, (24, -8, -8, -8))
    assert E.awaiting(s) == () and E.legal_actions(s, Seat.SOUTH) == ()


def test_an_empty_wall_is_a_draw_nobody_pays() -> None:
    s = _hand(DEAL, live="")
    s = _discard(s, Seat.EAST, "1m")
    for seat in (Seat.SOUTH, Seat.WEST, Seat.NORTH):
        s, events = E.apply(s, E.Pass(seat))
    assert s.phase is E.Phase.ENDED and events == (E.WallEmpty(),)
    assert s.result == E.Result(None, False, (0, 0, 0, 0))
    with pytest.raises(IllegalAction, match="the hand is over"):
        E.apply(s, E.Pass(Seat.SOUTH))


def test_the_public_digest_leaves_private_faces_out() -> None:
    seen = _hand(DEAL)
    hidden = E.learn(seen, {})
    blind = E.HandState(
        (Kind.HIDDEN,) * len(seen.faces), seen.seats, seen.live, seen.phase, seen.turn
    )
    assert E.public_digest(blind) == E.public_digest(hidden)
    after_seen = _discard(seen, Seat.EAST, "5z")
    face = kinds("5z")[0]
    slot = next(x for x in seen.seats[Seat.EAST].hand if seen.faces[x] == face)
    after_blind = E.apply(blind, E.Discard(Seat.EAST, slot, face))[0]
    assert E.public_digest(after_blind) == E.public_digest(after_seen)
