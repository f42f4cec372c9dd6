"""`fourwinds hint american|mcr ...`: what a hand needs (nearest card hands, tiles to win)."""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.ruleset_commands import add_ruleset_parsers


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "hint", help="what a hand needs: nearest card hands (American), tiles to win (MCR)"
    )
    add_ruleset_parsers(parser, "hint")
