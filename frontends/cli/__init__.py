"""The command line: the `fourwinds` command, one console entry point with subcommands.

This package is the command line's face of the frontends: the entry point (here), the
subcommands (``commands/``), what they share (``cli_common``), the player's config file
(``player_config``), the shell completion scripts (``completion_scripts``) and the rule sets'
own commands (``ruleset_commands``, ``rule_plugins``).

Each module in ``fourwinds.frontends.cli.commands`` that defines ``register(subparsers)`` adds its
own subcommand(s); the module's handler returns an exit code. A command line that names a
subcommand imports only the module that registers it: every daemon, bot seat and command is a
process of its own, and importing every command's module (the demos, the scorers, the curses
table) cost a daemon half of its start (0.7 s of CPU against 0.4 s here). Errors a user can cause
(bad tiles, bad card files, wrong counts) are ``UsageError`` or ``FourwindsError`` and print one
clear line with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence

from fourwinds.frontends.cli import commands
from fourwinds.frontends.cli.rule_plugins import load_named_rulesets
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import TileParseError

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A user mistake on the command line; printed as one line, exit status 2."""


def _version() -> str:
    # importlib.metadata reads the installed package's records: ~25 ms of every command's
    # start, so it is imported only when the version is asked for (``_VersionAction``)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fourwinds")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "unknown"


class _VersionAction(argparse.Action):
    """``--version``: prints the installed version, looked up only when asked for."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: str = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"fourwinds {_version()}")
        parser.exit()


# Modules that register several subcommands, or one not named after the module; every other
# subcommand lives in the module of its name ("more-time" would be more_time).
# tests/frontends/test_cli_lazy.py checks this against what the modules register.
GROUPED: dict[str, tuple[str, ...]] = {
    "actions": (
        "act",
        "call",
        "discard",
        "exchange",
        "mahjong",
        "more-time",
        "next",
        "pass",
    ),
    "table_cmds": ("hand", "host", "join", "ready", "seat", "status"),
}


RULE_VERBS = "rule_verbs"
"""The module of the verbs rule sets declare as their own (``card``): asked only for a command
no other module registers."""


def module_of(command: str) -> str | None:
    """The command module (short name) that registers ``command``, None when there is none."""
    for module, names in GROUPED.items():
        if command in names:
            return module
    name = command.replace("-", "_")
    known = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    if name in known and name not in GROUPED and name != RULE_VERBS:
        return name
    # late: only a command no module is named after loads the rule sets to ask them
    from fourwinds.protocol.table.rules.commands import own_verbs

    return RULE_VERBS if command in own_verbs() else None


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand an argument list names: its first word that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` (a command module) just that module's part."""
    parser = argparse.ArgumentParser(
        prog="fourwinds",
        description="Serverless Mahjong for a home network or a venue (American and MCR).",
    )
    parser.add_argument(
        "--version", action=_VersionAction, help="show the installed version and exit"
    )
    parser.add_argument("--verbose", "-v", action="count", default=0, help="more logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, verb in [(only, None)] if only is not None else _every_module():
        module = importlib.import_module(f"{commands.__name__}.{name}")
        register = getattr(module, "register", None)
        if callable(register) and verb is None:
            register(sub)
        elif callable(register):
            register(sub, verb)
    return parser


def _every_module() -> list[tuple[str, str | None]]:
    """Every command module, each with None, in the order of their names; the rule sets' own
    verbs among them as if each were a module of its name (``card`` between ``bot`` and
    ``completion``), each with the module that registers it."""
    # late: only the whole command line (help, completion) loads the rule sets to ask them
    from fourwinds.protocol.table.rules.commands import own_verbs

    names = [
        (info.name, None)
        for info in pkgutil.iter_modules(commands.__path__)
        if info.name != RULE_VERBS
    ]
    verbs = [(RULE_VERBS, verb) for verb in own_verbs()]
    return sorted([*names, *verbs], key=lambda entry: (entry[1] or entry[0]).replace("-", "_"))


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    load_named_rulesets()  # before the command line: --rules takes their names too
    command = _command_named(words)
    parser = build_parser(module_of(command) if command is not None else None)
    args = parser.parse_args(words)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:  # no command, or a command group without its subcommand: every command
        build_parser().print_help()
        return 2
    try:
        return handler(args)
    except (UsageError, FourwindsError, TileParseError) as error:
        print(f"fourwinds: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
