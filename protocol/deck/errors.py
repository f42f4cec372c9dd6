"""Errors of the fair deck raised on this seat's own requests (a peer's cheat is ``DeckCheat``)."""

from __future__ import annotations

from fourwinds.protocol.errors import LocalProtocolError


class DeckUsageError(LocalProtocolError):
    """This seat asked its deck for something it cannot do now (the state is unchanged)."""
