"""`fourwinds verify FILE`: re-check a stored hand or match transcript.

Replays every message as an observer: signatures, hash chains, every action against the
rules, every face shown against the deck, and the outcome each seat signed. Prints what is
wrong and whom to blame. Exit 0 when all is well, 1 when something is wrong, 2 when the file
cannot be read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.protocol.table.transcript import Verdict, check_transcript


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify", help="re-check a stored hand or match (signatures, chains, rules, deck)")
    parser.add_argument("file", metavar="FILE", help="a transcript (demo --transcript)")
    parser.add_argument("--partial", action="store_true",
                        help="accept a transcript that stops before the end of the match")
    parser.set_defaults(handler=run_verify)


def read_file(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def describe_verdict(verdict: Verdict) -> list[str]:
    s = verdict.session
    lines = []
    if s.open is not None:
        deck = s.open.options.deck.value
        lines.append(f"table {s.table.hex()} \"{s.open.name}\": {s.open.rules}, {deck} deck, "
                     f"protocol {s.version}")
    lines.append(f"{s.hands_played} hand(s) checked, {sum(len(c.accepted) for c in s.chains)} "
                 "signed messages")
    for hand_no, outcome, _ in s.outcomes:
        lines.append(f"  hand {hand_no + 1}: {outcome.summary}")
    for problem in verdict.problems:
        lines.append(f"PROBLEM {problem.describe()}")
    lines.append("OK" if verdict.ok else "BAD")
    return lines


def run_verify(args: argparse.Namespace) -> int:
    verdict = check_transcript(read_file(args.file), partial_ok=args.partial)
    for line in describe_verdict(verdict):
        print(line)
    return 0 if verdict.ok else 1
