"""`fourwinds verify FILE`: re-check a stored hand or match transcript.

Replays every message as an observer: signatures, hash chains, every action against the
rules, every face shown against the deck, and the outcome each seat signed. Prints what is
wrong and whom to blame. FILE is a transcript (`fourwinds export`, `demo --transcript`) or a
daemon's ``records.log`` (read directly). Exit 0 when all is well, 1 when something is wrong,
2 when the file cannot be read (a cut transcript included).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.pipe_out import print_lines
from fourwinds.frontends.client.stored import Loaded, StoredError, load_file
from fourwinds.protocol.table.machine.transcript import Verdict, check_messages


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify", help="re-check a stored hand or match (signatures, chains, rules, deck)"
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        help="a transcript (`fourwinds export`, demo --transcript) or a daemon's records.log",
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="accept a transcript that stops before the end of the match",
    )
    parser.set_defaults(handler=run_verify)


def load(path: str) -> Loaded:
    """The transcript in ``path``; a one-line ``UsageError`` when it cannot be read. A
    record log is read directly, and stderr says so (with how to export a transcript)."""
    try:
        loaded = load_file(path)
    except StoredError as error:
        raise UsageError(str(error)) from None
    if loaded.source == "record log":
        print(
            f"fourwinds: {path} is a daemon's record log; reading the messages it holds "
            "(`fourwinds export TABLE` writes them as a transcript file)",
            file=sys.stderr,
        )
    if loaded.note:
        print(f"fourwinds: {loaded.note}", file=sys.stderr)
    return loaded


def describe_verdict(verdict: Verdict) -> list[str]:
    s = verdict.session
    lines = []
    if s.open is not None:
        deck = s.open.options.deck.value
        shown = verdict.transcript.shown_id if verdict.transcript else s.table.hex()[:8]
        rules = s.open.rules
        if s.rules is not None and not s.rules.flowers(s.open.options):
            rules += " without flowers"
        lines.append(f'table {shown} "{s.open.name}": {rules}, {deck} deck, protocol {s.version}')
    lines.append(
        f"{s.hands_played} hand(s) checked, {sum(len(c.accepted) for c in s.chains)} "
        "signed messages"
    )
    for hand_no, outcome, _ in s.outcomes:
        lines.append(f"  hand {hand_no + 1}: {outcome.summary}")
    for problem in verdict.problems:
        lines.append(f"PROBLEM {problem.describe()}")
    lines.append("OK" if verdict.ok else "BAD")
    return lines


def run_verify(args: argparse.Namespace) -> int:
    verdict = check_messages(load(args.file).transcript, partial_ok=args.partial)
    print_lines(describe_verdict(verdict))
    return 0 if verdict.ok else 1
