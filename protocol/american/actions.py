"""What a seat may do in an American hand. Every action names its seat; tiles are slots.

An action that makes a tile public carries its face, so an engine that could not see the tile
records it (and one that could checks it). Charleston passes carry no faces: the tiles stay
private between passer and receiver.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..seats import Seat
from ..tiles import Kind


@dataclass(frozen=True)
class CharlestonPass:
    """Three tiles to the seat the current pass goes to.

    ``tiles`` are own tiles, never jokers. On a blind-capable pass (first left, last right)
    ``blind`` (1-3) of the tiles arriving in this same pass are passed on unseen: the first
    ``3 - blind`` of ``tiles`` go out with them, and ``tiles`` must still name 3 own tiles so
    the pass can fall back to them if the table's blind passes cannot all go through.
    """

    seat: Seat
    tiles: tuple[int, ...]
    blind: int = 0


@dataclass(frozen=True)
class PoolIn:
    """Pooling option: 0-3 own tiles (never jokers) into the face-up pool, with their faces
    (the pool is face up, so they become public)."""

    seat: Seat
    tiles: tuple[int, ...]
    faces: tuple[Kind, ...] = ()


@dataclass(frozen=True)
class PoolTake:
    """Pooling option: the pool tiles wanted back, best first (as many are taken as were
    put in; see ``pooling.py`` for who gets a tile two seats want)."""

    seat: Seat
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class StopVote:
    """After the first Charleston: ``stop`` True stops the passing (one stop is enough)."""

    seat: Seat
    stop: bool


@dataclass(frozen=True)
class CourtesyPass:
    """The optional across exchange: 0-3 own tiles, most willing first.

    The number offered is the proposal; the smaller of the two partners' proposals is
    exchanged, each giving the first that many of its tiles.
    """

    seat: Seat
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class Discard:
    seat: Seat
    slot: int
    face: Kind


@dataclass(frozen=True)
class Call:
    """Call the last discard to expose a pung, kong, quint or sextet.

    ``slots`` are the caller's own tiles completing the group with the discard (same kind or
    jokers); ``faces`` their faces, since they become public.
    """

    seat: Seat
    slots: tuple[int, ...]
    faces: tuple[Kind, ...]


@dataclass(frozen=True)
class CallMahjong:
    """Call the last discard for Mahjong (the hand is shown by ``DeclareMahjong`` after)."""

    seat: Seat


@dataclass(frozen=True)
class NoCall:
    """Let the last discard go."""

    seat: Seat


@dataclass(frozen=True)
class ExchangeJoker:
    """On one's turn: give ``slot`` (face ``face``) for the joker at ``joker_slot``."""

    seat: Seat
    slot: int
    face: Kind
    joker_slot: int


@dataclass(frozen=True)
class DeclareMahjong:
    """Show the hand: ``faces`` of every concealed tile, in the order the state holds them."""

    seat: Seat
    faces: tuple[Kind, ...]


Action = (
    CharlestonPass
    | PoolIn
    | PoolTake
    | StopVote
    | CourtesyPass
    | Discard
    | Call
    | CallMahjong
    | NoCall
    | ExchangeJoker
    | DeclareMahjong
)
