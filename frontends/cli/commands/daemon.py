"""`fourwinds daemon`: run this player's daemon in the foreground.

Its settings come from the command line, else from the config file (``name``, ``peers``,
``port``, ``data_dir``: the same file every command reads), else the defaults (your login
name, port 7420, the platform's data directory).
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.player_config import DEFAULT_PORT, load_config, player_name


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "daemon", help="run the daemon in the foreground (finds tables, talks to peers)"
    )
    parser.add_argument(
        "--data-dir",
        help="where identity and tables live (default: config "
        "file, then the user's data directory)",
    )
    parser.add_argument(
        "--port",
        type=int,
        help="peer port (the key beacon uses PORT+1); 0 picks a free one "
        f"(default: config file, then {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--name",
        help="your player name as others see it (default: config file, then your login name)",
    )
    parser.add_argument("--interface", help="network interface name or IPv4 address to use")
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="a daemon to reach directly where multicast is blocked (added to "
        "the config file's peers)",
    )
    parser.add_argument("--no-mdns", action="store_true", help="do not announce or browse")
    parser.add_argument("--session-module", default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from fourwinds.daemon.main import Settings, main, parse_peer
    from fourwinds.daemon.table_runtimes.session_port import DEFAULT
    from fourwinds.frontends.cli import UsageError

    config = load_config()  # not cli_common: a daemon needs none of the table frontends
    port = (
        args.port
        if args.port is not None
        else (config.port if config.port is not None else DEFAULT_PORT)
    )
    if not 0 <= port <= 65534:
        raise UsageError(f"--port {port}: must be 0..65534")
    name = args.name if args.name is not None else player_name(config)
    if not 1 <= len(name.strip()) <= 32:
        raise UsageError("--name: 1 to 32 characters")
    peers = [*config.peers, *(p for p in args.peer if p not in config.peers)]
    settings = Settings(
        data_dir=args.data_dir or config.data_dir,
        port=port,
        name=name.strip(),
        interface=args.interface,
        peers=tuple(parse_peer(p) for p in peers),
        mdns=not args.no_mdns,
        session_module=args.session_module or DEFAULT,
    )
    return main(settings)
