"""The tournament seating method (issue 23): every player seated once a round or given a
bye, the same seating for the same seed, winds balanced after every fourth round, no repeated
meeting at the sizes the issue names, and refusals that say why."""

from __future__ import annotations

from collections import Counter
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.tournament import seating
from fourwinds.protocol.tournament.designs import base_design
from fourwinds.protocol.tournament.quality import (
    meetings,
    repeats,
    wind_counts,
    wind_spread,
)
from fourwinds.protocol.tournament.seating import (
    FillPolicy,
    RoundSeating,
    SeatingError,
    SeatingProblem,
    seat_round,
    seat_rounds,
)

ZERO_REPEAT_SIZES = [(16, 5), (20, 5), (24, 6), (32, 8), (40, 4)]
SMALL_BUDGET = 2000  # the invariants hold at any search effort; a small one keeps this quick


def _fresh(players: int, rounds: int, seed: bytes, fill: FillPolicy) -> tuple[RoundSeating, ...]:
    """The plan computed again (not the cached answer of an earlier call)."""
    seating._plan.cache_clear()
    return seat_rounds(players, rounds, seed, fill)


def check_round(seated: RoundSeating, players: int, fill: FillPolicy) -> None:
    people = [*seated.seated(), *seated.byes]
    assert sorted(people) == list(range(players)), "every player once: at a table or a bye"
    bots = sum(1 for table in seated.tables for p in table if p is None)
    if fill is FillPolicy.BOTS:
        assert seated.byes == ()
        assert bots == (-players) % 4
        if len(seated.tables) >= bots:
            assert all(sum(p is None for p in table) <= 1 for table in seated.tables)
    else:
        assert bots == 0
        assert len(seated.byes) == players % 4


@pytest.mark.parametrize(("players", "rounds"), ZERO_REPEAT_SIZES)
@pytest.mark.parametrize("seed", [b"", b"\x01", bytes(range(32))])
def test_no_repeated_meeting_at_the_issues_sizes(players: int, rounds: int, seed: bytes) -> None:
    plan = seat_rounds(players, rounds, seed)
    assert len(plan) == rounds
    for seated in plan:
        check_round(seated, players, FillPolicy.BOTS)
    assert repeats(plan) == 0
    assert len(meetings(plan)) == players * 3 * rounds // 2
    assert wind_spread(plan) <= 1


def test_the_24_player_design_has_no_repeat_and_every_round_seats_all() -> None:
    design = base_design(6, 6)
    met: Counter[frozenset[int]] = Counter()
    for tables in design:
        assert sorted(s for table in tables for s in table) == list(range(24))
        for table in tables:
            met.update(frozenset((a, b)) for a in table for b in table if a < b)
    assert max(met.values()) == 1


def test_a_different_seed_seats_differently_and_the_same_seed_the_same() -> None:
    one = _fresh(16, 5, b"\x01", FillPolicy.BOTS)
    again = _fresh(16, 5, b"\x01", FillPolicy.BOTS)
    other = _fresh(16, 5, b"\x02", FillPolicy.BOTS)
    assert one == again
    assert one != other


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 30),
    rounds=st.integers(1, 9),
    seed=st.binary(max_size=8),
    fill=st.sampled_from(FillPolicy),
)
def test_every_player_once_a_round_the_same_for_a_seed_and_winds_even(
    players: int, rounds: int, seed: bytes, fill: FillPolicy
) -> None:
    if fill is FillPolicy.BYES and players < 4:
        with pytest.raises(SeatingError) as refused:
            seat_rounds(players, rounds, seed, fill)
        assert refused.value.problem is SeatingProblem.TOO_FEW_PLAYERS
        return
    with mock.patch.object(seating, "SEARCH_BUDGET", SMALL_BUDGET):
        plan = _fresh(players, rounds, seed, fill)
        assert _fresh(players, rounds, seed, fill) == plan
        for index, seated in enumerate(plan):
            assert seated.round == index
            check_round(seated, players, fill)
            assert seat_round(players, index, rounds, plan[:index], seed, fill) == seated
    byes = Counter(p for seated in plan for p in seated.byes)
    assert max(byes.values(), default=0) - min(byes[p] for p in range(players)) <= 1
    assert wind_spread(plan) <= 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "rounds", "seed"),
    [(7, 8, b""), (11, 12, b""), (11, 16, b"a"), (15, 16, b""), (19, 16, b"b")],
)
def test_winds_stay_even_when_many_sit_out(players: int, rounds: int, seed: bytes) -> None:
    """Three byes a round at small events: a player misses a wind in most blocks, and the
    misses must not pile up at one wind."""
    plan = seat_rounds(players, rounds, seed, FillPolicy.BYES)
    assert wind_spread(plan) <= 1
    assert wind_spread(plan, every_round=True) <= 2


@pytest.mark.slow
def test_byes_rotate_the_longest_without_one_first() -> None:
    plan = seat_rounds(18, 9, b"byes", FillPolicy.BYES)
    sat_out = [p for seated in plan for p in seated.byes]
    assert sorted(sat_out) == list(range(18)), "nobody sits out twice before all once"


@pytest.mark.slow
def test_a_changed_roster_is_seated_against_the_rounds_before() -> None:
    plan = seat_rounds(16, 5, b"late")
    late = seat_round(range(17), 2, 5, plan[:2], b"late", FillPolicy.BYES)
    check_round(late, 17, FillPolicy.BYES)
    assert repeats([*plan[:2], late]) == 0
    withdrawn = seat_round([p for p in range(16) if p != 3], 2, 5, plan[:2], b"late")
    assert 3 not in withdrawn.seated() and withdrawn.seated().count(None) == 0
    assert sum(p is None for table in withdrawn.tables for p in table) == 1


@pytest.mark.slow
def test_seeding_by_standings_seats_neighbours_and_avoids_repeats() -> None:
    plan = seat_rounds(16, 5, b"swiss")
    ranking = list(range(15, -1, -1))  # player 15 leads, player 0 last
    seeded = seat_round(16, 1, 5, plan[:1], b"swiss", standings=ranking)
    check_round(seeded, 16, FillPolicy.BOTS)
    assert 15 in seeded.tables[0], "the top table first, with the leader"
    place = {p: i for i, p in enumerate(ranking)}

    def spread(seated: RoundSeating) -> int:
        return sum(
            max(place[p] for p in t if p is not None) - min(place[p] for p in t if p is not None)
            for t in seated.tables
        )

    assert spread(seeded) < spread(plan[1]) - 8, "closer in rank than the unseeded round"
    assert repeats([plan[0], seeded]) == 0
    assert seat_round(16, 1, 5, plan[:1], b"swiss", standings=ranking) == seeded
    counts = wind_counts([plan[0], seeded])
    assert all(max(c) <= 1 for c in counts.values()), "a new wind for everyone in round 2"


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda: seat_rounds(0, 3, b""), SeatingProblem.NO_PLAYERS),
        (lambda: seat_rounds(3, 3, b"", FillPolicy.BYES), SeatingProblem.TOO_FEW_PLAYERS),
        (lambda: seat_rounds(8, 0, b""), SeatingProblem.BAD_ROUNDS),
        (lambda: seat_rounds([1, 1, 2, 3], 2, b""), SeatingProblem.BAD_ROSTER),
        (lambda: seat_round(8, 2, 2, (), b""), SeatingProblem.BAD_ROUND),
        (lambda: seat_round(8, 1, 2, (), b""), SeatingProblem.BAD_HISTORY),
        (
            lambda: seat_round(8, 1, 2, seat_rounds(8, 1, b""), b"", standings=[0, 1]),
            SeatingProblem.BAD_STANDINGS,
        ),
        (lambda: seat_rounds(8, 2, "ab"), SeatingProblem.BAD_SEED),  # type: ignore[arg-type]
    ],
)
def test_impossible_input_is_refused_with_the_reason(call: object, problem: SeatingProblem) -> None:
    with pytest.raises(SeatingError) as refused:
        call()  # type: ignore[operator]
    assert refused.value.problem is problem
    assert problem.value in str(refused.value)


def test_a_round_that_seats_a_player_twice_is_refused() -> None:
    twice = RoundSeating(0, ((0, 1, 2, 3), (3, 4, 5, 6)))
    with pytest.raises(SeatingError) as refused:
        seat_round(8, 1, 2, (twice,), b"")
    assert refused.value.problem is SeatingProblem.BAD_HISTORY


@pytest.mark.slow
def test_rounds_seated_alone_keep_the_winds_even() -> None:
    """A late entrant from round 3 on: each round is seated against the ones before, and
    the search keeps every player's winds within one of each other."""
    plan = seat_rounds(40, 8, b"late")
    rounds = list(plan[:2])
    for index in range(2, 8):
        rounds.append(seat_round(range(41), index, 8, rounds, b"late", FillPolicy.BYES))
        check_round(rounds[-1], 41, FillPolicy.BYES)
    assert wind_spread(rounds) <= 1
    assert repeats(rounds) <= 8


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 14),
    rounds=st.integers(2, 6),
    seed=st.binary(max_size=4),
    fill=st.sampled_from(FillPolicy),
    seeded=st.booleans(),
)
def test_rounds_seated_alone_seat_everyone_at_any_size(
    players: int, rounds: int, seed: bytes, fill: FillPolicy, seeded: bool
) -> None:
    """The path for a changed roster or seeding by standings, down to one player with
    bots: every player once, the same answer twice."""
    if fill is FillPolicy.BYES and players < 5:
        return
    with mock.patch.object(seating, "SEARCH_BUDGET", SMALL_BUDGET):
        first = players if seeded or players == 1 else players - 1  # else one enters late
        before = seat_rounds(first, 1, seed, FillPolicy.BOTS)
        history: list[RoundSeating] = list(before)
        for index in range(1, rounds):
            ranking = list(range(players))[::-1] if seeded else None
            seated = seat_round(players, index, rounds, history, seed, fill, ranking)
            assert seat_round(players, index, rounds, history, seed, fill, ranking) == seated
            check_round(seated, players, fill)
            history.append(seated)
