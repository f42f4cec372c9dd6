"""Which rules adapter plays a table, by the rules name in its Open message."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .rules import RulesAdapter

_BUILT_IN = {"american": "fourwinds.protocol.table.american_rules",
             "mcr": "fourwinds.protocol.table.mcr_rules"}
_EXTRA: dict[str, Callable[[str], RulesAdapter]] = {}


def register_rules(name: str, factory: Callable[[str], RulesAdapter]) -> None:
    """Add a rule set (tests register a toy one); ``factory(card_text)`` builds the adapter."""
    _EXTRA[name] = factory


def rules_for(name: str, card_text: str) -> RulesAdapter:
    """The adapter for a table; ``KeyError`` naming the rules when there is none."""
    if name in _EXTRA:
        return _EXTRA[name](card_text)
    module_name = _BUILT_IN.get(name)
    if module_name is None:
        raise KeyError(f"unknown rules {name!r} (american or mcr)")
    module = importlib.import_module(module_name)
    adapter: RulesAdapter = module.adapter(card_text)
    return adapter
