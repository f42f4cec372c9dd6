"""Resuming a stored table on start, or setting it aside with the reason when it cannot be.

A table folder that cannot be resumed (its ``meta.msgpack`` unreadable, its record log damaged
before the tail, records the session cannot resume from) never stops the daemon: the folder is
renamed ``set-aside-<id>`` with the reason (``Store.set_aside``), the local API's ``tables``
and ``status`` list it, and every other table resumes. Why the seat does not patch a damaged
log from the other seats' chains instead: docs/DAEMON.md, "The record log and damaged stores".
"""

from __future__ import annotations

import logging
import re

from fourwinds.daemon.session_port import SessionModule
from fourwinds.daemon.store import META, RECORDS, Store, StoreDamage, StoreError, TableLog
from fourwinds.daemon.tables import BadMeta, TableRuntime
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

_RECORD_NO = re.compile(r"^record (\d+): ")


class CannotResume(FourwindsError):
    """Why a stored table cannot be resumed, in one line (``reason``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def resume_or_set_aside(store: Store, port: SessionModule, private_key: bytes,
                        table_id: bytes) -> TableRuntime | None:
    """The table resumed from its folder, or None when it was set aside (logged, one line)."""
    try:
        rt = resume_table(store, port, private_key, table_id)
    except CannotResume as error:
        aside = store.set_aside(table_id, error.reason)
        log.error("table %s (%s) set aside, not resumed: %s; its files are kept in %s",
                  aside.name, table_id.hex()[:8], error.reason, aside.folder)
        return None
    log.info("resumed table %s (%s) from %d records", rt.name, rt.table_hex[:8],
             len(rt.log.records) if rt.log is not None else 0)
    return rt


def resume_table(store: Store, port: SessionModule, private_key: bytes,
                 table_id: bytes) -> TableRuntime:
    """The table as its folder holds it; ``CannotResume`` with the reason if it cannot be."""
    try:
        meta = store.read_meta(table_id)
        rt = TableRuntime.from_meta(meta)
    except (StoreError, BadMeta) as error:
        raise CannotResume(f"{META}: {error}") from None
    if rt.table_id != table_id:
        raise CannotResume(f"{META}: it names table {rt.table_id.hex()}, not its folder's")
    try:
        rt.log = store.open_log(table_id)
    except StoreDamage as damage:
        raise CannotResume(damage.reason) from None
    except (StoreError, OSError) as error:
        raise CannotResume(f"{RECORDS}: cannot be read ({error})") from None
    if rt.log.records:
        try:
            rt.session = port.resume(rt.log.records, private_key)
        except Exception as error:  # one bad table must not stop the daemon starting
            rt.log.close()
            if not isinstance(error, FourwindsError):
                log.debug("resuming table %s failed", table_id.hex()[:8], exc_info=True)
            raise CannotResume(_resume_reason(rt.log, error)) from None
    return rt


def _resume_reason(table_log: TableLog, error: Exception) -> str:
    """The session's reason, with the byte offset when it names a record ("record 5: ...")."""
    text = str(error) or type(error).__name__
    found = _RECORD_NO.match(text)
    if found is not None:
        offset = table_log.offset_of(int(found.group(1)))
        if offset is not None:
            return (f"{RECORDS} record {found.group(1)} at byte {offset:,}: "
                    f"{text[found.end():]}")
    if not isinstance(error, FourwindsError):
        text = f"{type(error).__name__}: {text}"
    return (f"{RECORDS}: the table cannot be resumed from its {len(table_log.records)} "
            f"records ({text})")
