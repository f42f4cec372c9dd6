"""Waiting for a condition, bounded in time: the one poll loop the tests and testkit share.

A test waits for what it expects to happen (a daemon to answer, a file to appear, a screen
or a view to change), never for a fixed time: a fixed sleep is too short on a loaded machine
(a flaky test) or too long everywhere else (a slow suite). ``until`` polls a predicate and
returns its first truthy value, or raises ``WaitTimeout`` naming what did not happen;
``within`` says whether it happened (for a test that asserts on it itself). ``async_until``
and ``async_within`` are the same for a test inside an event loop.

A sleep left anywhere in tests/ or testkit/ carries a ``# sleep-ok: <reason>`` comment
(tests/test_no_fixed_sleeps.py checks): a poll interval, a person's pace, or time that must
pass because the test is about time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

STEP_S = 0.05
"""How often a condition is looked at: short beside every bound a test sets."""


class WaitTimeout(AssertionError):
    """What a test waited for did not happen within its bound."""


def _failure(what: str, timeout: float, shown: Callable[[], object] | None) -> WaitTimeout:
    seen = f"; then: {shown()}" if shown is not None else ""
    return WaitTimeout(f"{what} did not happen within {timeout:g} s{seen}")


def within(predicate: Callable[[], object], timeout: float, step: float = STEP_S) -> bool:
    """Whether ``predicate()`` came true within ``timeout`` seconds (looked at every ``step``)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)  # sleep-ok: the poll interval of the shared wait


def until(
    predicate: Callable[[], T | None],
    timeout: float,
    what: str,
    step: float = STEP_S,
    shown: Callable[[], object] | None = None,
) -> T:
    """``predicate()``'s first truthy value within ``timeout`` seconds; else raise
    ``WaitTimeout`` naming ``what`` (and, if given, what ``shown()`` says then)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _failure(what, timeout, shown)
        time.sleep(step)  # sleep-ok: the poll interval of the shared wait


async def async_within(
    predicate: Callable[[], object], timeout: float, step: float = STEP_S
) -> bool:
    """``within`` inside an event loop: the loop runs on while the condition is awaited."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(step)  # sleep-ok: the poll interval of the shared wait


async def async_until(
    predicate: Callable[[], T | None],
    timeout: float,
    what: str,
    step: float = STEP_S,
    shown: Callable[[], object] | None = None,
) -> T:
    """``until`` inside an event loop."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _failure(what, timeout, shown)
        await asyncio.sleep(step)  # sleep-ok: the poll interval of the shared wait
