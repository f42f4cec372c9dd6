"""`fourwinds score american|mcr ...`: score a hand from the command line or JSON lines.

The rule-set parts live in ``fourwinds.frontends.american_score`` and
``fourwinds.frontends.mcr_score``; each provides ``add_score(subparsers)``.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.ruleset_commands import add_ruleset_parsers


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "score", help="score a hand (American card or MCR fans)"
    )
    add_ruleset_parsers(parser, "add_score")
