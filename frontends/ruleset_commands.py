"""Commands that exist once per rule set (`score`, `hint`, `demo`) find their parts here.

``fourwinds.frontends.<ruleset>_<verb>`` modules (e.g. ``american_score``) each define
``add_<verb>(subparsers)`` adding one sub-command named after the rule set; ``handler`` on the
parsed arguments runs it.
"""

from __future__ import annotations

import argparse
import importlib

RULESET_MODULES = {
    "add_score": ("american_score", "mcr_score"),
    "add_hint": ("american_score", "mcr_score"),
    "add_demo": ("american_demo", "mcr_demo"),
}


def add_ruleset_parsers(parser: argparse.ArgumentParser, hook: str) -> None:
    rulesets = parser.add_subparsers(dest="ruleset", metavar="RULES", required=True)
    for name in RULESET_MODULES[hook]:
        try:
            module = importlib.import_module(f"fourwinds.frontends.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"fourwinds.frontends.{name}":
                raise
            continue
        getattr(module, hook)(rulesets)
