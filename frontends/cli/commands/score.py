"""`fourwinds score american|mcr ...`: score a hand from the command line or JSON lines.

Each rule set declares its ``score`` command in its folder (``RuleSetAdapter.commands``:
``protocol/<rules>/commands.py``); frontends/cli/ruleset_commands.py builds and runs them.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.ruleset_commands import add_ruleset_parsers


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "score", help="score a hand (American card or MCR fans)"
    )
    add_ruleset_parsers(parser, "score")
