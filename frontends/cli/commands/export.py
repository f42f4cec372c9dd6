"""`fourwinds export [TABLE] [-o FILE]`: write a stored table's transcript for verify/replay.

Reads the table's record log from the daemon's data directory (the daemon need not run; a
running one is not disturbed), so it also exports tables you left. TABLE is the table's name,
id or the start of its id (as `fourwinds tables` and `history` show it); without TABLE, the one
table you sit at. The file is ``<name>-<date>.fwt`` in the current folder (the date of the
table's last message), ``-o FILE`` to choose, ``-o -`` for stdout. The transcript holds every
message the seat accepted, never its secret: it can be shared.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.cli_common import data_dir_of
from fourwinds.frontends.cli.pipe_out import silence_stdout
from fourwinds.frontends.client.stored import (
    StoredError,
    StoredTable,
    find_stored,
    read_bounded,
    stored_tables,
)
from fourwinds.protocol.table.machine.transcript import TranscriptError, parse_transcript

SUFFIX = ".fwt"


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "export", help="write a stored table's transcript (for verify and replay)"
    )
    parser.add_argument(
        "table",
        metavar="TABLE",
        nargs="?",
        help="name, id or start of the id (default: the one table you sit at)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help=f"where to write it (default: <name>-<date>{SUFFIX}; - for stdout)",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the daemon's data directory (default: config file, then the user's data directory)",
    )
    parser.set_defaults(handler=run_export)


def default_name(table: StoredTable) -> str:
    """``<name>-<date>.fwt``: the table's name made safe for a file name, and the day of its
    last message."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", table.name).strip("-.") or table.shown_id
    day = datetime.datetime.fromtimestamp(table.modified).strftime("%Y-%m-%d")
    return f"{safe}-{day}{SUFFIX}"


def _same_table(path: Path, table: bytes) -> bool:
    """Whether ``path`` already holds a transcript of this table (safe to replace)."""
    try:
        return parse_transcript(read_bounded(path)).table == table
    except (StoredError, TranscriptError):
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (no cut transcript on a full disk)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _write_all(data: bytes) -> None:
    """Write all of ``data`` to stdout. A big write to a pipe whose reader leaves may come
    back short without an error, so each rest is written again until done (or the pipe's
    ``BrokenPipeError``)."""
    out = sys.stdout.buffer
    view = memoryview(data)
    while view:
        written = out.write(view)
        out.flush()
        if not written:
            raise BrokenPipeError("nothing more could be written")
        view = view[written:]


def run_export(args: argparse.Namespace) -> int:
    try:
        table = find_stored(stored_tables(data_dir_of(args)), args.table)
        loaded = table.load()
    except StoredError as error:
        raise UsageError(str(error)) from None
    if loaded.note:
        print(f"fourwinds: {loaded.note}", file=sys.stderr)
    data = loaded.transcript.encode()
    count = len(loaded.transcript.payloads)
    if args.output == "-":
        if sys.stdout.isatty():
            raise UsageError("a transcript is binary: give -o FILE, or pipe it")
        try:
            _write_all(data)
        except BrokenPipeError:
            silence_stdout()
            raise UsageError(
                "the reader closed stdout before the whole transcript was written"
            ) from None
        print(
            f"fourwinds: table {table.name} ({table.shown_id}): {count} messages", file=sys.stderr
        )
        return 0
    path = Path(args.output).expanduser() if args.output else Path(default_name(table))
    if args.output is None and path.exists() and not _same_table(path, loaded.transcript.table):
        raise UsageError(
            f"{path} exists and is not this table's transcript; name another file with -o FILE"
        )
    write_atomic(path, data)
    print(
        f"table {table.name} ({table.shown_id}): {count} messages written to {path}; "
        f"check it with `fourwinds verify {shlex.quote(str(path))}`"
    )
    return 0
