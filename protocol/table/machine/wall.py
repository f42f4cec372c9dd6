"""The hand's wall as the table agreed it: the rule set's tile set, with or without flowers.

Every seat reads the table's options from the same signed Open, so all four build their deck
(the masked one's tile points, the practice one's order) and the deal plan from one tile set.
"""

from __future__ import annotations

from fourwinds.protocol.deck.messages import DeckDescription
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.walls import WallPlan


def flowers(s: TableSession) -> bool:
    """Whether the table's wall has its flower tiles (the rules adapter reads the options)."""
    assert s.rules is not None and s.open is not None
    return s.rules.flowers(s.open.options)


def deck_description(s: TableSession, context: bytes) -> DeckDescription:
    """The hand's deck for ``context``: the rule set's tiles, without flowers when the
    table's agreed options say so."""
    assert s.rules is not None
    return DeckDescription(context, s.rules.tile_set, flowers=flowers(s))


def hand_plan(s: TableSession, dice: tuple[int, ...]) -> WallPlan:
    """The hand's deal plan for its dice, on the table's wall."""
    assert s.rules is not None
    return s.rules.tile_set.played(flowers=flowers(s)).plan(dice)
