"""Durable storage: one append-only, fsynced record log per table this seat sits at.

The session hands the daemon ``Step.persist`` records (transcript entries and this seat's own
secrets) that must be on disk before any message that depends on them leaves the machine.
``TableLog.append`` writes them; before any ``Step.outgoing`` is sent the log is fsynced
(``sync_through``, in a worker thread: daemon/store/durable.py holds the sends until then), so
everything appended so far is durable first. A step that sends nothing (most received
messages) is appended without waiting for the disk: group commit. If the machine dies
before the next sync, the log keeps a prefix of what was accepted, and the lost messages (none
of ours that anyone saw) come back by catch-up. (``kill -9`` loses nothing either way: written
data is in the page cache.)

Each record is framed as ``length (u32) | crc32 (u32) | bytes``. Only a torn *tail* is ever
cut on open: a last record shorter than its header says (``kill -9`` or a power cut
mid-write), or a tail of zero bytes (space the file system allocated but never wrote). A bad
record anywhere else (checksum mismatch, impossible length) raises ``StoreDamage`` naming the
file, the byte offset and the record number, and nothing is cut: the daemon sets the table
aside (docs/DAEMON.md, "The record log and damaged stores"). A write that fails (a full disk)
is undone, the file cut back to its last whole record, so a failed write never leaves a broken
record behind; a failed sync leaves the log refusing writes until the daemon restarts.

Each table also has a small ``meta.msgpack`` (table id, name, rules, how to reach the peers),
replaced atomically. Leaving a table moves its folder aside, so the daemon stops resuming it
but the transcript is kept; so does setting a damaged table aside.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import struct
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from fourwinds.daemon.paths import ensure_private_dir
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

HEADER = struct.Struct(">II")
MAX_RECORD = 4 * 1024 * 1024
RECORDS = "records.log"
META = "meta.msgpack"
SET_ASIDE_PREFIX = "set-aside-"
REASON = "set-aside.txt"
REBUILDING = "rebuilding.txt"


class StoreError(FourwindsError):
    """A table folder that cannot be read or written."""


class StoreDamage(StoreError):
    """A record log damaged before its tail. Nothing was cut; ``reason`` names the file, the
    record (0 is the genesis) and its byte offset."""

    def __init__(self, path: Path, record: int, offset: int, what: str) -> None:
        self.path = path
        self.record = record
        self.offset = offset
        self.reason = f"{path.name} record {record} at byte {offset:,}: {what}"
        super().__init__(f"{path}: {self.reason[len(path.name) + 1 :]}")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so a crash leaves either the old or the new file.
    ``StoreError`` (the old file intact) when the disk refuses, e.g. when it is full."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    except OSError as error:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(f"cannot write {path}: {_describe(error)}") from None


@dataclass(frozen=True)
class Scan:
    """What ``scan`` found: the whole records, each one's byte offset, the bytes they cover
    (``end``), and why the scan stopped early (``damage``: record, offset, what), if it did."""

    records: list[bytes]
    offsets: list[int]
    end: int
    damage: tuple[int, int, str] | None = None


def _valid_at(data: bytes, pos: int) -> bool:
    """Does a whole record with a matching checksum start at ``pos``? (Cheap checks first:
    a plausible length, then a plausible next header or the end of the file, then the CRC.)"""
    length, crc = HEADER.unpack_from(data, pos)
    end = pos + HEADER.size + length
    if not 0 < length <= MAX_RECORD or end > len(data):
        return False
    if end + HEADER.size <= len(data):
        following = HEADER.unpack_from(data, end)[0]
        if following > MAX_RECORD:
            return False
    return zlib.crc32(memoryview(data)[pos + HEADER.size : end]) == int(crc)


def _records_follow(data: bytes, start: int) -> bool:
    """Is there a whole record anywhere from ``start`` on? Then what stopped the scan is damage
    inside the file (e.g. a flipped bit in a length), not a record torn at its end."""
    last = len(data) - HEADER.size
    pos = data.find(0, start)  # a length's first byte is 0: MAX_RECORD < 2**24
    while 0 <= pos <= last:
        if _valid_at(data, pos):
            return True
        pos = data.find(0, pos + 1)
    return False


def scan(data: bytes) -> Scan:
    """Read the records framed in ``data``. The scan stops at a torn tail (``end`` is where the
    whole records end; what follows may be cut) or at damage (``damage`` is set; nothing may
    be cut)."""
    records: list[bytes] = []
    offsets: list[int] = []
    pos = 0
    size = len(data)
    while pos < size:
        index = len(records)
        if size - pos < HEADER.size:
            break  # a header torn mid-write
        length, crc = HEADER.unpack_from(data, pos)
        if length == 0 and data.count(0, pos) == size - pos:
            break  # zeros to the end: allocated, never written
        end = pos + HEADER.size + length
        damage = None
        if length == 0:
            damage = "a record of length 0 (no record is empty)"
        elif length > MAX_RECORD:
            damage = f"a length of {length:,} bytes, over the {MAX_RECORD:,}-byte limit"
        elif end > size:
            if not _records_follow(data, pos + 1):
                break  # the last record, torn mid-write
            damage = (
                f"a length of {length:,} bytes runs past the end of the file, "
                "yet whole records follow it"
            )
        elif zlib.crc32(memoryview(data)[pos + HEADER.size : end]) != crc:
            damage = "checksum mismatch"
        if damage is not None:
            return Scan(records, offsets, pos, (index, pos, damage))
        records.append(data[pos + HEADER.size : end])
        offsets.append(pos)
        pos = end
    return Scan(records, offsets, pos)


def _datasync(fd: int) -> None:
    """``os.fdatasync`` where the system has it (looked up at each call), else ``os.fsync``."""
    getattr(os, "fdatasync", os.fsync)(fd)


def _describe(error: OSError) -> str:
    """``No space left on device (ENOSPC)``: the system's words and the errno's name."""
    name = errno.errorcode.get(error.errno or 0, "")
    text = error.strerror or str(error)
    return f"{text} ({name})" if name else text


class TableLog:
    """The append-only record log of one table. Open it with ``TableLog.open``."""

    def __init__(
        self, path: Path, fd: int, records: list[bytes], offsets: list[int], size: int
    ) -> None:
        self.path = path
        self._fd = fd
        self._records = records
        self._offsets = offsets
        self._size = size  # bytes of whole records: where the next one starts
        self.fsyncs = 0
        self._synced = len(records)  # records known durable (those read back count)
        self._syncing = threading.Lock()  # one fdatasync at a time; close waits for it
        self.failed = ""  # why the log refuses writes (a sync failed), or ""

    @classmethod
    def open(cls, path: Path) -> TableLog:
        """Open (creating) the log at ``path``, cutting off a torn tail record.
        ``StoreDamage`` when a record before the tail is bad: nothing is cut then."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            found = scan(data)
            if found.damage is not None:
                raise StoreDamage(path, *found.damage)
            if found.end != len(data):
                log.warning(
                    "%s: cut %d bytes of a torn record at the tail (record %d at byte %d)",
                    path,
                    len(data) - found.end,
                    len(found.records),
                    found.end,
                )
                os.ftruncate(fd, found.end)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, found.records, found.offsets, found.end)

    @property
    def records(self) -> tuple[bytes, ...]:
        return tuple(self._records)

    def offset_of(self, index: int) -> int | None:
        """The byte offset of record ``index`` (None past the last one)."""
        return self._offsets[index] if 0 <= index < len(self._offsets) else None

    def append(self, records: Sequence[bytes], sync: bool = True) -> None:
        """Write ``records``; with ``sync`` (the default) fsync before returning, so they are
        durable. ``sync=False`` leaves them to the next ``sync()`` (group commit).

        All or nothing: when the write fails (``ENOSPC``: a full disk) the file is cut back
        to where it was and ``StoreError`` says why; a later append, once there is room,
        goes on from the last whole record."""
        if self.failed:
            raise StoreError(self.failed)
        if not records:
            if sync:
                self.sync()
            return
        chunks = []
        for record in records:
            if not 0 < len(record) <= MAX_RECORD:
                raise StoreError(f"a record of {len(record)} bytes (1 to {MAX_RECORD} allowed)")
            chunks.append(HEADER.pack(len(record), zlib.crc32(record)) + record)
        blob = memoryview(b"".join(chunks))
        try:
            while blob:
                blob = blob[os.write(self._fd, blob) :]
        except OSError as error:
            self._undo(error)
            raise StoreError(f"cannot write {self.path.name}: {_describe(error)}") from None
        start = self._size
        for record in records:
            self._offsets.append(start)
            start += HEADER.size + len(record)
        self._size = start
        self._records.extend(records)
        if sync:
            self.sync()

    def _undo(self, error: OSError) -> None:
        """Cut the file back to its last whole record after a failed write. If even that
        fails, refuse further writes: a restart cuts what is left as a torn tail."""
        try:
            os.ftruncate(self._fd, self._size)
        except OSError as again:
            self.failed = (
                f"cannot write {self.path.name}: {_describe(error)}, nor cut it "
                f"back: {_describe(again)}; restart the daemon once the disk "
                "is fixed"
            )
            log.error("%s: %s", self.path, self.failed)

    @property
    def written(self) -> int:
        """Records appended (and read back) so far."""
        return len(self._records)

    @property
    def synced(self) -> int:
        """Records known to be durable: the first ``synced`` of ``records``."""
        return self._synced

    def sync(self) -> None:
        """Make what was appended so far durable (nothing to do when it is): ``sync_through``
        every record written."""
        self.sync_through(len(self._records))

    def sync_through(self, upto: int) -> None:
        """Make the first ``upto`` records durable (nothing to do when they are). Safe to
        call from a worker thread while the event loop appends (daemon/store/durable.py): the
        records written before the ``fdatasync`` began are durable when it returns, and
        ``upto`` counts only those. ``fdatasync`` where the system has it: it flushes the
        data and the file size a reader needs, not the timestamps (about a fifth cheaper on
        this machine's ext4).

        A failed sync cannot be retried safely (the system may have dropped the pages it
        could not write), so the log then refuses every write with ``StoreError`` until the
        daemon restarts and reads back what the disk holds."""
        with self._syncing:
            if self.failed:
                raise StoreError(self.failed)
            if upto <= self._synced:
                return
            try:
                _datasync(self._fd)
            except OSError as error:
                self.failed = (
                    f"cannot make {self.path.name} durable: {_describe(error)}; "
                    "restart the daemon once the disk is fixed"
                )
                log.error("%s: %s", self.path, self.failed)
                raise StoreError(self.failed) from None
            self.fsyncs += 1
            self._synced = max(self._synced, upto)

    def close(self) -> None:
        """Close the file, after a sync running in a worker thread has ended (it uses the
        descriptor)."""
        with self._syncing:
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1


@dataclass(frozen=True)
class SetAside:
    """A table folder the daemon did not resume: where it is kept now and why."""

    table_id: bytes
    name: str
    rules: str
    reason: str
    folder: Path
    since: float = 0.0  # time.time() when it was set aside (0: unknown)

    def summary(self) -> dict[str, Any]:
        """As the local API's ``tables`` and ``status`` list it."""
        return {
            "table": self.table_id.hex(),
            "name": self.name,
            "rules": self.rules,
            "set_aside": self.reason,
            "folder": str(self.folder),
            "since": self.since,
        }


class Store:
    """Every table folder under ``root`` (``<data>/tables``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.aside_now: dict[bytes, SetAside] = {}  # set aside by this daemon

    def _folder(self, table_id: bytes) -> Path:
        return self.root / table_id.hex()

    def table_ids(self) -> Iterator[bytes]:
        """The tables this daemon is seated at (it resumes each on start)."""
        if not self.root.exists():
            return
        for entry in sorted(self.root.iterdir()):
            if entry.is_dir() and (entry / META).exists():
                try:
                    yield bytes.fromhex(entry.name)
                except ValueError:
                    continue

    def open_log(self, table_id: bytes) -> TableLog:
        ensure_private_dir(self._folder(table_id))
        return TableLog.open(self._folder(table_id) / RECORDS)

    def write_meta(self, table_id: bytes, meta: dict[str, Any]) -> None:
        folder = ensure_private_dir(self._folder(table_id))
        write_atomic(folder / META, msgpack.packb(meta, use_bin_type=True))

    def read_meta(self, table_id: bytes) -> dict[str, Any]:
        return _read_meta(self._folder(table_id) / META)

    def _move_aside(self, table_id: bytes, prefix: str) -> Path | None:
        folder = self._folder(table_id)
        if not folder.exists():
            return None
        target = self.root / f"{prefix}{table_id.hex()}"
        n = 1
        while target.exists():
            target = self.root / f"{prefix}{table_id.hex()}-{n}"
            n += 1
        os.replace(folder, target)
        _fsync_dir(self.root)
        return target

    def start_rebuilding(self, table_id: bytes, meta: dict[str, Any], reason: str) -> None:
        """A fresh folder for a table rebuilt from its peers (its old one was set aside, or
        is gone): the metadata, and ``rebuilding.txt`` with the reason, which stays until the
        rebuilt records are written and synced (a restart meanwhile starts the rebuild
        again). Any records left in it are only an unfinished rebuild's: they are dropped."""
        folder = ensure_private_dir(self._folder(table_id))
        write_atomic(folder / META, msgpack.packb(meta, use_bin_type=True))
        write_atomic(folder / REBUILDING, f"{reason}\n".encode())
        with contextlib.suppress(FileNotFoundError):
            (folder / RECORDS).unlink()

    def rebuilding(self, table_id: bytes) -> str | None:
        """Why this table is being rebuilt from its peers, or None when it is not."""
        try:
            return (self._folder(table_id) / REBUILDING).read_text(errors="replace").strip()
        except FileNotFoundError:
            return None
        except OSError as error:
            return f"({_describe(error)})"

    def rebuilt(self, table_id: bytes) -> None:
        """The rebuilt records are on disk: the table resumes from them from now on."""
        with contextlib.suppress(FileNotFoundError):
            (self._folder(table_id) / REBUILDING).unlink()
            _fsync_dir(self._folder(table_id))

    def left_before(self, table_id: bytes) -> bool:
        """Did we leave this table (its folder kept as ``left-<id>``)? Then it is never
        taken back when a peer offers it."""
        return (self.root / f"left-{table_id.hex()}").exists()

    def leave(self, table_id: bytes) -> None:
        """Stop resuming this table; its folder is kept as ``left-<id>`` for the record."""
        self._move_aside(table_id, "left-")

    def set_aside(self, table_id: bytes, reason: str) -> SetAside:
        """Stop resuming a table that cannot be resumed: its folder is renamed
        ``set-aside-<id>`` (never deleted) with the reason in ``set-aside.txt``. If the folder
        cannot be moved (a read-only or failing disk), it stays where it is and is set aside
        for this run only (the next start tries again)."""
        name, rules = _name_and_rules(self._folder(table_id) / META)
        moved: Path | None = None
        try:
            moved = self._move_aside(table_id, SET_ASIDE_PREFIX)
            if moved is not None:
                write_atomic(moved / REASON, f"{reason}\n".encode())
        except (OSError, StoreError) as error:
            log.error(
                "table %s: cannot set its folder aside (%s)%s",
                table_id.hex()[:8],
                _describe(error) if isinstance(error, OSError) else error,
                "" if moved else "; it is skipped for this run only",
            )
        entry = SetAside(
            table_id, name, rules, reason, moved or self._folder(table_id), time.time()
        )
        self.aside_now[table_id] = entry
        return entry

    def set_aside_tables(self) -> list[SetAside]:
        """Every table set aside: folders named ``set-aside-<id>`` (with their reasons) and
        any this daemon could not move."""
        found: dict[Path, SetAside] = {e.folder: e for e in self.aside_now.values()}
        if self.root.exists():
            for entry in sorted(self.root.iterdir()):
                if not entry.name.startswith(SET_ASIDE_PREFIX) or entry in found:
                    continue
                try:
                    table_id = bytes.fromhex(entry.name[len(SET_ASIDE_PREFIX) :].split("-")[0])
                except ValueError:
                    continue
                try:
                    reason = (entry / REASON).read_text(errors="replace").strip()
                    since = (entry / REASON).stat().st_mtime
                except OSError:
                    reason, since = "set aside (its reason could not be read)", 0.0
                name, rules = _name_and_rules(entry / META)
                found[entry] = SetAside(table_id, name, rules, reason, entry, since)
        return sorted(found.values(), key=lambda e: (e.since, e.folder.name))


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        meta = msgpack.unpackb(path.read_bytes(), raw=False)
    except (OSError, ValueError, msgpack.ExtraData) as error:
        raise StoreError(f"{path}: cannot read table metadata ({error})") from error
    if not isinstance(meta, dict):
        raise StoreError(f"{path}: table metadata is not a map")
    return meta


def _name_and_rules(path: Path) -> tuple[str, str]:
    """The table's name and rules as its metadata says, or "?" where it cannot be read."""
    try:
        meta = _read_meta(path)
    except StoreError:
        return "?", "?"
    return str(meta.get("name", "?")), str(meta.get("rules", "?"))
