"""Damage done to a record log on purpose, as a failing disk or a stray write would."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fourwinds.daemon.store.disk import HEADER, TableLog


@dataclass(frozen=True)
class Flipped:
    """Where a bit was flipped: the record's number and byte offset, the file's new bytes."""

    record: int
    offset: int
    data: bytes


def flip_middle_record(path: Path) -> Flipped:
    """One bit flipped inside the record in the middle of the log at ``path`` (its checksum
    no longer matches; every record after it is whole)."""
    log = TableLog.open(path)
    middle = len(log.records) // 2
    at = log.offset_of(middle)
    log.close()
    assert at is not None and middle > 0, "the log has too few records to damage its middle"
    data = bytearray(path.read_bytes())
    data[at + HEADER.size + 1] ^= 0x04
    path.write_bytes(bytes(data))
    return Flipped(middle, at, bytes(data))
