"""What the table session needs from a rule set: a small adapter around an engine.

The session never imports an engine directly. Each rule set provides a ``RulesAdapter``
(``protocol/american/table_rules.py``, ``protocol/mcr/table_rules.py``, built by the rule set's
``RuleSetAdapter.table`` through the registry; tests use a toy one) that starts a hand from the
seating and dice the table agreed on, runs the engine contract of protocol/game.py
(``legal_actions``, ``apply``, ``learn``, ``public_digest``), and translates engine events into
the deck operations of the hand (who receives which slot, which slots become public).

Seats passed to an adapter are the *winds of the hand* (East deals); the session maps them
to table places through the hand's seating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import TileSet


class WindowKind(Enum):
    """Which timer applies to a seat's pending decision."""

    TURN = "turn"  # one's own turn: no timer unless turn_window is set
    CALL = "call"  # answering a discard: call_window, default "pass"
    # tiles passed between seats before play, or a vote on it (American's Charleston): the
    # table's exchange_window
    EXCHANGE = "exchange"


class DeckOpKind(Enum):
    DRAW = "draw"  # slots go privately to ``seat`` (deal, draw, replacement)
    TRANSFER = "transfer"  # slots move privately from ``source`` to ``seat`` (Charleston)
    REVEAL = "reveal"  # slots become public (discard, exposure, Mahjong hand)


@dataclass(frozen=True)
class DeckOp:
    """One thing the deck must do because of an engine event."""

    kind: DeckOpKind
    slots: tuple[int, ...]
    seat: Seat | None = None  # receiver (DRAW, TRANSFER)
    source: Seat | None = None  # giver (TRANSFER)


@dataclass(frozen=True)
class HandSetup:
    """Everything the table agreed on before a hand starts."""

    hand_no: int
    dice: tuple[int, ...]
    prevalent_wind: int
    options: TableOptions
    rules_text: str


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended, by wind: ``payments`` net points (sum 0), ``winner`` or None."""

    winner: Seat | None
    payments: tuple[int, int, int, int]
    summary: str


class RulesAdapter(Protocol):
    """One rule set, as the table session drives it."""

    name: str
    """The rules name of the rule set this adapter plays (its ``RuleSetAdapter.name``): how
    the registry finds the rest of the rule set for a table (``registry.ruleset_of``)."""

    tile_set: TileSet
    """The tile set and wall it plays, with its flowers (``flowers`` says whether a table
    leaves them out); a rule set may play another's."""

    def default_hands(self) -> int:
        """Hands in a match when the table option says 0."""
        ...

    def option_problem(self, options: TableOptions) -> str | None:
        """Why this rule set refuses the table's options (its engine option pairs, the
        ``rules`` of ``options``), or None: checked when the table is opened and when a
        joiner reads its Open, so no seat plays a table another seat would refuse."""
        ...

    def flowers(self, options: TableOptions) -> bool:
        """Whether the table's wall has its flower tiles (MCR: the ``flowers`` option; every
        seat derives the wall's tile set, its size and the deal from this and the rule set)."""
        ...

    def start(self, setup: HandSetup) -> tuple[Any, tuple[Any, ...]]:
        """A new hand with every face hidden, and its opening events (the deal)."""
        ...

    def legal_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]: ...

    def offered_actions(self, state: Any, seat: Seat) -> tuple[Any, ...]:
        """The legal actions worth putting to the seat's player, in ``legal_actions``
        order: all of them, except (American) exposure calls that bring the hand no nearer
        to any card line. With ``auto_pass`` a discard is answered at once when this leaves
        only the default; the view offers these (``--no-auto-pass``: every legal one)."""
        ...

    def knows_own_tiles(self, state: Any, seat: Seat) -> bool:
        """Whether this engine knows the face of every concealed tile ``seat`` holds (with
        the masked deck, faces of tiles passed to a seat arrive a little after the pass)."""
        ...

    def awaiting(self, state: Any) -> tuple[Seat, ...]:
        """The winds the engine waits for now, one input each (empty once the hand is over).
        Must be the same at every seat whatever faces it knows."""
        ...

    def apply(self, state: Any, action: Any) -> tuple[Any, tuple[Any, ...]]: ...

    def learn(self, state: Any, faces: Mapping[int, Kind]) -> Any: ...

    def public_digest(self, state: Any) -> bytes: ...

    def actor(self, action: Any) -> Seat:
        """The wind that takes this action (it must be the sender's wind)."""
        ...

    def window(self, state: Any, seat: Seat) -> WindowKind: ...

    def default_action(self, state: Any, seat: Seat) -> Any:
        """What the seat's own side answers when its window expires."""
        ...

    def forced_action(self, state: Any, seat: Seat) -> Any | None:
        """A move the seat's own side makes at once without asking its player, or None: its
        only legal move, when making it tells the table nothing it will not see anyway (MCR:
        "no more flowers" from a seat holding no flower). Only ``seat``'s own engine state
        can say so (it must know the seat's tiles)."""
        ...

    def claimed_faces(self, state: Any, action: Any) -> Mapping[int, Kind]:
        """Faces an action shows (discards, exposures, a Mahjong hand), to check by the deck."""
        ...

    def deck_ops(self, events: Sequence[Any]) -> tuple[DeckOp, ...]: ...

    def outcome(self, state: Any) -> HandOutcome | None:
        """None while the hand goes on."""
        ...

    def encode_action(self, action: Any) -> Any: ...

    def decode_action(self, plain: Any) -> Any:
        """Strict: raises WireError for anything that is not one of the engine's actions."""
        ...

    def choose(
        self, state: Any, seat: Seat, entropy: bytes, level: BotLevel = BotLevel.NORMAL
    ) -> Any:
        """The built-in bot's choice for ``seat`` at ``level`` (deterministic given
        ``entropy``); it reads only what ``state`` shows the seat."""
        ...

    def describe_action(self, action: Any) -> str: ...

    def choice_faces(self, state: Any, action: Any) -> tuple[object, ...] | None:
        """``action`` as its player's decision, for telling whether two actions are the same
        choice (``suggest.same_choice``): its fields with every own tile it names read as its
        face, and whatever else this rule set counts as the same (None: compared as it is)."""
        ...
