"""How a table's or an event's rule set is named where people choose one: ``MCR``, ``MCR, no
flowers``, ``American``. Decided here once, from the registry's rule sets; the daemon puts it
in the lobby data it gives (the tables it sees, the events it holds) and every frontend shows
that text as it is."""

from __future__ import annotations

from fourwinds.protocol.table.rules.registry import ruleset_named

__all__ = ["NO_FLOWERS", "flowers_optional", "rules_label"]

NO_FLOWERS = "no flowers"


def flowers_optional(rules: str) -> bool:
    """Whether a table of ``rules`` may leave its flowers out (MCR; an unknown name: no)."""
    try:
        return ruleset_named(rules).flowers_optional
    except KeyError:
        return False


def rules_label(rules: str, flowers: bool = True) -> str:
    """The rule set's short name, and ", no flowers" for a table or event without them (a
    rules name the registry does not know is shown as it came, already checked and cut)."""
    try:
        name = ruleset_named(rules).short_title
    except KeyError:
        name = rules
    return name if flowers else f"{name}, {NO_FLOWERS}"
