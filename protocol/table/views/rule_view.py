"""What a rule set's half of the seat view works with: the contract between
``contract_view`` (the part every rule set shares) and each rule set's ``table_view``.

``SeatFacts`` is what a rule view reads, ``Offer`` one action it offers, ``RuleView`` what it
must answer, ``our_choices`` where its offers start and ``code`` a tile's code. They live
here, below both halves, so the rule views need nothing from ``contract_view``; and
``contract_view`` gets a table's rule view from the registry (``RuleSetAdapter.view``), never
importing a rule folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.table.rules.rotation import Seating
from fourwinds.protocol.table.rules.rules_adapter import RulesAdapter
from fourwinds.protocol.table.views.view_types import (
    ActionEntry,
    HandResult,
    HandSummary,
    RulePlayerKeys,
    RuleTableKeys,
)
from fourwinds.protocol.tiles import Kind

__all__ = ["Offer", "Resolver", "RuleView", "SeatFacts", "code", "no_winner_result", "our_choices"]

_CODES: dict[int, str] = {int(k): tile_code(k) for k in Kind}


def code(kind: int) -> str:
    """A tile's code (``"3p"``, ``"J"``, ``"?"`` for a hidden face), from a table."""
    return _CODES[kind]


Resolver = Callable[[tuple[str, ...]], object]
"""Builds the engine action of one offered ACTION from the tiles chosen (codes)."""


@dataclass(frozen=True)
class SeatFacts:
    """What a rule view reads: the session, our seat's engine state, the hand's seating
    (``seating[wind]`` is a table place), our wind (None for an observer) and the adapter."""

    session: TableSession
    engine: Any
    seating: Seating
    me: Seat | None
    rules: RulesAdapter

    def place(self, wind: Seat) -> Seat:
        return self.seating[wind]


def our_choices(f: SeatFacts) -> tuple[tuple[Any, ...], Any]:
    """Our seat's legal actions now and the one its window would default to (None when
    there is none to mark): what every rule view's offers start from."""
    if f.me is None:
        return (), None
    legal = tuple(f.rules.legal_actions(f.engine, f.me))
    if not legal:
        return (), None
    try:
        default = f.rules.default_action(f.engine, f.me)
    except Exception:  # no default here: none is marked
        default = None
    return legal, default


def no_winner_result(kind: str, payouts: Sequence[int], hand: str = "") -> HandResult:
    """The shared keys of the view's ``result`` of a hand nobody won (``kind``: "draw",
    "wall_game"...): every key of the contract's result (docs/LOCAL-API.md) empty but the
    payouts; a rule set adds its own keys after them (``RuleView.no_winner``)."""
    return {
        "kind": kind,
        "winner": None,
        "hand": hand,
        "tiles": [],
        "payouts": list(payouts),
        "audit": "ok",
        "winning_tile": None,
        "self_drawn": False,
        "from_seat": None,
        "concealed": [],
        "exposures": [],
        "flowers": [],
    }


@dataclass(frozen=True)
class Offer:
    """One ACTION dict of the view and how to turn it (with chosen tiles) into the engine's
    action."""

    entry: ActionEntry
    resolve: Resolver


class RuleView(Protocol):
    """The rule-specific half of the view (each rule set's ``table_view.RULES``, which its
    ``RuleSetAdapter.view`` gives)."""

    def table(self, f: SeatFacts) -> RuleTableKeys:
        """VIEW keys the rules know: phase, phase_detail, turn, wall_remaining, hand, drawn,
        last_discard, news, received, hints, live_wins, result, prevalent_wind."""
        ...

    def player(self, f: SeatFacts, seat: Seat) -> RulePlayerKeys:
        """One seat's public part: dead, concealed_count, exposures, flowers, discards."""
        ...

    def detail(self, f: SeatFacts, waiting: Sequence[Seat]) -> str:
        """Human text of what the table waits for."""
        ...

    def offers(self, f: SeatFacts) -> list[Offer]:
        """Our seat's actions, human-labelled, with the default marked."""
        ...

    def no_winner(self, kind: str, payouts: Sequence[int], hand: str) -> HandResult:
        """The ``result`` of a hand nobody won, its own keys empty (``fans: []``): a draw
        of its own, and a hand the shared half ends (a tournament's time call,
        ``"unfinished"``)."""
        ...

    def summary(self, engine: Any) -> HandSummary:
        """A finished hand (its last engine state) for the history: ``kind``, ``winner``
        and ``from`` (winds or None), ``self_drawn``, ``summary`` (one line)."""
        ...

    def concealed_slots(self, engine: Any, seat: Seat) -> Sequence[int]:
        """The wall positions ``seat`` holds concealed (public: every seat knows them), for
        the hand's-end reveal of every seat's tiles (reveal.py)."""
        ...
