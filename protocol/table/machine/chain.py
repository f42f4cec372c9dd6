"""Per-seat hash chains: accept each seat's messages in sequence order, exactly once.

Every seat numbers its messages 0, 1, 2... and names the hash of its previous one, so a
seat's history is a chain that cannot be reordered or forked without it showing. A chain here
buffers messages that arrive early (a gap) until the missing ones come, ignores exact
duplicates, and reports two different messages for one sequence number as equivocation,
keeping both as proof.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.wire.envelope import ZERO_HASH, Envelope
from fourwinds.protocol.values import evolve

MAX_PENDING = 2048


@dataclass(frozen=True)
class SeatChain:
    """One seat's accepted messages (seq 0..n-1, in order) and early arrivals."""

    seat: Seat
    accepted: tuple[Envelope, ...] = ()
    pending: Mapping[int, Envelope] = field(default_factory=dict)

    @property
    def next_seq(self) -> int:
        return len(self.accepted)

    @property
    def head(self) -> bytes:
        return self.accepted[-1].msg_hash if self.accepted else ZERO_HASH

    def missing(self) -> tuple[int, ...]:
        """Sequence numbers we know exist (a later one arrived) but do not hold."""
        if not self.pending:
            return ()
        return tuple(s for s in range(self.next_seq, max(self.pending)) if s not in self.pending)


def _equivocation(seat: Seat, first: Envelope, second: Envelope) -> Problem:
    return Problem(
        ProblemKind.EQUIVOCATION,
        seat,
        f"two different signed messages for seq {first.seq}",
        first.step,
        (first.encode(), second.encode()),
    )


def offer(
    chain: SeatChain, env: Envelope
) -> tuple[SeatChain, tuple[Envelope, ...], Problem | None]:
    """Add one verified message of this seat.

    Returns the new chain, the messages that became acceptable in order (possibly several
    once a gap closes) and a problem if the message proves misbehaviour.
    """
    if env.seq < chain.next_seq:
        held = chain.accepted[env.seq]
        if held.msg_hash == env.msg_hash:
            if held.body is None and env.body is not None:  # a full copy of a redacted one
                accepted = (*chain.accepted[: env.seq], env, *chain.accepted[env.seq + 1 :])
                return evolve(chain, accepted=accepted), (), None
            return chain, (), None
        return chain, (), _equivocation(chain.seat, held, env)
    if env.seq > chain.next_seq:
        other = chain.pending.get(env.seq)
        if other is not None:
            if other.msg_hash != env.msg_hash:
                return chain, (), _equivocation(chain.seat, other, env)
            return chain, (), None
        if len(chain.pending) >= MAX_PENDING:
            return (
                chain,
                (),
                Problem(
                    ProblemKind.MISSING,
                    chain.seat,
                    f"too many messages buffered past seq {chain.next_seq}",
                ),
            )
        return evolve(chain, pending={**chain.pending, env.seq: env}), (), None
    accepted_now: list[Envelope] = []
    pending = dict(chain.pending)
    items = list(chain.accepted)
    head = chain.head
    current: Envelope | None = env
    while current is not None:
        if current.prev != head:
            problem = Problem(
                ProblemKind.BROKEN_CHAIN,
                chain.seat,
                f"seq {current.seq} does not follow the seat's previous message",
                current.step,
                (current.encode(),),
            )
            pending.pop(current.seq, None)
            new = evolve(chain, accepted=tuple(items), pending=pending)
            return new, tuple(accepted_now), problem
        items.append(current)
        accepted_now.append(current)
        head = current.msg_hash
        pending.pop(current.seq, None)
        current = pending.get(current.seq + 1)
    return evolve(chain, accepted=tuple(items), pending=pending), tuple(accepted_now), None
