"""Resuming a seat from its records, and whole-table transcripts for verify and replay.

``resume`` rebuilds a seat's session from what its ``Step.persist`` records held: the genesis
(place, secret) and every accepted message replayed through the same code, with automatic
messages held back (they are in the records already, or ``tick`` sends them). A *transcript*
is every message of the table in one file; ``check_transcript`` replays it as an observer that
signs nothing and knows the practice wall, so it re-checks signatures, chains, every rule and
every face shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.seats import SEATS

from .envelope import decode
from .problems import Problem, ProblemKind
from .records import Genesis, parse_record
from .state import Phase, TableSession
from .values import evolve
from .wire import WireError, need_bytes, need_int, need_list, pack, unpack

TRANSCRIPT_MAGIC = "fourwinds-transcript"
TRANSCRIPT_VERSION = 1


class TranscriptError(FourwindsError):
    """A transcript or record file that cannot be read at all."""


def resume(records: Sequence[bytes], identity_private_key: bytes | None) -> TableSession:
    """The session a seat had when it wrote ``records`` (its timers restart on next tick)."""
    from .flow import Acc, receive
    from .lobby import base_session
    from .steps import advance

    if not records:
        raise TranscriptError("no records to resume from")
    try:
        genesis = parse_record(records[0])
    except WireError as error:
        raise TranscriptError(f"record 0: {error.problem}") from None
    if not isinstance(genesis, Genesis):
        raise TranscriptError("the first record is not a genesis record")
    s = base_session(genesis.me, identity_private_key if genesis.me is not None else None,
                     genesis.secret, genesis.table)
    acc = Acc(0.0, auto=False)
    problems: list[Problem] = []
    for index, record in enumerate(records[1:], start=1):
        try:
            item = parse_record(record)
        except WireError as error:
            raise TranscriptError(f"record {index}: {error.problem}") from None
        if isinstance(item, bytes):
            s = advance(receive(s, item, acc), acc)
        elif isinstance(item, Problem):
            problems.append(item)
    return evolve(s, problems=tuple(problems), step_started=-1.0)


def export_transcript(session: TableSession) -> bytes:
    """Every message this seat holds, for ``fourwinds verify`` and ``replay``."""
    payloads = [env.encode() for place in SEATS for env in session.chains[place].accepted]
    return pack([TRANSCRIPT_MAGIC, TRANSCRIPT_VERSION, session.table, payloads])


def read_transcript(data: bytes) -> tuple[bytes, tuple[bytes, ...]]:
    """(table id, payloads) of a transcript file; ``TranscriptError`` if unreadable."""
    try:
        items = need_list(unpack(data, "transcript", max_bytes=256 * 2**20), "transcript",
                          length=4)
        if items[0] != TRANSCRIPT_MAGIC:
            raise WireError("not a fourwinds transcript")
        need_int(items[1], "transcript version", TRANSCRIPT_VERSION, TRANSCRIPT_VERSION)
        table = need_bytes(items[2], "table id", 16)
        payloads = tuple(need_bytes(p, "message") for p in
                         need_list(items[3], "messages", max_len=1_000_000))
    except WireError as error:
        raise TranscriptError(error.problem) from None
    return table, payloads


@dataclass(frozen=True)
class Verdict:
    """What ``check_transcript`` found: ``ok`` when nothing is wrong and the match is done."""

    session: TableSession
    problems: tuple[Problem, ...]
    complete: bool
    events: tuple[object, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems and self.complete


def check_transcript(data: bytes, partial_ok: bool = False) -> Verdict:
    """Replay a transcript as an observer and list everything wrong, with the seat to blame."""
    from .flow import Acc, receive
    from .lobby import base_session
    from .steps import advance

    table, payloads = read_transcript(data)
    s = base_session(None, None, b"", table)
    acc = Acc(0.0, auto=False)
    for payload in payloads:
        s = advance(receive(s, payload, acc), acc)
    problems = list(s.problems)
    for place in SEATS:
        chain = s.chains[place]
        for seq in chain.missing():
            problems.append(Problem(ProblemKind.MISSING, None,
                                    f"seat {int(place)}'s message seq {seq} is missing "
                                    "(the transcript was cut or altered)"))
    complete = s.phase is Phase.OVER
    if not complete and not partial_ok and s.halted is None:
        waiting = sorted(int(p) for p in s.awaiting if p not in s.inputs)
        problems.append(Problem(ProblemKind.MISSING, None,
                                f"the transcript stops at step {s.step} ({s.phase.value}), "
                                f"waiting for seat(s) {waiting}", s.step))
    return Verdict(s, tuple(problems), complete or partial_ok, tuple(acc.events))


def first_open(payloads: Sequence[bytes]) -> bytes | None:
    for payload in payloads:
        try:
            env = decode(payload)
        except WireError:
            continue
        if env.seat == 0 and env.seq == 0:
            return payload
    return None
