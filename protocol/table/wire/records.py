"""Transcript records: what ``Step.persist`` holds, one msgpack array per record.

``[1, me, table, secret]`` genesis (this seat's place, -1 for an observer, and its secret);
``[2, payload]`` a wire message this seat accepted (its own or a peer's), in acceptance order;
``[3, kind, seat, reason, step, evidence]`` a problem this seat detected.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.wire.strict import (
    WireError,
    need_bytes,
    need_int,
    need_list,
    need_str,
    pack,
    unpack,
)


class RecordKind(IntEnum):
    GENESIS = 1
    MESSAGE = 2
    PROBLEM = 3


@dataclass(frozen=True)
class Genesis:
    me: Seat | None
    table: bytes
    secret: bytes


def genesis_record(me: Seat | None, table: bytes, secret: bytes) -> bytes:
    return pack([int(RecordKind.GENESIS), -1 if me is None else int(me), table, secret])


def message_record(payload: bytes) -> bytes:
    return pack([int(RecordKind.MESSAGE), payload])


def problem_record(problem: Problem) -> bytes:
    return pack(
        [
            int(RecordKind.PROBLEM),
            problem.kind.value,
            -1 if problem.seat is None else int(problem.seat),
            problem.reason,
            problem.step,
            list(problem.evidence),
        ]
    )


def parse_record(record: bytes) -> Genesis | bytes | Problem:
    """A genesis, a message payload, or a problem; ``WireError`` if the record is damaged."""
    items = need_list(unpack(record, "record"), "record")
    if not items:
        raise WireError("record: empty")
    kind = need_int(items[0], "record kind", 1, 3)
    if kind == RecordKind.GENESIS:
        _, me, table, secret = need_list(items, "genesis", length=4)
        place = need_int(me, "genesis seat", -1, 3)
        return Genesis(
            None if place < 0 else Seat(place),
            need_bytes(table, "genesis table", 16),
            need_bytes(secret, "genesis secret", max_len=64),
        )
    if kind == RecordKind.MESSAGE:
        return need_bytes(need_list(items, "message record", length=2)[1], "message")
    _, pkind, seat, reason, step, evidence = need_list(items, "problem record", length=6)
    try:
        problem_kind = ProblemKind(need_str(pkind, "problem kind", 32))
    except ValueError:
        raise WireError(f"problem record: unknown kind {pkind!r}") from None
    who = need_int(seat, "problem seat", -1, 3)
    return Problem(
        problem_kind,
        None if who < 0 else Seat(who),
        need_str(reason, "reason", 2000),
        need_int(step, "problem step", -1, 2**32),
        tuple(need_bytes(e, "evidence") for e in need_list(evidence, "evidence", max_len=8)),
    )
