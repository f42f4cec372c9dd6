"""The export file: one event's whole record in one file, read with bounds.

A file is the msgpack array ``[MAGIC, EXPORT_VERSION, [record, ...]]``, each record the
wire bytes of record_wire.py in record order (the event's creation first). Reading one is
bounded, since a file comes from anyone: ``MAX_EXPORT_BYTES`` in all, ``MAX_RECORDS``
records, each record within ``record_wire.MAX_RECORD_BYTES`` and checked field by field. A
file that cannot be read at all is an ``ExportError`` with one line saying why; a record in
it that cannot be read is kept as ``Unreadable`` so that the check names it by its place.
"""

from __future__ import annotations

from collections.abc import Sequence

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.wire.strict import (
    WireCut,
    WireError,
    need_int,
    need_list,
    pack,
    unpack,
)

from .check import Verdict, check_event
from .record_wire import decode_record, encode_record
from .records import Record, Unreadable

MAGIC = "fourwinds-tournament-export"
EXPORT_VERSION = 1
MAX_RECORDS = 100_000
"""Most records a file holds. 240 entrants over 10 rounds make about 240 entries and admits,
7,200 seed steps (three per entrant a round) and 600 results: 100,000 is ten times that."""
MAX_EXPORT_BYTES = 64 * 2**20
"""Largest file read (64 MiB); the event above packs to under 2 MB."""


class ExportError(FourwindsError):
    """A file that is not a readable tournament export; the message says why in one line."""


def encode_export(records: Sequence[Record]) -> bytes:
    """The export file of ``records``."""
    return pack([MAGIC, EXPORT_VERSION, [encode_record(r) for r in records]])


def read_export(data: bytes) -> tuple[Record | Unreadable, ...]:
    """The records of an export file, in order; ``ExportError`` if it cannot be read."""
    if len(data) > MAX_EXPORT_BYTES:
        raise ExportError(f"the file is {len(data)} bytes, over the limit of {MAX_EXPORT_BYTES}")
    try:
        items = unpack(data, "export", max_bytes=MAX_EXPORT_BYTES, max_items=MAX_RECORDS)
    except WireCut:
        raise ExportError(
            f"the file is cut short: its {len(data)} bytes end in the middle "
            "of a record (a truncated file)"
        ) from None
    except WireError as error:
        raise ExportError(f"not a fourwinds tournament export ({error.problem})") from None
    if not isinstance(items, list) or len(items) != 3 or items[0] != MAGIC:
        raise ExportError(f"not a fourwinds tournament export (it does not begin with {MAGIC!r})")
    try:
        version = need_int(items[1], "export version", 0, 2**16)
        if version != EXPORT_VERSION:
            raise WireError(
                f"export version {version}; this fourwinds reads version {EXPORT_VERSION}"
            )
        raw = need_list(items[2], "records", max_len=MAX_RECORDS)
    except WireError as error:
        raise ExportError(error.problem) from None
    out: list[Record | Unreadable] = []
    for item in raw:
        if not isinstance(item, bytes):
            out.append(Unreadable(f"expected bytes, got {type(item).__name__}"))
            continue
        try:
            out.append(decode_record(item))
        except WireError as error:
            out.append(Unreadable(error.problem))
    return tuple(out)


def check_export(data: bytes) -> Verdict:
    """Read an export file and check its event (``ExportError`` if unreadable)."""
    return check_event(read_export(data))
