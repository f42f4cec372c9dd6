"""`fourwinds replay FILE`: print a stored hand or match turn by turn."""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.commands.verify import read_file
from fourwinds.frontends.table_demo import log_lines
from fourwinds.protocol.table.transcript import check_transcript


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print a stored hand or match turn by turn")
    parser.add_argument("file", metavar="FILE", help="a transcript (demo --transcript)")
    parser.add_argument("--verbose", action="store_true",
                        help="every action with its step, also the answers that change nothing "
                             "(no call, pass) and the private details (deals, draws)")
    parser.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    verdict = check_transcript(read_file(args.file), partial_ok=True)
    for line in log_lines(verdict.events, verbose=args.verbose):
        print(line)
    for problem in verdict.problems:
        print(f"!! {problem.describe()}")
    return 0 if not verdict.problems else 1
