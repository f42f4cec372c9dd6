"""Receiving, accepting and sending messages: the plumbing every session call shares.

``Acc`` collects what one call produces (outgoing messages, records to persist, events,
problems). ``receive`` decodes and verifies a peer's bytes, ``accept`` runs a verified message
through its seat's hash chain, and ``send`` signs one of our own messages and accepts it like
any other, so our own history is checked by exactly the same code as everyone else's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fourwinds.protocol.seats import Seat

from .envelope import Envelope, decode, seal, verify
from .messages import Accuse, Body, MsgKind, decode_body, encode_body
from .problems import Problem, ProblemKind
from .records import message_record, problem_record
from .state import Outgoing, Phase, TableHalted, TableSession
from .values import evolve
from .wire import WireError


@dataclass
class Acc:
    """Mutable collector for one call; turned into a ``Step`` at the end."""

    now: float
    auto: bool = True
    answers: bool = True  # our automatic inputs (dice, auto-pass...); False: left to the caller
    outgoing: list[Outgoing] = field(default_factory=list)
    persist: list[bytes] = field(default_factory=list)
    events: list[object] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def report(s: TableSession, acc: Acc, problem: Problem) -> TableSession:
    acc.problems.append(problem)
    acc.persist.append(problem_record(problem))
    return evolve(s, problems=(*s.problems, problem))


def halt(s: TableSession, acc: Acc, problem: Problem) -> TableSession:
    if s.halted is not None:
        return s
    acc.events.append(TableHalted(problem))
    return evolve(s, halted=problem, phase=Phase.HALTED)


def receive(s: TableSession, payload: bytes, acc: Acc) -> TableSession:
    """A peer's bytes: decode, verify the signature, then accept into the sender's chain."""
    from .lobby import bootstrap_open, creator_join

    try:
        env = decode(payload)
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.MALFORMED, None, error.problem))
    if env.table != s.table:
        return report(s, acc, Problem(ProblemKind.WRONG_TABLE, None,
                                      f"message for table {env.table.hex()}"))
    verifier = s.verifiers[env.seat]
    if verifier is None:
        if env.kind is MsgKind.OPEN and env.seat == 0 and s.open is None:
            return bootstrap_open(s, env, acc)
        if env.kind is MsgKind.JOIN and s.me == 0 and s.phase is Phase.LOBBY:
            return creator_join(s, env, payload, acc)
        if payload not in s.early and len(s.early) < 64:
            return evolve(s, early=(*s.early, payload))
        return s
    chain = s.chains[env.seat]
    if env.kind is MsgKind.JOIN and (not chain.accepted or chain.accepted[0].msg_hash
                                     != env.msg_hash):
        return report(s, acc, Problem(ProblemKind.REFUSED_JOIN, None,
                                      f"place {int(env.seat)} is already seated"))
    if env.seq < chain.next_seq and (chain.accepted[env.seq].body == env.body or env.body is None
                                     ) and chain.accepted[env.seq].msg_hash == env.msg_hash:
        return s  # an exact duplicate (or its redacted form): nothing to check or do
    try:
        verify(env, verifier)
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.BAD_SIGNATURE, None, error.problem))
    return accept(s, env, acc)


def accept(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """Offer a verified message to its seat's chain and act on what becomes accepted."""
    from .chain import offer
    from .lobby import on_seating

    chain, accepted, problem = offer(s.chains[env.seat], env)
    chains = list(s.chains)
    chains[env.seat] = chain
    s = evolve(s, chains=tuple(chains))
    for item in accepted:
        acc.persist.append(message_record(item.encode()))
        if item.body is None:
            continue  # a redacted private message for someone else: chained, not read
        if item.kind is MsgKind.SEATING:
            s = on_seating(s, item, acc)
        elif item.kind is MsgKind.ACCUSE:
            s = on_accuse(s, item, acc)
        elif item.kind not in (MsgKind.OPEN, MsgKind.JOIN):
            inbox = list(s.inbox)
            inbox[item.seat] = (*inbox[item.seat], item)
            s = evolve(s, inbox=tuple(inbox))
    if problem is not None:
        s = report(s, acc, problem)
        if problem.kind is ProblemKind.EQUIVOCATION:
            s = halt(s, acc, problem)
            if s.me is not None and acc.auto:
                s = send(s, acc, Accuse(problem.evidence[0], problem.evidence[1]))
    return s


def on_accuse(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """A peer's proof of equivocation: check it, then halt blaming the equivocator (or blame
    the accuser for a false accusation)."""
    body = decode_body(MsgKind.ACCUSE, env.body or b"")
    assert isinstance(body, Accuse)
    try:
        first, second = decode(body.first), decode(body.second)
        same = (first.table == second.table == s.table and first.seat == second.seat
                and first.seq == second.seq and first.msg_hash != second.msg_hash)
        verifier = s.verifiers[first.seat]
        if not same or verifier is None:
            raise WireError("the two messages are not one seat's fork")
        verify(first, verifier)
        verify(second, verifier)
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.ILLEGAL_ACTION, env.seat,
                                      f"false accusation: {error.problem}", env.step))
    problem = Problem(ProblemKind.EQUIVOCATION, first.seat,
                      f"two different signed messages for seq {first.seq} "
                      f"(reported by seat {int(env.seat)})", first.step, (body.first, body.second))
    if s.halted is None:
        s = report(s, acc, problem)
    return halt(s, acc, problem)


def send(s: TableSession, acc: Acc, body: Body, to: Seat | None = None) -> TableSession:
    """Sign one of our messages for the current step and accept it into our own chain."""
    from .messages import KIND_OF

    assert s.me is not None and s.key is not None
    chain = s.chains[s.me]
    env = seal(s.key, version=s.version, table=s.table, seat=s.me, seq=chain.next_seq,
               prev=chain.head, step=s.step, state=s.step_hash or s.lobby_hash(), to=to,
               kind=KIND_OF[type(body)], body=encode_body(body))
    s = accept(s, env, acc)
    acc.outgoing.append(Outgoing(to, env.encode()))
    if to is not None and env.kind is not MsgKind.JOIN:
        # the other seats get it without its body, so their copy of our chain has no gap
        redacted = env.redacted().encode()
        acc.outgoing.extend(Outgoing(Seat(p), redacted) for p in range(4)
                            if p not in (s.me, to))
    return s
