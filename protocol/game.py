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

from typing import Protocol

from .seats import Seat


class Event(Protocol):
    """Anything an engine reports; ``audience`` None means public."""

    @property
    def audience(self) -> Seat | None: ...
