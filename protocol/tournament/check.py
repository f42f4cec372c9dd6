"""Checking an event's record: everything recomputed from the records alone.

``check_event`` reads the records in order, as every entrant's daemon takes them, and
refuses each record that is wrong with a typed problem naming it (problems.py): a signature
that does not check, a record of another event (every signed body names the event's id), an
entry at a private event the director never admitted, a round seed whose commit-reveal does
not hold, a round start whose seed, results or seating differ from the recomputed ones
(round_seating.py), a result not signed by the four keys seated at its table. A refused
record changes nothing, except a round start refused for its seed, results or seating: it is
kept as it stands so that the rest of the record is still checked against it (each of its
tables' results is then checked too), and the verdict is not ok. The standings are computed
from the accepted results, corrections, byes, penalties and substitutes (standings.py).

The event's rules are a rules name, and what its tournaments count is its rule set's
(event_rules.py): a creation whose rules this daemon does not have, whose rule set has no
tournaments, or that leaves the flowers out where its rule set always plays them, is refused
(``NO_CREATE``) with one line saying why, and nothing of the event is checked.

At an event whose seed is made ahead (``Create.seed_steps`` AHEAD, seed_ahead.py) the
commitments and echoes of the next round come whenever the record allows them, the
director's ``RoundCall`` closes the round's roster and the results it is seated after (a
result, correction, penalty or substitute between the call and the start is refused), and a
reveal before the call is refused (``UNCALLED_REVEAL``); an event made before reads as
AFTER_CALL and is checked as it always was.

Two records change who signs what from their place on: a ``Substitute`` (the director and
the three seats left) puts a reserve or a bot seat in a table's seat, so that table's result
is the four new seats' (its scores counted on top of the scores carried); a ``NewDirector``
(more than half of the entrants not withdrawn) makes every director's record the new key's,
and a record the former director signs after it is refused, saying so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .event_rules import NoTournaments, event_ruleset, flowers_refused, tournament_rules
from .problems import EventProblem, ProblemKind
from .record_wire import encode_record
from .records import (
    Admit,
    Body,
    Correction,
    Create,
    EndTable,
    Entry,
    Extension,
    Length,
    NewDirector,
    Penalty,
    Record,
    RevealLapse,
    RoundCall,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
    Substitute,
    TableResult,
    TimeCall,
    Unreadable,
    Withdraw,
    WithdrawnBy,
)
from .round_seating import expected_seating
from .round_seed import commitment, echo, results_digest, seed
from .seating import RoundSeating, SeatingError
from .seed_ahead import AheadSeed, call_round, excuse, take_step
from .signing import event_id, signed_by, table_id
from .standings import (
    Bye,
    Deduction,
    Handover,
    StandingsError,
    StandingsRow,
    ranking,
    standings,
)
from .standings import TableResult as Scores

SEATS = "ESWN"


def table_hands(create: Create) -> int:
    """How many hands a table of the event plays at most (a timed round: a whole match of the
    event's rule set, its ``TournamentRules.match_hands``)."""
    if create.length is Length.HANDS:
        return create.amount
    return tournament_rules(create.rules).match_hands


@dataclass(frozen=True)
class SeedProgress:
    """The next round's seed as far as the record has made it: its roster (entrant numbers,
    closed by the first commitment) and each step's values by entrant number. Daemons read
    it to take their own next step (daemon/events/held.py); nothing here is trusted more than the
    records it comes from."""

    round: int
    roster: tuple[int, ...]
    commits: tuple[tuple[int, bytes], ...]
    echoes: tuple[tuple[int, bytes], ...]
    reveals: tuple[tuple[int, bytes], ...]
    called: bool = False
    """A seed made ahead (seed_ahead.py): whether the director's call is held (reveals are
    due only then). Before it, ``roster`` is the entrants now in and ``echoes`` only those of
    the present commitments."""
    excused: tuple[int, ...] = ()
    """Of the called round's roster, those the director excused (``RevealLapse``): the seed
    is made, and the round seated, without them."""


@dataclass(frozen=True)
class Verdict:
    """What the record says once checked: ``ok`` when no record was refused."""

    create: Create | None
    problems: tuple[EventProblem, ...]
    entrants: tuple[bytes, ...] = ()  # keys, by entrant number
    names: tuple[str, ...] = ()
    rounds: tuple[RoundSeating, ...] = ()
    results: int = 0  # tables with a result or a correction
    standings: tuple[StandingsRow, ...] = ()
    adjustments: tuple[Correction | Penalty, ...] = ()  # the standings' history
    seeds: tuple[bytes, ...] = ()  # each started round's seed
    hashes: tuple[bytes, ...] = ()  # results, corrections, penalties: the digest's
    seeding: SeedProgress | None = None  # the next round's seed, once committed to
    withdrawn: frozenset[int] = frozenset()  # entrant numbers
    scores: tuple[tuple[tuple[int, int], tuple[int, int, int, int]], ...] = ()
    """Each table's final scores as they count: ((round, table), (E, S, W, N)), a
    correction's in place of the signed result's."""
    time_called: frozenset[int] = frozenset()  # rounds whose time is called
    extensions: tuple[tuple[tuple[int, int], int], ...] = ()  # ((round, table), minutes)
    ended: tuple[tuple[tuple[int, int], str], ...] = ()  # ((round, table), reason)
    clock_records: tuple[TimeCall | Extension | EndTable, ...] = ()  # in record order
    director: bytes = b""  # who signs the director's records now
    directors: tuple[NewDirector, ...] = ()  # the entrants' changes of director, in order
    substitutes: tuple[Substitute, ...] = ()  # every seat taken by a substitute, in order
    lapses: tuple[RevealLapse, ...] = ()  # rounds seated without who did not reveal in time

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class _Round:
    """The seed being made for the next round: its roster and the steps taken so far."""

    roster: tuple[int, ...]
    commits: dict[int, bytes] = field(default_factory=dict)
    echoes: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)


class _Check:
    """The record as read so far (one pass, in record order)."""

    def __init__(self, create: Create) -> None:
        self.create = create
        self.event = event_id(create)
        self.keys: list[bytes] = []
        self.names: list[str] = []
        self.number: dict[bytes, int] = {}
        self.pending: dict[bytes, str] = {}
        self.admitted: set[bytes] = set()
        self.withdrawn: set[int] = set()
        self.seed: _Round | None = None
        self.ahead: AheadSeed | None = None  # the next round's, at a SeedSteps.AHEAD event
        self.rounds: list[RoundSeating] = []
        self.seeds: list[bytes] = []
        self.results: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.signed_results: set[tuple[int, int]] = set()
        self.hashes: list[bytes] = []
        self.penalties: list[Deduction] = []
        # the standings and what they were computed from (``standings``)
        self._standings_memo: tuple[object, tuple[StandingsRow, ...] | StandingsError] | None = None
        self.adjustments: list[Correction | Penalty] = []
        self.lapses: list[RevealLapse] = []
        self.problems: list[EventProblem] = []
        self.time_called: set[int] = set()
        self.extensions: dict[tuple[int, int], int] = {}
        self.ended: dict[tuple[int, int], str] = {}
        self.clock_records: list[TimeCall | Extension | EndTable] = []
        self.director = create.director
        self.former: dict[bytes, int] = {}  # a replaced director's key -> where replaced
        self.directors: list[NewDirector] = []
        self.subs: dict[tuple[int, int], Substitute] = {}
        self.index = 0

    # -- helpers --------------------------------------------------------------------------

    def refuse(
        self,
        kind: ProblemKind,
        detail: str = "",
        round_: int | None = None,
        table: int | None = None,
    ) -> None:
        self.problems.append(EventProblem(kind, self.index, round_, table, detail))

    def signers(self, body: Body) -> tuple[bytes, ...]:
        """The keys that must sign ``body``, in the order of its signatures."""
        director = self.director
        if isinstance(body, (Entry, SeedCommit, SeedEcho, SeedReveal)):
            return (body.player,)
        if isinstance(body, Withdraw):
            return (body.player if body.by is WithdrawnBy.PLAYER else director,)
        if isinstance(body, TableResult):
            return tuple(director if key is None else key for key in body.players)
        if isinstance(body, Substitute):
            seats = self.seats_now(body.round, body.table) or (None,) * 4
            return (
                director,
                *(
                    director if key is None else key
                    for s, key in enumerate(seats)
                    if s != body.seat
                ),
            )
        return (director,)

    def signatures_hold(self, record: Record) -> bool:
        body = record.body
        keys = self.signers(body)
        sigs = (*record.signatures, *(None,) * max(0, len(keys) - len(record.signatures)))
        if len(record.signatures) > len(keys):
            self.refuse(
                ProblemKind.BAD_SIGNATURE,
                f"{len(record.signatures)} signatures where {len(keys)} sign",
                *_where(body),
            )
            return False
        if isinstance(body, Substitute):
            return self.substitute_signed(body, sigs, keys)
        if not isinstance(body, TableResult):
            if not signed_by(body, sigs[0], keys[0]):
                self.refuse(
                    ProblemKind.BAD_SIGNATURE,
                    self.not_signed(body, sigs[0], keys[0]),
                    *_where(body),
                )
                return False
            return True
        missing = [SEATS[s] for s in range(4) if sigs[s] is None]
        bad = [
            SEATS[s]
            for s in range(4)
            if sigs[s] is not None and not signed_by(body, sigs[s], keys[s])
        ]
        if missing:
            self.refuse(
                ProblemKind.UNSIGNED,
                f"no signature of seat(s) {', '.join(missing)}",
                body.round,
                body.table,
            )
            return False
        if bad:
            self.refuse(
                ProblemKind.BAD_SIGNATURE,
                f"seat(s) {', '.join(bad)} did not sign these scores (altered or forged)",
                body.round,
                body.table,
            )
            return False
        return True

    def not_signed(self, body: Body, sig: bytes | None, key: bytes) -> str:
        """Why a one-signer record's signature does not hold: a former director's says so."""
        if key != self.director:
            return "not signed by its player"
        for former, at in self.former.items():
            if signed_by(body, sig, former):
                return (
                    f"signed by the former director {former.hex()[:16]}, replaced by "
                    f"the entrants at record {at}"
                )
        return "not signed by the director"

    def substitute_signed(
        self, body: Substitute, sigs: Sequence[bytes | None], keys: Sequence[bytes]
    ) -> bool:
        """A substitute needs the director and every one of the three seats left."""
        who = ["the director"] + [SEATS[s] for s in range(4) if s != body.seat]
        missing = [who[n] for n in range(4) if sigs[n] is None]
        if missing:
            self.refuse(
                ProblemKind.UNSIGNED,
                f"no signature of {', '.join(missing)}",
                body.round,
                body.table,
            )
            return False
        bad = [who[n] for n in range(4) if not signed_by(body, sigs[n], keys[n])]
        if bad:
            self.refuse(
                ProblemKind.BAD_SIGNATURE,
                f"{', '.join(bad)} did not sign this substitute",
                body.round,
                body.table,
            )
            return False
        return True

    def entrant(self, key: bytes, body: Body) -> int | None:
        number = self.number.get(key)
        if number is None:
            self.refuse(ProblemKind.UNKNOWN_PLAYER, key.hex()[:16], *_where(body))
        return number

    def enter(self, key: bytes, name: str) -> None:
        self.number[key] = len(self.keys)
        self.keys.append(key)
        self.names.append(name)

    # -- records --------------------------------------------------------------------------

    def take(self, record: Record) -> None:
        body = record.body
        if isinstance(body, Create):
            self.refuse(ProblemKind.DUPLICATE, "a second creation record")
            return
        if body.event != self.event:
            self.refuse(
                ProblemKind.OTHER_EVENT,
                f"event {body.event.hex()[:16]}, this is {self.event.hex()[:16]}",
                *_where(body),
            )
            return
        if isinstance(body, NewDirector):
            self.new_director(body, record)
            return
        if not self.signatures_hold(record):
            return
        if (
            self.ahead is not None
            and self.ahead.called
            and isinstance(body, TableResult | Correction | Penalty | Substitute)
        ):
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"round {len(self.rounds) + 1} is called: "
                "the results it is seated after are closed until it starts",
                *_where(body),
            )
            return
        if isinstance(body, Entry):
            self.entry(body)
        elif isinstance(body, Admit):
            self.admit(body)
        elif isinstance(body, Withdraw):
            self.withdraw(body)
        elif isinstance(body, (SeedCommit, SeedEcho, SeedReveal)):
            self.seed_step(body)
        elif isinstance(body, RoundCall):
            self.round_call(body)
        elif isinstance(body, RevealLapse):
            self.reveal_lapse(body)
        elif isinstance(body, RoundStart):
            self.round_start(body)
        elif isinstance(body, TableResult):
            self.result(body, record)
        elif isinstance(body, Correction):
            self.correction(body, record)
        elif isinstance(body, (TimeCall, Extension, EndTable)):
            self.clock(body)
        elif isinstance(body, Substitute):
            self.substitute(body, record)
        else:
            self.penalty(body, record)

    def entry(self, body: Entry) -> None:
        if body.player in self.number or body.player in self.pending:
            self.refuse(ProblemKind.DUPLICATE, f"a second entry of {body.name!r}")
        elif not self.create.private or body.player in self.admitted:
            self.enter(body.player, body.name)
        else:
            self.pending[body.player] = body.name

    def admit(self, body: Admit) -> None:
        if body.player in self.number or body.player in self.admitted:
            self.refuse(ProblemKind.DUPLICATE, "a key admitted twice")
            return
        self.admitted.add(body.player)
        if body.player in self.pending:
            self.enter(body.player, self.pending.pop(body.player))

    def withdraw(self, body: Withdraw) -> None:
        number = self.entrant(body.player, body)
        if number is None:
            return
        if number in self.withdrawn:
            self.refuse(ProblemKind.DUPLICATE, f"{self.names[number]!r} withdrawn twice")
        elif body.by is WithdrawnBy.DIRECTOR and not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a withdrawal by the director")
        else:
            self.withdrawn.add(number)

    def live(self) -> tuple[int, ...]:
        """The entrants now in: admitted and not withdrawn."""
        return tuple(n for n in range(len(self.keys)) if n not in self.withdrawn)

    def seed_step(self, body: SeedCommit | SeedEcho | SeedReveal) -> None:
        if body.round != len(self.rounds) or body.round >= self.create.rounds:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"a seed step for round {body.round + 1} "
                f"while round {len(self.rounds) + 1} is next",
                body.round,
            )
            return
        if self.create.seed_steps is SeedSteps.AHEAD:
            number = self.number.get(body.player)
            if number is None:
                self.refuse(ProblemKind.NOT_IN_ROUND, body.player.hex()[:16], body.round)
                return
            self.ahead = self.ahead or AheadSeed()
            refusal = take_step(
                self.ahead, self.live(), self.event, number, body, self.names[number]
            )
            if refusal is not None:
                self.refuse(*refusal, body.round)
            return
        if self.seed is None:  # the first commitment closes the round's roster
            if not isinstance(body, SeedCommit):
                self.refuse(ProblemKind.OUT_OF_ORDER, "before any commitment", body.round)
                return
            self.seed = _Round(tuple(n for n in range(len(self.keys)) if n not in self.withdrawn))
        state = self.seed
        number = self.number.get(body.player)
        if number is None or number not in state.roster:
            self.refuse(ProblemKind.NOT_IN_ROUND, body.player.hex()[:16], body.round)
            return
        if isinstance(body, SeedCommit):
            self.step(state.commits, number, body.commitment, body.round, "commitment")
            return
        if any(n not in state.commits for n in state.roster):
            self.refuse(ProblemKind.OUT_OF_ORDER, "before every entrant committed", body.round)
            return
        if isinstance(body, SeedEcho):
            if body.commitments != echo([state.commits[n] for n in state.roster]):
                self.refuse(ProblemKind.BAD_ECHO, self.names[number], body.round)
                return
            self.step(state.echoes, number, body.commitments, body.round, "echo")
            return
        if any(n not in state.echoes for n in state.roster):
            self.refuse(ProblemKind.EARLY_REVEAL, self.names[number], body.round)
            return
        if commitment(self.event, body.round, body.player, body.nonce) != state.commits[number]:
            self.refuse(ProblemKind.BAD_REVEAL, self.names[number], body.round)
            return
        self.step(state.reveals, number, body.nonce, body.round, "reveal")

    def step(
        self, held: dict[int, bytes], number: int, value: bytes, round_: int, what: str
    ) -> None:
        if number in held:
            self.refuse(ProblemKind.DUPLICATE, f"a second {what} of {self.names[number]!r}", round_)
        else:
            held[number] = value

    def round_call(self, body: RoundCall) -> None:
        """The director calls the next round of an event whose seed is made ahead: its
        roster and the results it is seated after are closed, its reveals due."""
        r = body.round
        if self.create.seed_steps is not SeedSteps.AHEAD:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                "a round call at an event whose seeds are made after the call",
                r,
            )
            return
        if r != len(self.rounds) or r >= self.create.rounds:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"a call of round {r + 1}, round "
                f"{len(self.rounds) + 1} is next of {self.create.rounds}",
                r,
            )
            return
        missing = (
            ()
            if r == 0
            else [
                t for t in range(len(self.rounds[r - 1].tables)) if (r - 1, t) not in self.results
            ]
        )
        state = self.ahead or AheadSeed()
        refusal = call_round(state, self.live(), missing)
        if refusal is not None:
            self.refuse(*refusal, r)
            return
        self.ahead = state

    def reveal_lapse(self, body: RevealLapse) -> None:
        """The director seats the called round without entrants who did not reveal in time
        (seed_ahead.excuse says when it may)."""
        r = body.round
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a reveal lapse", r)
            return
        if self.create.seed_steps is not SeedSteps.AHEAD or r != len(self.rounds):
            self.refuse(ProblemKind.OUT_OF_ORDER, f"a reveal lapse of round {r + 1}", r)
            return
        numbers = [self.number.get(key) for key in body.players]
        if None in numbers:
            self.refuse(ProblemKind.UNKNOWN_PLAYER, "in a reveal lapse", r)
            return
        known = [n for n in numbers if n is not None]
        state = self.ahead or AheadSeed()
        refusal = excuse(state, known, [self.names[n] for n in known])
        if refusal is not None:
            self.refuse(*refusal, r)
            return
        self.ahead = state
        self.lapses.append(body)

    def round_start(self, body: RoundStart) -> None:
        r = body.round
        if r != len(self.rounds) or r >= self.create.rounds:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"round {len(self.rounds) + 1} is next of {self.create.rounds}",
                r,
            )
            return
        if self.create.seed_steps is SeedSteps.AHEAD:
            ahead = self.ahead
            if ahead is None or ahead.roster is None:
                self.refuse(ProblemKind.OUT_OF_ORDER, "a round start before the round's call", r)
                return
            state = _Round(ahead.seeders(), ahead.commits, {}, ahead.reveals)
            self.ahead = None
        else:
            state = self.seed or _Round(self.live())
        self.seed = None
        if r > 0:
            for t in range(len(self.rounds[r - 1].tables)):
                if (r - 1, t) not in self.results:
                    self.refuse(
                        ProblemKind.MISSING_RESULT, f"round {r + 1} started first", r - 1, t
                    )
        lacking = [self.names[n] for n in state.roster if n not in state.reveals]
        made = body.seed
        if lacking:
            more = f" and {len(lacking) - 5} more" if len(lacking) > 5 else ""
            self.refuse(
                ProblemKind.SEED_MISSING,
                "no reveal of " + ", ".join(map(repr, lacking[:5])) + more,
                r,
            )
        else:
            made = seed(self.event, r, [state.reveals[n] for n in state.roster])
            if made != body.seed:
                self.refuse(ProblemKind.BAD_SEED, "", r)
        if body.results != results_digest(self.hashes):
            self.refuse(ProblemKind.BAD_RESULTS, "", r)
        given = RoundSeating(r, body.tables, body.byes)
        try:
            order = ranking(self.standings()) if self.create.seeded and r > 0 else None
            if order is not None:
                order = tuple(n for n in order if n in state.roster)
            wanted = expected_seating(
                state.roster,
                r,
                self.create.rounds,
                self.rounds,
                [*self.seeds, made],
                self.create.fill,
                order,
            )
        except (SeatingError, StandingsError) as error:
            self.refuse(ProblemKind.CANNOT_SEAT, str(error), r)
            wanted = None
        if wanted is not None and wanted != given:
            self.refuse(ProblemKind.BAD_SEATING, _first_difference(wanted, given), r)
        self.rounds.append(given)
        self.seeds.append(made)

    def seated(self, round_: int, table: int) -> tuple[bytes | None, ...] | None:
        if round_ >= len(self.rounds) or table >= len(self.rounds[round_].tables):
            self.refuse(ProblemKind.UNKNOWN_TABLE, "", round_, table)
            return None
        return tuple(
            None if n is None or n >= len(self.keys) else self.keys[n]
            for n in self.rounds[round_].tables[table]
        )

    def seats_now(self, round_: int, table: int) -> tuple[bytes | None, ...] | None:
        """The keys at a table now: the seating's, a substitute's in a seat it took (None for
        a bot seat). None (and no problem) for a table no round seated."""
        if round_ >= len(self.rounds) or table >= len(self.rounds[round_].tables):
            return None
        seats = [
            None if n is None or n >= len(self.keys) else self.keys[n]
            for n in self.rounds[round_].tables[table]
        ]
        sub = self.subs.get((round_, table))
        if sub is not None:
            seats[sub.seat] = sub.substitute
        return tuple(seats)

    def result(self, body: TableResult, record: Record) -> None:
        r, t = body.round, body.table
        if self.seated(r, t) is None:
            return
        seats = self.seats_now(r, t)
        assert seats is not None
        sub = self.subs.get((r, t))
        if body.players != seats:
            wrong = [SEATS[s] for s in range(4) if body.players[s] != seats[s]]
            self.refuse(ProblemKind.NOT_SEATED, f"seat(s) {', '.join(wrong)}", r, t)
            return
        if body.table_id != table_id(self.event, r, t, 0 if sub is None else 1):
            self.refuse(ProblemKind.BAD_TABLE_ID, body.table_id.hex(), r, t)
            return
        if (r, t) in self.signed_results:
            self.refuse(ProblemKind.DUPLICATE, "a second result", r, t)
            return
        self.signed_results.add((r, t))
        scores = body.scores
        if sub is not None:  # the hands after the substitute, on top of those before
            scores = _added(sub.scores, scores)
        self.results.setdefault((r, t), scores)
        self.hashes.append(_hash(record))

    def correction(self, body: Correction, record: Record) -> None:
        if self.seated(body.round, body.table) is None:
            return
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a correction", body.round, body.table)
            return
        self.results[(body.round, body.table)] = body.scores
        self.adjustments.append(body)
        self.hashes.append(_hash(record))

    def clock(self, body: TimeCall | Extension | EndTable) -> None:
        """The round clock's records (docs/TOURNAMENT.md): a time call once for the round
        under way of a timed event; an extension or a forced end for a table of it whose
        result is not held yet, with a reason (a forced end once)."""
        r = body.round
        if r != len(self.rounds) - 1:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"a clock record for round {r + 1}, "
                + (
                    f"round {len(self.rounds)} is under way"
                    if self.rounds
                    else "no round has started"
                ),
                r,
            )
            return
        if not isinstance(body, EndTable) and self.create.length is not Length.MINUTES:
            self.refuse(ProblemKind.NOT_TIMED, "", r)
            return
        if isinstance(body, TimeCall):
            if r in self.time_called:
                self.refuse(ProblemKind.DUPLICATE, "time called twice", r)
                return
            self.time_called.add(r)
            self.clock_records.append(body)
            return
        t = body.table
        if self.seated(r, t) is None:
            return
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a clock record", r, t)
            return
        if (r, t) in self.results:
            self.refuse(ProblemKind.OUT_OF_ORDER, "the table's result is held", r, t)
            return
        if isinstance(body, Extension):
            self.extensions[(r, t)] = self.extensions.get((r, t), 0) + body.minutes
        elif (r, t) in self.ended:
            self.refuse(ProblemKind.DUPLICATE, "a table ended twice", r, t)
            return
        else:
            self.ended[(r, t)] = body.reason
        self.clock_records.append(body)

    def substitute(self, body: Substitute, record: Record) -> None:
        """A seat of the round under way taken by a reserve or a bot seat (its signatures
        already hold): once a table, before its result, the leaving key the one seated there,
        a reserve an entrant not withdrawn and not seated (nor with a bye) in the round,
        hands left to play."""
        r, t = body.round, body.table
        if r != len(self.rounds) - 1:
            self.refuse(
                ProblemKind.OUT_OF_ORDER,
                f"a substitute in round {r + 1}, which is not under way",
                r,
                t,
            )
            return
        seats = self.seats_now(r, t)
        if self.seated(r, t) is None or seats is None:
            return
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a substitute", r, t)
            return
        if (r, t) in self.results:
            self.refuse(ProblemKind.OUT_OF_ORDER, "the table's result is held", r, t)
            return
        if (r, t) in self.subs:
            self.refuse(
                ProblemKind.DUPLICATE,
                "a second substitute at one table (its scores are then the director's correction)",
                r,
                t,
            )
            return
        if seats[body.seat] is None or seats[body.seat] != body.leaving:
            self.refuse(
                ProblemKind.NOT_SEATED, f"seat {SEATS[body.seat]} is not the leaving player's", r, t
            )
            return
        if body.hands >= table_hands(self.create):
            self.refuse(ProblemKind.BAD_SUBSTITUTE, f"no hand left after {body.hands}", r, t)
            return
        if body.substitute is not None:
            problem = self.reserve_problem(body.substitute, r)
            if problem:
                self.refuse(ProblemKind.BAD_SUBSTITUTE, problem, r, t)
                return
        self.subs[(r, t)] = body
        self.hashes.append(_hash(record))

    def reserve_problem(self, key: bytes, round_: int) -> str:
        """Why ``key`` cannot be a reserve in ``round_`` ("" when it can)."""
        number = self.number.get(key)
        if number is None:
            return "the reserve is not an entrant"
        if number in self.withdrawn:
            return f"{self.names[number]!r} has withdrawn"
        seating = self.rounds[round_]
        if number in seating.byes or any(number in seats for seats in seating.tables):
            return f"{self.names[number]!r} is seated in round {round_ + 1} (or has its bye)"
        if any(s.round == round_ and s.substitute == key for s in self.subs.values()):
            return f"{self.names[number]!r} already substitutes in round {round_ + 1}"
        return ""

    def new_director(self, body: NewDirector, record: Record) -> None:
        """The entrants name a new director: signed at this very place of the record by more
        than half of the entrants not withdrawn (a signature of a withdrawn entrant is not
        counted; one that does not check refuses the record)."""
        if body.at != self.index:
            self.refuse(
                ProblemKind.BAD_PLACE, f"signed for record {body.at}, this is record {self.index}"
            )
            return
        sigs = record.signatures
        if len(sigs) > len(self.keys):
            self.refuse(
                ProblemKind.BAD_SIGNATURE, f"{len(sigs)} signatures, {len(self.keys)} entrants"
            )
            return
        bad = [
            self.names[n]
            for n, sig in enumerate(sigs)
            if sig is not None and not signed_by(body, sig, self.keys[n])
        ]
        if bad:
            self.refuse(ProblemKind.BAD_SIGNATURE, "not signed by " + ", ".join(map(repr, bad[:5])))
            return
        voters = [n for n in range(len(self.keys)) if n not in self.withdrawn]
        signed = [n for n in voters if n < len(sigs) and sigs[n] is not None]
        if 2 * len(signed) <= len(voters):
            self.refuse(
                ProblemKind.NO_MAJORITY,
                f"{len(signed)} of {len(voters)} entrants signed; {len(voters) // 2 + 1} needed",
            )
            return
        if body.director == self.director:
            self.refuse(ProblemKind.DUPLICATE, "that key is the director already")
            return
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a new director")
            return
        self.former[self.director] = self.index
        self.former.pop(body.director, None)
        self.director = body.director
        self.directors.append(body)

    def penalty(self, body: Penalty, record: Record) -> None:
        number = self.entrant(body.player, body)
        if number is None:
            return
        if body.round >= len(self.rounds):
            self.refuse(ProblemKind.OUT_OF_ORDER, "a penalty in a round not started", body.round)
            return
        if not body.reason.strip():
            self.refuse(ProblemKind.NO_REASON, "a penalty", body.round)
            return
        self.penalties.append(Deduction(number, body.points, body.score))
        self.adjustments.append(body)
        self.hashes.append(_hash(record))

    # -- the standings --------------------------------------------------------------------

    def standings(self) -> tuple[StandingsRow, ...]:
        """The standings of the results so far, computed again only when what they are
        computed from changed (a daemon asks after every record it takes, and most records
        are seed steps, which change nothing here)."""
        basis = (
            tuple(self.results.items()),
            len(self.rounds),
            tuple(self.subs.items()),
            tuple(self.penalties),
            len(self.keys),
        )
        memo = self._standings_memo
        if memo is not None and memo[0] == basis:
            if isinstance(memo[1], StandingsError):
                raise memo[1]
            return memo[1]
        try:
            rows: tuple[StandingsRow, ...] | StandingsError = self._standings()
        except StandingsError as error:
            rows = error
        self._standings_memo = (basis, rows)
        if isinstance(rows, StandingsError):
            raise rows
        return rows

    def _standings(self) -> tuple[StandingsRow, ...]:
        scores = [
            Scores(r, t, self.rounds[r].tables[t], s) for (r, t), s in sorted(self.results.items())
        ]
        byes = [Bye(seating.round, p) for seating in self.rounds for p in seating.byes]
        total = table_hands(self.create)
        handovers = [
            Handover(
                r,
                t,
                sub.seat,
                None if sub.substitute is None else self.number[sub.substitute],
                sub.scores[sub.seat],
                Fraction(sub.hands, total),
            )
            for (r, t), sub in self.subs.items()
            if (r, t) in self.results
        ]
        return standings(
            scores, self.create.scoring, byes, range(len(self.keys)), self.penalties, handovers
        )

    def copy(self) -> _Check:
        """A copy whose taking more records leaves this one as it is (each container
        copied; what they hold is never changed in place)."""
        new = object.__new__(_Check)
        for name, value in vars(self).items():
            if isinstance(value, list | dict | set):
                value = value.copy()
            elif isinstance(value, _Round):
                value = _Round(
                    value.roster, dict(value.commits), dict(value.echoes), dict(value.reveals)
                )
            elif isinstance(value, AheadSeed):
                value = value.copy()
            setattr(new, name, value)
        return new

    def verdict(self) -> Verdict:
        problems = list(self.problems)
        for key, name in self.pending.items():
            problems.append(
                EventProblem(ProblemKind.UNADMITTED, -1, None, None, f"{name!r} ({key.hex()[:16]})")
            )
        try:
            rows = self.standings()
        except StandingsError as error:
            problems.append(EventProblem(ProblemKind.NOT_SEATED, -1, None, None, str(error)))
            rows = ()
        seeding = None
        if self.ahead is not None:
            ahead = self.ahead
            who = ahead.contributors(self.live())
            seeding = SeedProgress(
                len(self.rounds),
                who,
                tuple(sorted((n, c) for n, c in ahead.commits.items() if n in who)),
                tuple(sorted(ahead.echoed(who).items())),
                tuple(sorted(ahead.reveals.items())),
                ahead.called,
                tuple(sorted(ahead.excused)),
            )
        elif self.seed is not None:
            state = self.seed
            seeding = SeedProgress(
                len(self.rounds),
                state.roster,
                tuple(sorted(state.commits.items())),
                tuple(sorted(state.echoes.items())),
                tuple(sorted(state.reveals.items())),
            )
        return Verdict(
            self.create,
            tuple(problems),
            tuple(self.keys),
            tuple(self.names),
            tuple(self.rounds),
            len(self.results),
            rows,
            tuple(self.adjustments),
            tuple(self.seeds),
            tuple(self.hashes),
            seeding,
            frozenset(self.withdrawn),
            tuple(sorted(self.results.items())),
            frozenset(self.time_called),
            tuple(sorted(self.extensions.items())),
            tuple(sorted(self.ended.items())),
            tuple(self.clock_records),
            self.director,
            tuple(self.directors),
            tuple(self.subs.values()),
            tuple(self.lapses),
        )


class EventChecker:
    """``check_event`` one record at a time, for a daemon that holds an event and takes
    records as they come: each offered record is checked once (``trial``), not the whole
    record again. Never changed in place: ``trial`` gives the checker after the record."""

    def __init__(self, first: Record | Unreadable | None) -> None:
        self._check: _Check | None = None
        self._refusal: Verdict | None = None
        self.count = 1
        if not isinstance(first, Record) or not isinstance(first.body, Create):
            detail = first.problem if isinstance(first, Unreadable) else ""
            self._refusal = Verdict(
                None, (EventProblem(ProblemKind.NO_CREATE, 0, None, None, detail),)
            )
            return
        create = first.body
        sigs = first.signatures
        if len(sigs) != 1 or not signed_by(create, sigs[0], create.director):
            self._refusal = Verdict(
                None,
                (
                    EventProblem(
                        ProblemKind.NO_CREATE, 0, None, None, "its signature does not check"
                    ),
                ),
            )
            return
        try:
            event_ruleset(create.rules)
            refused = None if create.flowers else flowers_refused(create.rules)
        except NoTournaments as error:  # unknown here, or a rule set without tournaments
            refused = str(error)
        if refused is not None:
            self._refusal = Verdict(
                None, (EventProblem(ProblemKind.NO_CREATE, 0, None, None, refused),)
            )
            return
        self._check = _Check(create)

    def trial(self, record: Record | Unreadable) -> tuple[EventChecker, tuple[EventProblem, ...]]:
        """The checker with ``record`` taken after the records so far, and the problems it
        raised at its place (none: it holds)."""
        new = object.__new__(EventChecker)
        new._refusal = self._refusal
        new.count = self.count + 1
        new._check = None if self._check is None else self._check.copy()
        if new._check is None:
            return new, ()
        check = new._check
        check.index = self.count
        before = len(check.problems)
        if isinstance(record, Unreadable):
            check.refuse(ProblemKind.UNREADABLE, record.problem)
        else:
            check.take(record)
        return new, tuple(check.problems[before:])

    def verdict(self) -> Verdict:
        if self._check is None:
            assert self._refusal is not None
            return self._refusal
        return self._check.verdict()


def check_event(records: Sequence[Record | Unreadable]) -> Verdict:
    """Check every record of an event in order and recompute its standings (an
    ``Unreadable`` one, from a file, is refused where it stands)."""
    checker = EventChecker(records[0] if records else None)
    if checker._check is not None:
        check = checker._check  # one pass, in place: nothing to keep apart
        for index, record in enumerate(records[1:], start=1):
            check.index = index
            if isinstance(record, Unreadable):
                check.refuse(ProblemKind.UNREADABLE, record.problem)
            else:
                check.take(record)
    return checker.verdict()


def _added(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _hash(record: Record) -> bytes:
    return hashlib.sha256(encode_record(record)).digest()


def _where(body: Body) -> tuple[int | None, int | None]:
    round_ = getattr(body, "round", None)
    table = getattr(body, "table", None)
    return (round_ if isinstance(round_, int) else None, table if isinstance(table, int) else None)


def _first_difference(wanted: RoundSeating, given: RoundSeating) -> str:
    if len(wanted.tables) != len(given.tables):
        return f"{len(given.tables)} tables where the method seats {len(wanted.tables)}"
    for t, (want, got) in enumerate(zip(wanted.tables, given.tables, strict=True)):
        if want != got:
            return f"table {t + 1} seats {_seats(got)}, the method seats {_seats(want)}"
    return f"byes {list(given.byes)}, the method gives {list(wanted.byes)}"


def _seats(table: Sequence[int | None]) -> str:
    return " ".join(f"{w}:{'bot' if p is None else p}" for w, p in zip(SEATS, table, strict=True))
