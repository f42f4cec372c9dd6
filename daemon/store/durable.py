"""Sends held until the records they depend on are durable, the fsync off the event loop.

A table's ``TableRuntime.apply`` appends a step's records on the event loop (a write to the
page cache) and then hands the step's sends to ``Durable.after_sync``: they wait until every
record written so far is durable, which a worker thread makes so (``TableLog.sync_through``),
while the event loop goes on with other frames, requests and tables. Sends are released in
the order their steps were applied, so one table's messages leave in order; records written
while a sync runs wait for the next one, which then covers all of them (group commit).
``sync_soon`` asks for a sync with nothing held (the once-a-second syncer: it bounds what a
power cut can lose of what we received).

A sync that fails drops every held send (they were never sent, as before a failed sync) and
reports the reason once (``on_failure``: the table is paused; the log refuses writes until
a restart, store.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

from fourwinds.daemon.store.disk import StoreError, TableLog

log = logging.getLogger(__name__)


class Durable:
    """One table's log syncer and the sends that wait for it."""

    def __init__(self, table_log: TableLog, on_failure: Callable[[str], None]) -> None:
        self.log = table_log
        self.on_failure = on_failure
        self._held: deque[tuple[int, Callable[[], None]]] = deque()
        self._wanted = 0  # records the syncer asked to be made durable
        self._task: asyncio.Task[None] | None = None

    def after_sync(self, release: Callable[[], None]) -> None:
        """Call ``release`` on the event loop once every record written so far is durable
        (at once when they are and nothing is held before it), after every ``release``
        handed in before it."""
        upto = self.log.written
        if not self._held and upto <= self.log.synced:
            release()
            return
        self._held.append((upto, release))
        self._start()

    def sync_soon(self) -> None:
        """Make what was written so far durable, off the event loop; nothing waits for it."""
        self._wanted = max(self._wanted, self.log.written)
        self._start()

    def held(self) -> int:
        """Sends waiting for a sync (tests)."""
        return len(self._held)

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="log-sync")

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._held or self._wanted > self.log.synced:
            upto = self.log.written  # what was written since rides along (group commit)
            try:
                await loop.run_in_executor(None, self.log.sync_through, upto)
            except StoreError as error:
                self._held.clear()
                self._wanted = 0
                self.on_failure(str(error))
                return
            while self._held and self._held[0][0] <= self.log.synced:
                _, release = self._held.popleft()
                try:
                    release()
                except Exception:  # a bug in one send must not hold up the others
                    log.exception("%s: a send after a sync failed", self.log.path)

    async def drained(self) -> None:
        """Wait until nothing is held (the held sends were released or dropped)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def stop(self) -> None:
        """Stop: what is still held is dropped (the table is being left or closed). A sync
        running in its thread finishes on its own; ``TableLog.close`` waits for it."""
        self._held.clear()
        self._wanted = 0
        if self._task is not None:
            self._task.cancel()
            self._task = None
