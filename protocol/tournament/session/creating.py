"""What a director's daemon signs to create an event: the settings the director chose, with
the rules every event made today has (its rule set's scoring, seeds made ahead of each
round's call) and a nonce the daemon draws (two events with the same settings are two
events: their ids differ)."""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.table.wire.signing import SigningKey

from ..records import TURN_SECONDS, Create, Deck, Length, Record, SeedSteps
from ..seating import FillPolicy
from ..signing import signed
from ..standings import Scoring


@dataclass(frozen=True)
class EventSettings:
    """What the director chooses when creating an event (docs/TOURNAMENT.md)."""

    name: str
    rules: str
    rounds: int
    length: Length
    amount: int  # hands, or minutes, a round
    fill: FillPolicy
    private: bool
    seeded: bool
    deck: Deck
    unfinished_zero: bool
    flowers: bool = True
    turn_seconds: int = TURN_SECONDS


def creation(settings: EventSettings, director: SigningKey, nonce: bytes) -> Record:
    """The event's first record, signed by its director."""
    body = Create(
        director.public,
        settings.name,
        settings.rules,
        settings.rounds,
        settings.length,
        settings.amount,
        settings.fill,
        Scoring(settings.rules),
        settings.unfinished_zero,
        settings.private,
        settings.seeded,
        settings.deck,
        nonce,
        SeedSteps.AHEAD,
        settings.flowers,
        settings.turn_seconds,
    )
    return signed(body, director)
