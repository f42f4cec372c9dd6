"""Durable storage: one append-only, fsynced record log per table this seat sits at.

The session hands the daemon ``Step.persist`` records (transcript entries and this seat's own
secrets) that must be on disk before any message that depends on them leaves the machine.
``TableLog.append`` writes them; before any ``Step.outgoing`` is sent the log is fsynced
(``sync``), so everything appended so far is durable first. A step that sends nothing (most
received messages) is appended without waiting for the disk: group commit. If the machine dies
before the next sync, the log keeps a prefix of what was accepted, and the lost messages (none
of ours that anyone saw) come back by catch-up. (``kill -9`` loses nothing either way: written
data is in the page cache.) Each record is framed as ``length (u32) | crc32 (u32) | bytes``; a
torn record at the tail (``kill -9`` mid-write) is detected by its length or checksum and cut
off on open, so a restart sees exactly the records whose append completed.

Each table also has a small ``meta.msgpack`` (table id, name, rules, how to reach the peers),
replaced atomically. Leaving a table moves its folder aside, so the daemon stops resuming it
but the transcript is kept.
"""

from __future__ import annotations

import logging
import os
import struct
import zlib
from collections.abc import Iterator, Sequence
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


class StoreError(FourwindsError):
    """A table folder that cannot be read or written."""


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so a crash leaves either the old or the new file."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _scan(data: bytes) -> tuple[list[bytes], int]:
    """The complete records in ``data`` and the byte length they cover."""
    records: list[bytes] = []
    pos = 0
    while pos + HEADER.size <= len(data):
        length, crc = HEADER.unpack_from(data, pos)
        end = pos + HEADER.size + length
        if length > MAX_RECORD or end > len(data):
            break
        body = data[pos + HEADER.size:end]
        if zlib.crc32(body) != crc:
            break
        records.append(body)
        pos = end
    return records, pos


def _datasync(fd: int) -> None:
    """``os.fdatasync`` where the system has it (looked up at each call), else ``os.fsync``."""
    getattr(os, "fdatasync", os.fsync)(fd)


class TableLog:
    """The append-only record log of one table. Open it with ``TableLog.open``."""

    def __init__(self, path: Path, fd: int, records: list[bytes]) -> None:
        self.path = path
        self._fd = fd
        self._records = records
        self.fsyncs = 0
        self._dirty = False

    @classmethod
    def open(cls, path: Path) -> TableLog:
        """Open (creating) the log at ``path``, cutting off a torn tail record."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        with open(path, "rb") as handle:
            data = handle.read()
        records, good = _scan(data)
        if good != len(data):
            log.warning("%s: cut %d bytes of a torn record at the tail", path, len(data) - good)
            os.ftruncate(fd, good)
            os.fsync(fd)
        return cls(path, fd, records)

    @property
    def records(self) -> tuple[bytes, ...]:
        return tuple(self._records)

    def append(self, records: Sequence[bytes], sync: bool = True) -> None:
        """Write ``records``; with ``sync`` (the default) fsync before returning, so they are
        durable. ``sync=False`` leaves them to the next ``sync()`` (group commit)."""
        if not records:
            if sync:
                self.sync()
            return
        chunks = []
        for record in records:
            if len(record) > MAX_RECORD:
                raise StoreError(f"record of {len(record)} bytes is over the {MAX_RECORD} limit")
            chunks.append(HEADER.pack(len(record), zlib.crc32(record)) + record)
        blob = b"".join(chunks)
        written = 0
        while written < len(blob):
            written += os.write(self._fd, blob[written:])
        self._records.extend(records)
        self._dirty = True
        if sync:
            self.sync()

    def sync(self) -> None:
        """Make what was appended since the last sync durable (nothing to do when clean).
        ``fdatasync`` where the system has it: it flushes the data and the file size a reader
        needs, not the timestamps (about a fifth cheaper on this machine's ext4)."""
        if self._dirty:
            _datasync(self._fd)
            self.fsyncs += 1
            self._dirty = False

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class Store:
    """Every table folder under ``root`` (``<data>/tables``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

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
        path = self._folder(table_id) / META
        try:
            meta = msgpack.unpackb(path.read_bytes(), raw=False)
        except (OSError, ValueError, msgpack.ExtraData) as error:
            raise StoreError(f"{path}: cannot read table metadata ({error})") from error
        if not isinstance(meta, dict):
            raise StoreError(f"{path}: table metadata is not a map")
        return meta

    def leave(self, table_id: bytes) -> None:
        """Stop resuming this table; its folder is kept as ``left-<id>`` for the record."""
        folder = self._folder(table_id)
        if folder.exists():
            target = self.root / f"left-{table_id.hex()}"
            n = 1
            while target.exists():
                target = self.root / f"left-{table_id.hex()}-{n}"
                n += 1
            os.replace(folder, target)
            _fsync_dir(self.root)
