"""Which rule set plays a table, by the rules name in its Open message.

Each rule set lives in its folder and is listed here by one line: its name and the module that
holds its ``RULESET`` (a ``RuleSetAdapter``, protocol/table/ruleset.py). Everything else asks
this module for a rule set instead of naming one (``tests/test_rule_folders.py``). The modules
are imported when first asked for, so the table's core does not import every engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

# For annotations only: a command that asks for a rule set's title (`fourwinds status`) does
# not import the table's state machine, its signing and crypto with them.
if TYPE_CHECKING:
    from .rules import RulesAdapter
    from .ruleset import RuleSetAdapter

_BUILT_IN = {
    "american": "fourwinds.protocol.american.ruleset",
    "mcr": "fourwinds.protocol.mcr.ruleset",
}
_EXTRA: dict[str, Callable[[str], RulesAdapter]] = {}

PLAYED_BY_DEFAULT = "american"
"""The rules the commands (``fourwinds play``, ``host``...) play when neither the command line
nor the config file names any (frontends/config.py)."""

HOSTED_BY_DEFAULT = "mcr"
"""The rules of a table the local API's ``create`` hosts when the request names none
(docs/LOCAL-API.md); the commands send theirs (``PLAYED_BY_DEFAULT`` or the config file's)."""


def register_rules(name: str, factory: Callable[[str], RulesAdapter]) -> None:
    """Add a rule set (tests register a toy one); ``factory(card_text)`` builds the adapter."""
    _EXTRA[name] = factory


def rule_names() -> tuple[str, ...]:
    """The names of the rule sets a table can be hosted with (the built-in ones)."""
    return tuple(_BUILT_IN)


def ruleset_named(name: str) -> RuleSetAdapter:
    """The rule set of this name; ``KeyError`` naming it when there is none."""
    module_name = _BUILT_IN.get(name)
    if module_name is None:
        raise KeyError(f"unknown rules {name!r} ({' or '.join(_BUILT_IN)})")
    ruleset: RuleSetAdapter = importlib.import_module(module_name).RULESET
    return ruleset


def ruleset_of(rules: RulesAdapter) -> RuleSetAdapter:
    """The rule set whose tiles and wall a table's adapter plays (a test's toy adapter borrows
    a built-in rule set's this way)."""
    return ruleset_named(rules.ruleset.value)


def rules_for(name: str, card_text: str) -> RulesAdapter:
    """The adapter for a table; ``KeyError`` naming the rules when there is none."""
    if name in _EXTRA:
        return _EXTRA[name](card_text)
    return ruleset_named(name).table(card_text)
