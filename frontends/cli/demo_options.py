"""Options shared by `fourwinds demo american|mcr`: how the four bots' table is run.

By default the demo runs the real thing in memory: four table sessions that sign every
message, deal from the mental-poker (masked) wall and audit it at the end of each hand, the
same code a table of four daemons runs. `--deck practice` uses the open, seeded practice deck
(faster, says so); `--engine-only` skips the table layer and drives the rules engine directly
(the fastest way to watch bots, with no signatures, deck or transcript).
"""

from __future__ import annotations

import argparse

from fourwinds.frontends.bots.table_demo import play_match_in_memory
from fourwinds.frontends.cli import UsageError


def add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck",
        choices=("masked", "practice"),
        default="masked",
        help="the wall: mental-poker masked deck (default) or open practice deck",
    )
    parser.add_argument(
        "--transcript",
        metavar="FILE",
        help="save the signed transcript (check it with `fourwinds verify FILE`)",
    )
    parser.add_argument(
        "--engine-only",
        action="store_true",
        help="drive the rules engine directly: no table session, deck or transcript (fastest)",
    )


def check_table_options(args: argparse.Namespace) -> None:
    """Refuse option mixes that cannot work, before anything runs."""
    if args.engine_only and args.transcript:
        raise UsageError("--transcript needs the table session; drop --engine-only")


def run_through_table(
    rules: str,
    args: argparse.Namespace,
    rules_text: str = "",
    engine_options: tuple[tuple[str, str | int | bool], ...] = (),
) -> int:
    """Play the demo through four in-memory table sessions; exit status 1 if a seat was blamed.
    ``engine_options``: the rule set's own table options (MCR ``("flowers", False)``)."""
    harness = play_match_in_memory(
        rules,
        args.seed,
        args.hands,
        rules_text=rules_text,
        transcript_path=args.transcript,
        deck=args.deck,
        quiet=args.quiet,
        engine_options=engine_options,
    )
    return 1 if any(harness.problems[place] for place in range(4)) else 0
