"""What a rule set's engine actions and events say in a table log for people.

The table log (``fourwinds demo``, ``fourwinds replay``: frontends/bots/table_demo.py) tells the
table's own events itself and asks each rule set's ``Narration`` (its
``RuleSetAdapter.narration``, in its folder) for the lines of its engine's actions and events.
Pure text; the helpers here are the words every rule set's lines share.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.tiles import Kind

WIND = "ESWN"
"""A wind's letter, by its number."""


def tiles_said(faces: Iterable[int]) -> str:
    """Tiles as their codes, or only how many while any face is still hidden."""
    shown = tuple(faces)
    if any(f == Kind.HIDDEN for f in shown):  # faces the deck had not shown yet
        return f"{len(shown)} tile{'s' * (len(shown) != 1)}"
    return " ".join(tile_code(f) for f in shown)


class Narration(Protocol):
    """A rule set's lines for its engine's actions and events (None: not one of its own)."""

    @property
    def actions(self) -> tuple[type, ...]:
        """The engine's action types: told through the events they cause, never as their own
        line (a call shows when the call window closes, a Charleston pass when all four have
        chosen)."""
        ...

    def action_words(self, action: object) -> str | None:
        """What a seat's action is, in words after the seat (``"claims pung with 5p 5p"``)."""
        ...

    def public_line(self, event: object) -> str | None:
        """The line of an event every seat sees."""
        ...

    def private_line(self, event: object) -> str | None:
        """The line of a private or idle event (shown only in the verbose log)."""
        ...
