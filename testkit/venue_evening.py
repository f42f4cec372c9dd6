"""A whole venue evening as pure event sessions (protocol/tournament/session), for the tests
and the benchmarks: a director and 16 entrants, three MCR rounds, a reveal lost on the way
(the round waits for that seat, named, until its daemon sends it again), a forged result
(refused), the director's daemon restarted from its disk mid-evening. ``evening`` runs it on
testkit/event_network.py's simulated network and clock and says what it saw on the way."""

from __future__ import annotations

from dataclasses import replace

from fourwinds.protocol.tournament.next_steps import table_result
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.records import Record, SeedReveal
from fourwinds.protocol.tournament.session import CallRound, RecordsIn, SignResult, SubmitIn
from fourwinds.protocol.tournament.session.inputs import Scores
from fourwinds.protocol.tournament.signing import signature
from testkit.event_network import Venue

ENTRANTS = 16
ROUNDS = 3


def scores_for(round_: int, table: int) -> Scores:
    base = 1000 * (round_ + 1) + 100 * table
    return (base, -base // 2, 25 - base // 2, -25)


def play_round(venue: Venue, r: int) -> None:
    """The director calls round ``r``; its seed is revealed and it is seated; every seat
    of every table signs the table's final scores."""
    director = venue.nodes["director"]
    venue.give("director", CallRound())
    venue.deliver()
    venue.tick(1.0)
    assert director.held.rounds_started == r + 1, director.held.verdict.seeding
    sign_results(venue, r)


def sign_results(venue: Venue, r: int) -> None:
    seating = venue.nodes["director"].held.verdict.rounds[r]
    names = {n.me.key: n.name for n in venue.nodes.values()}
    entrants = venue.nodes["director"].held.entrants
    for t, table in enumerate(seating.tables):
        for seat in table:
            assert seat is not None  # 16 entrants: four full tables
            venue.give(names[entrants[seat]], SignResult(t, scores_for(r, t)))
    venue.deliver()
    venue.tick(1.0)


def evening() -> tuple[Venue, dict[str, object]]:
    """The whole evening; what the test checks along the way, by name."""
    seen: dict[str, object] = {}
    venue = Venue()
    director = venue.create("director", ROUNDS)
    for n in range(ENTRANTS):
        venue.enter(f"player{n}", director)
    venue.deliver()
    venue.tick(10.0)  # the round's seed is committed and echoed ahead of the call
    play_round(venue, 0)

    # a forged result: a seat signs a table it does not sit at, and a relay carries a
    # result whose signatures are not its seats'
    seating = director.held.verdict.rounds[0]
    entrants = director.held.entrants
    liar = venue.by_key(entrants[seating.tables[0][0]])  # type: ignore[index]
    stranger_table = 1
    before = len(liar.refusals)
    body = replace(
        table_result(director.held.verdict, director.held.event, stranger_table, (0, 0, 0, 0)),
        scores=(9000, -3000, -3000, -3000),
    )
    sigs = (signature(body, liar.me.signer), None, None, None)
    venue.send(liar.name, "director", SubmitIn(liar.me.key, Record(body, sigs)))
    venue.deliver()
    seen["forged refusal"] = liar.refusals[before:]
    forged = Record(body, tuple(signature(body, liar.me.signer) for _ in range(4)))
    venue.send(liar.name, "player5", RecordsIn(liar.me.key, len(director.disk), (forged,)))
    venue.deliver()
    seen["forged held"] = any(
        encode_record(forged) == encode_record(r) for r in venue.nodes["player5"].disk
    )
    seen["forged note"] = [t for t in venue.nodes["player5"].notes if "refused a record" in t]

    # round 2: one reveal is lost on the way; the round waits for that seat, named, and
    # starts once its daemon sends the reveal again
    withheld = venue.nodes["player7"]
    lost: list[int] = []

    def drop(sender: str, to: str, what: object) -> bool:
        if (
            sender == withheld.name
            and isinstance(what, SubmitIn)
            and isinstance(what.record.body, SeedReveal)
            and not lost
        ):
            lost.append(1)
            return True
        return False

    venue.drop = drop
    venue.tick(10.0)
    venue.give("director", CallRound())
    venue.deliver()
    progress = director.held.verdict.seeding
    assert progress is not None
    waiting = [n for n in progress.roster if n not in dict(progress.reveals)]
    seen["waiting for"] = [director.held.verdict.names[n] for n in waiting]
    seen["started while waiting"] = director.held.rounds_started
    venue.tick(4.0)  # the entrant's daemon sends its reveal again
    seen["started after resend"] = director.held.rounds_started
    sign_results(venue, 1)

    # the director's daemon is killed and starts again from its disk
    venue.restart("director")
    director = venue.nodes["director"]
    venue.tick(10.0)
    play_round(venue, 2)
    return venue, seen
