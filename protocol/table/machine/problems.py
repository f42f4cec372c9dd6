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
    MALFORMED = "malformed"  # bytes that do not decode (sender unproven)
    BAD_SIGNATURE = "bad-signature"  # signature or body hash wrong (sender unproven)
    WRONG_TABLE = "wrong-table"  # a message for another table
    EQUIVOCATION = "equivocation"  # two signed messages for one sequence number
    BROKEN_CHAIN = "broken-chain"  # prev hash does not name the seat's previous message
    DIVERGENCE = "divergence"  # the state hash in a message differs from ours
    ILLEGAL_ACTION = "illegal-action"  # rejected by the rules, with the reason
    FALSE_FACE = "false-face"  # a tile shown with a face its slot does not hold
    BAD_REVEAL = "bad-reveal"  # a dice reveal that does not open its commitment
    OUT_OF_TURN = "out-of-turn"  # an input for a step that does not wait for this seat
    STALLED = "stalled"  # a seat we wait for has not answered
    REFUSED_JOIN = "refused-join"  # a join the creator could not seat
    MISSING = "missing"  # a message seen referenced but never delivered


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


PROBLEMS_KEPT = 8
"""Problems of one kind blaming one seat (or an unproven sender) recorded per hand; more are
counted (``ProblemTally.dropped``), not recorded: a seated member sending 20,000 garbage
messages once left 20,000 records on disk and in every view."""
PROBLEMS_PER_HAND = 64
"""Problems recorded per hand, all kinds and seats together."""
PROBLEMS_SHOWN = 20
"""Problems a view lists (the latest; a first line says how many more there were)."""
ALWAYS_KEPT = frozenset({ProblemKind.EQUIVOCATION})
"""Kinds recorded whatever the bound: each halts the table, so there is at most one a seat."""


@dataclass(frozen=True)
class ProblemTally:
    """How many problems this session detected in the current hand, per kind and seat
    (``seen``: (kind, seat or -1, count) each), how many of them it recorded (``kept``), and
    how many in the whole match it did not record (``dropped``). Pure and deterministic:
    every seat that sees the same messages records the same problems."""

    hand: int = -1
    seen: tuple[tuple[ProblemKind, int, int], ...] = ()
    kept: int = 0
    dropped: int = 0

    def admit(self, hand: int, problem: Problem) -> tuple[ProblemTally, bool]:
        """The tally after ``problem`` was detected in ``hand`` (-1: before the first), and
        whether it is recorded: the first PROBLEMS_KEPT of its kind and seat in the hand,
        within PROBLEMS_PER_HAND, and always a kind in ALWAYS_KEPT."""
        seen, kept = (self.seen, self.kept) if hand == self.hand else ((), 0)
        who = -1 if problem.seat is None else int(problem.seat)
        count = next((n for kind, seat, n in seen if kind is problem.kind and seat == who), 0)
        others = tuple(item for item in seen if item[0] is not problem.kind or item[1] != who)
        keep = problem.kind in ALWAYS_KEPT or (count < PROBLEMS_KEPT and kept < PROBLEMS_PER_HAND)
        return ProblemTally(
            hand, (*others, (problem.kind, who, count + 1)), kept + keep, self.dropped + (not keep)
        ), keep


def shown_problems(problems: tuple[Problem, ...], tally: ProblemTally) -> list[str]:
    """What a view lists: the latest PROBLEMS_SHOWN problems described, after a line saying
    how many more were detected (recorded earlier, or only counted) when there were."""
    lines = [p.describe() for p in problems[-PROBLEMS_SHOWN:]]
    more = len(problems) - len(lines) + tally.dropped
    if more:
        lines.insert(
            0,
            f"{more:,} more problems not listed here (at most {PROBLEMS_KEPT} of "
            "each kind and seat are recorded in a hand; fourwinds verify lists "
            "the recorded ones)",
        )
    return lines
