"""A called round whose reveals do not all come is seated without those missing (issue 38,
defect 11: a seat withholding its seating-seed reveal stalled the round for everyone).

The checker (records.RevealLapse, seed_ahead.excuse): after the call the director may excuse
entrants of the round's roster who have not revealed, with a reason; the seed is then made
by the others, who alone are seated, and the excused play again from the next round; a late
reveal of theirs is refused. The director's session (session/lapses.py) signs the lapse by
itself once REVEAL_WAIT_S have passed since the call, on its clock passed in.
"""

from __future__ import annotations

import pytest

from fourwinds.protocol.tournament import round_seed
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.problems import ProblemKind
from fourwinds.protocol.tournament.records import (
    RevealLapse,
    RoundCall,
    SeedCommit,
    SeedEcho,
    SeedReveal,
)
from fourwinds.protocol.tournament.session import CallRound, SubmitIn
from fourwinds.protocol.tournament.session.lapses import REVEAL_WAIT_S
from fourwinds.protocol.tournament.signing import signed
from testkit.event_network import Venue
from testkit.tournament_event import EventMaker


def _event(players: int = 9) -> EventMaker:
    maker = EventMaker(rounds=2, ahead=True)
    for i in range(players):
        maker.enter(f"player {i}")
    return maker


def test_lapse_a_round_is_seeded_and_seated_without_who_did_not_reveal() -> None:
    maker = _event()
    maker.play_round(withholding={4})
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    seated = verdict.rounds[0].seated()
    assert 4 not in seated and 4 not in verdict.rounds[0].byes and len(seated) == 8
    [lapse] = verdict.lapses
    assert lapse.players == (maker.players[4].public,) and lapse.reason == "no reveal in time"
    maker.play_round()  # back from the next round
    verdict = check_event(maker.records)
    assert verdict.ok and 4 in verdict.rounds[1].seated() + verdict.rounds[1].byes


def _called(maker: EventMaker) -> None:
    """Round 1 made ahead and called; no reveal yet."""
    players = [maker.players[n] for n in maker.roster()]
    nonces = [maker.nonce_of(p, 0) for p in players]
    commits = [
        round_seed.commitment(maker.event, 0, p.public, n)
        for p, n in zip(players, nonces, strict=True)
    ]
    for p, c in zip(players, commits, strict=True):
        maker.records.append(signed(SeedCommit(maker.event, 0, p.public, c), p))
    digest = round_seed.echo(commits)
    for p in players:
        maker.records.append(signed(SeedEcho(maker.event, 0, p.public, digest), p))
    maker.director_signs(RoundCall(maker.event, 0))
    p = players[0]
    maker.records.append(signed(SeedReveal(maker.event, 0, p.public, nonces[0]), p))


@pytest.mark.parametrize(
    ("excused", "reason", "refused"),
    [
        ([0], "gone", ProblemKind.OUT_OF_ORDER),  # revealed: not excused
        ([], "gone", ProblemKind.OUT_OF_ORDER),  # nobody
        ([1], "  ", ProblemKind.NO_REASON),
        ([1, 1], "gone", ProblemKind.DUPLICATE),
    ],
)
def test_lapse_refused_for_who_revealed_without_a_reason_or_twice(
    excused: list[int], reason: str, refused: ProblemKind
) -> None:
    maker = _event(4)
    _called(maker)
    keys = tuple(maker.players[n].public for n in excused)
    maker.director_signs(RevealLapse(maker.event, 0, keys, reason))
    verdict = check_event(maker.records)
    assert [p.kind for p in verdict.problems] == [refused], [p.line() for p in verdict.problems]


def test_lapse_a_late_reveal_of_the_excused_is_refused() -> None:
    maker = _event(4)
    _called(maker)
    maker.director_signs(RevealLapse(maker.event, 0, (maker.players[3].public,), "gone"))
    late = maker.players[3]
    maker.records.append(
        signed(SeedReveal(maker.event, 0, late.public, maker.nonce_of(late, 0)), late)
    )
    verdict = check_event(maker.records)
    assert [p.kind for p in verdict.problems] == [ProblemKind.NOT_IN_ROUND]
    assert verdict.seeding is not None and verdict.seeding.excused == (3,)


def test_lapse_the_directors_session_seats_the_round_without_a_withheld_reveal_in_time() -> None:
    """On the simulated network and clock (testkit/event_network.py): an entrant's daemon
    never gets its reveal through; the round waits REVEAL_WAIT_S from the call, then the
    director's session seats it without that entrant, and every daemon holds the same."""
    venue = Venue()
    director = venue.create("director", 2)
    for n in range(8):
        venue.enter(f"player{n}", director)
    venue.deliver()
    venue.tick(10.0)  # the seed committed and echoed ahead of the call
    holder = venue.nodes["player3"]

    def withhold(sender: str, to: str, what: object) -> bool:
        return (
            sender == holder.name
            and isinstance(what, SubmitIn)
            and isinstance(what.record.body, SeedReveal)
        )

    venue.drop = withhold
    venue.give("director", CallRound())
    venue.deliver()
    venue.tick(REVEAL_WAIT_S - 5.0)
    assert director.held.rounds_started == 0  # still waiting for player3
    venue.tick(10.0)
    verdict = director.held.verdict
    assert director.held.rounds_started == 1 and verdict.ok
    number = verdict.entrants.index(holder.me.key)
    assert number not in verdict.rounds[0].seated() and len(verdict.rounds[0].seated()) == 8 - 1
    [lapse] = verdict.lapses
    assert lapse.players == (holder.me.key,) and "within 30 s" in lapse.reason
    assert any("seated without player3" in note for note in director.notes)
    venue.deliver()
    venue.tick(2.0)
    assert all(n.held.verdict.lapses == verdict.lapses for n in venue.nodes.values())
