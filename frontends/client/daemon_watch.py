"""Following the local daemon through a restart, by its endpoint file (pid, endpoint, token).

A daemon writes ``<runtime>/api.endpoint`` when it starts and removes it when it stops; one
killed with -9 (or that crashed) leaves it behind, naming a process that has ended. So one
look at that file, and at whether its pid still runs, tells a frontend whether the daemon it
talks to is still there (``SAME``), gone (``GONE``: stopped, or crashed, see ``crashed``) or
replaced by a new one (``NEW``: another pid, endpoint or token, to connect to).

One mechanism, two users: the web server's link (``web/link.py``, on its event loop, in a
thread) tells the pages "lost" / "back"; the table screen of `fourwinds play`
(``FollowedTable`` here) says on screen that the daemon stopped, has `play` start it again
and comes back to the same table and seat. Both look every ``WATCH_S`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fourwinds.frontends.client.daemon_link import DaemonTable, LocalApi, Message
from fourwinds.frontends.client.local_seats import is_running, running_info
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)
WATCH_S = 1.0  # how often the endpoint file is looked at (a small read and a kill 0)


@dataclass(frozen=True)
class DaemonId:
    """Which daemon process a connection belongs to: what its endpoint file says."""

    endpoint: str
    token: str
    pid: int

    @classmethod
    def of(cls, info: Mapping[str, Any] | None) -> DaemonId | None:
        """The daemon an endpoint file's contents name (None: no usable file)."""
        if info is None or not isinstance(info.get("endpoint"), str):
            return None
        return cls(str(info["endpoint"]), str(info.get("token") or ""), int(info.get("pid") or 0))


class Seen(Enum):
    """What one look at the endpoint file found, compared with the daemon we know."""

    SAME = "same"  # our daemon still runs
    GONE = "gone"  # no daemon runs for the folder (stopped, or crashed)
    NEW = "new"  # another daemon runs for the folder now


def look(data_dir: str | None, known: DaemonId | None) -> tuple[Seen, DaemonId | None]:
    """One look at the daemon of ``data_dir`` (blocking, but only a file read and a signal
    0): what is seen, and the daemon that runs now (None when ``GONE``)."""
    now = DaemonId.of(running_info(data_dir))
    if now is None or not is_running(data_dir):
        return Seen.GONE, None
    return (Seen.SAME if now == known else Seen.NEW), now


def crashed(data_dir: str | None) -> bool:
    """Did the daemon end without stopping (kill -9, a crash)? Its endpoint file is still
    there; a daemon stopped on purpose (`fourwinds stop`, SIGTERM) removes it."""
    return running_info(data_dir) is not None and not is_running(data_dir)


class DaemonStopped(FourwindsError):
    """The daemon was stopped on purpose while the screen was open (`fourwinds stop`)."""


class FollowedTable:
    """The table screen's link (a ``TableClient``) that follows its daemon through a crash.

    Every ``WATCH_S`` seconds (and before each pull of the view) the endpoint file is looked
    at. When the daemon has crashed, ``notice`` says so at once, requests are refused at once
    (never a 10 s wait on a dead socket), and ``restart`` (`play`'s own way of starting the
    daemon: ``ensure_daemon``) runs in a thread, so the screen keeps drawing and ``Q`` still
    quits; once it returns a new connection, the same table is shown again. When the daemon
    was stopped on purpose, ``DaemonStopped`` ends the screen; when it cannot be started,
    ``FourwindsError`` says why (one line, no traceback).
    """

    def __init__(
        self,
        inner: DaemonTable,
        data_dir: str | None,
        restart: Callable[[], LocalApi],
        watch_s: float = WATCH_S,
    ) -> None:
        self.inner = inner
        self.data_dir = data_dir
        self.restart = restart
        self.watch_s = watch_s
        self.known = DaemonId.of(running_info(data_dir))
        self.notice = ""  # what the screen says about the daemon ("" while up)
        self._looked = time.monotonic()
        self._thread: threading.Thread | None = None
        self._started: LocalApi | None = None
        self._problem: BaseException | None = None

    @property
    def api(self) -> LocalApi:
        """The connection to the daemon now (a new one after a restart)."""
        return self.inner.api

    @property
    def table(self) -> str:
        """The table shown (as ``DaemonTable.table``: its id, a prefix or its name)."""
        return self.inner.table

    @property
    def down(self) -> bool:
        return bool(self.notice)

    def _follow(self, force: bool = False) -> None:
        """Look at the daemon (every ``watch_s``, or now with ``force``) and move on."""
        if self._thread is not None:
            self._restart_done()
            return
        now = time.monotonic()
        if not force and now - self._looked < self.watch_s:
            return
        self._looked = now
        seen, running = look(self.data_dir, self.known)
        if seen is Seen.SAME:
            return
        if seen is Seen.NEW and running is not None:  # started again by someone else
            log.warning("a new daemon (process %d) runs: connecting to it", running.pid)
        elif not crashed(self.data_dir):
            raise DaemonStopped(
                "your daemon was stopped, so the table screen closed "
                "(`fourwinds play` starts it again and returns to the table)"
            )
        else:
            log.warning(
                "the daemon (process %s) ended without stopping: starting it again",
                self.known.pid if self.known else "?",
            )
        self.notice = "Your daemon stopped: starting it again..."
        self._thread = threading.Thread(
            target=self._run_restart, name="daemon-restart", daemon=True
        )
        self._thread.start()

    def _run_restart(self) -> None:
        try:
            self._started = self.restart()
        except BaseException as error:  # raised in the screen's thread (_restart_done)
            self._problem = error

    def _restart_done(self) -> None:
        """The restart thread ended: use the new connection, or say why it failed."""
        assert self._thread is not None
        if self._thread.is_alive():
            return
        self._thread = None
        if self._problem is not None or self._started is None:
            problem, self._problem = self._problem, None
            raise FourwindsError(
                f"your daemon stopped and could not be started again: {problem or 'no connection'}"
            ) from None
        old, self.inner.api = self.inner.api, self._started
        self._started = None
        old.close()
        self.known = DaemonId.of(running_info(self.data_dir))
        self.notice = ""
        self.inner.refresh_now()
        log.warning("the daemon is back (process %s)", self.known.pid if self.known else "?")

    def latest_event(self, timeout: float) -> ViewEvent | None:
        self._follow()
        if self.down:
            time.sleep(timeout)
            return None
        if self.inner.pull_due():
            self._follow(force=True)  # never ask a dead daemon for the view
            if self.down:
                return None
        return self.inner.latest_event(timeout)

    def act(self, request: Mapping[str, Any]) -> Message:
        self._follow(force=True)
        if self.down:
            return {"ok": False, "error": "your daemon is not running: it is being started"}
        return self.inner.act(request)

    def sheet(self) -> Message:
        if self.down:
            raise FourwindsError("your daemon is not running: it is being started")
        return self.inner.sheet()

    def close(self) -> None:
        self.inner.close()
