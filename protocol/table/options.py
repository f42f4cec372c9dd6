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


@dataclass(frozen=True)
class TableOptions:
    """Timers (seconds), match length and engine options.

    ``call_window``: how long a seat may think about a discard before its own side answers
    "pass" (RULES.md B6: 3 s). ``charleston_window``: the same for a Charleston pass (60 s).
    ``turn_window``: 0 means no timer on one's own turn. ``stall_after``: how long past a
    window before a silent seat is reported as not answering. ``hands``: hands in the match,
    0 for the rule set's default (American 4, MCR 16). ``rules``: engine options as
    ``(name, value)`` pairs (e.g. hot wall), passed to the rules adapter as they are.
    ``auto_pass``: a seat whose only legal answer to a discard is "pass" answers at once,
    without asking its player (what online tables do; the price is that a seat that pauses
    could have called). Off, every seat answers every discard itself or by its timer.
    """

    call_window: float = 3.0
    charleston_window: float = 60.0
    turn_window: float = 0.0
    stall_after: float = 30.0
    hands: int = 0
    deck: DeckKind = DeckKind.PRACTICE
    rules: tuple[tuple[str, str | int | bool], ...] = ()
    auto_pass: bool = True

    def to_wire(self) -> list[Any]:
        return [self.call_window, self.charleston_window, self.turn_window, self.stall_after,
                self.hands, self.deck.value, [[k, v] for k, v in self.rules], self.auto_pass]

    @staticmethod
    def from_wire(value: object) -> TableOptions:
        items = need_list(value, "options", max_len=8)
        if len(items) not in (7, 8):  # 7: tables opened before auto_pass (it was off)
            raise WireError(f"options: expected 8 items, got {len(items)}")
        auto_pass = items[7] if len(items) == 8 else False
        if not isinstance(auto_pass, bool):
            raise WireError("options.auto_pass: expected true or false")
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
            need_float(items[0], "options.call_window", 0.1, 3600),
            need_float(items[1], "options.charleston_window", 0.1, 3600),
            need_float(items[2], "options.turn_window", 0, 3600),
            need_float(items[3], "options.stall_after", 0.1, 86400),
            need_int(items[4], "options.hands", 0, 64),
            deck,
            tuple(pairs),
            auto_pass,
        )
