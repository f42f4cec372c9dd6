"""Bot seats for tables hosted from the browser, kept and stopped as `fourwinds play` does.

A table hosted in the page with bots in its free seats gets real bot seats (each its own
daemon on 127.0.0.1 and a `fourwinds bot`: ``local_seats``). They run as long as the web
server does; their data stays in the state directory, so opening the table again later
restarts the same seats. Starting processes blocks, so the bridge calls these in a thread.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path

from fourwinds.frontends.client.local_seats import (
    Started,
    forget_bot_seats,
    is_running,
    load_bot_seats,
    resume_bot_seats,
    seat_new_bots,
)
from fourwinds.protocol.bot_level import BotLevel

log = logging.getLogger(__name__)


@dataclass
class BotKeeper:
    """The bot seats this server started (stopped by pid when it stops)."""

    state: Path
    started: Started = field(default_factory=Started)
    verbose: int = 0
    pause: float = 0.0  # each bot's pause before a decision (bot_pause.py)
    level: BotLevel = BotLevel.NORMAL  # the bots' level when the page names none
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def seat(
        self,
        *,
        table: str,
        rules: str,
        count: int,
        host_port: int,
        host_key: str,
        code: str | None,
        level: BotLevel | None = None,
    ) -> None:
        """Seat ``count`` new bot seats at our new table (one after the other), at
        ``level`` (None: the server's ``--bot-level``)."""
        with self._lock:
            seat_new_bots(
                self.started,
                self.state,
                table=table,
                rules=rules,
                count=count,
                host_port=host_port,
                host_key=host_key,
                code=code,
                verbose=self.verbose,
                pause=self.pause,
                level=self.level if level is None else level,
                say=log.info,
            )

    def resume(self, table: str, host_port: int) -> int:
        """Restart the bot seats of a table we return to, unless they run already (the
        table may be open in a terminal too); how many were started."""
        with self._lock:
            seats = load_bot_seats(self.state, table)
            if seats is None or any(
                is_running(str(seats.home / f"bot{i}")) for i in range(1, seats.count + 1)
            ):
                return 0
            resume_bot_seats(
                self.started,
                seats,
                host_port=host_port,
                verbose=self.verbose,
                pause=self.pause,
                say=log.info,
            )
            return seats.count

    def has_bots(self, table: str) -> bool:
        return load_bot_seats(self.state, table) is not None

    def forget(self, table: str) -> None:
        """The table was left: stop nothing else, remove its bot seats' data."""
        with self._lock:
            seats = load_bot_seats(self.state, table)
            if seats is not None:
                forget_bot_seats(seats)

    def stop(self) -> None:
        with self._lock:
            self.started.stop()
