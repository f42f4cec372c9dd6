"""An event's rules: a rules name (the registry's), and what that rule set's tournaments count.

An event's ``Create`` carries its rules as the rules name a table's Open carries (``"mcr"``),
the same string on the wire as ever. What differs between rule sets at a tournament (how a
table's result becomes standings points, whether the score breaks ties, how many hands a
whole match has, whether the flowers may be left out, whether a hand unfinished at the time
call may score 0) is declared by the rule set in its own folder (its adapter's optional
``tournament`` and its ``flowers_optional``: protocol/table/rules/ruleset.py), and the tournament
asks for it here by the name, never comparing names. A name the registry does not know, or a
rule set with no tournaments, is refused with one line saying so (``NoTournaments``): where
an event is created (the local API, the command line) and where its record is checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fourwinds.protocol.table.rules.registry import RULES_NAME, rule_names, ruleset_named
from fourwinds.protocol.table.rules.ruleset import tournament_of

from ..errors import FourwindsError

if TYPE_CHECKING:
    from fourwinds.protocol.table.rules.ruleset import RuleSetAdapter, TournamentRules


class NoTournaments(FourwindsError):
    """An event's rules that cannot make an event: unknown here, or without tournaments."""


def event_ruleset(rules: str) -> RuleSetAdapter:
    """The rule set of an event's ``rules``; ``NoTournaments`` with the one-line reason when
    there is none or it has no tournaments."""
    if not RULES_NAME.fullmatch(rules):
        raise NoTournaments(f"{rules!r} is not a rules name")
    try:
        ruleset = ruleset_named(rules)
    except KeyError as error:
        raise NoTournaments(str(error.args[0])) from None
    if tournament_of(ruleset) is None:
        raise NoTournaments(
            f"{ruleset.title} ({rules}) has no tournaments: an event plays "
            f"{' or '.join(event_rule_names())}"
        )
    return ruleset


def tournament_rules(rules: str) -> TournamentRules:
    """What the tournaments of ``rules`` count; ``NoTournaments`` as ``event_ruleset``."""
    found = tournament_of(event_ruleset(rules))
    assert found is not None  # event_ruleset refuses a rule set without tournaments
    return found


def event_rule_names() -> tuple[str, ...]:
    """The rules names an event can be created with: the registry's rule sets that have
    tournaments, in its order."""
    return tuple(name for name in rule_names() if tournament_of(ruleset_named(name)) is not None)


def flowers_refused(rules: str) -> str | None:
    """Why an event of ``rules`` cannot leave its flowers out (its rule set always plays them:
    one line naming the rule sets that may), or None when it may."""
    ruleset = event_ruleset(rules)
    if ruleset.flowers_optional:
        return None
    may = [
        ruleset_named(name).short_title
        for name in event_rule_names()
        if ruleset_named(name).flowers_optional
    ]
    always = f"{ruleset.title} always plays its flowers"
    if not may:
        return f"no rule set here plays an event without flowers ({always})"
    return f"an event without flowers is {' or '.join(may)} only ({always})"
