"""Stopping the daemon's background tasks (every component's ``close`` does it)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable


async def cancel_and_wait(tasks: Iterable[asyncio.Task[None] | None]) -> None:
    """Cancel every task, then wait for each to end; what they raise while ending (their
    cancellation, or an error of a task that had already failed) is not the closer's."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
