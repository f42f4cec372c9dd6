"""`fourwinds web`: the table in your browser (the lobby first, or the table you sit at).

It finds your daemon (or starts it on the network, as `fourwinds tables` does: detached, it
keeps your seat until `fourwinds stop`), serves the page on 127.0.0.1 only, on a free port,
prints the address with a fresh token and opens the browser there. Ctrl-C stops the web
server (and the bot seats it started); the daemon keeps your seat. `fourwinds play --web`
sits down exactly as `play` does and then opens the browser instead of the curses table.
See docs/WEB.md.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fourwinds.frontends.bots.bot_level_option import add_bot_level_option, chosen_level
from fourwinds.frontends.bots.bot_pause import add_bot_pause_option, chosen_pause
from fourwinds.frontends.cli.cli_common import config_of, data_dir_of, setup_logging, state_dir_of
from fourwinds.frontends.client.daemon_link import connect
from fourwinds.frontends.client.local_seats import DaemonPlan, add_peers, ensure_daemon, is_running
from fourwinds.protocol.errors import FourwindsError


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "web", help="the table in your browser: lobby, table, results (starts your daemon)"
    )
    parser.add_argument("--table", metavar="NAME|ID", help="open this table of yours first")
    parser.add_argument(
        "--room",
        metavar="EVENT",
        help="the room screen of EVENT instead: for a projector (`tournament screen EVENT`)",
    )
    parser.add_argument(
        "--no-browser",
        action="store_true",
        help="only print the address (with its token); open no browser",
    )
    parser.add_argument("--data-dir", metavar="DIR", help="your daemon's data directory")
    parser.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help="your daemon's peer port, when this starts it (default: config, then 7420)",
    )
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="reach this daemon directly, where multicast is blocked",
    )
    add_bot_pause_option(parser)
    add_bot_level_option(parser)
    parser.set_defaults(handler=cmd_web)


def say(text: str) -> None:
    """Progress and the address: on stdout, a line at a time (scripts read the address)."""
    print(f"fourwinds web: {text}", flush=True)


def cmd_web(args: argparse.Namespace) -> int:
    from fourwinds.frontends.web.launch import serve

    state = state_dir_of(args)
    setup_logging(args, state / "web.log")
    data_dir = data_dir_of(args)
    if args.port is not None and not 0 <= args.port <= 65534:
        raise FourwindsError(f"--port {args.port}: must be 0 to 65534")
    pause = chosen_pause(args.bot_pause, config_of(args).bot_pause)
    level = chosen_level(args.bot_level, config_of(args).bot_level)
    try:
        if is_running(data_dir):  # whatever kind (a solo one too): used as it is
            api = connect(data_dir, subscribe=False)
            add_peers(api, tuple(args.peer))
        else:
            print(
                "fourwinds web: starting your daemon (`fourwinds stop` stops it)",
                file=sys.stderr,
                flush=True,
            )
            port = args.port if args.port is not None else config_of(args).port
            api, _ = ensure_daemon(DaemonPlan(data_dir, state, port, tuple(args.peer)))
        api.close()
        return serve(
            data_dir,
            state,
            table=args.table,
            browser=not args.no_browser,
            verbose=int(getattr(args, "verbose", 0) or 0),
            bot_pause=pause,
            bot_level=level,
            say=say,
            room=getattr(args, "room", None),
        )
    except OSError as error:
        raise FourwindsError(str(error) or type(error).__name__) from None
