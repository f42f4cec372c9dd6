"""What can be wrong in a tournament record: one typed problem per record refused.

Each problem names the record (its place in the record, from 0), the round and table it is
about when there is one, and the reason; ``line`` is a problem's one line (rounds and
tables counted from 1, as players see them), ``problem_lines`` what ``fourwinds tournament
verify`` prints: the first bad record, and how many later ones were refused after it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum


class ProblemKind(Enum):
    """Why a record is refused."""

    UNREADABLE = "the record cannot be read"
    NO_CREATE = "the record does not begin with the event's creation, signed by its director"
    OTHER_EVENT = "a record of another event"
    BAD_SIGNATURE = "a signature does not check"
    UNSIGNED = "not signed by every seat of the table"
    DUPLICATE = "said twice"
    UNADMITTED = "an entry the director never admitted, at a private event"
    UNKNOWN_PLAYER = "a key that is not an entrant"
    OUT_OF_ORDER = "out of the event's order"
    NOT_IN_ROUND = "from a key that is not an entrant of the round"
    BAD_ECHO = "an echo that does not match the round's commitments"
    EARLY_REVEAL = "a reveal before every entrant echoed the commitments"
    UNCALLED_REVEAL = (
        "a reveal before the director called the round (its entries and the "
        "results it is seated after are not closed yet)"
    )
    BAD_REVEAL = "a nonce that does not open its commitment"
    SEED_MISSING = "the round's seed is missing an entrant's step"
    BAD_SEED = "a round seed that differs from the one its entrants made"
    BAD_RESULTS = "a round start that names other results than the record holds"
    CANNOT_SEAT = "the round cannot be seated"
    BAD_SEATING = "a seating that differs from the recomputed one"
    MISSING_RESULT = "a table of the round before has no result"
    UNKNOWN_TABLE = "a table no round start seated"
    NOT_SEATED = "the keys are not the ones seated at the table"
    BAD_TABLE_ID = "a result for a transcript of another table"
    NO_REASON = "a director's record without a reason"
    NOT_TIMED = "a clock record at an event whose rounds are a number of hands"
    FULL = "the event holds as many records as an event can"
    BAD_SUBSTITUTE = "a substitute who cannot take that seat"
    NO_MAJORITY = "a new director not named by more than half of the entrants"
    BAD_PLACE = "signatures made for another place in the record"


@dataclass(frozen=True)
class EventProblem:
    """One record refused: which (``record``: its index), where (``round``, ``table``: from
    0, None when not about one) and why."""

    kind: ProblemKind
    record: int
    round: int | None = None
    table: int | None = None
    detail: str = ""

    def line(self) -> str:
        """The problem in one line: 'round 2, table 3: ... (record 41)'."""
        where = []
        if self.round is not None:
            where.append(f"round {self.round + 1}")
        if self.table is not None:
            where.append(f"table {self.table + 1}")
        head = ", ".join(where) + ": " if where else ""
        tail = f": {self.detail}" if self.detail else ""
        return f"{head}{self.kind.value}{tail} (record {self.record})"


def problem_lines(problems: Sequence[EventProblem], every: bool = False) -> list[str]:
    """The refused records for a person: the first bad record in one line, then in one more
    how many later records were refused after it, counted by reason. A record that builds on
    a refused one (a round seated after an altered result, every result of that round) is
    refused too, so one altered record can refuse dozens; the first is the one to look at.
    ``every``: one line for each (the verdict keeps them all)."""
    ordered = sorted(problems, key=lambda p: (p.record < 0, p.record))
    if every or len(ordered) <= 1:
        return [f"PROBLEM {p.line()}" for p in ordered]
    first, later = ordered[0], ordered[1:]
    counts = Counter(p.kind for p in later)
    reasons = "; ".join(f"{n}: {kind.value}" for kind, n in counts.most_common())
    return [
        f"PROBLEM {first.line()}",
        f"and {len(later)} later record(s) refused after it ({reasons}); --all lists each",
    ]
