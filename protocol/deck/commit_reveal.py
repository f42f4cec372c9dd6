"""Commit-reveal randomness for the dice (the break point, East for the first hand).

Each seat, as a pure state machine (``start``, then ``receive`` for every message):

1. commits ``H(context, seat, nonce)`` and broadcasts it (``Commit``);
2. once it holds all four commitments, echoes the digest of that set (``Echo``), so no seat
   can have shown different commitments to different seats;
3. once all four echoes agree with its own, reveals its nonce (``Reveal``); never earlier
   (a peer's reveal may arrive before the last echo: it is checked and kept);
4. once all four nonces open their commitments, the seed is the hash of the nonces in seat
   order; the dice come from the seed by rejection sampling (``dice.py``).

An echo mismatch makes every seat publish the signed commitments it holds
(``CommitEvidence``), which names the seat that signed two different ones (or the seat that
echoed a digest its own evidence contradicts). A nonce that does not open its commitment is
blamed at once; a seat that withholds its reveal is named by ``withheld`` when the table's
timer runs out, and the hand does not start without it: there is never a re-roll.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import TypeVar

from fourwinds.protocol.canonical import digest
from fourwinds.protocol.seats import SEATS, Seat

from .blame import Blame, Cheat, When, cheat
from .entropy import Entropy
from .events import Output, SeedReady, Send, others
from .messages import (
    Body,
    Commit,
    CommitEvidence,
    Echo,
    Reveal,
    Signed,
    Signer,
    Verifier,
    sign,
    signed_by,
)

NONCE_BYTES = 32
T = TypeVar("T")


def commitment(context: bytes, seat: Seat, nonce: bytes) -> bytes:
    """``H(context, seat, nonce)``."""
    data = b"fourwinds/deck/commit\x00" + len(context).to_bytes(2, "big") + context
    return hashlib.sha256(data + bytes([int(seat)]) + nonce).digest()


@dataclass(frozen=True)
class DiceState:
    """One seat's view of a commit-reveal round."""

    context: bytes
    seat: Seat
    nonce: bytes
    commits: tuple[Signed[Commit] | None, ...] = (None, None, None, None)
    echoes: tuple[Signed[Echo] | None, ...] = (None, None, None, None)
    reveals: tuple[Signed[Reveal] | None, ...] = (None, None, None, None)
    evidence: tuple[Signed[CommitEvidence] | None, ...] = (None, None, None, None)
    revealed: bool = False

    @property
    def seed(self) -> bytes | None:
        """The shared seed once every nonce is in, else None."""
        if any(r is None for r in self.reveals):
            return None
        return seed_of(self.context, tuple(r.body.nonce for r in self.reveals if r))


def seed_of(context: bytes, nonces: tuple[bytes, ...]) -> bytes:
    """The seed: a hash of the context and the four nonces in seat order."""
    data = b"fourwinds/deck/seed\x00" + len(context).to_bytes(2, "big") + context
    return hashlib.sha256(data + b"".join(nonces)).digest()


def _set(items: tuple[T | None, ...], seat: Seat, value: T) -> tuple[T | None, ...]:
    return tuple(value if i == seat else item for i, item in enumerate(items))


def start(
    context: bytes, seat: Seat, entropy: Entropy, signer: Signer
) -> tuple[DiceState, tuple[Output, ...]]:
    """Pick this seat's nonce from its entropy and broadcast the commitment."""
    nonce = entropy.block("commit-reveal nonce", 0)[:NONCE_BYTES]
    message = sign(Commit(context, seat, commitment(context, seat, nonce)), signer)
    state = DiceState(context, seat, nonce)
    state = replace(state, commits=tuple(_set(state.commits, seat, message)))
    return state, (Send(others(seat), message),)


def _commit_set_digest(state: DiceState) -> bytes:
    return digest(tuple(c.body.commitment for c in state.commits if c))


def _after_commits(state: DiceState, signer: Signer) -> tuple[DiceState, tuple[Output, ...]]:
    if state.echoes[state.seat] is not None or any(c is None for c in state.commits):
        return state, ()
    echo = sign(Echo(state.context, state.seat, _commit_set_digest(state)), signer)
    state = replace(state, echoes=tuple(_set(state.echoes, state.seat, echo)))
    return _after_echoes(state, signer, (Send(others(state.seat), echo),))


def _after_echoes(
    state: DiceState, signer: Signer, out: tuple[Output, ...]
) -> tuple[DiceState, tuple[Output, ...]]:
    if state.revealed or any(e is None for e in state.echoes):
        return state, out
    mine = _commit_set_digest(state)
    if any(e is not None and e.body.set_digest != mine for e in state.echoes):
        if state.evidence[state.seat] is None:
            commits = tuple(c for c in state.commits if c)
            ev = sign(CommitEvidence(state.context, state.seat, commits), signer)
            state = replace(state, evidence=tuple(_set(state.evidence, state.seat, ev)))
            out = (*out, Send(others(state.seat), ev))
        return state, out
    reveal = sign(Reveal(state.context, state.seat, state.nonce), signer)
    state = replace(state, revealed=True, reveals=tuple(_set(state.reveals, state.seat, reveal)))
    return _finish(state, (*out, Send(others(state.seat), reveal)))


def _finish(state: DiceState, out: tuple[Output, ...]) -> tuple[DiceState, tuple[Output, ...]]:
    seed = state.seed
    return state, (*out, SeedReady(seed)) if seed is not None else out


def _judge_evidence(state: DiceState, ev: Signed[CommitEvidence], verify: Verifier) -> None:
    """Name the seat an evidence message proves guilty, by raising; else return."""
    sender = ev.body.seat
    for theirs in ev.body.commits:
        owner = theirs.body.seat
        mine = state.commits[owner]
        if not signed_by(theirs, owner, verify):
            raise cheat(sender, Cheat.BAD_SIGNATURE, f"evidence holds a forged commit of {owner}")
        if mine is not None and mine.body != theirs.body:
            raise cheat(owner, Cheat.EQUIVOCATION, "signed two different commitments")
    echo = state.echoes[sender]
    shown = digest(tuple(c.body.commitment for c in ev.body.commits))
    if echo is not None and (echo.body.set_digest != shown or len(ev.body.commits) != 4):
        raise cheat(sender, Cheat.ECHO_MISMATCH, "echoed a digest its own commitments contradict")


def receive(
    state: DiceState, message: Signed[Body], signer: Signer, verify: Verifier
) -> tuple[DiceState, tuple[Output, ...]]:
    """Take one peer message; raise ``DeckCheat`` (state unchanged) on a provable cheat."""
    body = message.body
    sender = body.seat
    if not isinstance(body, (Commit, Echo, Reveal, CommitEvidence)):
        raise cheat(sender, Cheat.MALFORMED, "not a commit-reveal message")
    if body.context != state.context or sender == state.seat:
        raise cheat(sender, Cheat.MALFORMED, "a commit-reveal message for another round")
    if not signed_by(message, sender, verify):
        raise cheat(sender, Cheat.BAD_SIGNATURE, "commit-reveal message not signed by its sender")
    if isinstance(body, Commit):
        if _is_repeat(state.commits[sender], body):
            return state, ()
        state = replace(state, commits=_set(state.commits, sender, Signed(body, message.signature)))
        return _after_commits(state, signer)
    if isinstance(body, Echo):
        if state.commits[sender] is None:
            raise cheat(sender, Cheat.MALFORMED, "echo before its commitment")
        if _is_repeat(state.echoes[sender], body):
            return state, ()
        state = replace(state, echoes=_set(state.echoes, sender, Signed(body, message.signature)))
        return _after_echoes(state, signer, ())
    if isinstance(body, CommitEvidence):
        evidence = Signed(body, message.signature)
        _judge_evidence(state, evidence, verify)
        return replace(state, evidence=_set(state.evidence, sender, evidence)), ()
    commit = state.commits[sender]
    if commit is None:
        raise cheat(sender, Cheat.MALFORMED, "revealed before its commitment")
    if commitment(state.context, sender, body.nonce) != commit.body.commitment:
        raise cheat(sender, Cheat.BAD_REVEAL, "the nonce does not open its commitment")
    if _is_repeat(state.reveals[sender], body):
        return state, ()
    state = replace(state, reveals=_set(state.reveals, sender, Signed(body, message.signature)))
    return _finish(state, ())


def _is_repeat(held: Signed[Body] | None, body: Body) -> bool:
    """True for a copy of a message already taken; raise on a different one for that step."""
    if held is None:
        return False
    if held.body != body:
        raise cheat(body.seat, Cheat.EQUIVOCATION, "two different signed messages for one step")
    return True


def waiting_on(state: DiceState) -> tuple[Seat, ...]:
    """Seats this seat still waits for in the current phase of the round."""
    for items in (state.commits, state.echoes, state.reveals):
        missing = tuple(s for s in SEATS if items[s] is None)
        if missing:
            return missing
    return ()


def withheld(state: DiceState) -> tuple[Blame, ...]:
    """Blame for the seats still missing when the table's timer runs out (no re-roll)."""
    return tuple(
        Blame(s, Cheat.WITHHELD, When.AT_ONCE, "withheld its commit-reveal message")
        for s in waiting_on(state)
    )
