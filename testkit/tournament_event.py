"""A whole tournament record made in a test with the real signing code (no daemons).

``EventMaker`` plays the director and every entrant: each has a real Ed25519 key
(protocol/table/wire/signing.py) from a seed the test picks, the round seed is made by every
entrant's commit, echo and reveal, each round is seated by the seating method, and each
table's scores are signed by its four seats (a bot seat by the director). Tests change the
records afterwards to make the bad ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tournament import round_seed
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.record_wire import encode_record
from fourwinds.protocol.tournament.records import (
    NONCE_LEN,
    Admit,
    Body,
    Create,
    Deck,
    Entry,
    Length,
    Record,
    RevealLapse,
    RoundCall,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
    TableResult,
    Withdraw,
    WithdrawnBy,
)
from fourwinds.protocol.tournament.round_seating import expected_seating
from fourwinds.protocol.tournament.seating import FillPolicy, RoundSeating
from fourwinds.protocol.tournament.signing import event_id, signed, table_id
from fourwinds.protocol.tournament.standings import Scoring, ranking

Scores = tuple[int, int, int, int]


def key(label: str) -> SigningKey:
    """A test's identity key, the same for the same label."""
    return SigningKey.from_seed(hashlib.sha256(label.encode()).digest())


def default_scores(round_index: int, table: int) -> Scores:
    """Some distinct final scores for a table (they change with the round and table)."""
    base = 7 * round_index + 3 * table
    return (base % 11 * 10, (base + 4) % 13 * 10, (base + 1) % 7 * 10, 5)


@dataclass
class EventMaker:
    """The records of one event, as its director and entrants sign them."""

    name: str = "club night"
    rules: str = "mcr"  # the event's rules name
    rounds: int = 3
    fill: FillPolicy = FillPolicy.BOTS
    private: bool = False
    seeded: bool = False
    length: Length = Length.HANDS
    amount: int = 1
    ahead: bool = False  # SeedSteps.AHEAD: commit and echo, the call, then reveal
    flowers: bool = True  # False: an MCR event whose tables play without flowers
    turn_seconds: int = 60  # a turn's seconds at the event's tables (Create.turn_seconds)
    director: SigningKey = field(default_factory=lambda: key("director"))
    nonce: bytes = b"\x01" * NONCE_LEN
    records: list[Record] = field(default_factory=list)
    players: list[SigningKey] = field(default_factory=list)
    rounds_started: list[RoundSeating] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)
    hashes: list[bytes] = field(default_factory=list)
    withdrawn: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.create = Create(
            self.director.public,
            self.name,
            self.rules,
            self.rounds,
            self.length,
            self.amount,
            self.fill,
            Scoring(self.rules),
            False,
            self.private,
            self.seeded,
            Deck.PRACTICE,
            self.nonce,
            SeedSteps.AHEAD if self.ahead else SeedSteps.AFTER_CALL,
            self.flowers,
            self.turn_seconds,
        )
        self.event = event_id(self.create)
        self.records.append(signed(self.create, self.director))

    def director_signs(self, body: Body) -> Record:
        record = signed(body, self.director)
        self.records.append(record)
        return record

    def enter(self, label: str, admit: bool = False) -> SigningKey:
        player = key(label)
        self.records.append(signed(Entry(self.event, player.public, label), player))
        if admit:
            self.director_signs(Admit(self.event, player.public))
        self.players.append(player)
        return player

    def withdraw(self, number: int) -> None:
        """Entrant ``number`` withdraws (its own signed record), from the next round."""
        player = self.players[number]
        self.records.append(
            signed(Withdraw(self.event, player.public, WithdrawnBy.PLAYER, "going home"), player)
        )
        self.withdrawn.add(number)

    def roster(self) -> list[int]:
        """The entrants of the next round: every one admitted and not withdrawn."""
        return [n for n in range(len(self.players)) if n not in self.withdrawn]

    def nonce_of(self, player: SigningKey, round_index: int) -> bytes:
        return round_seed.nonce(
            b"secret of " + player.public, self.event, round_index, player.public
        )

    def make_seed(self, round_index: int, withholding: Collection[int] = ()) -> bytes:
        """Every entrant's commit, echo and reveal for the round (made ahead: the
        director's call before the reveals); the seed. ``withholding``: entrants who do not
        reveal (made ahead only), whom the director's ``RevealLapse`` then excuses."""
        players = [self.players[n] for n in self.roster()]
        nonces = [self.nonce_of(p, round_index) for p in players]
        commits = [
            round_seed.commitment(self.event, round_index, p.public, n)
            for p, n in zip(players, nonces, strict=True)
        ]
        for p, c in zip(players, commits, strict=True):
            self.records.append(signed(SeedCommit(self.event, round_index, p.public, c), p))
        digest = round_seed.echo(commits)
        for p in players:
            self.records.append(signed(SeedEcho(self.event, round_index, p.public, digest), p))
        if self.ahead:
            self.director_signs(RoundCall(self.event, round_index))
        kept = [
            (p, n)
            for number, p, n in zip(self.roster(), players, nonces, strict=True)
            if number not in withholding
        ]
        for p, n in kept:
            self.records.append(signed(SeedReveal(self.event, round_index, p.public, n), p))
        if withholding:
            lapsed = tuple(self.players[n].public for n in sorted(withholding))
            self.director_signs(RevealLapse(self.event, round_index, lapsed, "no reveal in time"))
        return round_seed.seed(self.event, round_index, [n for _, n in kept])

    def start_round(self, withholding: Collection[int] = ()) -> RoundSeating:
        r = len(self.rounds_started)
        self.seeds.append(self.make_seed(r, withholding))
        seated = [n for n in self.roster() if n not in withholding]
        standings = None
        if self.seeded and r > 0:
            verdict = check_event(self.records)
            standings = [n for n in ranking(verdict.standings) if n in seated]
        seating = expected_seating(
            seated, r, self.rounds, self.rounds_started, self.seeds, self.fill, standings
        )
        self.director_signs(
            RoundStart(
                self.event,
                r,
                seating.tables,
                seating.byes,
                self.seeds[-1],
                round_seed.results_digest(self.hashes),
            )
        )
        self.rounds_started.append(seating)
        return seating

    def result(self, round_index: int, table: int, scores: Scores | None = None) -> Record:
        """The table's result, signed by its four seats."""
        seats = self.rounds_started[round_index].tables[table]
        keys = [self.director if n is None else self.players[n] for n in seats]
        body = TableResult(
            self.event,
            round_index,
            table,
            (
                None if seats[0] is None else keys[0].public,
                None if seats[1] is None else keys[1].public,
                None if seats[2] is None else keys[2].public,
                None if seats[3] is None else keys[3].public,
            ),
            scores or default_scores(round_index, table),
            table_id(self.event, round_index, table),
        )
        record = signed(body, *keys)
        self.records.append(record)
        self.hashes.append(hashlib.sha256(encode_record(record)).digest())
        return record

    def play_round(
        self,
        scores: Callable[[int, int], Scores] = default_scores,
        withholding: Collection[int] = (),
    ) -> None:
        seating = self.start_round(withholding)
        for t in range(len(seating.tables)):
            self.result(seating.round, t, scores(seating.round, t))


def synthetic_event(players: int = 16, rounds: int = 3, **options: object) -> EventMaker:
    """An event of ``players`` entrants, every round played and every result signed."""
    maker = EventMaker(rounds=rounds, **options)  # type: ignore[arg-type]
    for i in range(players):
        maker.enter(f"player {i}", admit=maker.private)
    for _ in range(rounds):
        maker.play_round()
    return maker
