"""What each daemon signs next (protocol/tournament/next_steps.py): entrants taking their own
seed steps from the record alone make a round start that every checker accepts; a doctored
seating is refused."""

from __future__ import annotations

from dataclasses import replace

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.next_steps import round_start, seed_step
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.signing import signed
from testkit.tournament_event import EventMaker


def _seed_round(maker: EventMaker, called: int) -> int:
    """Every entrant takes each step the record says it owes, until none is owed."""
    steps = 0
    while True:
        verdict = check_event(maker.records)
        owed = [
            (p, seed_step(verdict, maker.event, p.public, b"secret of " + p.public, called))
            for p in maker.players
        ]
        due = [(p, step) for p, step in owed if step is not None]
        if not due:
            return steps
        for player, step in due:
            assert step is not None
            maker.records.append(signed(step, player))
            steps += 1


def test_entrants_seed_a_called_round_and_the_directors_start_is_accepted() -> None:
    maker = EventMaker(rounds=3)
    for i in range(9):
        maker.enter(f"player {i}")
    verdict = check_event(maker.records)
    assert all(
        seed_step(verdict, maker.event, p.public, b"s", None) is None for p in maker.players
    ), "nobody commits before the round is called"
    assert _seed_round(maker, called=0) == 27  # commit, echo, reveal each
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None and start.round == 0
    maker.director_signs(start)
    verdict = check_event(maker.records)
    assert verdict.ok and len(verdict.rounds) == 1 and verdict.seeding is None
    assert sorted(n for t in start.tables for n in t if n is not None) == list(range(9))


def test_the_round_start_waits_for_every_reveal_and_a_doctored_seating_is_refused() -> None:
    maker = EventMaker(rounds=2)
    for i in range(8):
        maker.enter(f"player {i}")
    _seed_round(maker, called=0)
    last_reveal = maker.records.pop()
    assert round_start(check_event(maker.records), maker.event) is None
    maker.records.append(last_reveal)
    start = round_start(check_event(maker.records), maker.event)
    assert start is not None
    first, second = start.tables
    swapped = (first[0], second[1], *first[2:]), (second[0], first[1], *second[2:])
    maker.director_signs(replace(start, tables=swapped))
    kinds = [p.kind for p in check_event(maker.records).problems]
    assert kinds == [ProblemKind.BAD_SEATING]


def test_a_player_who_entered_after_the_first_commitment_waits_for_the_next_round() -> None:
    maker = EventMaker(rounds=2)
    for i in range(4):
        maker.enter(f"player {i}")
    verdict = check_event(maker.records)
    first = maker.players[0]
    step = seed_step(verdict, maker.event, first.public, b"x", 0)
    assert step is not None
    maker.records.append(signed(step, first))
    late = maker.enter("late")
    assert seed_step(check_event(maker.records), maker.event, late.public, b"y", 0) is None
