"""A director's sheets of an event: standings and results as CSV for the club's spreadsheet,
and a round's seating to read out or pin up.

``tournament standings NAME --csv`` writes the standings as the daemon holds them (rank,
player, points in the one format every screen shows, score, rounds played, byes, and the
label: provisional, after a round, final). ``tournament results NAME [--csv]`` reads the
event's export from the daemon and checks it here (protocol/tournament/export.py), then
writes every table's result: round, table, each wind's player and score, as they count after
corrections. ``tournament sheet NAME [--round N]`` prints a round's seating two ways, by name
(alphabetical: where each player goes) and by table (who sits where), as a director reads it
out or prints it for the wall, and with ``--scoresheets`` a scoresheet per table for players
at a physical set (each hand's scores by wind, the totals, the command that enters them).
``tournament screen NAME`` opens the room screen in the
browser (`fourwinds web --room NAME`: frontends/web/static/room.js).

Names are other people's text: in a CSV cell one that a spreadsheet would take for a formula
(=, +, -, @ first) is written with a leading apostrophe, and on the terminal it is cleaned.
"""

from __future__ import annotations

import argparse
import csv
import io
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.cli_common import emit
from fourwinds.frontends.cli.event_link import ask_event_daemon
from fourwinds.protocol.text import shown_name

if TYPE_CHECKING:  # the checker is loaded only by the command that reads an export
    from fourwinds.protocol.tournament.check import Verdict

WINDS = ("East", "South", "West", "North")
FORMULA_FIRST = ("=", "+", "-", "@", "\t", "\r")


def add_sheet_parsers(commands: Any, common: Callable[[Any, Any], None]) -> None:
    """The sheets' subcommands, each with the event commands' ``--data-dir`` and ``--json``
    (``common``)."""
    results = commands.add_parser(
        "results", help="every table's result of an event (--csv: for a spreadsheet)"
    )
    results.add_argument("name", metavar="NAME")
    results.add_argument("--csv", action="store_true", help="comma-separated, with a header")
    common(results, cmd_results)
    sheet = commands.add_parser(
        "sheet",
        help="a round's seating, by name and by table, to read out or print",
    )
    sheet.add_argument("name", metavar="NAME")
    sheet.add_argument("--round", type=int, metavar="N", help="the round (default: the last)")
    sheet.add_argument(
        "--scoresheets",
        action="store_true",
        help="and a scoresheet per table, for a physical set: each hand's scores by wind, the "
        "totals, and the command that enters them",
    )
    common(sheet, cmd_sheet)
    screen = commands.add_parser(
        "screen",
        help="the room screen of an event in your browser: for a projector",
        description="Serve the room screen of EVENT (the round's clock, the seating by name "
        "and by table, the standings of every entrant) on 127.0.0.1 and open the browser "
        "at it, as `fourwinds web --room EVENT` does; Ctrl-C stops it.",
    )
    screen.add_argument("name", metavar="EVENT")
    screen.add_argument("--no-browser", action="store_true", help="only print the address")
    screen.add_argument("--data-dir", metavar="DIR", help="the daemon's data directory")
    screen.set_defaults(handler=cmd_screen)


def csv_cell(value: object) -> str:
    """A cell a spreadsheet shows as text: a value it would read as a formula gets a leading
    apostrophe; numbers and plain text stay as they are."""
    text = str(value)
    if text.startswith(FORMULA_FIRST) and not _is_number(text):
        return "'" + text
    return text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


def standings_csv(answer: Mapping[str, Any]) -> str:
    """The daemon's ``tournament_standings`` answer as CSV, each row with its label."""
    state = answer.get("state")
    label = str(state.get("label")) if isinstance(state, Mapping) else ""
    rows = [
        [
            row.get("rank"),
            row.get("name"),
            row.get("points_text") or row.get("points"),
            row.get("score"),
            row.get("played"),
            row.get("byes"),
            label,
        ]
        for row in answer.get("standings") or ()
        if isinstance(row, Mapping)
    ]
    return csv_text(["rank", "player", "points", "score", "played", "byes", "standings"], rows)


def result_rows(verdict: Verdict) -> list[list[object]]:
    """Every table with a result that counts: round, table (from 1), then each wind's player
    (``bot`` for a bot seat) and score, from a checked export's verdict."""
    names = verdict.names
    counted = dict(verdict.scores)
    rows: list[list[object]] = []
    for seating in verdict.rounds:
        for t, table in enumerate(seating.tables):
            scores = counted.get((seating.round, t))
            if scores is None:
                continue
            seats: list[object] = []
            for seat, score in zip(table, scores, strict=True):
                seats += ["bot" if seat is None else names[seat], score]
            rows.append([seating.round + 1, t + 1, *seats])
    return rows


RESULT_HEADER = [
    "round",
    "table",
    *(f"{wind.lower()}{part}" for wind in WINDS for part in ("", "_score")),
]


def cmd_results(args: argparse.Namespace) -> int:
    from fourwinds.protocol.tournament.export import ExportError, check_export

    answer = ask_event_daemon(args, {"type": "tournament_export", "name": args.name})
    data = answer.get("data")
    if not isinstance(data, bytes):
        raise UsageError("the daemon sent no export")
    try:
        verdict = check_export(data)
    except ExportError as error:
        raise UsageError(f"the daemon's export cannot be read: {error}") from None
    rows = result_rows(verdict)
    if args.csv:
        sys.stdout.write(csv_text(RESULT_HEADER, rows))
        return 0
    lines = [
        f"round {row[0]}, table {row[1]}: "
        + ", ".join(
            f"{wind[0]} {shown_name(str(row[2 + 2 * i]), 20)} {row[3 + 2 * i]}"
            for i, wind in enumerate(WINDS)
        )
        for row in rows
    ]
    emit(args, lines or ["no table has a result yet"], {"header": RESULT_HEADER, "rows": rows})
    return 0


def seating_lines(event: Mapping[str, Any], round_no: int | None) -> list[str]:
    """A round's seating from the daemon's EVENT (its last round unless ``round_no``): by
    name, alphabetically (table and wind), then by table (each wind's player)."""
    last = event.get("round")
    if not isinstance(last, Mapping):
        raise UsageError(f"{event.get('name')}: no round has started yet")
    if round_no is not None and round_no != last.get("round"):
        raise UsageError(
            f"round {round_no}: the daemon shows the round under way, round {last.get('round')}"
        )
    tables = [t for t in last.get("tables") or () if isinstance(t, Sequence)]
    title = f"{shown_name(str(event.get('name')), 64)}, round {last.get('round')}"
    seated = sorted(
        (
            (str(name).casefold(), shown_name(str(name), 30), number, wind)
            for number, table in enumerate(tables, 1)
            for wind, name in zip(WINDS, table, strict=True)
            if name is not None
        ),
    )
    lines = [f"{title}: by name", *(f"  {n:<30}  table {t:>2}  {w}" for _, n, t, w in seated)]
    byes = [shown_name(str(n), 30) for n in last.get("byes") or ()]
    if byes:
        lines.append(f"  a bye: {', '.join(byes)}")
    lines.append(f"{title}: by table")
    for number, table in enumerate(tables, 1):
        seats = "   ".join(
            f"{wind} {'(bot)' if name is None else shown_name(str(name), 20)}"
            for wind, name in zip(WINDS, table, strict=True)
        )
        lines.append(f"  table {number:>2}:  {seats}")
    return lines


SCORESHEET_HANDS = 16
"""Hand rows on the scoresheet of a timed round (its hands are not known before): MCR's
whole match."""


def scoresheet_lines(event: Mapping[str, Any]) -> list[str]:
    """A scoresheet for each table of the round under way, for players at a physical set:
    the four names by wind, a row to write each hand's scores in, the totals, and the
    command whose scores the record takes (`tournament result`, signed by all four)."""
    last = event.get("round")
    if not isinstance(last, Mapping):
        raise UsageError(f"{event.get('name')}: no round has started yet")
    name = str(event.get("name"))
    hands = int(event.get("amount") or 4) if event.get("length") == "hands" else SCORESHEET_HANDS
    blank = "  ".join(f"{'':_<12}" for _ in WINDS)
    lines: list[str] = []
    for number, table in enumerate(last.get("tables") or (), 1):
        lines.append(
            f"{shown_name(name, 64)}, round {last.get('round')}, table {number}: scoresheet"
        )
        lines.append(
            "  hand  "
            + "  ".join(
                f"{w[0]} {('(bot)' if who is None else shown_name(str(who), 10)):<10}"
                for w, who in zip(WINDS, table, strict=True)
            )
        )
        lines += [f"  {hand:>4}  {blank}" for hand in range(1, hands + 1)]
        lines.append(f"  total {blank}")
        lines.append(
            f"  entered with: fourwinds tournament result {shlex.quote(name)} --table {number} "
            "--scores E,S,W,N (each of the four players, the same totals)"
        )
    return lines


def cmd_sheet(args: argparse.Namespace) -> int:
    event = ask_event_daemon(args, {"type": "tournament_status", "name": args.name})
    lines = seating_lines(event, args.round)
    if args.scoresheets:
        lines += scoresheet_lines(event)
    emit(args, lines, {"lines": lines})
    return 0


def cmd_screen(args: argparse.Namespace) -> int:
    """`fourwinds web --room EVENT`, with the web command's defaults for the rest."""
    from fourwinds.frontends.cli.commands.web import cmd_web

    options: dict[str, object] = {
        "table": None,
        "port": None,
        "peer": [],
        "bot_pause": None,
        "bot_level": None,
    }
    return cmd_web(argparse.Namespace(**{**options, **vars(args), "room": args.name}))
