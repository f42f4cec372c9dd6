"""What a session detects, each naming the seat to blame (``None`` when it cannot be proven).

Problems are reported in ``Step.problems``, persisted in the transcript and listed by
``fourwinds verify``. They are typed values, never exceptions: a bad peer must not stop an
honest seat from processing everyone else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fourwinds.protocol.seats import Seat


class ProblemKind(Enum):
    MALFORMED = "malformed"              # bytes that do not decode (sender unproven)
    BAD_SIGNATURE = "bad-signature"      # signature or body hash wrong (sender unproven)
    WRONG_TABLE = "wrong-table"          # a message for another table
    EQUIVOCATION = "equivocation"        # two signed messages for one sequence number
    BROKEN_CHAIN = "broken-chain"        # prev hash does not name the seat's previous message
    DIVERGENCE = "divergence"            # the state hash in a message differs from ours
    ILLEGAL_ACTION = "illegal-action"    # rejected by the rules, with the reason
    FALSE_FACE = "false-face"            # a tile shown with a face its slot does not hold
    BAD_REVEAL = "bad-reveal"            # a dice reveal that does not open its commitment
    OUT_OF_TURN = "out-of-turn"          # an input for a step that does not wait for this seat
    STALLED = "stalled"                  # a seat we wait for has not answered
    REFUSED_JOIN = "refused-join"        # a join the creator could not seat
    MISSING = "missing"                  # a message seen referenced but never delivered


@dataclass(frozen=True)
class Problem:
    """One detection. ``evidence`` holds wire messages that prove it (e.g. both equivocating
    messages), so anyone can re-check the accusation."""

    kind: ProblemKind
    seat: Seat | None
    reason: str
    step: int = -1
    evidence: tuple[bytes, ...] = ()

    def describe(self) -> str:
        who = "sender unknown" if self.seat is None else f"blame seat {int(self.seat)}"
        where = f" at step {self.step}" if self.step >= 0 else ""
        return f"{self.kind.value}{where} ({who}): {self.reason}"
