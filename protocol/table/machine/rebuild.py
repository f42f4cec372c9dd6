"""Rebuilding a seat from the messages its peers hold, when its own records are damaged or lost.

Every message a seat signed went to the other three (a private one in full to its addressee
and redacted, with the same hash, to the others), so the peers hold the seat's whole chain and
every other chain. What only the seat knew is its secret, from which its dice nonces and deck
secrets follow; the daemon derives the ``entropy`` for it from the identity key and the table
(daemon/table_runtimes/seat_secrets.py), so ``derive_secret`` gives it again here.

``RebuildPool`` gathers the peers' copies (bounded, every one checked by its signature as soon
as the seat keys are known from the signed Open and Seating); ``complete`` says when it holds
every message up to the highest sequence number any peer reported for each seat, the seat's
own included: that is how the seat learns the last number it used before it signs anything.
``rebuild`` then replays them through the same code as ``resume`` (automatic messages held
back) in an order that lets the seat make again, byte for byte, the messages its deck makes
by itself: the other seats' messages step by step, its own chain only when nothing else can
move. Every message of its own that it makes again must equal the one the peers hold (same
seq, same hash), else ``RebuildError``: it would otherwise sign two different messages at one
number. The result carries the records a fresh log needs (genesis first), in the order
``resume`` replays them.

``RebuildPool`` is a buffer, not table state: it is mutated in place (a long match is tens
of thousands of messages; copying a map per message would be quadratic), and thrown away once
the seat is rebuilt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from fourwinds.protocol.deck import commit_reveal as deck_cr
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine import dice as cr
from fourwinds.protocol.table.machine.acc import Acc
from fourwinds.protocol.table.machine.flow import accept, receive
from fourwinds.protocol.table.machine.lobby import LOBBY, _join_body, base_session, derive_secret
from fourwinds.protocol.table.machine.state import Phase, Step, TableSession
from fourwinds.protocol.table.machine.steps import advance, dice_context
from fourwinds.protocol.table.machine.transcript import (
    MAX_TRANSCRIPT_BYTES,
    MAX_TRANSCRIPT_MESSAGES,
)
from fourwinds.protocol.table.wire.envelope import (
    Envelope,
    check_body,
    decode,
    is_bundle,
    public_key_bytes,
    public_key_from_bytes,
    unbundle,
    verify,
)
from fourwinds.protocol.table.wire.messages import MsgKind, Open, Seating, decode_body
from fourwinds.protocol.table.wire.records import genesis_record
from fourwinds.protocol.table.wire.signing import Verifier
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.values import evolve

MAX_WAITING = 4096
"""Messages held unchecked until the Open and Seating give the seat keys."""


class RebuildError(FourwindsError):
    """The seat cannot be rebuilt from what was gathered; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass
class RebuildPool:
    """The peers' copies of a table's messages, gathered for seat ``me`` (see the module)."""

    me: Seat
    own_key: bytes  # our Ed25519 public key
    host_key: bytes | None = None  # the creator's key, when the daemon knows it
    messages: dict[tuple[int, int], Envelope] = field(default_factory=dict)
    keys: list[bytes | None] = field(default_factory=lambda: [None, None, None, None])
    waiting: list[bytes] = field(default_factory=list)
    size: int = 0
    refused: int = 0
    last_refusal: str = ""
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # held(), so far

    def add(self, payload: bytes) -> None:
        """Take one payload (a message or a bundle) from a peer. A payload that does not
        decode, is for another table, or is not signed by its seat is refused (counted,
        ``last_refusal``), never raised: it comes from the network."""
        try:
            items = [payload]
            if is_bundle(payload):
                message, carried = unbundle(payload)
                items = [*carried, message]
            for item in items:
                self._add_one(item)
        except WireError as error:
            self.refused += 1
            self.last_refusal = error.problem

    def _verifier(self, seat: int) -> Verifier | None:
        key = self.own_key if seat == self.me else self.keys[seat]
        return None if key is None else public_key_from_bytes(key)

    def _add_one(self, payload: bytes) -> None:
        env = decode(payload)
        table = self.table
        if table is not None and env.table != table:
            raise WireError("a message of another table")
        where = (int(env.seat), env.seq)
        held = self.messages.get(where)
        if held is not None and (held.body is not None or env.body is None):
            return  # held already (a peer's redacted copy never replaces a full one)
        if where == (0, 0) and env.kind is MsgKind.OPEN and self.keys[0] is None:
            self._take_open(env)
            return
        verifier = self._verifier(int(env.seat))
        if verifier is None:
            if len(self.waiting) >= MAX_WAITING:
                raise WireError("too many messages before the table's Open and Seating")
            self.waiting.append(payload)
            return
        verify(env, verifier)
        if held is not None and held.msg_hash != env.msg_hash:
            raise WireError(
                f"seat {int(env.seat)} seq {env.seq}: a second, different "
                "signed message (kept the first)"
            )
        self._keep(where, env, len(payload))
        if where == (0, 1) and env.kind is MsgKind.SEATING:
            self._take_seating(env)

    def _keep(self, where: tuple[int, int], env: Envelope, size: int) -> None:
        if where not in self.messages:
            if len(self.messages) >= MAX_TRANSCRIPT_MESSAGES:
                raise WireError(f"over {MAX_TRANSCRIPT_MESSAGES:,} messages")
            if self.size + size > MAX_TRANSCRIPT_BYTES:
                raise WireError(f"over {MAX_TRANSCRIPT_BYTES:,} bytes of messages")
        self.size += size
        self.messages[where] = env

    def _take_open(self, env: Envelope) -> None:
        body = decode_body(MsgKind.OPEN, env.body or b"")
        assert isinstance(body, Open)
        if self.host_key is not None and body.public_key != self.host_key:
            raise WireError("an Open signed by another key than the table's host")
        if self.me == 0 and body.public_key != self.own_key:
            raise WireError("an Open not signed by us, at a table we opened")
        verify(env, public_key_from_bytes(body.public_key))
        self.keys[0] = body.public_key
        self._keep((0, 0), env, len(env.encode()))
        self._retry()

    def _take_seating(self, env: Envelope) -> None:
        body = decode_body(MsgKind.SEATING, env.body or b"")
        assert isinstance(body, Seating)
        keys: list[bytes | None] = [self.keys[0]]
        for place, raw in enumerate(body.joins, start=1):
            join_env = decode(raw)
            if join_env.kind is not MsgKind.JOIN or join_env.seat != place:
                raise WireError(f"seating: entry {place} is not a Join for place {place}")
            keys.append(_join_body(join_env).public_key)
        if keys[self.me] != self.own_key:
            raise WireError(f"the table's Seating gives place {int(self.me)} to another key")
        self.keys = keys
        self._retry()

    def _retry(self) -> None:
        waiting, self.waiting = self.waiting, []
        for payload in waiting:
            try:
                self._add_one(payload)
            except WireError as error:
                self.refused += 1
                self.last_refusal = error.problem

    @property
    def table(self) -> bytes | None:
        """The protocol's table id, once the Open is held."""
        found = self.messages.get((0, 0))
        return None if found is None else found.table

    def held(self, seat: int) -> int:
        """How many of ``seat``'s messages are held from seq 0 on without a gap (a private
        message to us counts only in full: only its sender holds that)."""
        count = self.counts[seat]  # messages are only ever added, so go on from there
        while True:
            env = self.messages.get((seat, count))
            if env is None or (env.to == self.me and env.body is None and seat != self.me):
                self.counts[seat] = count
                return count
            count += 1

    def missing(self, heads: Sequence[int]) -> int:
        """How many messages are still missing up to ``heads`` (per seat, the highest seq
        a peer reported; -1: none), 0 when the pool is complete."""
        return sum(max(0, heads[seat] + 1 - self.held(seat)) for seat in range(4))

    def complete(self, heads: Sequence[int]) -> bool:
        return (
            self.keys[0] is not None
            and all(k is not None for k in self.keys)
            and self.missing(heads) == 0
        )


def rebuild(pool: RebuildPool, identity_private_key: bytes, entropy: bytes) -> Step:
    """The seat's session rebuilt from ``pool`` (see the module), with the records a fresh
    log needs in ``persist`` (genesis first). ``RebuildError`` with the reason when it cannot
    be rebuilt safely."""
    open_env = pool.messages.get((0, 0))
    if open_env is None or any(k is None for k in pool.keys):
        raise RebuildError("the table's Open and Seating have not come from the peers yet")
    me = pool.me
    secret = derive_secret(entropy)
    s = base_session(me, identity_private_key, secret, open_env.table)
    assert s.key is not None
    if public_key_bytes(s.key) != pool.own_key:
        raise RebuildError("the identity key is not the one this seat sat down with")
    if me == 0:
        made = hashlib.sha256(b"fourwinds-table-id\0" + pool.own_key + secret).digest()[:16]
        if made != open_env.table:
            raise RebuildError(
                "the table's id does not follow from the secret derived from "
                "our key: it was opened before seat secrets were derived, so "
                "its secret is lost with the records"
            )
    acc = Acc(0.0, auto=False, lobby=LOBBY)
    acc.persist.append(genesis_record(me, open_env.table, secret))
    own = {seq: env for (seat, seq), env in pool.messages.items() if seat == me}
    others = sorted(
        (env for (seat, _), env in pool.messages.items() if seat != me),
        key=lambda e: (e.step, int(e.seat), e.seq),
    )
    if me == 0:  # our Open comes first: the Joins need it
        s = advance(receive(s, own[0].encode(), acc), acc)
    i = 0
    while True:
        moved = False
        while i < len(others) and others[i].step <= s.step:
            s = advance(receive(s, others[i].encode(), acc), acc)
            i += 1
            moved = True
        nxt = s.chains[me].next_seq
        ours = own.get(nxt)
        if ours is not None and ours.step <= s.step and not moved:
            # nothing else moves: this is one our seat decided (a player's action, a dice
            # message, a reveal), not one its deck makes again by itself
            s = advance(_take_own(s, ours, acc), acc)
            moved = True
        if not moved:
            if i >= len(others):
                break
            s = advance(receive(s, others[i].encode(), acc), acc)
            i += 1
    chain = s.chains[me]
    for seq, env in sorted(own.items()):
        if seq >= chain.next_seq:
            raise RebuildError(
                f"our message seq {seq} ({env.kind.name}) could not be "
                f"replayed (the table stands at step {s.step})"
            )
        if chain.accepted[seq].msg_hash != env.msg_hash:
            raise RebuildError(
                f"the rebuilt seat made a different message at seq {seq} "
                f"({chain.accepted[seq].kind.name}) than the one the peers "
                "hold; it would equivocate, so it stops"
            )
    _check_dice(s)
    return Step(
        evolve(s, step_started=-1.0), (), tuple(acc.persist), tuple(acc.events), tuple(acc.problems)
    )


def _check_dice(s: TableSession) -> None:
    """A hand's dice still open: our commitment, signed and held by the others, must open
    with the nonce our derived secret gives (a table from before derived secrets would
    otherwise reveal a nonce that does not, and the hand could never start)."""
    hand, me = s.hand, s.me
    if hand is None or me is None or s.phase not in (Phase.COMMIT, Phase.ECHO, Phase.REVEAL):
        return
    signed = hand.commits[me] if len(hand.commits) == 4 else None
    if signed is None and me in s.inputs:
        signed = s.inputs[me].action
    if not isinstance(signed, bytes):
        return
    context = dice_context(s, hand.hand_no)
    if deck_cr.commitment(context, me, cr.derive_nonce(s.secret, context)) != signed:
        raise RebuildError(
            "our dice commitment of this hand does not open with the secret "
            "derived from our key: the table was joined before seat secrets "
            "were derived, so its secret is lost with the records"
        )


def _take_own(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """One of our own messages as the peers hold it (its signature checked by the pool),
    taken into our chain as if we had just signed it."""
    check_body(env)
    return accept(s, env, acc)


__all__ = ["SEATS", "RebuildError", "RebuildPool", "rebuild"]
