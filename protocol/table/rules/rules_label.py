"""How a table's or an event's rule set is named where people choose one: ``MCR``, ``MCR, no
flowers``, ``American``. Decided here once, from the registry's rule sets; the daemon puts it
in the lobby data it gives (the tables it sees, the events it holds) and every frontend shows
that text as it is."""

from __future__ import annotations

from fourwinds.protocol.table.rules.registry import ruleset_named

__all__ = ["NO_FLOWERS", "exchange_title_of", "flowers_optional", "rules_label"]

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


def exchange_title_of(ruleset: object) -> str | None:
    """What a rule set calls its pre-play exchange (its optional ``exchange_title``, e.g.
    "Charleston"), or None when it has none. Here, not in ruleset.py, so that a command's
    help can name it without loading the table's machine (tests/frontends/test_cli_lazy.py)."""
    found = getattr(ruleset, "exchange_title", None)
    return found if isinstance(found, str) and found else None
