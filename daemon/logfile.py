"""The daemon's log: bounded in size whatever peers make it say.

A daemon started in the background (``fourwinds play``, ``tables``, the tests) has its
output appended to a file (``daemon.log``). The daemon then writes its log to that same file
through a ``RotatingFileHandler``: at LOG_BYTES the file becomes ``daemon.log.1`` (and so on,
LOG_FILES kept), and the process's stderr (and stdout, when it went to the same file) is
moved to the new file, so a traceback or a fault dump still lands in the current log. A
daemon in the foreground (stderr a terminal or a pipe) logs to stderr as before. Every line
a peer can cause is also bounded at its source (daemon/peers/refusals.py); this is the backstop.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
import stat
from pathlib import Path

LOG_BYTES = 4 * 1024 * 1024
LOG_FILES = 3
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _FollowingStderr(logging.handlers.RotatingFileHandler):
    """Rotates the file stderr is appended to, and moves stderr (and stdout when it shares
    the file) to the new file after each rollover."""

    def __init__(self, path: Path, stdout_too: bool) -> None:
        super().__init__(path, maxBytes=LOG_BYTES, backupCount=LOG_FILES, encoding="utf-8")
        self._stdout_too = stdout_too

    def doRollover(self) -> None:
        super().doRollover()
        if self.stream is None:
            return
        with contextlib.suppress(OSError, ValueError):
            fd = self.stream.fileno()
            os.dup2(fd, 2)
            if self._stdout_too:
                os.dup2(fd, 1)


def _file_behind(fd: int) -> Path | None:
    """The regular file ``fd`` appends to, when the system says which (Linux: /proc)."""
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        path = Path(os.readlink(f"/proc/self/fd/{fd}"))
        there = os.stat(path)
    except OSError:
        return None
    return path if (there.st_dev, there.st_ino) == (info.st_dev, info.st_ino) else None


def setup(level: int = logging.INFO) -> Path | None:
    """Log at ``level``: to the file stderr goes to, rotated (returned), else to stderr."""
    path = _file_behind(2)
    if path is None:
        logging.basicConfig(level=level, format=FORMAT)
        return None
    stdout_too = _file_behind(1) == path
    handler = _FollowingStderr(path, stdout_too)
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    return path
