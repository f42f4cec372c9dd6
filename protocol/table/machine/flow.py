"""Receiving, accepting and sending messages: the plumbing every session call shares.

What one call produces is collected in an ``Acc`` (``acc.py``). ``receive`` decodes and
verifies a peer's bytes, ``accept`` runs a verified message through its seat's hash chain, and
``send`` signs one of our own messages and accepts it like any other, so our own history is
checked by exactly the same code as everyone else's.
"""

from __future__ import annotations

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.acc import Acc, halt, report
from fourwinds.protocol.table.machine.chain import offer
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.state import Outgoing, Phase, TableSession
from fourwinds.protocol.table.wire.envelope import (
    BUNDLES_SINCE,
    MAX_CARRIED,
    Envelope,
    bundle,
    check_body,
    decode,
    is_bundle,
    seal,
    unbundle,
    verify,
)
from fourwinds.protocol.table.wire.messages import (
    KIND_OF,
    Accuse,
    Body,
    MsgKind,
    decode_body,
    encode_body,
)
from fourwinds.protocol.table.wire.records import message_record
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.values import evolve


def receive(s: TableSession, payload: bytes, acc: Acc) -> TableSession:
    """A peer's bytes: decode, verify the signature, then accept into the sender's chain.

    A bundle's carried messages are taken first. When they are the sender's messages just
    before the bundled one, linked by their hashes, the bundled message's signature covers
    them through its ``prev``: they are not checked one by one (their own signatures are,
    should one ever contradict a message we hold)."""
    if not is_bundle(payload):
        return _receive_one(s, payload, acc)
    try:
        message, carried = unbundle(payload)
        main = decode(message)
        items = [decode(item) for item in carried]
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.MALFORMED, None, error.problem))
    vouched = _vouched(s, main, items)
    for item, raw in zip(items, carried, strict=True):
        s = _receive_one(s, raw, acc, item, vouched=vouched)
    return _receive_one(s, message, acc, main, checked=vouched)


def _vouched(s: TableSession, main: Envelope, items: list[Envelope]) -> bool:
    """Whether ``main`` is validly signed and ``items`` are the messages right before it in
    its seat's chain, each named by the next one's ``prev``."""
    verifier = s.verifiers[main.seat] if main.table == s.table else None
    if verifier is None or not items:
        return False
    expected = main.seq - len(items)
    after = (*items[1:], main)
    if any(
        item.seat != main.seat or item.seq != expected + i or nxt.prev != item.msg_hash
        for i, (item, nxt) in enumerate(zip(items, after, strict=True))
    ):
        return False
    try:
        verify(main, verifier)
    except WireError:
        return False
    return True


def _receive_one(
    s: TableSession,
    payload: bytes,
    acc: Acc,
    env: Envelope | None = None,
    vouched: bool = False,
    checked: bool = False,
) -> TableSession:
    """One message; ``env`` when already decoded. ``vouched``: a carried message whose
    bundle's signature covers it (see ``receive``); ``checked``: its signature is checked."""
    try:
        if env is None:
            env = decode(payload)
        if vouched and env.body is not None:
            check_body(env)  # the signature that vouches for it covers only its body hash
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.MALFORMED, None, error.problem))
    if env.table != s.table:
        return report(
            s, acc, Problem(ProblemKind.WRONG_TABLE, None, f"message for table {env.table.hex()}")
        )
    if s.me is not None and env.seat != s.me and env.to is not None:
        if env.body is None and env.to == s.me:
            return s  # the redacted form of a message to us: we wait for the full one
        if env.body is not None and env.to != s.me:
            env = env.redacted()  # another seat's private message: its header is ours
        # (an observer checking a transcript reads every message the transcript holds)
    verifier = s.verifiers[env.seat]
    if verifier is None:
        if env.kind is MsgKind.OPEN and env.seat == 0 and s.open is None:
            return acc.lobby.bootstrap_open(s, env, acc)
        if env.kind is MsgKind.JOIN and s.me == 0 and s.phase is Phase.LOBBY:
            return acc.lobby.creator_join(s, env, payload, acc)
        if payload not in s.early and len(s.early) < 64:
            return evolve(s, early=(*s.early, payload))
        return s
    chain = s.chains[env.seat]
    if env.kind is MsgKind.JOIN and (
        not chain.accepted or chain.accepted[0].msg_hash != env.msg_hash
    ):
        return report(
            s,
            acc,
            Problem(ProblemKind.REFUSED_JOIN, None, f"place {int(env.seat)} is already seated"),
        )
    held = chain.accepted[env.seq] if env.seq < chain.next_seq else chain.pending.get(env.seq)
    if (
        held is not None
        and held.msg_hash == env.msg_hash
        and (held.body == env.body or env.body is None)
        and env.seq < chain.next_seq
    ):
        return s  # an exact duplicate (or its redacted form): nothing to check or do
    if not checked and not (vouched and (held is None or held.msg_hash == env.msg_hash)):
        try:  # a vouched message that contradicts one we hold is checked: proof must be signed
            verify(env, verifier)
        except WireError as error:
            return report(s, acc, Problem(ProblemKind.BAD_SIGNATURE, None, error.problem))
    return accept(s, env, acc)


def accept(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """Offer a verified message to its seat's chain and act on what becomes accepted."""
    chain, accepted, problem = offer(s.chains[env.seat], env)
    chains = list(s.chains)
    chains[env.seat] = chain
    s = evolve(s, chains=tuple(chains))
    inbox: list[tuple[Envelope, ...]] | None = None  # gathered, stored once
    for item in accepted:
        acc.persist.append(message_record(item.encode()))
        if item.body is None:
            continue  # a redacted private message for someone else: chained, not read
        if item.kind is MsgKind.SEATING or item.kind is MsgKind.ACCUSE:
            if inbox is not None:
                s, inbox = evolve(s, inbox=tuple(inbox)), None
            if item.kind is MsgKind.SEATING:
                s = acc.lobby.on_seating(s, item, acc)
            else:
                s = on_accuse(s, item, acc)
        elif item.kind is not MsgKind.OPEN and item.kind is not MsgKind.JOIN:
            if inbox is None:
                inbox = list(s.inbox)
            inbox[item.seat] = (*inbox[item.seat], item)
    if inbox is not None:
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
        same = (
            first.table == second.table == s.table
            and first.seat == second.seat
            and first.seq == second.seq
            and first.msg_hash != second.msg_hash
        )
        verifier = s.verifiers[first.seat]
        if not same or verifier is None:
            raise WireError("the two messages are not one seat's fork")
        verify(first, verifier)
        verify(second, verifier)
    except WireError as error:
        return report(
            s,
            acc,
            Problem(
                ProblemKind.ILLEGAL_ACTION, env.seat, f"false accusation: {error.problem}", env.step
            ),
        )
    problem = Problem(
        ProblemKind.EQUIVOCATION,
        first.seat,
        f"two different signed messages for seq {first.seq} (reported by seat {int(env.seat)})",
        first.step,
        (body.first, body.second),
    )
    if s.halted is None:
        s = report(s, acc, problem)
    return halt(s, acc, problem)


def send(s: TableSession, acc: Acc, body: Body, to: Seat | None = None) -> TableSession:
    """Sign one of our messages for the current step and accept it into our own chain. It
    leaves with the call's other messages (see ``outgoing``)."""
    assert s.me is not None and s.key is not None
    chain = s.chains[s.me]
    env = seal(
        s.key,
        version=s.version,
        table=s.table,
        seat=s.me,
        seq=chain.next_seq,
        prev=chain.head,
        step=s.step,
        state=s.step_hash or s.lobby_hash(),
        to=to,
        kind=KIND_OF[type(body)],
        body=encode_body(body),
    )
    acc.sent.append(env)
    return accept(s, env, acc)


def outgoing(s: TableSession, acc: Acc) -> list[Outgoing]:
    """The payloads for the messages one call sent: to each other seat, one payload, the
    last message it is to get now, bundled with the messages of ours before it that it
    lacks (this call's earlier ones, in full when public or addressed to it, and our
    private messages to others since our last public one, redacted). One payload for all
    when the three are the same."""
    if not acc.sent or s.me is None:
        return []
    if s.version < BUNDLES_SINCE:
        return _one_by_one(s.me, acc.sent)
    ours = s.chains[s.me].accepted
    first = acc.sent[0].seq
    payloads: dict[Seat, bytes] = {}
    for place in SEATS:
        if place == s.me:
            continue
        due = [env for env in acc.sent if env.to is None or env.to == place]
        if not due:
            continue
        last = due[-1]
        carried = [] if last.kind is MsgKind.JOIN else _lacking(ours, first, last.seq, place)
        payloads[place] = bundle(last.encode(), carried) if carried else last.encode()
    if len(payloads) == 3 and len(set(payloads.values())) == 1:
        return [Outgoing(None, next(iter(payloads.values())))]
    return [Outgoing(place, payload) for place, payload in payloads.items()]


def _one_by_one(me: Seat, sent: list[Envelope]) -> list[Outgoing]:
    """Version 1: each message on its own, and a private one's redacted copy at once to the
    seats it is not for (except a JOIN)."""
    out: list[Outgoing] = []
    for env in sent:
        out.append(Outgoing(env.to, env.encode()))
        if env.to is not None and env.kind is not MsgKind.JOIN:
            redacted = env.redacted().encode()
            out.extend(Outgoing(Seat(p), redacted) for p in range(4) if p not in (me, env.to))
    return out


def _lacking(ours: tuple[Envelope, ...], first: int, seq: int, place: Seat) -> list[bytes]:
    """Our messages before ``seq`` that ``place`` may lack: this call's (from ``first`` on),
    in full when public or to ``place``, else redacted; and our private messages since our
    last public one before the call, redacted (one to ``place`` too, which it ignores: the
    run stays unbroken, so the bundle's signature vouches for all of it)."""
    run: list[bytes] = []
    for env in reversed(ours[:seq]):
        if env.kind is MsgKind.JOIN or len(run) >= MAX_CARRIED:
            break
        if env.seq < first and env.to is None:
            break
        full = env.seq >= first and env.to in (None, place)
        run.append(env.encode() if full else env.redacted().encode())
    return run[::-1]
