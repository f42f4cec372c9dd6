"""The `fourwinds` command: one console entry point with subcommands.

Each module in ``fourwinds.frontends.commands`` that defines ``register(subparsers)`` adds its
own subcommand(s); the module's handler returns an exit code. Errors a user can cause
(bad tiles, bad card files, wrong counts) are ``UsageError`` or ``FourwindsError`` and print one
clear line with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version

from fourwinds.frontends import commands
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import TileParseError

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A user mistake on the command line; printed as one line, exit status 2."""


def _version() -> str:
    try:
        return version("fourwinds")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled tree
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fourwinds",
        description="Serverless Mahjong for a home network or a venue (American and MCR).",
    )
    parser.add_argument("--version", action="version", version=f"fourwinds {_version()}")
    parser.add_argument("--verbose", "-v", action="count", default=0, help="more logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return handler(args)
    except (UsageError, FourwindsError, TileParseError) as error:
        print(f"fourwinds: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    # `python -m fourwinds.frontends.cli` runs this file as __main__: its UsageError would be
    # another class than the one the commands raise, so run the imported module's main
    from fourwinds.frontends.cli import main as installed_main

    sys.exit(installed_main())
