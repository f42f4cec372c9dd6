"""Per-seat hash chains: order, gaps, duplicates, equivocation, broken links."""

from __future__ import annotations

import hashlib

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.chain import SeatChain, offer
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.wire.envelope import ZERO_HASH, Envelope, private_key_from_bytes, seal
from fourwinds.protocol.table.wire.messages import MsgKind

KEY = private_key_from_bytes(hashlib.sha256(b"chain").digest())


def chain_of(n: int, salt: bytes = b"") -> list[Envelope]:
    out: list[Envelope] = []
    prev = ZERO_HASH
    for seq in range(n):
        env = seal(
            KEY,
            version=1,
            table=bytes(16),
            seat=Seat.SOUTH,
            seq=seq,
            prev=prev,
            step=seq,
            state=bytes(32),
            to=None,
            kind=MsgKind.ACT,
            body=b"\x92" + bytes([seq]) + salt[:1] if salt else b"\x91" + bytes([seq]),
        )
        out.append(env)
        prev = env.msg_hash
    return out


def test_in_order_messages_are_accepted() -> None:
    chain = SeatChain(Seat.SOUTH)
    for env in chain_of(3):
        chain, accepted, problem = offer(chain, env)
        assert accepted == (env,) and problem is None
    assert chain.next_seq == 3


def test_a_gap_is_buffered_until_the_missing_message_arrives() -> None:
    msgs = chain_of(4)
    chain = SeatChain(Seat.SOUTH)
    for env in (msgs[2], msgs[3], msgs[1]):
        chain, accepted, problem = offer(chain, env)
        assert accepted == () and problem is None
    assert chain.missing() == (0,)
    chain, accepted, problem = offer(chain, msgs[0])
    assert accepted == tuple(msgs) and problem is None and not chain.pending


def test_duplicates_are_ignored() -> None:
    msgs = chain_of(2)
    chain = SeatChain(Seat.SOUTH)
    for env in (msgs[0], msgs[0], msgs[1], msgs[0], msgs[1]):
        chain, _, problem = offer(chain, env)
        assert problem is None
    assert chain.accepted == tuple(msgs)


def test_equivocation_keeps_both_messages_as_proof() -> None:
    ours, theirs = chain_of(2), chain_of(2, salt=b"x")
    chain = SeatChain(Seat.SOUTH)
    chain, _, _ = offer(chain, ours[0])
    chain, accepted, problem = offer(chain, theirs[0])
    assert accepted == () and problem is not None
    assert problem.kind is ProblemKind.EQUIVOCATION and problem.seat is Seat.SOUTH
    assert problem.evidence == (ours[0].encode(), theirs[0].encode())


def test_equivocation_between_two_early_messages_is_caught_too() -> None:
    ours, theirs = chain_of(3), chain_of(3, salt=b"y")
    chain, _, _ = offer(SeatChain(Seat.SOUTH), ours[2])
    _, _, problem = offer(chain, theirs[2])
    assert problem is not None and problem.kind is ProblemKind.EQUIVOCATION


def test_a_message_that_does_not_follow_its_predecessor_is_refused() -> None:
    ours, theirs = chain_of(2), chain_of(2, salt=b"z")
    chain, _, _ = offer(SeatChain(Seat.SOUTH), ours[0])
    chain, accepted, problem = offer(chain, theirs[1])
    assert accepted == () and problem is not None
    assert problem.kind is ProblemKind.BROKEN_CHAIN and chain.next_seq == 1
