"""`fourwinds replay FILE`: print a stored hand or match turn by turn.

FILE is what `verify` reads (a transcript, or a daemon's ``records.log``). A transcript that
stops before the match ends (exported mid-match) replays as far as it goes; a file cut short
in the middle of a message is refused in one line (exit 2). Piped into ``head`` it stops
quietly when the reader has enough.
"""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.bots.table_demo import log_lines
from fourwinds.frontends.cli.commands.verify import load
from fourwinds.frontends.cli.pipe_out import print_lines
from fourwinds.protocol.table.machine.transcript import check_messages


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print a stored hand or match turn by turn"
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a transcript (`fourwinds export`, demo --transcript) or a daemon's records.log",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="every action with its step, also the answers that change nothing "
        "(no call, pass) and the private details (deals, draws)",
    )
    parser.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    verdict = check_messages(load(args.file).transcript, partial_ok=True)
    lines = log_lines(verdict.events, verbose=args.verbose)
    lines.extend(f"!! {problem.describe()}" for problem in verdict.problems)
    if not print_lines(lines):
        return 0
    return 0 if not verdict.problems else 1
