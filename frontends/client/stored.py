"""Stored hands, read only: transcript files, a daemon's record logs and its table folders.

A daemon keeps each table in ``<data>/tables/<id>/``: ``records.log`` (every message its seat
accepted and its own secret, framed ``length (u32) | crc32 (u32) | bytes``: daemon/store/disk.py)
and ``meta.msgpack`` (name, rules, ...). Tables left are kept as ``left-<id>[-n]``, tables
whose log the daemon found damaged as ``set-aside-<id>[-n]`` (with ``set-aside.txt``). This
module reads those folders without the daemon (running or not: it never writes, locks or
cuts anything), so ``fourwinds export`` and ``history`` work on their own, and
``verify``/``replay`` accept a ``records.log`` as well as a transcript. A record log holds
the same messages as the transcript the daemon would export, in the same order, without the
seat's secret (``transcript_of_records``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from fourwinds.daemon.paths import default_paths
from fourwinds.daemon.store.disk import (
    HEADER,
    MAX_RECORD,
    META,
    REASON,
    RECORDS,
    SET_ASIDE_PREFIX,
    scan,
)
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.machine.transcript import (
    MAX_TRANSCRIPT_BYTES,
    Transcript,
    TranscriptError,
    parse_transcript,
    transcript_of_records,
)
from fourwinds.protocol.table.wire.envelope import decode
from fourwinds.protocol.table.wire.messages import MsgKind, decode_body
from fourwinds.protocol.table.wire.records import Genesis, parse_record
from fourwinds.protocol.table.wire.strict import WireError

LEFT_PREFIX = "left-"


class StoredError(FourwindsError):
    """A stored table or file that cannot be found or read; the text says which and why."""


@dataclass(frozen=True)
class LogRead:
    """The whole records at the start of a record log, and why reading stopped early:
    ``torn`` when the last record is unfinished (being written, or a crash mid-write: the
    daemon cuts it on its next start), ``damage`` when a bad record comes before the tail
    (the daemon sets such a table aside)."""

    records: tuple[bytes, ...]
    torn: bool = False
    damage: str | None = None


def scan_log(data: bytes) -> LogRead:
    """Split a record log's bytes into records as the daemon does (``daemon.store.scan``),
    stopping at the first bad one."""
    found = scan(data)
    if found.damage is not None:
        index, offset, what = found.damage
        return LogRead(
            tuple(found.records),
            damage=f"record {index} at byte {offset:,}: {what} "
            f"({len(data) - offset:,} bytes from there on not read)",
        )
    return LogRead(tuple(found.records), torn=found.end != len(data))


def looks_like_record_log(data: bytes) -> bool:
    """Whether ``data`` starts as a daemon's record log: a whole first record that is a
    genesis record (a transcript starts with a msgpack array instead)."""
    first = scan_log(data[: HEADER.size + MAX_RECORD]).records[:1]
    if not first:
        return False
    try:
        return isinstance(parse_record(first[0]), Genesis)
    except WireError:
        return False


def read_bounded(path: Path) -> bytes:
    """A file's bytes, refusing one over ``MAX_TRANSCRIPT_BYTES`` (a file from outside)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_TRANSCRIPT_BYTES + 1)
    except IsADirectoryError:
        raise StoredError(f"{path} is a folder, not a file") from None
    except OSError as error:
        raise StoredError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_TRANSCRIPT_BYTES:
        raise StoredError(
            f"{path} is over {MAX_TRANSCRIPT_BYTES // 2**20} MiB: not a "
            "fourwinds transcript (or a match far longer than any table plays)"
        )
    return data


@dataclass(frozen=True)
class Loaded:
    """A transcript read from a file: ``source`` says what the file was ("transcript" or
    "record log"), ``note`` anything the reader should know (a damaged record log)."""

    transcript: Transcript
    source: str
    note: str | None = None


def _read_meta(folder: Path) -> dict[str, Any]:
    """A table folder's ``meta.msgpack``, or {} when it is missing or unreadable (the name and
    rules are also in the messages; the meta is only for the listed id and the name)."""
    try:
        meta = msgpack.unpackb((folder / META).read_bytes(), raw=False)
    except (OSError, ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _listed_id(folder: Path) -> bytes | None:
    """The id the daemon lists a table folder's table by: its meta's, else the folder's name."""
    meta_id = _read_meta(folder).get("table_id")
    if isinstance(meta_id, bytes) and len(meta_id) == 16:
        return meta_id
    name = folder.name.removeprefix(LEFT_PREFIX).removeprefix(SET_ASIDE_PREFIX)[:32]
    try:
        found = bytes.fromhex(name)
    except ValueError:
        return None
    return found if len(found) == 16 else None


def _log_note(read: LogRead, path: Path) -> str | None:
    if read.damage is not None:
        return (
            f"{path} is damaged at {read.damage}; only the {len(read.records)} records "
            "before it are read"
        )
    return None


def transcript_from_log(path: Path, data: bytes | None = None) -> Loaded:
    """The transcript a record log holds (its folder's listed id with it)."""
    read = scan_log(read_bounded(path) if data is None else data)
    try:
        transcript = transcript_of_records(read.records, _listed_id(path.parent))
    except TranscriptError as error:
        raise StoredError(f"{path}: {error}") from None
    return Loaded(transcript, "record log", _log_note(read, path))


def load_file(name: str) -> Loaded:
    """A transcript file, a daemon's record log, or a table folder holding one."""
    path = Path(name).expanduser()
    if path.is_dir() and (path / RECORDS).is_file():
        path = path / RECORDS
    data = read_bounded(path)
    if looks_like_record_log(data):
        return transcript_from_log(path, data)
    try:
        return Loaded(parse_transcript(data), "transcript")
    except TranscriptError as error:
        raise StoredError(f"{path}: {error}") from None


OPEN_WITHIN = 2 * 2**20
"""How far into a record log the table's Open message is looked for (it follows the genesis
record; with a card file it is at most the wire's 256 KiB)."""


def _open_name(path: Path) -> str | None:
    """The table's name as its creator's signed Open message gives it (a joiner's daemon may
    know the table only by its id until then), or None when the log has no Open yet."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(OPEN_WITHIN)
    except OSError:
        return None
    for record in scan_log(head).records[:8]:
        try:
            item = parse_record(record)
            if not isinstance(item, bytes):
                continue
            env = decode(item)
            if env.seat == 0 and env.seq == 0 and env.kind is MsgKind.OPEN and env.body:
                return str(getattr(decode_body(MsgKind.OPEN, env.body), "name", "")) or None
        except WireError:
            continue
    return None


@dataclass(frozen=True)
class StoredTable:
    """One table folder in a daemon's data directory. ``name`` is the table's name from its
    Open message, ``listed_name`` the one the daemon lists it by (usually the same)."""

    folder: Path
    listed_id: bytes | None
    name: str
    rules: str
    left: bool
    modified: float  # when its record log last changed (seconds since the epoch)
    listed_name: str = ""
    set_aside: str | None = None  # why the daemon set it aside (a damaged log), if it did

    @property
    def kept(self) -> bool:
        """Kept for the record only: left, or set aside (the daemon does not resume it)."""
        return self.left or self.set_aside is not None

    @property
    def log_path(self) -> Path:
        return self.folder / RECORDS

    @property
    def shown_id(self) -> str:
        """The id as ``fourwinds tables`` shows it (8 hex digits), or the folder's name."""
        return self.listed_id.hex()[:8] if self.listed_id is not None else self.folder.name

    def load(self) -> Loaded:
        return transcript_from_log(self.log_path)


def _set_aside_reason(folder: Path) -> str | None:
    """Why the daemon set this folder aside (its ``set-aside.txt``), or None if it did not."""
    if not folder.name.startswith(SET_ASIDE_PREFIX):
        return None
    try:
        return (folder / REASON).read_text(errors="replace").strip() or "no reason given"
    except OSError:
        return "no reason given"


def tables_dir(data_dir: str | None) -> Path:
    """``<data>/tables`` of the daemon with this data directory (None: the user's)."""
    return default_paths(data_dir).tables


def stored_tables(data_dir: str | None) -> list[StoredTable]:
    """Every table folder with a record log, newest first (tables left included)."""
    root = tables_dir(data_dir)
    try:
        folders = [f for f in root.iterdir() if f.is_dir() and (f / RECORDS).is_file()]
    except FileNotFoundError:
        return []
    except OSError as error:
        raise StoredError(f"cannot list {root}: {error.strerror or error}") from None
    found = []
    for folder in folders:
        meta = _read_meta(folder)
        try:
            modified = (folder / RECORDS).stat().st_mtime
        except OSError:
            continue
        listed_name = str(meta.get("name") or "")
        found.append(
            StoredTable(
                folder,
                _listed_id(folder),
                _open_name(folder / RECORDS) or listed_name or "?",
                str(meta.get("rules") or "?"),
                folder.name.startswith(LEFT_PREFIX),
                modified,
                listed_name,
                _set_aside_reason(folder),
            )
        )
    return sorted(found, key=lambda t: (-t.modified, t.folder.name))


def find_stored(tables: list[StoredTable], ref: str | None) -> StoredTable:
    """The table ``ref`` names: its id, the start of its id, or its name (a table you still
    sit at before those you left, then the newest). With no ``ref``, the one table you sit at
    (else the newest stored, if there is only one)."""
    if not tables:
        raise StoredError("no stored tables: this daemon has not played at any table yet")
    if ref is None:
        seated = [t for t in tables if not t.kept]
        if len(seated) == 1 or len(tables) == 1:
            return (seated or tables)[0]
        raise StoredError(
            "name the table (`fourwinds history` lists them): "
            + ", ".join(f"{t.name} ({t.shown_id})" for t in tables[:6])
            + (" ..." if len(tables) > 6 else "")
        )
    lowered = ref.lower()
    by_id = [t for t in tables if t.listed_id is not None and t.listed_id.hex() == lowered]
    by_prefix = [
        t
        for t in tables
        if t.listed_id is not None and len(ref) >= 4 and t.listed_id.hex().startswith(lowered)
    ]
    by_name = sorted((t for t in tables if ref in (t.name, t.listed_name)), key=lambda t: t.kept)
    for matches in (by_id, by_prefix):
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1 and len({m.listed_id for m in matches}) > 1:
            raise StoredError(
                f"{ref!r} starts the id of several tables: "
                + ", ".join(t.listed_id.hex()[:12] for t in matches if t.listed_id is not None)
            )
        if matches:
            return sorted(matches, key=lambda t: t.kept)[0]
    if by_name:
        return by_name[0]
    raise StoredError(f"no stored table {ref!r} (`fourwinds history` lists them)")
