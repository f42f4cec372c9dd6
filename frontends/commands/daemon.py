"""`fourwinds daemon`: run this player's daemon in the foreground."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "daemon", help="run the daemon in the foreground (finds tables, talks to peers)")
    parser.add_argument("--data-dir", help="where identity and tables live (default: the "
                        "user's data directory)")
    parser.add_argument("--port", type=int, default=7420,
                        help="peer port (the key beacon uses PORT+1); 0 picks a free one")
    parser.add_argument("--name", default="", help="your player name as others see it")
    parser.add_argument("--interface", help="network interface name or IPv4 address to use")
    parser.add_argument("--peer", action="append", default=[], metavar="HOST:PORT",
                        help="a daemon to reach directly where multicast is blocked")
    parser.add_argument("--no-mdns", action="store_true", help="do not announce or browse")
    parser.add_argument("--session-module", default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from fourwinds.daemon.main import Settings, main, parse_peer
    from fourwinds.daemon.session_port import DEFAULT
    from fourwinds.frontends.cli import UsageError

    if not 0 <= args.port <= 65534:
        raise UsageError(f"--port {args.port}: must be 0..65534")
    settings = Settings(data_dir=args.data_dir, port=args.port, name=args.name,
                        interface=args.interface,
                        peers=tuple(parse_peer(p) for p in args.peer),
                        mdns=not args.no_mdns, session_module=args.session_module or DEFAULT)
    return main(settings)
