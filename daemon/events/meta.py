"""What only this daemon knows of an event, kept beside its record: a private event's code,
where the director was reached, and when the round's clock started (wall-clock seconds, so
a restarted daemon goes on counting the round's minutes). Unreadable metadata is logged and
ignored: the record is what counts."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from pathlib import Path

import msgpack

from fourwinds.daemon.store.disk import StoreError, write_atomic

log = logging.getLogger(__name__)

META = "meta.msgpack"


@dataclass(frozen=True)
class Meta:
    code: str | None = None
    director_at: tuple[str, int] | None = None
    clock_wall: tuple[int, float, float | None] | None = None


def write_meta(folder: Path, meta: Meta) -> None:
    data = {
        "code": meta.code,
        "director_at": list(meta.director_at or ()),
        "clock_wall": list(meta.clock_wall or ()),
    }
    try:
        write_atomic(folder / META, msgpack.packb(data, use_bin_type=True))
    except StoreError as error:
        log.error("event %s: cannot write its metadata: %s", folder.name[:8], error)


def read_meta(folder: Path) -> Meta:
    try:
        data = msgpack.unpackb((folder / META).read_bytes(), raw=False)
    except (OSError, ValueError, msgpack.ExtraData) as error:
        log.warning(
            "event %s: its metadata is unreadable (%s); the record is kept", folder.name[:8], error
        )
        return Meta()
    if not isinstance(data, dict):
        return Meta()
    code = data.get("code")
    where = data.get("director_at")
    director_at = None
    if (
        isinstance(where, list)
        and len(where) == 2
        and isinstance(where[0], str)
        and isinstance(where[1], int)
    ):
        director_at = (where[0], where[1])
    return Meta(
        code if isinstance(code, str) else None, director_at, _clock_wall(data.get("clock_wall"))
    )


def _clock_wall(clock: object) -> tuple[int, float, float | None] | None:
    """The metadata's round clock (round, start, time call: wall-clock seconds; a daemon of
    before the time call was kept wrote only the first two), or None when it is not one."""
    if (
        not isinstance(clock, list)
        or len(clock) not in (2, 3)
        or type(clock[0]) is not int
        or clock[0] < 0
        or not all(_finite(t) for t in clock[1:2])
    ):
        return None
    called = clock[2] if len(clock) == 3 else None
    if called is not None and not _finite(called):
        return None
    return (clock[0], clock[1], called)


def _finite(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value)
