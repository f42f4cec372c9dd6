"""The engine contract: what the table session asks of a rule set's engine module.

A rule set's engine (``protocol/american/engine.py``, ``protocol/mcr/engine.py``) is a plain
module of pure functions over its own immutable hand state. ``Engine[State, Action]`` names the
four of them the table needs, so that a rules adapter holds ``Engine[AmericanState, Action]``
rather than an untyped ``ModuleType``: mypy checks each module against the contract where the
adapter names it, and a rule set missing a function fails the type check, not a hand.

Parameters are positional-only: the contract fixes what is passed, not what each engine calls
its parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind

State = TypeVar("State")
Action = TypeVar("Action")


class Engine(Protocol[State, Action]):
    """A rule set's engine: the legal moves of a seat, a move applied, faces learnt, a digest."""

    def apply(self, state: State, action: Action, /) -> tuple[State, Sequence[object]]:
        """The state after ``action`` and the events it caused; illegal actions raise."""
        ...

    def legal_actions(self, state: State, seat: Seat, /) -> Sequence[Action]:
        """Every action ``seat`` may take now (empty when it has none)."""
        ...

    def learn(self, state: State, faces: Mapping[int, Kind], /) -> State:
        """The state with the revealed faces of the given wall slots filled in."""
        ...

    def public_digest(self, state: State, /) -> bytes:
        """A hash of what every seat may know, for the seats to compare."""
        ...
