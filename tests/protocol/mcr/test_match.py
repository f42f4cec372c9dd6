"""The match (docs/RULES.md B2): 16 hands in 4 rounds, seat winds and seat changes, scores."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.bots import choose
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.match import (
    HandRecord,
    MatchState,
    call_time,
    new_match,
    play,
    player_at,
    prevalent_wind,
    seat_winds,
    start_hand,
    tick,
    winds_from_rolls,
)
from fourwinds.protocol.mcr.state import HandResult
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.seats import SEATS, Seat

E, S, W, N = SEATS


def match_for(drawn: tuple[int, int, int, int] = (0, 1, 2, 3)) -> MatchState:
    return new_match(TableOptions(), drawn)


def test_b2_seat_winds_rotate_after_every_hand() -> None:
    m = match_for()
    for number in range(16):
        if number % 4 == 3:
            continue  # the seat change at a round's end is tested below
        before, after = seat_winds(m, number), seat_winds(m, number + 1)
        for player in range(4):
            rotated = {E: N, S: E, W: S, N: W}[before[player]]
            assert after[player] == rotated


def test_b2_seat_change_at_the_end_of_each_round() -> None:
    m = match_for((0, 1, 2, 3))  # player p drew wind p
    # the player who drew the round's wind is East at the start of that round
    for rnd in range(4):
        assert player_at(m, E, 4 * rnd) == rnd

    # 003's exchanges, as table positions at the start of each round
    def positions(rnd: int) -> tuple[int, ...]:
        winds = seat_winds(m, 4 * rnd)
        return tuple(winds.index(Seat(p)) for p in range(4))  # player at E, S, W, N

    assert positions(0) == (0, 1, 2, 3)
    assert positions(1) == (1, 0, 3, 2)  # after East round: E<->S, W<->N
    assert positions(2) == (2, 3, 1, 0)  # after South round: a four-way move
    assert positions(3) == (3, 2, 0, 1)  # after West round: E<->S, W<->N again


def test_b2_every_player_deals_once_per_round_and_the_prevalent_wind_follows_rounds() -> None:
    m = match_for((2, 0, 3, 1))
    for rnd in range(4):
        dealers = {player_at(m, E, 4 * rnd + j) for j in range(4)}
        assert dealers == {0, 1, 2, 3}


def test_b2_seat_winds_drawn_by_dice_reroll_5_6_and_taken_winds() -> None:
    assert winds_from_rolls([6, 3, 3, 5, 1, 2]) == (2, 0, 1, 3)
    with pytest.raises(ValueError, match="not enough"):
        winds_from_rolls([1, 1, 1])
    with pytest.raises(ValueError, match="permutation"):
        new_match(TableOptions(), (0, 0, 1, 2))


@given(st.permutations([0, 1, 2, 3]))
def test_b2_every_hand_has_four_distinct_seat_winds(drawn: list[int]) -> None:
    m = new_match(TableOptions(), drawn)
    for number in range(16):
        assert sorted(seat_winds(m, number)) == list(SEATS)
    assert seat_winds(m, 0) == tuple(Seat(w) for w in drawn)


def _play_hands(m: MatchState, rng: random.Random, hands: int) -> MatchState:
    for _ in range(hands):
        faces = list(MCR_TILES)
        rng.shuffle(faces)
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        m, _ = start_hand(m, faces, dice)
        while m.hand is not None:
            action = next(a for a in (choose(m.hand, s, rng) for s in SEATS) if a is not None)
            m, _ = play(m, action)
    return m


def test_b2_running_scores_follow_each_hands_payments_by_player() -> None:
    rng = random.Random(7)
    m = _play_hands(new_match(TableOptions(max_hands=3), (3, 1, 0, 2)), rng, 3)
    assert m.finished and m.hands_played == 3
    assert sum(m.scores) == 0
    for record in m.records:
        assert record.prevalent_wind == 0
        for player in range(4):
            assert record.points[player] == record.result.payments[record.seat_of[player]]
    assert m.scores == tuple(sum(r.points[p] for r in m.records) for p in range(4))
    with pytest.raises(IllegalAction, match="over"):
        start_hand(m, list(MCR_TILES), (1, 1, 1, 1))


def test_b2_timed_end_finishes_the_hand_in_play_then_ends_the_match() -> None:
    rng = random.Random(8)
    m = new_match(TableOptions(), (0, 1, 2, 3))
    faces = list(MCR_TILES)
    rng.shuffle(faces)
    m, _ = start_hand(m, faces, (1, 2, 3, 4))
    m = call_time(m)
    assert not m.finished  # the hand in play is finished first
    while m.hand is not None:
        action = next(a for a in (choose(m.hand, s, rng) for s in SEATS) if a is not None)
        m, _ = play(m, action)
    assert m.finished and m.hands_played == 1


def test_match_refuses_a_second_hand_while_one_is_in_play() -> None:
    m, _ = start_hand(match_for(), list(MCR_TILES), (1, 1, 1, 1))
    with pytest.raises(IllegalAction, match="still in play"):
        start_hand(m, list(MCR_TILES), (1, 1, 1, 1))


def test_b2_timed_end_by_a_deadline_on_the_callers_clock() -> None:
    m = new_match(TableOptions(deadline=5400.0), (0, 1, 2, 3))
    assert not tick(m, 5399.9).time_called
    late = tick(m, 5400.0)
    assert late.time_called and late.finished  # between hands: the match is over
    with pytest.raises(IllegalAction, match="over"):
        start_hand(late, list(MCR_TILES), (1, 1, 1, 1))


def test_b2_prevalent_wind_is_the_rounds_wind() -> None:
    m = match_for()
    fake = HandRecord(
        0, 0, seat_winds(m, 0), HandResult(None, None, False, (), 0, (0, 0, 0, 0)), (0, 0, 0, 0)
    )
    for played, wind in ((0, 0), (3, 0), (4, 1), (9, 2), (15, 3)):
        assert prevalent_wind(played) == wind
        started, _ = start_hand(replace(m, records=(fake,) * played), list(MCR_TILES), (1, 1, 1, 1))
        assert started.hand is not None and started.hand.prevalent_wind == wind


@pytest.mark.slow
def test_b2_a_match_is_16_hands_in_4_rounds() -> None:
    m = _play_hands(new_match(TableOptions(), (1, 3, 0, 2)), random.Random(12), 16)
    assert m.finished and m.hands_played == 16
    assert [r.prevalent_wind for r in m.records] == [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    east = [r.seat_of.index(E) for r in m.records]
    assert all(sorted(east[4 * k : 4 * k + 4]) == [0, 1, 2, 3] for k in range(4))
    assert sum(m.scores) == 0
