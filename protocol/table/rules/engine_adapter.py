"""The part of a rules adapter that only forwards to its engine module.

Both rule sets' adapters (``american/table_rules``, ``mcr/table_rules``) share these: applying
an action, learning faces, the public digest, who acted, and the wire form of actions. Each
subclass names its engine module and its action codec; what differs between the rule sets
stays in them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any, Generic, TypeVar, cast

from fourwinds.protocol.game import Engine
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.views.describe import describe_action
from fourwinds.protocol.table.wire.codec import ActionCodec, encode
from fourwinds.protocol.tiles import Kind

S = TypeVar("S")
A = TypeVar("A")


class EngineDelegate(Generic[S, A]):
    """Forwarding methods of a ``RulesAdapter``; ``engine`` is the rules' engine module,
    checked against the engine contract (``protocol/game.Engine``) for its state and action
    types."""

    engine: Engine[S, A]
    _codec: ActionCodec

    def apply(self, state: S, action: A) -> tuple[S, tuple[object, ...]]:
        new, events = self.engine.apply(state, action)
        return new, tuple(events)

    def learn(self, state: S, faces: Mapping[int, Kind]) -> S:
        return self.engine.learn(state, faces)

    def public_digest(self, state: S) -> bytes:
        return self.engine.public_digest(state)

    def actor(self, action: Any) -> Seat:
        seat: Seat = action.seat
        return seat

    def encode_action(self, action: Any) -> Any:
        return encode(action)

    def decode_action(self, plain: Any) -> Any:
        return self._codec.decode(plain)

    def describe_action(self, action: Any) -> str:
        return describe_action(action)

    def choice_faces(self, state: S, action: Any) -> tuple[object, ...] | None:
        """``action`` as its player's decision: its fields, every own tile it names read as
        its face (two copies of one face are one choice); None for an action that is no
        dataclass (compared as it is)."""
        faces: Sequence[Any] = cast(Any, state).faces
        return fields_as_faces(faces, action)


def fields_as_faces(
    faces: Sequence[Any], action: Any, read: Mapping[str, Callable[[Any], object]] | None = None
) -> tuple[object, ...] | None:
    """The fields of an action (a dataclass), each tile it names by slot (``slot``, ``tiles``,
    ``slots``) read as its face, and a field ``read`` names read by its function instead; None
    for an action that is no dataclass."""
    if not is_dataclass(action) or isinstance(action, type):
        return None
    out: list[object] = []
    for f in fields(action):
        value = getattr(action, f.name)
        if read is not None and f.name in read:
            value = read[f.name](value)
        elif f.name == "slot":
            value = faces[value]
        elif f.name in ("tiles", "slots"):
            value = tuple(faces[x] for x in value)
        out.append(value)
    return tuple(out)
