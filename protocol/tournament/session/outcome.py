"""What a move returns: the next state, the Steps to perform in order, and for a local
request what it made (the intake of an offered record, the result our player signed)."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.errors import FourwindsError

from ..intake import Intake
from ..records import TableResult
from .state import EventState
from .steps import Step


class EventRefused(FourwindsError):
    """What this daemon's player or director asked cannot be done (the one-line reason);
    the state is unchanged."""


@dataclass(frozen=True)
class Outcome:
    state: EventState
    steps: tuple[Step, ...] = ()
    intake: Intake | None = None  # the decision on the record a request offered
    result: TableResult | None = None  # the result our player (or bot seat) signed

    def then(self, more: Outcome) -> Outcome:
        """This outcome followed by ``more`` (computed from this one's state); the intake
        and result kept are this one's where it has them (what was asked comes first)."""
        return Outcome(
            more.state,
            (*self.steps, *more.steps),
            self.intake or more.intake,
            self.result or more.result,
        )

    def plus(self, *steps: Step) -> Outcome:
        """This outcome with ``steps`` after its own."""
        return Outcome(self.state, (*self.steps, *steps), self.intake, self.result)
