"""How a table's or an event's rule set is named where people choose one: ``MCR``, ``MCR, no
flowers``, ``American``. Decided here once; the daemon puts it in the lobby data it gives
(the tables it sees, the events it holds) and every frontend shows that text as it is."""

from __future__ import annotations

__all__ = ["NO_FLOWERS_IS_MCR", "rules_label"]

SHORT_NAMES = {"mcr": "MCR", "american": "American"}
NO_FLOWERS = "no flowers"
NO_FLOWERS_IS_MCR = ("no flowers is for MCR: an American wall always has its flowers, card "
                     "hands use them")


def rules_label(rules: str, flowers: bool = True) -> str:
    """The rule set's short name, and ", no flowers" for an MCR table or event without
    them (a rules name we do not know is shown as it came, already checked and cut)."""
    name = SHORT_NAMES.get(rules, rules)
    return name if flowers else f"{name}, {NO_FLOWERS}"
