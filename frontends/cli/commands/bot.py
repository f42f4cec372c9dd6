"""`fourwinds bot`: run a bot seat through the local daemon.

``--rules american|mcr`` plays the built-in bot: the rule set's engine bot, which the daemon
runs on the seat's own state (the ``suggest`` request; the view bot when it has no answer),
at ``--bot-level easy|normal|strong`` (default normal).
``--exec CMD`` runs any program as the seat, speaking JSON lines on its stdin/stdout
(docs/SCRIPTING.md). ``--botzone CMD`` runs a bot written for the Botzone platform's
"Chinese-Standard-Mahjong" game at an MCR table (botzone_seat.py). ``--join`` first joins a
table. ``--tournament NAME`` plays this daemon's table of every round of an event it
entered, one after another (frontends/bots/tournament_bot.py).
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fourwinds.frontends.bots.bot_level_option import DEFAULT_BOT_LEVEL, add_bot_level_option
from fourwinds.frontends.bots.bot_pause import pause_problem
from fourwinds.frontends.bots.bot_seat import Brain, ExecBrain, play_seat
from fourwinds.frontends.bots.botzone_io import TIME_LIMIT, Mode
from fourwinds.frontends.bots.suggest_bot import engine_brain
from fourwinds.frontends.bots.tournament_bot import play_event
from fourwinds.frontends.cli.cli_common import open_api, setup_logging, state_dir_of, table_name
from fourwinds.frontends.client.daemon_link import DaemonTable, checked
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.registry import rule_names

if TYPE_CHECKING:
    from fourwinds.frontends.bots.botzone_seat import BotzoneSeat


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "bot", help="run a bot seat: built-in (--rules) or any program (--exec CMD, JSON lines)"
    )
    brain = parser.add_mutually_exclusive_group(required=True)
    brain.add_argument(
        "--rules",
        choices=rule_names(),
        help="play the built-in bot (the engine bot of the table's rule set)",
    )
    brain.add_argument(
        "--exec",
        dest="exec_cmd",
        metavar="CMD",
        help="run CMD as the seat (events in on stdin, actions out on stdout)",
    )
    brain.add_argument(
        "--botzone",
        dest="botzone_cmd",
        metavar="CMD",
        help="run CMD, a Botzone Chinese-Standard-Mahjong bot, as the seat of an MCR table",
    )
    parser.add_argument("--data-dir", metavar="DIR", help="the bot seat's daemon data directory")
    parser.add_argument("--table", metavar="NAME", help="the table (default: the only one)")
    parser.add_argument("--join", metavar="NAME|ID", help="join this table first")
    parser.add_argument("--code", help="the private table's code, with --join")
    parser.add_argument(
        "--tournament",
        metavar="EVENT",
        help="play our table of every round of this tournament we entered",
    )
    parser.add_argument("--host", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    parser.add_argument(
        "--answer-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long --exec's program may think (when the view gives no deadline)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long before each decision, so a person at the table "
        "can follow (less when the window is short; none for ready and "
        "next; default 0: `play` starts its bots with its --bot-pause)",
    )
    add_bot_level_option(parser, configured=False)
    parser.add_argument(
        "--botzone-mode",
        choices=[m.value for m in Mode],
        default="json",
        help="how --botzone's bot reads its input: the platform's JSON or "
        "simple interaction (default json; a bot that keeps running is "
        "seen from its output)",
    )
    parser.add_argument(
        "--botzone-time",
        type=float,
        default=TIME_LIMIT,
        metavar="SECONDS",
        help=f"how long --botzone's bot may think a step (default "
        f"{TIME_LIMIT:g}; less when the table's window is shorter)",
    )
    parser.add_argument(
        "--botzone-eof",
        action="store_true",
        help="end --botzone's bot's input after the whole history, for a bot "
        "that reads to the end of its input (jsoncpp's cin >> value, as "
        "the platform's C++ sample does); such a bot cannot keep running",
    )
    parser.add_argument(
        "--botzone-log",
        metavar="FILE",
        help="where --botzone's bot's stderr and its faults are written "
        "(default: botzone-bot.log in the data directory)",
    )
    parser.set_defaults(handler=cmd_bot)


def join_request(args: argparse.Namespace) -> dict[str, Any]:
    """The local-API join request for ``--join`` (with the host's address when given)."""
    request: dict[str, Any] = {"type": "join", "table": args.join}
    if args.code:
        request["code"] = args.code
    if args.host and args.port and args.key:
        request.update(host=args.host, port=args.port, public_key=args.key)
    return request


def botzone_seat(args: argparse.Namespace) -> BotzoneSeat:
    """The seat for ``--botzone CMD``, its program's log in the data directory."""
    argv = shlex.split(args.botzone_cmd)
    if not argv:
        raise FourwindsError("--botzone needs a command")
    if not args.botzone_time > 0:
        raise FourwindsError("--botzone-time must be a number of seconds above 0")
    log = Path(args.botzone_log) if args.botzone_log else state_dir_of(args) / "botzone-bot.log"
    # a Botzone seat's modules are loaded for --botzone only: every built-in bot seat is a
    # process of its own, and they were a sixth of its start
    from fourwinds.frontends.bots.botzone_proc import BotzoneProgram
    from fourwinds.frontends.bots.botzone_seat import BotzoneSeat

    program = BotzoneProgram(
        argv, Mode(args.botzone_mode), log, time_limit=args.botzone_time, end_input=args.botzone_eof
    )
    return BotzoneSeat(program)


def cmd_bot(args: argparse.Namespace) -> int:
    setup_logging(args)
    problem = pause_problem(args.pause)
    if problem:
        raise FourwindsError(f"--pause {args.pause:g}: {problem}")
    if args.pause and args.botzone_cmd:
        raise FourwindsError(
            "--pause is for --rules and --exec bots (a Botzone bot keeps the platform's own timing)"
        )
    if args.bot_level is not None and not args.rules:
        raise FourwindsError("--bot-level is for the built-in bot (--rules)")
    if args.tournament:  # as `play --tournament`: its daemon started when none runs
        # late: a bot seat at one table (the common case) does not load the event commands
        from fourwinds.frontends.cli.event_link import event_daemon

        event_daemon(args).close()
    api = open_api(args, subscribe=True)
    try:
        if args.tournament:
            if args.botzone_cmd:
                raise FourwindsError(
                    "--tournament plays with --rules or --exec (a Botzone "
                    "bot plays one table: --botzone with --table)"
                )
            return play_event(api, args.tournament, lambda: _brain(args, api), pause=args.pause)
        if args.join:
            table = str(checked(api.request(join_request(args))).get("table") or args.join)
        else:
            table = table_name(api, args)
        # no separate "ready": the table offers it as a legal action, the brain answers it
        if args.botzone_cmd:
            from fourwinds.frontends.bots.botzone_seat import play_botzone

            return play_botzone(DaemonTable(api, table), botzone_seat(args))
        return play_seat(DaemonTable(api, table), _brain(args, api), pause=args.pause)
    finally:
        api.close()


def _brain(args: argparse.Namespace, api: Any) -> Brain:
    """The seat's brain: ``--exec``'s program, else the built-in bot."""
    if args.exec_cmd:
        argv = shlex.split(args.exec_cmd)
        if not argv:
            raise FourwindsError("--exec needs a command")
        try:
            return ExecBrain(argv, answer_timeout=args.answer_timeout)
        except OSError as error:
            raise FourwindsError(str(error)) from error
    level = args.bot_level or DEFAULT_BOT_LEVEL
    return engine_brain(api, level)  # the table's own rules decide: see suggest_bot
