"""`fourwinds bot`: run a bot seat through the local daemon.

``--rules american|mcr`` plays the built-in bot; ``--exec CMD`` runs any program as the seat,
speaking JSON lines on its stdin/stdout (docs/SCRIPTING.md). ``--join`` first joins a table.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
from collections.abc import Callable, Mapping
from typing import Any

from fourwinds.frontends.bot_seat import Brain, ExecBrain, FunctionBrain, play_seat
from fourwinds.frontends.cli_common import config_of, open_api, setup_logging, table_name
from fourwinds.frontends.config import RULES
from fourwinds.frontends.daemon_link import DaemonTable, checked
from fourwinds.frontends.view_bot import choose_request
from fourwinds.protocol.errors import FourwindsError

Chooser = Callable[[Mapping[str, Any]], "dict[str, Any] | None"]


def register(sub: Any) -> None:
    parser = sub.add_parser("bot", help="run a bot seat: built-in (--rules) or any program "
                                        "(--exec CMD, JSON lines)")
    brain = parser.add_mutually_exclusive_group(required=True)
    brain.add_argument("--rules", choices=RULES, help="play the built-in bot for this rule set")
    brain.add_argument("--exec", dest="exec_cmd", metavar="CMD",
                       help="run CMD as the seat (events in on stdin, actions out on stdout)")
    parser.add_argument("--data-dir", metavar="DIR", help="the bot seat's daemon data directory")
    parser.add_argument("--table", metavar="NAME", help="the table (default: the only one)")
    parser.add_argument("--join", metavar="NAME|ID", help="join this table first")
    parser.add_argument("--code", help="the private table's code, with --join")
    parser.add_argument("--host", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    parser.add_argument("--answer-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="how long --exec's program may think (when the view gives no "
                             "deadline)")
    parser.set_defaults(handler=cmd_bot)


def builtin_chooser(rules: str) -> Chooser:
    """The rule set's own bot when it offers ``choose_from_view(event) -> request``;
    otherwise the rules-agnostic view bot (frontends/view_bot.py)."""
    try:
        module = importlib.import_module(f"fourwinds.protocol.{rules}.bots")
    except ImportError:
        return choose_request
    chooser = getattr(module, "choose_from_view", None)
    return chooser if callable(chooser) else choose_request


def join_request(args: argparse.Namespace) -> dict[str, Any]:
    """The local-API join request for ``--join`` (with the host's address when given)."""
    request: dict[str, Any] = {"type": "join", "table": args.join}
    if args.code:
        request["code"] = args.code
    if args.host and args.port and args.key:
        request.update(host=args.host, port=args.port, public_key=args.key)
    return request


def cmd_bot(args: argparse.Namespace) -> int:
    setup_logging(args)
    api = open_api(args, subscribe=True)
    try:
        if args.join:
            table = str(checked(api.request(join_request(args))).get("table") or args.join)
        else:
            table = table_name(api, args)
        # no separate "ready": the table offers it as a legal action, the brain answers it
        brain: Brain
        if args.exec_cmd:
            argv = shlex.split(args.exec_cmd)
            if not argv:
                raise FourwindsError("--exec needs a command")
            try:
                brain = ExecBrain(argv, answer_timeout=args.answer_timeout)
            except OSError as error:
                raise FourwindsError(str(error)) from error
        else:
            brain = FunctionBrain(builtin_chooser(args.rules or config_of(args).rules))
        return play_seat(DaemonTable(api, table), brain)
    finally:
        api.close()
