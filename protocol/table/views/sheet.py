"""The table's scoring sheet for the local API's ``sheet`` request: the American card's lines
(id, section, pattern as printed, value, concealed) or the MCR fans with their points.

Pure: read from the table's Open message (the card travels in it), so every seat shows the
card its table plays. Each rule set's sheet is its ``RuleSetAdapter.sheet`` (with its view, in
its folder), found through the registry.
"""

from __future__ import annotations

from typing import Any

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.table.rules.registry import ruleset_named

__all__ = ["rules_sheet", "table_sheet"]


def table_sheet(session: TableSession) -> dict[str, Any]:
    """``{"rules", "title", "entries": [{"id", "section", "pattern", "value",
    "concealed"}]}`` for the table's rule set; ``LocalProtocolError`` with the reason when
    there is none (the table is not open yet, or its rules have no sheet)."""
    opened = session.open
    if opened is None:
        raise LocalProtocolError("the table has not been opened yet: no sheet")
    flowers = session.rules is None or session.rules.flowers(opened.options)
    return rules_sheet(opened.rules, opened.rules_text, flowers=flowers)


def rules_sheet(rules: str, rules_text: str = "", *, flowers: bool = True) -> dict[str, Any]:
    """The sheet of a table of ``rules`` whose Open carries ``rules_text`` ("": the house
    card, as a table hosted without a card file plays): what the lobby shows before any
    table is open. ``flowers`` False: an MCR table without flowers (no Flower Tiles fan).
    ``LocalProtocolError`` for rules without a sheet."""
    try:
        ruleset = ruleset_named(rules)
    except KeyError:
        raise LocalProtocolError(f"the {rules} rules have no scoring sheet") from None
    return ruleset.sheet(rules_text, flowers=flowers)
