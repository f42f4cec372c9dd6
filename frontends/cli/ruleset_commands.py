"""The rule sets' own commands on the command line: built from what the registry's rule sets
declare (protocol/table/rules/commands.py), run with the I/O they need.

A rule set declares each command as data (``RuleCommand``: where it hangs, its help, its
arguments) with a pure ``run``; this module adds the argparse sub-commands (``fourwinds score
<rules>``, ``hint``, ``demo`` and a rule set's own verbs such as ``card``), reads the files its
arguments name, gives it standard input and a seeded random source, prints what it returns,
plays a ``TableDemo`` at the in-memory table and sends a ``TableAct`` to the player's table
(``fourwinds charleston``). A rule set without commands adds none.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.pipe_out import silence_stdout
from fourwinds.protocol.table.rules.commands import (
    Given,
    Lines,
    RuleCommand,
    TableAct,
    TableDemo,
    every_command,
)


def add_ruleset_parsers(parser: argparse.ArgumentParser, verb: str) -> None:
    """Under ``parser`` (the verb's), one sub-command per rule set that has this verb."""
    rulesets = parser.add_subparsers(dest="ruleset", metavar="RULES", required=True)
    add_commands(rulesets, verb)


def add_commands(subparsers: Any, verb: str) -> None:
    """Add every rule set's command of ``verb`` to ``subparsers``."""
    for command in every_command():
        if command.verb == verb:
            add_command(subparsers, command)


def add_command(subparsers: Any, command: RuleCommand) -> None:
    """One rule set's command as an argparse sub-command, run by ``run_command``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        command.name, help=command.help, description=command.description
    )
    add_arguments(parser, command)


def add_arguments(parser: argparse.ArgumentParser, command: RuleCommand) -> None:
    """The command's arguments and options on ``parser``, run by ``run_command``: its own,
    then the table demo's or the daemon's that it needs."""
    for argument in command.arguments:
        parser.add_argument(*argument.flags, **argument.options)
    if command.table_demo:
        from fourwinds.frontends.cli.demo_options import add_table_options  # late: the harness

        add_table_options(parser)
    if command.at_table:
        from fourwinds.frontends.cli.cli_common import add_daemon_options  # late: the client

        add_daemon_options(parser)
    parser.set_defaults(handler=functools.partial(run_command, command))


def read_text(path: str, what: str) -> str:
    """The text of a file an argument names; one that cannot be read is a UsageError naming
    it (``what``: "card file")."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {what} {path}: {error}") from None


def run_command(command: RuleCommand, args: argparse.Namespace) -> int:
    """Read what the command's arguments name, run it, print its lines: its exit status."""
    values = vars(args)
    files = {
        argument.dest: read_text(values[argument.dest], argument.reads)
        for argument in command.arguments
        if argument.reads is not None and values.get(argument.dest) is not None
    }
    outcome = command.run(Given(values, files, sys.stdin, random.Random))
    if command.table_demo:
        from fourwinds.frontends.cli.demo_options import check_table_options, run_through_table

        check_table_options(args)
        if isinstance(outcome, TableDemo):
            return run_through_table(command.name, args, outcome.rules_text, outcome.engine_options)
    if isinstance(outcome, TableAct) and command.at_table:
        from fourwinds.frontends.cli.cli_common import act_command

        return act_command(
            args, outcome.types, words=outcome.words, tiles=outcome.tiles, what=outcome.what
        )
    if not isinstance(outcome, Lines):
        raise TypeError(f"{command.verb} {command.name} returned {outcome!r}")
    return _print(outcome)


def _print(outcome: Lines) -> int:
    """Print the lines as they come (each flushed when it answers a line of input); a reader
    that closes the pipe early ends the printing quietly."""
    try:
        for line in outcome.lines:
            print(line, flush=outcome.answers)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    return outcome.status
