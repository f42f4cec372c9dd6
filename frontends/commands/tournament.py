"""`fourwinds tournament seating`: the tournament seating method alone, for checking.

``seating --players N --rounds R [--seed HEX] [--fill bots|byes] [--json]`` prints every
round of an event seated without seeding by standings (protocol/tournament/seating.py,
docs/TOURNAMENT.md): with ``--json`` exactly ``{"rounds": [[[E, S, W, N], ...], ...]}``,
players numbered from 0, a bot seat as ``null``, a player with a bye at no table. The same
arguments print the same seating on every machine. The rest of the ``tournament`` group
(create, join, start, standings, ...) is not built yet; the group says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.pipe_out import print_lines


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament", help="venue tournaments (only `seating` so far)",
        description="Venue tournaments. Only `seating` exists yet: the seating method alone.")
    commands = parser.add_subparsers(dest="tournament_command", metavar="COMMAND")
    seating = commands.add_parser(
        "seating", help="print the seating method's rounds for N players (pure, for checking)",
        description="Seat N players for R rounds with the tournament seating method "
                    "(docs/TOURNAMENT.md) and print the tables: E, S, W, N per table, "
                    "players numbered from 0, a bot seat as null (--json) or 'bot'.")
    seating.add_argument("--players", type=int, required=True, metavar="N")
    seating.add_argument("--rounds", type=int, required=True, metavar="R")
    seating.add_argument("--seed", default="", metavar="HEX",
                         help="the event's seed, in hex (default: none, the empty seed)")
    seating.add_argument("--fill", choices=("bots", "byes"), default="bots",
                         help="when N is not a multiple of 4: bot seats (default) or byes")
    seating.add_argument("--json", action="store_true",
                         help='print {"rounds": [[[E, S, W, N], ...], ...]} only')
    seating.set_defaults(handler=run_seating)
    parser.set_defaults(handler=run_group)


def run_group(args: argparse.Namespace) -> int:
    print("fourwinds tournament: only `fourwinds tournament seating` exists yet "
          "(create, list, join, start, status, standings, export and verify are to come)",
          file=sys.stderr)
    return 2


def run_seating(args: argparse.Namespace) -> int:
    from fourwinds.protocol.tournament.seating import FillPolicy, seat_rounds

    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        raise UsageError(f"--seed {args.seed!r}: not hex") from None
    plan = seat_rounds(args.players, args.rounds, seed, FillPolicy(args.fill))
    if args.json:
        print(json.dumps({"rounds": [[list(t) for t in r.tables] for r in plan]}))
        return 0
    lines = []
    for seating in plan:
        lines.append(f"Round {seating.round + 1}"
                     + (f" (byes: {', '.join(map(str, seating.byes))})" if seating.byes
                        else ""))
        for number, table in enumerate(seating.tables, 1):
            seats = "  ".join(f"{wind} {'bot' if p is None else p}"
                              for wind, p in zip("ESWN", table, strict=True))
            lines.append(f"  table {number}: {seats}")
    print_lines(lines)
    return 0
