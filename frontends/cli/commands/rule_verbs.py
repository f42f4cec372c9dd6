"""The verbs a rule set has of its own (`fourwinds card check|show FILE`: American card files;
`fourwinds charleston TILES`: the American Charleston).

A rule set declares them (``RuleCommands.verbs``, protocol/table/rules/commands.py) with their
sub-commands, or with one command named ``""`` that is the verb itself; each becomes a
command here, built and run by frontends/cli/ruleset_commands.py. ``cli.module_of`` sends
a command no other module registers here when a rule set declares it.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.ruleset_commands import add_arguments, add_commands
from fourwinds.protocol.table.rules.commands import every_command, own_verbs


def register(sub: Any, only: str | None = None) -> None:
    """Add every verb the rule sets declare as their own (``only``: that one alone)."""
    for verb, text in own_verbs().items():
        if only is not None and verb != only:
            continue
        parser: argparse.ArgumentParser = sub.add_parser(verb, help=text)
        itself = [c for c in every_command() if c.verb == verb and not c.name]
        if itself:  # the verb is the command: `fourwinds charleston TILES`
            add_arguments(parser, itself[0])
            continue
        commands = parser.add_subparsers(dest=f"{verb}_command", metavar="COMMAND", required=True)
        add_commands(commands, verb)
