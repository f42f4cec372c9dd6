"""Cheats the fair deck catches, and the blame that names the culprit seat.

A ``Blame`` says which seat cheated, how, and when it was caught (``AT_ONCE`` while the hand
is played, or ``AT_AUDIT`` when every seat's secrets are revealed at the end). ``DeckCheat`` is
the error a seat's deck raises on a peer's message that is provably wrong: it is a
``RemoteProtocolError`` (the seat to blame is ``blame.seat``) and, like every illegal input,
it leaves the receiving state unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fourwinds.protocol.errors import RemoteProtocolError
from fourwinds.protocol.seats import Seat

from .messages import Body, Signed, Verifier, signed_by, step_key


class Cheat(Enum):
    """What a seat did wrong."""

    MALFORMED = "malformed"  # a message of the wrong shape, out of turn, or for another hand
    BAD_POINT = "bad_point"  # a point of low order or not canonically encoded
    SHUFFLE_TAMPERED = "shuffle_tampered"  # a tile substituted or duplicated in a shuffle pass
    LOCK_TAMPERED = "lock_tampered"  # a lock pass that its revealed secrets do not explain
    WRONG_KEY = "wrong_key"  # a per-position key that does not match its lock pass
    WRONG_FACE = "wrong_face"  # claimed a face a position does not hold
    NOT_HOLDER = "not_holder"  # revealed or passed a position it does not hold
    BAD_REVEAL = "bad_reveal"  # a commit-reveal nonce that does not open its commitment
    ECHO_MISMATCH = "echo_mismatch"  # echoed a hash that its own evidence contradicts
    EQUIVOCATION = "equivocation"  # two different signed messages for one step
    BAD_SIGNATURE = "bad_signature"  # passed on a key or message whose signature fails
    FALSE_COMPLAINT = "false_complaint"  # complained about keys the audit shows were right
    WITHHELD = "withheld"  # did not send a key, a reveal, a pass or its audit secrets


class When(Enum):
    """When a cheat is caught."""

    AT_ONCE = "at_once"
    AT_AUDIT = "at_audit"


@dataclass(frozen=True)
class Blame:
    """``seat`` cheated (``cheat``), caught ``when``; ``detail`` says what was seen."""

    seat: Seat
    cheat: Cheat
    when: When
    detail: str


class DeckCheat(RemoteProtocolError):
    """A peer's message that proves a cheat; carries the ``Blame``."""

    def __init__(self, blame: Blame) -> None:
        self.blame = blame
        super().__init__(f"{blame.cheat.value}: {blame.detail}", int(blame.seat))


class Diverged(RemoteProtocolError):
    """This seat's copy of ``owner``'s pass ``index`` differs from the one ``witness`` processed.

    One of the two signed a lie, and the hashes alone cannot say who: the table asks ``witness``
    for its signed copy and calls ``judge_equivocation`` with both copies.
    """

    def __init__(self, owner: Seat, witness: Seat, index: int) -> None:
        self.owner = owner
        self.witness = witness
        self.index = index
        super().__init__(
            f"pass {index} of {owner.name} differs from the copy {witness.name} processed",
            int(witness),
        )


def judge_equivocation(
    mine: Signed[Body], theirs: Signed[Body], presenter: Seat, verify: Verifier
) -> Blame:
    """Blame after comparing this seat's signed copy of a step with the copy ``presenter``
    shows: the signer when both are signed and differ (an equivocation), the presenter when
    its copy is not signed by the seat it names."""
    owner = mine.body.seat
    if theirs.body.seat != owner or step_key(mine.body) != step_key(theirs.body):
        return Blame(presenter, Cheat.MALFORMED, When.AT_ONCE, "presented a copy of another step")
    if not signed_by(theirs, owner, verify):
        return Blame(
            presenter,
            Cheat.BAD_SIGNATURE,
            When.AT_ONCE,
            f"presented a copy {owner.name} did not sign",
        )
    if mine.body == theirs.body:
        return Blame(
            presenter,
            Cheat.MALFORMED,
            When.AT_ONCE,
            "presented the same message as evidence of a difference",
        )
    return Blame(
        owner,
        Cheat.EQUIVOCATION,
        When.AT_ONCE,
        f"signed two different messages for one step ({step_key(mine.body)[0]})",
    )


def cheat(seat: Seat, kind: Cheat, detail: str, when: When = When.AT_ONCE) -> DeckCheat:
    """The error to raise for a cheat caught now (``raise cheat(...)``)."""
    return DeckCheat(Blame(seat, kind, when, detail))
