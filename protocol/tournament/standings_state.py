"""How far the standings have got: provisional while the round under way has tables without
a result, else after a round, or final.

Every screen labels the standings with this (the terminal's, the web page's and the room's),
so a player never takes a table of points still being played for as the result: "provisional:
round 2, 3 of 4 tables in" while tables play, "after round 2 of 3" between rounds, "final"
once the last round's last table counts. Decided here, from the checker's verdict alone, so
every daemon labels the same record alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from .check import Verdict


@dataclass(frozen=True)
class StandingsState:
    """The rounds started of ``rounds``, and of the last one started its tables and how many
    of them have a result that counts."""

    round: int
    rounds: int
    tables: int
    counted: int

    @property
    def provisional(self) -> bool:
        """A round is under way and some of its tables have no result yet."""
        return self.counted < self.tables

    @property
    def final(self) -> bool:
        """Every round started and every table of the last one counted."""
        return self.round >= self.rounds > 0 and not self.provisional

    def label(self) -> str:
        """The standings' one-line label, as every screen shows it."""
        if self.round == 0:
            return "before round 1"
        if self.provisional:
            return (
                f"provisional: round {self.round}, {self.counted} of {self.tables} "
                f"table{'s' if self.tables != 1 else ''} in"
            )
        if self.final:
            return "final"
        return f"after round {self.round} of {self.rounds}"


def standings_state(verdict: Verdict) -> StandingsState:
    """Where the verdict's standings stand (see the module docstring)."""
    rounds = verdict.create.rounds if verdict.create is not None else 0
    if not verdict.rounds:
        return StandingsState(0, rounds, 0, 0)
    last = verdict.rounds[-1]
    held = {table for (round_, table), _ in verdict.scores if round_ == last.round}
    tables = len(last.tables)
    counted = sum(1 for table in range(tables) if table in held)
    return StandingsState(last.round + 1, rounds, tables, counted)
