"""The part of a rules adapter that only forwards to its engine module.

Both rule sets' adapters (``american/table_rules``, ``mcr/table_rules``) share these: applying
an action, learning faces, the public digest, who acted, and the wire form of actions. Each
subclass names its engine module and its action codec; what differs between the rule sets
stays in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from fourwinds.protocol.game import Engine
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind

from .codec import ActionCodec, encode
from .describe import describe_action

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
