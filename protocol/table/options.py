"""Table options every seat agrees on in the lobby (carried in the Open message)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .wire import WireError, need_float, need_int, need_list, need_str


class DeckKind(Enum):
    """Which deck deals the tiles. PRACTICE is open (every seat could know the wall) and the
    table says so to every player; MASKED is the mental-poker wall of protocol/deck."""

    PRACTICE = "practice"
    MASKED = "masked"


WINDOW_BOUNDS: dict[str, tuple[float, float]] = {
    "call_window": (0.1, 3600.0), "charleston_window": (0.1, 3600.0),
    "turn_window": (0.0, 3600.0), "next_window": (0.0, 3600.0),
    "stall_after": (0.1, 86400.0)}
"""The range of each timer option (seconds), as OPEN's options are checked on the wire; the
daemon refuses a ``create`` outside them, so no table is opened that its peers would refuse."""

HANDS_BOUNDS = (0, 64)


@dataclass(frozen=True)
class TableOptions:
    """Timers (seconds), match length and engine options.

    ``call_window``: how long a seat may think about a discard before its own side answers
    "pass" (8 s: long enough to read a discard and decide; RULES.md B6's 3 seconds is a
    tournament penalty, not this window; docs/RULES-CHOICES.md). A seat may once per discard
    ask for another full window (``THINKING``, docs/PROTOCOL.md). ``charleston_window``: the
    same for a Charleston pass (60 s). ``turn_window``: 0 means no timer on one's own turn.
    ``next_window``: how long the table waits at a hand's end for each player to say "next"
    before that seat's own side says it (60 s; 0 waits for ever; None: a table opened before
    this option, whose seats confirm the hand's end at once, as they then did).
    ``stall_after``: how long past a window before a silent seat is reported as not
    answering. ``hands``: hands in the match, 0 for the rule set's default (American 4, MCR
    16). ``rules``: engine options as ``(name, value)`` pairs (e.g. hot wall), passed to the
    rules adapter as they are. ``auto_pass``: a seat whose only legal answer to a discard is
    "pass" answers at once, without asking its player (what online tables do; the price is
    that a seat that pauses could have called). Off, every seat answers every discard itself
    or by its timer.
    """

    call_window: float = 8.0
    charleston_window: float = 60.0
    turn_window: float = 0.0
    stall_after: float = 30.0
    hands: int = 0
    deck: DeckKind = DeckKind.PRACTICE
    rules: tuple[tuple[str, str | int | bool], ...] = ()
    auto_pass: bool = True
    next_window: float | None = 60.0

    def to_wire(self) -> list[Any]:
        """9 items; 8 (the form tables had before ``next_window``) when it is None, so an
        older table's options encode as they were."""
        items = [self.call_window, self.charleston_window, self.turn_window,
                 self.stall_after, self.hands, self.deck.value,
                 [[k, v] for k, v in self.rules], self.auto_pass]
        if self.next_window is not None:
            items.append(self.next_window)
        return items

    @staticmethod
    def from_wire(value: object) -> TableOptions:
        """Strict; the 7-item form (before ``auto_pass``: it was off) and the 8-item one
        (before ``next_window``: no wait at a hand's end) of older tables are accepted."""
        items = need_list(value, "options", max_len=9)
        if len(items) not in (7, 8, 9):
            raise WireError(f"options: expected 9 items, got {len(items)}")
        auto_pass = items[7] if len(items) >= 8 else False
        if not isinstance(auto_pass, bool):
            raise WireError("options.auto_pass: expected true or false")
        next_window = (_seconds(items[8], "next_window") if len(items) == 9 else None)
        try:
            deck = DeckKind(need_str(items[5], "options.deck"))
        except ValueError:
            raise WireError(f"options.deck: unknown deck {items[5]!r}") from None
        pairs: list[tuple[str, str | int | bool]] = []
        for pair in need_list(items[6], "options.rules", max_len=64):
            name, val = need_list(pair, "options.rules item", length=2)
            if isinstance(val, float) or not isinstance(val, (str, int, bool)):
                raise WireError(f"options.rules {name!r}: expected text, integer or bool")
            pairs.append((need_str(name, "options.rules name", 64), val))
        return TableOptions(
            _seconds(items[0], "call_window"),
            _seconds(items[1], "charleston_window"),
            _seconds(items[2], "turn_window"),
            _seconds(items[3], "stall_after"),
            need_int(items[4], "options.hands", *HANDS_BOUNDS),
            deck,
            tuple(pairs),
            auto_pass,
            next_window,
        )


def _seconds(value: object, name: str) -> float:
    lo, hi = WINDOW_BOUNDS[name]
    return need_float(value, f"options.{name}", lo, hi)
