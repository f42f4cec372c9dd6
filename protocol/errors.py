"""Typed errors of the protocol core.

Modelled on h11: a ``LocalProtocolError`` is our own caller asking for something illegal (our
frontend or bot); a ``RemoteProtocolError`` is a peer sending something illegal. Both carry a
human-readable reason and, where known, the seat to blame. Raising one never changes state:
every ``apply`` is a pure function that either returns a new state or raises.
"""

from __future__ import annotations


class FourwindsError(Exception):
    """Base of every error fourwinds raises on purpose."""


class IllegalAction(FourwindsError):
    """An action that the rules do not allow in this state. ``reason`` says why."""

    def __init__(self, reason: str, seat: int | None = None) -> None:
        self.reason = reason
        self.seat = seat
        super().__init__(reason if seat is None else f"seat {seat}: {reason}")


class LocalProtocolError(IllegalAction):
    """Our own side asked for something illegal."""


class RemoteProtocolError(IllegalAction):
    """A peer sent something illegal; ``seat`` is the seat to blame."""


class CardError(FourwindsError):
    """A card file could not be read: names the hand, the column and the reason."""

    def __init__(
        self,
        reason: str,
        hand: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.reason = reason
        self.hand = hand
        self.line = line
        self.column = column
        where = []
        if line is not None:
            where.append(f"line {line}")
        if hand is not None:
            where.append(f"hand {hand}")
        if column is not None:
            where.append(f"column {column}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {reason}" if prefix else reason)
