"""Shared helpers for the daemon tests: bounded waiting and seeded identities."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from fourwinds.daemon.peers.identity import Identity
from testkit.waiting import async_within


def identity(seed: int) -> Identity:
    return Identity.generate(random.Random(seed).randbytes(32))


async def wait_for(predicate: Callable[[], bool], timeout: float = 5.0, step: float = 0.02) -> bool:
    """Poll ``predicate`` until true or ``timeout`` seconds pass (bounded in time)."""
    return await async_within(predicate, timeout, step)


def fuzz_count(default: int = 2000) -> int:
    """Frames per fuzz test: 2,000 by default; FOURWINDS_FUZZ_FRAMES=100000 for the long run."""
    return int(os.environ.get("FOURWINDS_FUZZ_FRAMES", default))


def time_limit(base: float) -> float:
    """A test's time bound, stretched for the long fuzz run (2 ms per extra frame)."""
    return base + max(0, fuzz_count() - 2000) * 0.002
