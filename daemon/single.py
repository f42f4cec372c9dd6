"""One daemon per data directory.

Two daemons on one data directory would both sign for the same seat with the same key
(messages at one number twice: the others see equivocation), write one record log from
two processes, and take the local API socket from each other (ZeroMQ binds an ipc socket
over the file of a running one without a word). So a daemon holds an exclusive lock on
``<data>/daemon.lock`` for its whole life; a second one refuses to start, naming the
first's process. The kernel drops the lock when the process ends, however it ends (kill -9
too): a lock is never left behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

from fourwinds.protocol.errors import FourwindsError

LOCK_NAME = "daemon.lock"
ALREADY = "another fourwinds daemon already runs for"


class AlreadyRunning(FourwindsError):
    """A daemon holds this data directory (the message names its process)."""


def hold_data_dir(data: Path) -> IO[bytes]:
    """Lock ``data`` for this process; keep the returned file open while the daemon runs.
    ``AlreadyRunning`` when another process holds it."""
    path = data / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    held = os.fdopen(fd, "r+b")
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        other = _pid_in(held)
        held.close()
        raise AlreadyRunning(
            f"{ALREADY} {data}"
            + (f" (pid {other})" if other else "")
            + "; `fourwinds stop` stops it"
        ) from None
    held.seek(0)
    held.truncate()
    held.write(f"{os.getpid()}\n".encode())
    held.flush()
    return held


def _pid_in(held: IO[bytes]) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        held.seek(0)
        return int(held.read(32).decode(errors="replace").strip() or "0") or None
    return None
