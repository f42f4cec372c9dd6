"""Each table's metadata written behind, in a thread: ``MetaWrites``.

A table's ``meta.msgpack`` (its members, every address they were reached at, our place)
changes often (an admission, an address learned); each change asks for a write
(``save_soon``), done in a thread since the write is fsynced. Writes of one table are never
reordered, and a burst of changes while one runs makes one more write, of the newest.
``save_now`` waits for it (an admission, our place, must be on disk before we answer).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fourwinds.daemon.store.disk import Store
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.tasks import in_thread

log = logging.getLogger("fourwinds.daemon.app")
"""Named as the daemon's own lines were before these moved out of daemon/app.py: the log
reads the same (its format names the logger)."""


class MetaWrites:
    """The metadata writes of one daemon's tables, one table's at a time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._writes: dict[bytes, asyncio.Task[None]] = {}
        self._due: dict[bytes, dict[str, Any]] = {}

    def save_soon(self, rt: TableRuntime) -> None:
        """Write the table's metadata in the background (a thread: the write is fsynced);
        writes of one table are never reordered, and a burst of changes makes one write."""
        self._due[rt.table_id] = rt.meta()
        task = self._writes.get(rt.table_id)
        if task is None or task.done():
            self._writes[rt.table_id] = asyncio.create_task(
                self._write(rt.table_id), name="meta-write"
            )

    async def save_now(self, rt: TableRuntime) -> None:
        """``save_soon`` and wait until it is on disk (admissions, our place)."""
        self.save_soon(rt)
        await asyncio.shield(self._writes[rt.table_id])

    async def finish(self, timeout: float) -> None:
        """Wait for the writes still in flight, at most ``timeout`` seconds (the daemon
        closes)."""
        writes = [task for task in self._writes.values() if not task.done()]
        if writes:
            await asyncio.wait(writes, timeout=timeout)

    async def _write(self, table_id: bytes) -> None:
        while table_id in self._due:
            meta = self._due.pop(table_id)
            try:
                await in_thread(
                    lambda m=meta: self.store.write_meta(table_id, m),  # type: ignore[misc]
                    "fourwinds-meta",
                )
            except Exception as error:
                log.error("table %s: cannot write its metadata: %s", table_id.hex()[:8], error)
