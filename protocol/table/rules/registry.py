"""Which rule set plays a table, by the rules name in its Open message.

Each rule set lives in its folder and is listed here by one line: its name and the module that
holds its ``RULESET`` (a ``RuleSetAdapter``, protocol/table/rules/ruleset.py). Everything else asks
this module for a rule set instead of naming one (``tests/test_rule_folders.py``). The modules
are imported when first asked for, so the table's core does not import every engine.

A rule set that is not built in (a club's house rules, a test's toy rule set) is a module
with a ``RULESET`` of its own, anywhere on the Python path: ``add_rulesets`` adds it by the
module's name, through the loader its caller passes (this core imports nothing by name: the
command line loads, at its start, the modules the environment variable ``FOURWINDS_RULESETS``
names: frontends/cli/rule_plugins.py; docs/DESIGN.md, "How to add a rule set"). It is checked
where it enters: a module that cannot be imported, has no ``RULESET``,
or whose ``RULESET`` is not a rule set is refused with a line naming it, and the built-in rule
sets play on.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

# For annotations only: a command that asks for a rule set's title (`fourwinds status`) does
# not import the table's state machine, its signing and crypto with them.
if TYPE_CHECKING:
    from fourwinds.protocol.table.rules.rules_adapter import RulesAdapter
    from fourwinds.protocol.table.rules.ruleset import RuleSetAdapter

_BUILT_IN = {
    "american": "fourwinds.protocol.american.ruleset",
    "mcr": "fourwinds.protocol.mcr.ruleset",
}
"""The built-in rule sets' modules, imported late by name when first asked for: the table's
core imports no engine it does not play (and the engines import the table's parts)."""
_EXTRA: dict[str, Callable[[str], RulesAdapter]] = {}
_ADDED: dict[str, RuleSetAdapter] = {}
"""Rule sets loaded by ``add_rulesets``, by their rules name (in the order loaded)."""
_REFUSED: list[str] = []
"""Why ``add_rulesets`` refused each module it refused (``refused_rulesets``)."""

PLAYED_BY_DEFAULT = "american"
"""The rules the commands (``fourwinds play``, ``host``...) play when neither the command line
nor the config file names any (frontends/cli/player_config.py)."""

HOSTED_BY_DEFAULT = "mcr"
"""The rules of a table the local API's ``create`` hosts when the request names none
(docs/LOCAL-API.md); the commands send theirs (``PLAYED_BY_DEFAULT`` or the config file's)."""

EVENT_BY_DEFAULT = "mcr"
"""The rules of a tournament event (``fourwinds tournament create``, the local API's
``tournament_create``) when the command line or the request names none."""

RULES_NAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")
"""A rules name: what an Open message carries (at most 16 characters), a command line's
``--rules`` and the local API's ``rules`` take."""

_PLAIN = ("name", "title", "short_title", "hints_title")
"""The ``RuleSetAdapter`` members that are text; every other one must be there too."""


def register_rules(name: str, factory: Callable[[str], RulesAdapter]) -> None:
    """Add a table adapter alone (the session tests' toy one): ``factory(rules_text)`` builds
    it; everything else (view, seating, sheet) is the rule set's whose tiles it plays."""
    _EXTRA[name] = factory


def add_rulesets(modules: Iterable[str], load: Callable[[str], object]) -> tuple[str, ...]:
    """Add the rule sets that are not built in from these modules (each a dotted module name
    whose ``RULESET`` is a ``RuleSetAdapter``; ``load(name)`` imports one, and whatever it
    raises refuses it); what was wrong with each one refused, one line naming it (empty when
    all loaded). A rule set added before is not added again."""
    problems = []
    for module_name in modules:
        problem = _add(module_name.strip(), load)
        if problem:
            problems.append(f"rule set module {module_name.strip()!r}: {problem}")
    _REFUSED.extend(p for p in problems if p not in _REFUSED)
    return tuple(problems)


def refused_rulesets() -> tuple[str, ...]:
    """Every rule set module ``add_rulesets`` refused in this process, with why (the daemon's
    ``rulesets`` request tells them)."""
    return tuple(_REFUSED)


def _add(module_name: str, load: Callable[[str], object]) -> str | None:
    """Load one rule set module; why it is refused, or None."""
    if not module_name:
        return "no module named"
    try:
        module = load(module_name)
    except Exception as error:  # anything a broken module raises: refused, never a traceback
        return f"cannot be imported ({type(error).__name__}: {error})"
    ruleset = getattr(module, "RULESET", None)
    if ruleset is None:
        return "has no RULESET (its rule set's RuleSetAdapter)"
    problem = _not_a_ruleset(ruleset)
    if problem:
        return f"its RULESET is not a rule set: {problem}"
    name = ruleset.name
    if name in _BUILT_IN:
        return f"the rules name {name!r} is a built-in rule set's"
    known = _ADDED.get(name)
    if known is not None and known is not ruleset:
        return f"the rules name {name!r} is taken by another rule set ({known.title})"
    _ADDED[name] = ruleset
    return None


def _not_a_ruleset(ruleset: Any) -> str | None:
    """What ``ruleset`` lacks of a ``RuleSetAdapter`` (its members, by the protocol), or
    None."""
    # late: only a process that loads rule sets needs them
    from fourwinds.protocol.table.rules.ruleset import RuleSetAdapter, TournamentRules
    from fourwinds.protocol.walls import TileSet

    members = sorted(n for n in vars(RuleSetAdapter) if not n.startswith("_"))
    missing = [n for n in members if not hasattr(ruleset, n)]
    if missing:
        return f"{type(ruleset).__name__} has no {', '.join(missing)}"
    for text in _PLAIN:
        if not isinstance(getattr(ruleset, text), str) or not getattr(ruleset, text):
            return f"its {text} is not a text"
    name = ruleset.name
    if not RULES_NAME.fullmatch(name):
        return (
            f"its name {name!r} is not a rules name (lower-case letters, digits, - and _,"
            " at most 16)"
        )
    if not isinstance(ruleset.tile_set, TileSet):
        return "its tile_set (the tiles and wall it plays) is not a walls.TileSet"
    tournament = getattr(ruleset, "tournament", None)  # optional: none, no tournaments
    if tournament is not None and not isinstance(tournament, TournamentRules):
        return "its tournament (what its tournaments count) is not a TournamentRules or None"
    protocol = vars(RuleSetAdapter)
    calls = [
        n
        for n in members
        if not isinstance(protocol[n], property) and not callable(getattr(ruleset, n))
    ]
    if calls:
        return f"{', '.join(calls)} cannot be called"
    return None


def rule_names() -> tuple[str, ...]:
    """The names of the rule sets a table can be hosted with: the built-in ones, then those
    ``add_rulesets`` loaded."""
    return (*_BUILT_IN, *_ADDED)


def ruleset_named(name: str) -> RuleSetAdapter:
    """The rule set of this name; ``KeyError`` naming it when there is none."""
    added = _ADDED.get(name)
    if added is not None:
        return added
    module_name = _BUILT_IN.get(name)
    if module_name is None:
        raise KeyError(f"unknown rules {name!r} ({' or '.join(rule_names())})")
    ruleset: RuleSetAdapter = importlib.import_module(module_name).RULESET
    return ruleset


def ruleset_of(rules: RulesAdapter) -> RuleSetAdapter:
    """The rule set a table's adapter plays for (its ``name``); an adapter added alone
    (``register_rules``) borrows the rule set that declares the tiles and wall it plays
    (its tile set's ``name``)."""
    if rules.name in _ADDED or rules.name in _BUILT_IN:
        return ruleset_named(rules.name)
    return ruleset_named(rules.tile_set.name)


def rules_text_problem(name: str, rules_text: str) -> str | None:
    """Why a table of rules ``name`` cannot carry this ``rules_text`` in its Open: only a rule
    set that plays a card takes a text of its own (None when it may, or when it is empty)."""
    if not rules_text or name in _EXTRA:
        return None
    ruleset = ruleset_named(name)
    if ruleset.plays_a_card:
        return None
    return f"{ruleset.title} tables play no card: a table's Open of them carries none"


def rules_for(name: str, rules_text: str) -> RulesAdapter:
    """The adapter for a table; ``KeyError`` naming the rules when there is none."""
    if name in _EXTRA:
        return _EXTRA[name](rules_text)
    return ruleset_named(name).table(rules_text)
