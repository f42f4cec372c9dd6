"""Background work of the daemon: stopping its tasks, and work kept off the event loop.

``in_thread`` runs a blocking call (reading a table's records and resuming its session, a
metadata file written and fsynced) in a thread of its own, so the loop keeps answering the
local API and peers meanwhile. The thread is a daemon thread: a stop never waits for it
(what it does is safe to abandon: reads, or an atomic file replace).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


async def cancel_and_wait(tasks: Iterable[asyncio.Task[None] | None]) -> None:
    """Cancel every task, then wait for each to end; what they raise while ending (their
    cancellation, or an error of a task that had already failed) is not the closer's."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def in_thread(call: Callable[[], T], name: str = "fourwinds-work") -> T:
    """``call()`` in a new daemon thread; its result (or exception) here. Cancelling the
    awaiting task stops waiting at once (the thread finishes on its own)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        try:
            result = call()
        except BaseException as error:  # handed to the awaiting task
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, None, error)
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, result, None)

    threading.Thread(target=work, name=name, daemon=True).start()
    return await future
