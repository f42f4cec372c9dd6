"""Table options every seat agrees on in the lobby (carried in the Open message)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fourwinds.protocol.table.wire.strict import WireError, need_int, need_list, need_str


class DeckKind(Enum):
    """Which deck deals the tiles. MASKED, the default, is the mental-poker wall of
    protocol/deck; PRACTICE is open (every seat could know the wall), only ever dealt when
    asked for by name, and the table says so to every player."""

    PRACTICE = "practice"
    MASKED = "masked"


WINDOW_BOUNDS: dict[str, tuple[float, float]] = {
    "call_window": (0.1, 3600.0),
    "exchange_window": (0.1, 3600.0),
    "turn_window": (0.0, 3600.0),
    "next_window": (0.0, 3600.0),
    "stall_after": (0.1, 86400.0),
}
"""The range of each timer option (seconds). ``checked`` holds every option to them, for the
daemon's ``create`` and for a joiner reading the Open alike."""

OLD_OPTION_NAMES: dict[str, str] = {"charleston_window": "exchange_window"}
"""Deprecated names of table options, by the name they stand for: the local API and the
command line still take them (``exchange_window`` was called after American's Charleston,
the one pre-play exchange of the built-in rule sets). The Open carries the options by
position, so a name never reaches the wire."""

HANDS_BOUNDS = (0, 64)
RULES_OPTIONS = 64
"""Most engine options (``rules`` pairs) a table may carry; names at most 64 characters."""


class OptionError(WireError):
    """A table option outside the limits every seat accepts; the message names it."""


def limit_text(name: str) -> str:
    """What option ``name`` must be, e.g. "a number of seconds from 0.1 to 3600"."""
    if name == "hands":
        return f"a whole number from {HANDS_BOUNDS[0]} to {HANDS_BOUNDS[1]}"
    lo, hi = WINDOW_BOUNDS[name]
    return f"a number of seconds from {lo:g} to {hi:g}"


def _out_of_range(name: str, value: object) -> OptionError:
    return OptionError(f"options.{name} must be {limit_text(name)}, not {value!r}"[:200])


def checked(options: TableOptions) -> TableOptions:
    """``options`` when every one is within the limits every seat accepts, else
    ``OptionError`` naming the first that is not. The one check of a table's options: the
    daemon's ``create`` runs it (table_runtimes/real_session.py), and so does every joiner reading
    the table's Open (``from_wire``), so no table is opened that its joiners would refuse."""
    for name, (lo, hi) in WINDOW_BOUNDS.items():
        value = getattr(options, name)
        if name == "next_window" and value is None:
            continue  # a table opened before this option
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or not lo <= value <= hi
        ):
            raise _out_of_range(name, value)
    hands = options.hands
    if (
        isinstance(hands, bool)
        or not isinstance(hands, int)
        or not HANDS_BOUNDS[0] <= hands <= HANDS_BOUNDS[1]
    ):
        raise _out_of_range("hands", hands)
    if not isinstance(options.deck, DeckKind):
        raise OptionError(f"options.deck must be one of {', '.join(d.value for d in DeckKind)}")
    if not isinstance(options.auto_pass, bool):
        raise OptionError("options.auto_pass must be true or false")
    if not isinstance(options.fixed_winds, bool):
        raise OptionError("options.fixed_winds must be true or false")
    if options.fixed_winds and options.next_window is None:
        raise OptionError("options.fixed_winds needs next_window (a table of this version)")
    if len(options.rules) > RULES_OPTIONS:
        raise OptionError(f"options.rules: more than {RULES_OPTIONS} engine options")
    for name, val in options.rules:
        if not isinstance(name, str) or len(name) > 64:
            raise OptionError("options.rules: a name is text of at most 64 characters")
        if isinstance(val, float) or not isinstance(val, (str, int, bool)):
            raise OptionError(f"options.rules {name!r}: expected text, integer or bool")
    return options


@dataclass(frozen=True)
class TableOptions:
    """Timers (seconds), match length and engine options.

    ``call_window``: how long a seat may think about a discard before its own side answers
    "pass" (8 s: long enough to read a discard and decide; docs/RULES.md B6's 3 seconds is
    a tournament penalty, not this window; docs/RULES.md, "The table's timers"). A seat may
    once per discard ask for another full window (``THINKING``, docs/PROTOCOL.md).
    ``exchange_window``: the same for each pass of a rule set's pre-play exchange, where it
    has one (60 s; American's Charleston: the rule set's ``exchange_title``).
    ``turn_window``: 0 means no timer on one's own turn.
    ``next_window``: how long the table waits at a hand's end for each player to say "next"
    before that seat's own side says it (60 s; 0 waits for ever; None: a table opened before
    this option, whose seats confirm the hand's end at once, as they then did).
    ``stall_after``: how long past a window before a silent seat is reported as not
    answering. ``hands``: hands in the match, 0 for the rule set's default (American 4, MCR
    16). ``rules``: engine options as ``(name, value)`` pairs (e.g. hot wall), passed to the
    rules adapter as they are. ``auto_pass``: a seat whose only legal answer to a discard is
    "pass" answers at once, without asking its player (what online tables do; the price is
    that a seat that pauses could have called). Off, every seat answers every discard itself
    or by its timer. ``fixed_winds``: the first hand's winds are the places (0 East,
    1 South, 2 West, 3 North) instead of drawn (docs/RULES.md A3/B2's draw): a tournament round's
    seating has already given each player a wind (docs/TOURNAMENT.md).
    """

    call_window: float = 8.0
    exchange_window: float = 60.0
    turn_window: float = 0.0
    stall_after: float = 30.0
    hands: int = 0
    deck: DeckKind = DeckKind.MASKED
    rules: tuple[tuple[str, str | int | bool], ...] = ()
    auto_pass: bool = True
    next_window: float | None = 60.0
    fixed_winds: bool = False

    def to_wire(self) -> list[Any]:
        """9 items; 8 (the form tables had before ``next_window``) when it is None, so an
        older table's options encode as they were; 10 with ``fixed_winds`` (only when set:
        a table that draws its winds encodes as before)."""
        items = [
            self.call_window,
            self.exchange_window,
            self.turn_window,
            self.stall_after,
            self.hands,
            self.deck.value,
            [[k, v] for k, v in self.rules],
            self.auto_pass,
        ]
        if self.next_window is not None:
            items.append(self.next_window)
        if self.fixed_winds:
            items.append(True)
        return items

    @staticmethod
    def from_wire(value: object) -> TableOptions:
        """Strict; the 7-item form (before ``auto_pass``: it was off) and the 8-item one
        (before ``next_window``: no wait at a hand's end) of older tables are accepted. The
        types are read here, the limits are ``checked``'s (the same as at ``create``)."""
        items = need_list(value, "options", max_len=10)
        if len(items) not in (7, 8, 9, 10):
            raise WireError(f"options: expected 9 or 10 items, got {len(items)}")
        fixed_winds = items[9] if len(items) == 10 else False
        if fixed_winds is not True and len(items) == 10:
            raise WireError("options.fixed_winds: expected true (left out when false)")
        auto_pass = items[7] if len(items) >= 8 else False
        if not isinstance(auto_pass, bool):
            raise WireError("options.auto_pass: expected true or false")
        next_window = _number(items[8], "next_window") if len(items) >= 9 else None
        try:
            deck = DeckKind(need_str(items[5], "options.deck"))
        except ValueError:
            raise WireError(f"options.deck: unknown deck {items[5]!r}") from None
        pairs: list[tuple[str, str | int | bool]] = []
        for pair in need_list(items[6], "options.rules", max_len=RULES_OPTIONS):
            name, val = need_list(pair, "options.rules item", length=2)
            pairs.append((need_str(name, "options.rules name", 64), val))
        return checked(
            TableOptions(
                _number(items[0], "call_window"),
                _number(items[1], "exchange_window"),
                _number(items[2], "turn_window"),
                _number(items[3], "stall_after"),
                need_int(items[4], "options.hands", -(2**63), 2**63 - 1),
                deck,
                tuple(pairs),
                auto_pass,
                next_window,
                bool(fixed_winds),
            )
        )


def _number(value: object, name: str) -> float:
    """A timer as a float (its range is ``checked``'s)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise WireError(f"options.{name}: expected a number, got {type(value).__name__}")
    return float(value)
