"""The rule sets' commands as the command line builds them (frontends/cli/ruleset_commands.py
from protocol/table/rules/commands.py): every declared argument is parsed under the name its
``run`` reads, a file argument is read for it, and the verbs are where `cli` looks."""

from __future__ import annotations

import argparse

from fourwinds.frontends import cli
from fourwinds.frontends.cli.ruleset_commands import add_command
from fourwinds.protocol.table.rules.commands import every_command, own_verbs


def test_every_argument_is_parsed_under_its_dest() -> None:
    commands = every_command()
    assert {(c.verb, c.name) for c in commands} >= {
        ("score", "american"),
        ("hint", "american"),
        ("demo", "american"),
        ("score", "mcr"),
        ("hint", "mcr"),
        ("demo", "mcr"),
        ("card", "check"),
        ("card", "show"),
    }
    for command in commands:
        sub = argparse.ArgumentParser().add_subparsers(dest="which")
        add_command(sub, command)
        parser = sub.choices[command.name]
        dests = {action.dest for action in parser._actions}
        for argument in command.arguments:
            assert argument.dest in dests, (command.verb, command.name, argument.flags)


def test_a_rule_sets_own_verb_is_found_by_the_command_line() -> None:
    assert own_verbs() == {
        "card": "check or show an American card file (docs/CARD_FORMAT.md)",
        "charleston": "Charleston: pass tiles, vote to stop or go on, courtesy pass",
    }
    assert cli.module_of("card") == cli.RULE_VERBS
    assert cli.module_of("charleston") == cli.RULE_VERBS  # the Charleston is American's
    assert cli.module_of("rule-verbs") is None and cli.module_of("rule_verbs") is None


def test_the_whole_command_line_lists_a_rule_sets_verb_among_the_modules() -> None:
    """`fourwinds --help` lists ``card`` where its own module used to put it."""
    listed = [
        line.split()[0]
        for line in cli.build_parser().format_help().splitlines()
        if line.startswith("    ") and not line.startswith("     ")
    ]
    assert listed.index("bot") < listed.index("card") < listed.index("completion")
    assert listed.index("card") < listed.index("charleston") < listed.index("completion")


def test_the_charleston_is_a_verb_of_its_own_with_the_daemon_options() -> None:
    """`fourwinds charleston TILES` is the American rule set's command, the verb itself (no
    sub-command), and it finds the daemon and the table like the generic moves."""
    args = cli.build_parser(cli.RULE_VERBS).parse_args(
        ["charleston", "1m", "3m", "--table", "kitchen", "--json"]
    )
    assert args.tiles == ["1m", "3m"] and args.table == "kitchen" and args.json
    assert args.vote is None and not args.courtesy and args.label == ""
