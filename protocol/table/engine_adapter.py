"""The part of a rules adapter that only forwards to its engine module.

Both rule sets' adapters (``american/table_rules``, ``mcr/table_rules``) share these: applying
an action, learning faces, the public digest, who acted, and the wire form of actions. Each
subclass names its engine module and its action codec; what differs between the rule sets
stays in them.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind

from .codec import ActionCodec, encode
from .describe import describe_action


class EngineDelegate:
    """Forwarding methods of a ``RulesAdapter``; ``engine`` is the rules' engine module."""

    engine: ModuleType
    _codec: ActionCodec

    def apply(self, state: Any, action: Any) -> tuple[Any, tuple[Any, ...]]:
        new, events = self.engine.apply(state, action)
        return new, tuple(events)

    def learn(self, state: Any, faces: Mapping[int, Kind]) -> Any:
        return self.engine.learn(state, faces)

    def public_digest(self, state: Any) -> bytes:
        digest: bytes = self.engine.public_digest(state)
        return digest

    def actor(self, action: Any) -> Seat:
        seat: Seat = action.seat
        return seat

    def encode_action(self, action: Any) -> Any:
        return encode(action)

    def decode_action(self, plain: Any) -> Any:
        return self._codec.decode(plain)

    def describe_action(self, action: Any) -> str:
        return describe_action(action)
