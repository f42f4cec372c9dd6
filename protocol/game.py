"""What every rules engine offers the layers above it (table protocol, bots, frontends).

Both rule sets (``american`` and ``mcr``) follow this shape, after h11's state machine:

* ``State`` is an immutable (frozen dataclass) snapshot; nothing mutates it.
* ``legal_actions(state, seat)`` lists every action that seat may take now, built from what
  that seat can see. An empty tuple means the seat has nothing to do.
* ``apply(state, action)`` returns ``(new_state, events)`` or raises ``IllegalAction`` with a
  reason, leaving the old state untouched.
* ``view(state, seat)`` is the same state with every face that seat may not see masked as
  ``Kind.HIDDEN``.
* ``learn(state, faces)`` adds private knowledge (faces of slots this observer is entitled to,
  e.g. a tile it drew through the fair deck); it never changes the public state.
* ``public_digest(state)`` hashes the state with every private face masked: the four seats'
  engines, each knowing different faces, agree on it.

Tiles are referred to by *slot* (their position in the wall, see ``walls.py``), which is also
how the fair deck names them. Faces live in ``state.faces[slot]``; an action that makes a tile
public carries its face, so an engine that could not see it can record and check it.

Events are frozen dataclasses with an ``audience``: ``None`` for everyone, or the one seat the
event is private to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from .seats import Seat
from .tiles import Kind

State = TypeVar("State")
Action = TypeVar("Action")


class Event(Protocol):
    """Anything an engine reports; ``audience`` None means public."""

    @property
    def audience(self) -> Seat | None: ...


class Engine(Protocol[State, Action]):
    """The four functions of this contract the table session calls, as a type: a rule set's
    engine module (``american/engine.py``, ``mcr/engine.py``) is checked against it by mypy
    where its rules adapter names it (``table/rules/engine_adapter.EngineDelegate``), instead of
    being an untyped ``ModuleType``. Parameters are positional-only: the contract fixes what
    is passed, not what each engine calls its parameters."""

    def apply(self, state: State, action: Action, /) -> tuple[State, Sequence[object]]:
        """The state after ``action`` and the events it caused; illegal actions raise."""
        ...

    def legal_actions(self, state: State, seat: Seat, /) -> Sequence[Action]:
        """Every action ``seat`` may take now (empty when it has none)."""
        ...

    def learn(self, state: State, faces: Mapping[int, Kind], /) -> State:
        """The state with the faces of the given slots filled in."""
        ...

    def public_digest(self, state: State, /) -> bytes:
        """A hash of the state with every private face masked."""
        ...
