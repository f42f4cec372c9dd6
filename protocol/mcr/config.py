"""Table options of an MCR table: friendly or tournament, flowers or none, and the optional
timed end.

The engine never reads a clock: a timed end is a hand count fixed in advance (``max_hands``),
a deadline on the caller's clock (``deadline``, checked when the caller passes its time to
``match.tick``), or the caller telling the match that time is up (``match.call_time``).

At a table of four seats the options travel as the table's engine option pairs (the ``rules``
of protocol/table/machine/options.py, signed in the table's Open): ``from_pairs`` reads them and
``check_pairs`` refuses a bad one with the reason. ``("flowers", False)`` plays without the 8
flowers and seasons (many Botzone bots were trained so); left out, flowers are on, so every
table opened before the option reads as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from ..canonical import ADDED_LATER

HANDS_PER_MATCH = 16
HANDS_PER_ROUND = 4


class TableMode(Enum):
    """How false declarations are treated (docs/RULES.md B6)."""

    FRIENDLY = "friendly"  # a false Mahjong is refused with the reason; nothing happens
    TOURNAMENT = "tournament"  # a false Mahjong is accepted and penalised; the hand goes dead


@dataclass(frozen=True)
class TableOptions:
    """What the four seats agreed on before the match."""

    mode: TableMode = TableMode.FRIENDLY
    max_hands: int = HANDS_PER_MATCH  # a fixed hand count (timed end agreed in hands)
    deadline: float | None = None  # the caller's clock reading at which time is up
    min_points: int = 8  # points needed without flowers (B5); fixed by the rules, kept visible
    # False: the wall has no flowers and seasons (136 tiles, 17 stacks a side): no flowers
    # round, no replacement for a flower, no flower points. Last and ADDED_LATER: a hand
    # with flowers hashes as it did before this option.
    flowers: bool = field(default=True, metadata=ADDED_LATER)

    def __post_init__(self) -> None:
        if not 1 <= self.max_hands <= HANDS_PER_MATCH:
            raise ValueError(f"max_hands must be 1-{HANDS_PER_MATCH}, got {self.max_hands}")

    @property
    def tournament(self) -> bool:
        return self.mode is TableMode.TOURNAMENT


MODE_OPTION = "mode"
FLOWERS_OPTION = "flowers"
Pairs = Sequence[tuple[str, str | int | bool]]


def check_pairs(pairs: Pairs) -> str | None:
    """Why an MCR table's engine option pairs are refused (``mode`` one of friendly /
    tournament, ``flowers`` true or false, no other name), or None when they are fine."""
    for name, value in pairs:
        if name not in (MODE_OPTION, FLOWERS_OPTION):
            return f"unknown MCR table option {name!r} (known: {MODE_OPTION}, {FLOWERS_OPTION})"[
                :200
            ]
        if name == MODE_OPTION and value not in {m.value for m in TableMode}:
            return (
                f"options.rules mode must be one of "
                f"{', '.join(m.value for m in TableMode)}, not {value!r}"[:200]
            )
        if name == FLOWERS_OPTION and not isinstance(value, bool):
            return f"options.rules flowers must be true or false, not {value!r}"[:200]
    return None


def from_pairs(pairs: Pairs) -> TableOptions:
    """An MCR table's options from its engine option pairs (``check_pairs`` first: a bad
    value raises ``ValueError``)."""
    problem = check_pairs(pairs)
    if problem:
        raise ValueError(problem)
    given = dict(pairs)
    return TableOptions(
        mode=TableMode(str(given.get(MODE_OPTION, TableMode.FRIENDLY.value))),
        flowers=bool(given.get(FLOWERS_OPTION, True)),
    )


def pairs_of(*, flowers: bool = True) -> tuple[tuple[str, str | int | bool], ...]:
    """The engine option pairs a table is opened with: ``flowers`` only when off, so a
    table with flowers carries exactly what tables carried before the option."""
    return () if flowers else ((FLOWERS_OPTION, False),)
