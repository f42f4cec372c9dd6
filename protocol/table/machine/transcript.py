"""Resuming a seat from its records, and whole-table transcripts for verify and replay.

``resume`` rebuilds a seat's session from what its ``Step.persist`` records held: the genesis
(place, secret) and every accepted message replayed through the same code, with automatic
messages held back (they are in the records already, or ``tick`` sends them). A *transcript*
is every message of the table in one file; ``check_transcript`` replays it as an observer that
signs nothing and knows the practice wall, so it re-checks signatures, chains, every rule and
every face shown.

A transcript file is ``[magic, 1, table, messages]``, or ``[magic, 2, table, messages,
listed_id]`` when ``fourwinds export`` wrote it: ``listed_id`` is the id the daemon lists the
table by (``fourwinds tables``), which is not the protocol's table id. A transcript comes from
outside, so reading one is bounded: ``MAX_TRANSCRIPT_MESSAGES`` messages and
``MAX_TRANSCRIPT_BYTES`` bytes, each message within the wire's own limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.acc import Acc
from fourwinds.protocol.table.machine.flow import receive
from fourwinds.protocol.table.machine.lobby import LOBBY, base_session
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind, ProblemTally
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.steps import advance
from fourwinds.protocol.table.wire.envelope import decode
from fourwinds.protocol.table.wire.records import Genesis, parse_record
from fourwinds.protocol.table.wire.strict import (
    WireCut,
    WireError,
    need_bytes,
    need_int,
    need_list,
    pack,
    unpack,
)
from fourwinds.protocol.values import evolve

TRANSCRIPT_MAGIC = "fourwinds-transcript"
TRANSCRIPT_VERSION = 1
LISTED_VERSION = 2
"""The version of a transcript that also carries the id the daemon lists its table by."""

MAX_TRANSCRIPT_MESSAGES = 500_000
"""Most messages a transcript may hold. The longest match the options allow is 64 hands; on
the fair deck an American hand takes about 950 messages and an MCR hand about 750 (the
practice deck far fewer), so 64 hands of either is at most about 61,000: eight times that
leaves room for slow tables (timers, "thinking", resends) without letting a hostile file
make the reader build an unbounded list."""

MAX_TRANSCRIPT_BYTES = 256 * 2**20
"""Largest transcript file read (256 MiB). A fair-deck message averages under 400 bytes, so
64 fair-deck American hands are about 25 MB."""


class TranscriptError(FourwindsError):
    """A transcript or record file that cannot be read at all."""


class TranscriptCut(TranscriptError):
    """A transcript file that ends in the middle (truncated while copied or written)."""


def resume(records: Sequence[bytes], identity_private_key: bytes | None) -> TableSession:
    """The session a seat had when it wrote ``records`` (its timers restart on next tick)."""
    if not records:
        raise TranscriptError("no records to resume from")
    try:
        genesis = parse_record(records[0])
    except WireError as error:
        raise TranscriptError(f"record 0: {error.problem}") from None
    if not isinstance(genesis, Genesis):
        raise TranscriptError("the first record is not a genesis record")
    s = base_session(
        genesis.me,
        identity_private_key if genesis.me is not None else None,
        genesis.secret,
        genesis.table,
    )
    acc = Acc(0.0, auto=False, lobby=LOBBY)
    problems: list[Problem] = []
    tally = ProblemTally()  # counted again as they were (their hand: the replay's)
    for index, record in enumerate(records[1:], start=1):
        try:
            item = parse_record(record)
        except WireError as error:
            raise TranscriptError(f"record {index}: {error.problem}") from None
        if isinstance(item, bytes):
            s = advance(receive(s, item, acc), acc)
        elif isinstance(item, Problem):
            problems.append(item)
            tally, _ = tally.admit(s.hand.hand_no if s.hand is not None else -1, item)
    return evolve(s, problems=tuple(problems), problem_tally=tally, step_started=-1.0)


def export_transcript(session: TableSession) -> bytes:
    """Every message this seat holds, for ``fourwinds verify`` and ``replay``."""
    payloads = [env.encode() for place in SEATS for env in session.chains[place].accepted]
    return pack([TRANSCRIPT_MAGIC, TRANSCRIPT_VERSION, session.table, payloads])


@dataclass(frozen=True)
class Transcript:
    """A table's messages as a transcript file holds them.

    ``table`` is the protocol's table id (every signed message names it); ``listed_id`` the id
    a daemon lists the table by, when the file says it (``fourwinds export``)."""

    table: bytes
    payloads: tuple[bytes, ...]
    listed_id: bytes | None = None

    def encode(self) -> bytes:
        if self.listed_id is None:
            return pack([TRANSCRIPT_MAGIC, TRANSCRIPT_VERSION, self.table, list(self.payloads)])
        return pack(
            [TRANSCRIPT_MAGIC, LISTED_VERSION, self.table, list(self.payloads), self.listed_id]
        )

    @property
    def shown_id(self) -> str:
        """The table id as ``fourwinds tables`` shows it (the first 8 hex digits of the
        listed id, or of the protocol's id for a transcript no daemon listed)."""
        return (self.listed_id or self.table).hex()[:8]


def parse_transcript(data: bytes) -> Transcript:
    """The transcript in a file's bytes; ``TranscriptCut`` when they stop mid-way,
    ``TranscriptError`` for anything else unreadable."""
    try:
        items = need_list(
            unpack(
                data,
                "transcript",
                max_bytes=MAX_TRANSCRIPT_BYTES,
                max_items=MAX_TRANSCRIPT_MESSAGES,
            ),
            "transcript",
        )
        if not items or items[0] != TRANSCRIPT_MAGIC:
            raise WireError("not a fourwinds transcript")
        version = need_int(
            items[1] if len(items) > 1 else None,
            "transcript version",
            TRANSCRIPT_VERSION,
            LISTED_VERSION,
        )
        need_list(items, "transcript", length=4 if version == TRANSCRIPT_VERSION else 5)
        table = need_bytes(items[2], "table id", 16)
        payloads = tuple(
            need_bytes(p, "message")
            for p in need_list(items[3], "messages", max_len=MAX_TRANSCRIPT_MESSAGES)
        )
        listed = need_bytes(items[4], "listed table id", 16) if len(items) == 5 else None
    except WireCut:
        raise TranscriptCut(
            f"the transcript is cut short: its {len(data)} bytes end in the "
            "middle of a message (a truncated file)"
        ) from None
    except WireError as error:
        raise TranscriptError(error.problem) from None
    return Transcript(table, payloads, listed)


def read_transcript(data: bytes) -> tuple[bytes, tuple[bytes, ...]]:
    """(table id, payloads) of a transcript file; ``TranscriptError`` if unreadable."""
    transcript = parse_transcript(data)
    return transcript.table, transcript.payloads


def transcript_of_records(records: Sequence[bytes], listed_id: bytes | None = None) -> Transcript:
    """The transcript a seat's records hold: every message it accepted, ordered as
    ``export_transcript`` orders them (by seat, then sequence number), without its secret.
    ``TranscriptError`` names the first record that cannot be read."""
    if not records:
        raise TranscriptError("no records (the table never started here)")
    table: bytes | None = None
    seen: set[bytes] = set()
    keyed: list[tuple[tuple[int, int], bytes]] = []
    for index, record in enumerate(records):
        try:
            item = parse_record(record)
        except WireError as error:
            raise TranscriptError(f"record {index}: {error.problem}") from None
        if isinstance(item, Genesis):
            table = table or item.table
        elif isinstance(item, bytes) and item not in seen:
            seen.add(item)
            try:
                env = decode(item)
                key = (int(env.seat), env.seq)
            except WireError:
                key = (len(SEATS), len(keyed))  # kept, at the end: verify names it
            keyed.append((key, item))
    if table is None:
        raise TranscriptError("the records hold no genesis record")
    keyed.sort(key=lambda pair: pair[0])
    return Transcript(table, tuple(payload for _, payload in keyed), listed_id)


@dataclass(frozen=True)
class Verdict:
    """What ``check_transcript`` found: ``ok`` when nothing is wrong and the match is done."""

    session: TableSession
    problems: tuple[Problem, ...]
    complete: bool
    events: tuple[object, ...] = ()
    transcript: Transcript | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.complete


def check_transcript(data: bytes, partial_ok: bool = False) -> Verdict:
    """Replay a transcript file as an observer and list everything wrong, with the seat to
    blame."""
    return check_messages(parse_transcript(data), partial_ok)


def check_messages(transcript: Transcript, partial_ok: bool = False) -> Verdict:
    """``check_transcript`` of a transcript already read (or rebuilt from a seat's records)."""
    s = base_session(None, None, b"", transcript.table)
    acc = Acc(0.0, auto=False, lobby=LOBBY)
    for payload in transcript.payloads:
        s = advance(receive(s, payload, acc), acc)
    problems = list(s.problems)
    for place in SEATS:
        chain = s.chains[place]
        for seq in chain.missing():
            problems.append(
                Problem(
                    ProblemKind.MISSING,
                    None,
                    f"seat {int(place)}'s message seq {seq} is missing "
                    "(the transcript was cut or altered)",
                )
            )
    complete = s.phase is Phase.OVER
    if not complete and not partial_ok and s.halted is None:
        waiting = sorted(int(p) for p in s.awaiting if p not in s.inputs)
        problems.append(
            Problem(
                ProblemKind.MISSING,
                None,
                f"the transcript stops at step {s.step} ({s.phase.value}), "
                f"waiting for seat(s) {waiting}",
                s.step,
            )
        )
    return Verdict(s, tuple(problems), complete or partial_ok, tuple(acc.events), transcript)
