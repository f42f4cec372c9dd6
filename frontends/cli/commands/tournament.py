"""`fourwinds tournament seating`: the tournament seating method alone, for checking.

``seating --players N --rounds R [--seed HEX] [--fill bots|byes] [--json]`` prints every
round of an event seated without seeding by standings (protocol/tournament/seating.py,
docs/TOURNAMENT.md): with ``--json`` exactly ``{"rounds": [[[E, S, W, N], ...], ...]}``,
players numbered from 0, a bot seat as ``null``, a player with a bye at no table. The same
arguments print the same seating on every machine.

``verify FILE`` reads a tournament export (protocol/tournament/export.py) and recomputes
everything from its records (check.py): every signature, round seed, seating and result.
It prints OK with the standings and exit 0, or the first refused record in one line naming
its round and table, and in one more how many later records were refused after it, by reason
(``--all``: each in one line), and exit 1; a file that cannot be read at all is one line and
exit 2, as ``fourwinds verify`` does for a transcript. ``create``, ``list``, ``join``, ``status``,
``standings``, ``export`` and ``start`` ask the daemon (tournament_cmds.py); a round's
tables are opened by the seats' daemons and played with `play --tournament` (or
`bot --tournament`), and the group says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.pipe_out import print_lines
from fourwinds.protocol.text import clean_text, shown_name

if TYPE_CHECKING:
    from fourwinds.protocol.tournament.check import Verdict


def register(sub: Any) -> None:
    from fourwinds.frontends.cli.commands.tournament_cmds import add_parsers

    parser: argparse.ArgumentParser = sub.add_parser(
        "tournament",
        help="venue tournaments: create, join, status, standings, export...",
        description="Venue tournaments (docs/TOURNAMENT.md). `start` seats a round; each "
        "player's daemon opens or joins its table, and `fourwinds play "
        "--tournament NAME` takes the player there.",
    )
    commands = parser.add_subparsers(dest="tournament_command", metavar="COMMAND")
    add_parsers(commands)
    seating = commands.add_parser(
        "seating",
        help="print the seating method's rounds for N players (pure, for checking)",
        description="Seat N players for R rounds with the tournament seating method "
        "(docs/TOURNAMENT.md) and print the tables: E, S, W, N per table, "
        "players numbered from 0, a bot seat as null (--json) or 'bot'.",
    )
    seating.add_argument("--players", type=int, required=True, metavar="N")
    seating.add_argument("--rounds", type=int, required=True, metavar="R")
    seating.add_argument(
        "--seed",
        default="",
        metavar="HEX",
        help="the event's seed, in hex (default: none, the empty seed)",
    )
    seating.add_argument(
        "--fill",
        choices=("bots", "byes"),
        default="bots",
        help="when N is not a multiple of 4: bot seats (default) or byes",
    )
    seating.add_argument(
        "--json", action="store_true", help='print {"rounds": [[[E, S, W, N], ...], ...]} only'
    )
    seating.set_defaults(handler=run_seating)
    verify = commands.add_parser(
        "verify",
        help="recompute a tournament export: signatures, seeds, seating, results",
        description="Check a tournament export file (`fourwinds tournament export`): every "
        "record's signature, every round's seed and seating against the seating "
        "method, every result against the four seats of its table; print the "
        "standings (exit 0), or the first refused record in one line and how many later "
        "ones were refused after it (exit 1).",
    )
    verify.add_argument("file", metavar="FILE", help="a tournament export file")
    verify.add_argument(
        "--all", action="store_true", help="one line for each refused record, not the first only"
    )
    verify.set_defaults(handler=run_verify)
    parser.set_defaults(handler=run_group)


def run_group(args: argparse.Namespace) -> int:
    print(
        "fourwinds tournament: give a command: create, list, join, start, status, "
        "standings, export, verify, seating, director (a new one, by a majority); the "
        "director also result, correct, penalty, extend, end-table, substitute, withdraw "
        "(play your table of each round with `fourwinds play --tournament NAME`)",
        file=sys.stderr,
    )
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
        lines.append(
            f"Round {seating.round + 1}"
            + (f" (byes: {', '.join(map(str, seating.byes))})" if seating.byes else "")
        )
        for number, table in enumerate(seating.tables, 1):
            seats = "  ".join(
                f"{wind} {'bot' if p is None else p}" for wind, p in zip("ESWN", table, strict=True)
            )
            lines.append(f"  table {number}: {seats}")
    print_lines(lines)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from pathlib import Path

    from fourwinds.protocol.tournament.export import MAX_EXPORT_BYTES, ExportError, check_export
    from fourwinds.protocol.tournament.problems import problem_lines

    path = Path(args.file)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_EXPORT_BYTES + 1)
    except OSError as error:
        raise UsageError(f"{args.file}: {error.strerror or error}") from None
    try:
        verdict = check_export(data)
    except ExportError as error:
        raise UsageError(f"{args.file}: {error}") from None
    if not verdict.ok:
        print_lines([clean_text(line) for line in problem_lines(verdict.problems, args.all)])
        return 1
    print_lines(describe_event(verdict))
    return 0


def describe_event(verdict: Verdict) -> list[str]:
    """OK, the event in one line, its standings and their history (corrections, penalties;
    the round clock's time calls, extensions and forced ends; substitutes, new directors).
    Names and reasons are other people's text: cleaned before they reach the terminal."""
    from fourwinds.protocol.tournament.points_text import points_text
    from fourwinds.protocol.tournament.records import Correction, Extension, TimeCall

    create = verdict.create
    assert create is not None
    names = [shown_name(name, 20) for name in verdict.names]
    lines = [
        f'OK: "{shown_name(create.name, 64)}", {create.rules}, '
        f"{len(verdict.entrants)} entrants, {len(verdict.rounds)} of {create.rounds} "
        f"round(s) started, {verdict.results} table result(s)"
    ]
    lines.append("rank  player                points   score  played  byes")
    for row in verdict.standings:
        shown = points_text(row.points)
        lines.append(
            f"{row.rank:>4}  {names[row.player]:<20}  {shown:>6}  "
            f"{row.score:>6}  {row.played:>6}  {row.byes:>4}"
        )
    for item in verdict.adjustments:
        if isinstance(item, Correction):
            lines.append(
                f"correction: round {item.round + 1}, table {item.table + 1} "
                f"scores {list(item.scores)}: {clean_text(item.reason)}"
            )
        else:
            lines.append(
                f"penalty: round {item.round + 1}, "
                f"{names[verdict.entrants.index(item.player)]}: "
                f"-{points_text(item.points)} points, -{item.score} score: "
                f"{clean_text(item.reason)}"
            )
    for lapse in verdict.lapses:  # rounds seated without who did not reveal in time
        who = ", ".join(names[verdict.entrants.index(k)] for k in lapse.players)
        lines.append(f"round {lapse.round + 1} seated without {who}: {clean_text(lapse.reason)}")
    for clock in verdict.clock_records:  # the round clock's records (time, extra, end)
        if isinstance(clock, TimeCall):
            lines.append(f"time called: round {clock.round + 1}")
        elif isinstance(clock, Extension):
            lines.append(
                f"extension: round {clock.round + 1}, table {clock.table + 1} "
                f"+{clock.minutes} min: {clean_text(clock.reason)}"
            )
        else:
            lines.append(
                f"table ended: round {clock.round + 1}, table {clock.table + 1}: "
                f"{clean_text(clock.reason)}"
            )
    by_key = dict(zip(verdict.entrants, names, strict=True))
    for sub in verdict.substitutes:
        taker = "a bot" if sub.substitute is None else by_key.get(sub.substitute, "?")
        lines.append(
            f"substitute: round {sub.round + 1}, table {sub.table + 1}, "
            f"{'ESWN'[sub.seat]}: {taker} for {by_key.get(sub.leaving, '?')} after "
            f"{sub.hands} hand(s) {list(sub.scores)}: {clean_text(sub.reason)}"
        )
    for change in verdict.directors:
        lines.append(
            f"new director: {change.director.hex()[:16]}, named by the entrants at "
            f"record {change.at}: {clean_text(change.reason)}"
        )
    return lines
