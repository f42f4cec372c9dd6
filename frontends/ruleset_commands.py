"""Commands that exist once per rule set (`score`, `hint`, `demo`) find their parts here.

For each rule set the registry knows (``protocol/table/registry.py``, in its order), the module
``fourwinds.frontends.<rules>_<part>`` (e.g. ``american_score``), when there is one, defines
``add_<verb>(subparsers)`` adding one sub-command named after the rule set; ``handler`` on the
parsed arguments runs it. The printing and the arguments stay in frontends/ (protocol/ does no
I/O); a rule set without such a module simply has no such sub-command.
"""

from __future__ import annotations

import argparse
import importlib

from fourwinds.protocol.table.registry import rule_names

PARTS = {
    "add_score": "score",
    "add_hint": "score",
    "add_demo": "demo",
}
"""For each hook, the suffix of the modules that define it (hints live with the scoring)."""


def add_ruleset_parsers(parser: argparse.ArgumentParser, hook: str) -> None:
    rulesets = parser.add_subparsers(dest="ruleset", metavar="RULES", required=True)
    for rules in rule_names():
        name = f"fourwinds.frontends.{rules}_{PARTS[hook]}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        getattr(module, hook)(rulesets)
