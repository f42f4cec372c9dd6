"""`fourwinds demo american|mcr`: four built-in bots play, shown turn by turn."""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.ruleset_commands import add_ruleset_parsers


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "demo", help="four built-in bots play; per-hand log and a summary"
    )
    add_ruleset_parsers(parser, "demo")
