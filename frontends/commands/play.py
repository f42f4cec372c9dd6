"""`fourwinds play`: the main job. Start the daemon if needed, sit down, open the table.

Alone: hosts a table and fills ``--bots N`` seats with bot seats (each its own daemon on
loopback). With friends: ``--join NAME`` a table seen on the network. While the networked
table cannot run here (no daemon, no table session in this build), it says why and runs
``fourwinds demo RULES`` instead, unless ``--no-fallback``.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

from fourwinds.frontends.cli_common import config_of, setup_logging
from fourwinds.frontends.commands.table_cmds import add_table_options, table_options
from fourwinds.frontends.config import RULES
from fourwinds.frontends.daemon_link import DaemonTable, LocalApi, checked
from fourwinds.frontends.local_seats import Started, ensure_daemon, start_bot_seat
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="play now: the table on screen, bots in free seats")
    parser.add_argument("--rules", choices=RULES, help="rule set (default: config, american)")
    parser.add_argument("--bots", type=int, choices=range(4), metavar="N",
                        help="seats to fill with bots, 0-3 (default: config, then 3)")
    parser.add_argument("--card", metavar="FILE", help="American card file for the table")
    parser.add_argument("--table", metavar="NAME", help="name of the table to host")
    parser.add_argument("--join", metavar="NAME|ID", help="join this table instead of hosting")
    parser.add_argument("--code", help="the private table's code, with --join")
    parser.add_argument("--private", action="store_true", help="host a private table (code)")
    parser.add_argument("--ascii", action="store_true", help="tiles as codes, not glyphs")
    add_table_options(parser, solo_default=True)
    parser.add_argument("--data-dir", metavar="DIR", help="your daemon's data directory")
    parser.add_argument("--no-fallback", action="store_true",
                        help="fail instead of running the offline demo")
    parser.set_defaults(handler=cmd_play)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def cmd_play(args: argparse.Namespace) -> int:
    # a closed terminal (SIGHUP) or a kill (SIGTERM) still stops the bot seats we started
    signal.signal(signal.SIGHUP, _exit_on_signal)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    config = config_of(args)
    state = Path(args.data_dir or config.data_dir or platformdirs.user_state_dir(
        "fourwinds", appauthor=False))
    setup_logging(args, state / "play.log")  # the screen owns the terminal
    rules = args.rules or config.rules
    bots = config.bots if args.bots is None else args.bots
    started = Started()
    try:
        try:
            api, table = _sit_down(args, rules, bots, started)
        except (FourwindsError, OSError) as error:
            started.stop()
            if args.no_fallback or args.join:
                raise
            print(f"fourwinds play: the networked table is not available here yet ({error}).",
                  file=sys.stderr)
            print(f"Running the offline demo instead: fourwinds demo {rules}", file=sys.stderr)
            from fourwinds.frontends.cli import main as cli_main

            return cli_main(["demo", rules])
        from fourwinds.frontends.curses_table import run

        try:
            return run(DaemonTable(api, table), ascii_only=args.ascii or config.ascii)
        finally:
            if started.processes:  # a table with our bot seats cannot go on without them
                started.stop()
                api.request({"type": "leave", "table": table})
            api.close()
    finally:
        started.stop()


def _sit_down(args: argparse.Namespace, rules: str, bots: int,
              started: Started) -> tuple[LocalApi, str]:
    config = config_of(args)
    data_dir = args.data_dir or config.data_dir
    state = Path(data_dir) if data_dir else Path(
        platformdirs.user_state_dir("fourwinds", appauthor=False))
    _say("connecting to your daemon (starting it if needed)...")
    api, ours = ensure_daemon(data_dir, config.name or "", state, config.peers)
    try:
        return _seat_at_table(api, args, rules, bots, started)
    except BaseException:
        api.close()
        if ours is not None:  # started for this table only: do not leave it behind
            started.add(ours)
        raise


def _seat_at_table(api: LocalApi, args: argparse.Namespace, rules: str, bots: int,
                   started: Started) -> tuple[LocalApi, str]:
    config = config_of(args)
    if args.join:
        request: dict[str, Any] = {"type": "join", "table": args.join}
        if args.code:
            request["code"] = args.code
        _say(f"joining table {args.join}...")
        table = str(checked(api.request(request)).get("table") or args.join)
    else:
        table = _host(api, args, rules, config.name or "")
        if bots:
            status = checked(api.request({"type": "status"}))
            key = str(checked(api.request({"type": "whoami"})).get("public_key"))
            base = Path(tempfile.mkdtemp(prefix="fourwinds-bots-"))
            for index in range(1, bots + 1):
                _say(f"seating bot {index} of {bots} (its own daemon on 127.0.0.1)...")
                start_bot_seat(started, base=base, index=index, rules=rules, table=table,
                               host_port=int(status["port"]), host_key=key,
                               verbose=int(getattr(args, "verbose", 0) or 0))
    api.request({"type": "ready", "table": table})
    return api, table


def _say(text: str) -> None:
    """Progress before the table screen opens (stderr, so stdout stays clean)."""
    print(f"fourwinds play: {text}", file=sys.stderr, flush=True)


def _free_name(api: LocalApi, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... when this daemon already sits at that table."""
    taken = {str(t.get("name")) for t in checked(api.request({"type": "tables"})).get("tables")
             or () if isinstance(t, dict)}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def _host(api: LocalApi, args: argparse.Namespace, rules: str, player: str) -> str:
    bots = config_of(args).bots if args.bots is None else args.bots
    options = table_options(args, solo=bots == 3)
    card = args.card or config_of(args).card
    if card:
        try:
            options["card_text"] = Path(card).read_text(encoding="utf-8")
        except OSError as error:
            raise FourwindsError(f"cannot read card file {card}: {error.strerror}") from None
        options["card_name"] = Path(card).stem
    name = args.table or config_of(args).table or _free_name(api, f"{player or 'my'}-table")
    _say(f"hosting table {name} ({rules}, {options['deck']} deck)...")
    answer = checked(api.request({"type": "create", "name": name, "rules": rules,
                                  "private": args.private, "options": options}))
    if answer.get("code"):
        print(f"private table {name}: players join with code {answer['code']}",
              file=sys.stderr)
    return str(answer.get("table") or name)
