"""Resuming a stored table on start, rebuilding it from the peers, or setting it aside.

A table folder that cannot be resumed (its ``meta.msgpack`` unreadable, its record log damaged
before the tail, records the session cannot resume from) never stops the daemon: the folder is
renamed ``set-aside-<id>`` with the reason (``Store.set_aside``), the local API's ``tables``
and ``status`` list it, and every other table resumes. When only the records are lost (the
metadata still names our place and the four seats) and the session module can rebuild a
seat, the table is not given up: a fresh folder is started beside the kept one and the seat
is rebuilt from the other seats' copies (table_runtimes/rebuild.py; docs/DAEMON.md, "Rebuilding a
seat from its peers"). A restart while that runs starts it again.
"""

from __future__ import annotations

import logging
import re

from fourwinds.daemon.store.disk import META, RECORDS, Store, StoreDamage, StoreError, TableLog
from fourwinds.daemon.table_runtimes import rebuild
from fourwinds.daemon.table_runtimes.runtime import BadMeta, TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

_RECORD_NO = re.compile(r"^record (\d+): ")


class CannotResume(FourwindsError):
    """Why a stored table cannot be resumed, in one line (``reason``); ``meta``: the table as
    its metadata describes it, when only the records are at fault (it may be rebuilt)."""

    def __init__(self, reason: str, meta: TableRuntime | None = None) -> None:
        self.reason = reason
        self.meta = meta
        super().__init__(reason)


def resume_or_set_aside(
    store: Store,
    port: SessionPort,
    private_key: bytes,
    table_id: bytes,
    public_key: bytes | None = None,
) -> TableRuntime | None:
    """The table resumed from its folder (or, given our ``public_key``, being rebuilt from
    the peers: ``rt.rebuild``), or None when it was set aside (logged, one line)."""
    try:
        rt = resume_table(store, port, private_key, table_id, public_key)
    except CannotResume as error:
        meta = error.meta
        if (
            public_key is None
            or meta is None
            or meta.place is None
            or not rebuild.can_rebuild(port, meta.place, len(meta.members))
        ):
            aside = store.set_aside(table_id, error.reason)
            log.error(
                "table %s (%s) set aside, not resumed: %s; its files are kept in %s",
                aside.name,
                table_id.hex()[:8],
                error.reason,
                aside.folder,
            )
            return None
        return _rebuild_instead(store, port, table_id, meta, error.reason, public_key)
    if rt.rebuild is not None:
        log.warning(
            "table %s (%s): rebuilding it from the other seats again (%s)",
            rt.name,
            rt.table_hex[:8],
            rt.rebuild.reason,
        )
        return rt
    log.info(
        "resumed table %s (%s) from %d records",
        rt.name,
        rt.table_hex[:8],
        len(rt.log.records) if rt.log is not None else 0,
    )
    return rt


def _rebuild_instead(
    store: Store,
    port: SessionPort,
    table_id: bytes,
    rt: TableRuntime,
    reason: str,
    public_key: bytes,
) -> TableRuntime | None:
    """The damaged folder set aside (kept byte for byte, with the reason) and a fresh one
    started, our seat ``rt.place`` to be rebuilt from the others. The folder is set aside
    once, whatever follows: when the fresh one cannot be started (a failing disk) the table
    is not resumed (None), and a member's later frame about it can still bring it back as a
    lost table (``Rebuilds.offered``); the kept copy is never moved a second time."""
    assert rt.place is not None
    aside = store.set_aside(
        table_id, f"{reason} (the table is rebuilt from the other seats' copies)"
    )
    try:
        store.start_rebuilding(table_id, rt.meta(), reason)
        rt.log = store.open_log(table_id)
    except (StoreError, OSError) as failed:
        log.error(
            "table %s (%s): its files are kept in %s, but rebuilding it cannot start "
            "(%s); it is not resumed this run",
            rt.name,
            table_id.hex()[:8],
            aside.folder,
            failed,
        )
        return None
    rt.rebuild = rebuild.start(port, rt.place, public_key, rt.host_key, reason)
    log.error(
        "table %s (%s): %s; its files are kept in %s, and the table is rebuilt from "
        "the other seats' copies",
        rt.name,
        table_id.hex()[:8],
        reason,
        aside.folder,
    )
    return rt


def resume_table(
    store: Store,
    port: SessionPort,
    private_key: bytes,
    table_id: bytes,
    public_key: bytes | None = None,
) -> TableRuntime:
    """The table as its folder holds it; ``CannotResume`` with the reason if it cannot be
    (with the table's metadata when only its records are at fault)."""
    try:
        meta = store.read_meta(table_id)
        rt = TableRuntime.from_meta(meta)
    except (StoreError, BadMeta) as error:
        raise CannotResume(f"{META}: {error}") from None
    if rt.table_id != table_id:
        raise CannotResume(f"{META}: it names table {rt.table_id.hex()}, not its folder's")
    again = store.rebuilding(table_id)
    if (
        again is not None
        and public_key is not None
        and rt.place is not None
        and rebuild.can_rebuild(port, rt.place, len(rt.members))
    ):
        try:
            store.start_rebuilding(table_id, rt.meta(), again)
            rt.log = store.open_log(table_id)
        except (StoreError, OSError) as error:
            raise CannotResume(f"{RECORDS}: cannot be started again ({error})") from None
        rt.rebuild = rebuild.start(port, rt.place, public_key, rt.host_key, again)
        return rt
    try:
        rt.log = store.open_log(table_id)
    except StoreDamage as damage:
        raise CannotResume(damage.reason, rt) from None
    except (StoreError, OSError) as error:
        raise CannotResume(f"{RECORDS}: cannot be read ({error})") from None
    if rt.log.records:
        try:
            rt.session = port.resume(rt.log.records, private_key)
        except Exception as error:  # one bad table must not stop the daemon starting
            table_log, rt.log = rt.log, None
            table_log.close()
            if not isinstance(error, FourwindsError):
                log.debug("resuming table %s failed", table_id.hex()[:8], exc_info=True)
            raise CannotResume(_resume_reason(table_log, error), rt) from None
    return rt


def _resume_reason(table_log: TableLog, error: Exception) -> str:
    """The session's reason, with the byte offset when it names a record ("record 5: ...")."""
    text = str(error) or type(error).__name__
    found = _RECORD_NO.match(text)
    if found is not None:
        offset = table_log.offset_of(int(found.group(1)))
        if offset is not None:
            return f"{RECORDS} record {found.group(1)} at byte {offset:,}: {text[found.end() :]}"
    if not isinstance(error, FourwindsError):
        text = f"{type(error).__name__}: {text}"
    return (
        f"{RECORDS}: the table cannot be resumed from its {len(table_log.records)} records ({text})"
    )
