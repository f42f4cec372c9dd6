"""`fourwinds history`: the matches this daemon has stored, newest first.

Each table folder in the daemon's data directory (tables left included) is read from disk,
so no daemon need run: its record log is replayed as an observer (signatures and rules
checked, as `verify` does) to tell the date of its last message, the players, the rules and
the result: the final scores, or "in progress, hand N of M". `fourwinds export TABLE` writes
one as a transcript.

A 16-hand match on the fair deck takes a couple of seconds to replay, so what was found is
kept in ``history-cache.json`` in the state directory (the data directory when one is given,
as for `play`'s logs), keyed by each record log's path, size and modification time: a table
whose log has not changed is not replayed again.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli.cli_common import data_dir_of, state_dir_of
from fourwinds.frontends.cli.pipe_out import print_lines
from fourwinds.frontends.client.stored import StoredError, StoredTable, stored_tables
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.transcript import check_messages
from fourwinds.protocol.table.wire.messages import MsgKind, decode_body
from fourwinds.protocol.table.wire.strict import WireError


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "history", help="the matches your daemon has stored: date, players, rules, result"
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the daemon's data directory (default: config file, then the user's data directory)",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per line, one line per stored table"
    )
    parser.set_defaults(handler=run_history)


@dataclass(frozen=True)
class Entry:
    """One stored match as `history` tells it (also its ``--json`` line)."""

    table: str  # the id as `fourwinds tables` shows it
    name: str
    date: str  # of its last message, local time
    rules: str
    deck: str
    players: list[str]  # by place (0 = the host)
    state: str  # "over", "in progress", "lobby", "halted" or "unreadable"
    hand: int  # the hand being played (1-based), or hands played when over
    hands: int  # hands in the match
    scores: list[int]  # by place
    left: bool  # you left this table (its folder is kept for the record)
    result: str  # the line a person reads
    note: str | None = None  # damage found in the record log, if any
    set_aside: str | None = None  # why the daemon set this table aside, if it did


def player_names(s: TableSession) -> list[str]:
    """The names the seats gave in their Open and Join messages, by place."""
    names = []
    for place in SEATS:
        name = s.open.player if place == 0 and s.open is not None else ""
        for env in s.chains[place].accepted[:2]:
            if place != 0 and env.kind is MsgKind.JOIN and env.body is not None:
                try:
                    name = str(getattr(decode_body(env.kind, env.body), "player", ""))
                except WireError:
                    name = ""
                break
        names.append(name or f"seat {int(place)}")
    return names


def _result(s: TableSession, names: list[str]) -> tuple[str, int, str]:
    """(state, hand number, the line a person reads)."""
    hands = s.match_hands
    if s.phase is Phase.OVER:
        ranked = sorted(SEATS, key=lambda p: -s.scores[p])
        scores = ", ".join(f"{names[p]} {s.scores[p]:+d}" for p in ranked)
        return "over", s.hands_played, f"final scores: {scores}"
    if s.halted is not None:
        return "halted", s.hands_played, f"halted: {s.halted.reason}"
    if s.phase is Phase.LOBBY:
        return "lobby", 0, "in the lobby (not started)"
    hand = (s.hand.hand_no if s.hand is not None else s.hands_played) + 1
    line = f"in progress, hand {min(hand, hands)} of {hands}"
    if s.phase is Phase.HAND_END:
        line += " over (waiting for every player's next)"
    totals = s.match_scores  # the hand just over included, as the table's screens show
    if s.hands_played or totals != s.scores:
        line += ", scores so far: " + ", ".join(f"{names[p]} {totals[p]:+d}" for p in SEATS)
    return "in progress", hand, line


def entry_of(table: StoredTable) -> Entry:
    """What `history` says of one table folder (never raises: an unreadable one says why)."""
    date = datetime.datetime.fromtimestamp(table.modified).strftime("%Y-%m-%d %H:%M")
    try:
        loaded = table.load()
    except StoredError as error:
        return Entry(
            table.shown_id,
            table.name,
            date,
            table.rules,
            "?",
            [],
            "unreadable",
            0,
            0,
            [],
            table.left,
            f"cannot read: {error}",
            None,
            table.set_aside,
        )
    s = check_messages(loaded.transcript, partial_ok=True).session
    if s.open is None:
        return Entry(
            table.shown_id,
            table.name,
            date,
            table.rules,
            "?",
            [],
            "lobby",
            0,
            0,
            [],
            table.left,
            "not opened yet",
            loaded.note,
            table.set_aside,
        )
    names = player_names(s)
    state, hand, line = _result(s, names)
    return Entry(
        table.shown_id,
        s.open.name,
        date,
        s.open.rules,
        s.open.options.deck.value,
        names,
        state,
        hand,
        s.match_hands,
        list(s.match_scores),
        table.left,
        line,
        loaded.note,
        table.set_aside,
    )


def human_lines(entry: Entry) -> list[str]:
    kept = ", left" if entry.left else ", set aside" if entry.set_aside else ""
    lines = [f"{entry.date}  {entry.name}  {entry.table}  {entry.rules}, {entry.deck} deck{kept}"]
    if entry.players:
        lines.append(f"    players: {', '.join(entry.players)}")
    lines.append(f"    {entry.result}")
    if entry.set_aside:
        lines.append(f"    set aside by the daemon: {entry.set_aside}")
    if entry.note:
        lines.append(f"    note: {entry.note}")
    return lines


CACHE = "history-cache.json"
CACHE_VERSION = 1


def _stamp(table: StoredTable) -> list[int] | None:
    """What must not change for a cached entry to hold: the log's size and mtime (ns)."""
    try:
        info = table.log_path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        cache = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(cache, dict) or cache.get("version") != CACHE_VERSION:
        return {}
    tables = cache.get("tables")
    return tables if isinstance(tables, dict) else {}


def _cached(cache: dict[str, Any], table: StoredTable, stamp: list[int] | None) -> Entry | None:
    found = cache.get(str(table.log_path))
    if stamp is None or not isinstance(found, dict) or found.get("stamp") != stamp:
        return None
    try:
        return Entry(**found["entry"])
    except (KeyError, TypeError):
        return None


def _write_cache(path: Path, tables: dict[str, Any]) -> None:
    """Replace the cache whole (a cache is never worth an error: failures are ignored)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "tables": tables}))
        os.replace(tmp, path)
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)


def entries(args: argparse.Namespace) -> list[Entry]:
    """Every stored table's entry, newest first; unchanged ones from the cache."""
    cache_path = state_dir_of(args) / CACHE
    cache = _read_cache(cache_path)
    fresh: dict[str, Any] = {}
    found = []
    for table in stored_tables(data_dir_of(args)):
        stamp = _stamp(table)
        entry = _cached(cache, table, stamp)
        if entry is None:
            entry = entry_of(table)
        if stamp is not None:
            fresh[str(table.log_path)] = {"stamp": stamp, "entry": asdict(entry)}
        found.append(entry)
    if fresh != cache:
        _write_cache(cache_path, fresh)
    return found


def run_history(args: argparse.Namespace) -> int:
    entries_found = entries(args)
    if args.json:
        print_lines(json.dumps(asdict(entry)) for entry in entries_found)
        return 0
    if not entries_found:
        print("No stored matches: this daemon has not sat at a table yet.")
        return 0
    print_lines(line for entry in entries_found for line in human_lines(entry))
    return 0
