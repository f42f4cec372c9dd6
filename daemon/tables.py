"""One table as the daemon holds it: the session, its record log, who sits there and where.

``TableRuntime.apply`` is the one place a ``Step`` is carried out, in the contract's order:
append ``persist`` to the log, fsync it when the step sends anything, then adopt the new
session, then hand ``outgoing`` to the sender. Nothing is sent before every record appended
so far is durable; a step that sends nothing is synced at the next send or within a second.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fourwinds.daemon.pairing import HostPairing, JoinerPairing
from fourwinds.daemon.session_port import SessionModule, StepLike, progress_of
from fourwinds.daemon.store import Store, TableLog

log = logging.getLogger(__name__)

Send = Callable[[bytes, bytes], None]      # (peer public key, session payload)
STEPS_KEPT = 16


@dataclass
class TableRuntime:
    """A table this daemon sits at (or is joining)."""

    table_id: bytes
    name: str
    rules: str
    host_key: bytes
    private: bool
    code: str | None                        # only the host keeps the code
    members: dict[bytes, tuple[str, int]]   # every seat's key -> (host, port); ours included
    log: TableLog | None = None
    session: Any = None
    host_pairing: HostPairing | None = None
    joiner: JoinerPairing | None = None
    join_error: str = ""
    place: int | None = None                # our place at the table (0 = its creator)
    listed: bool = True                     # announced over mDNS (False: a solo table)
    view_seq: int = 0
    applied_at: float = 0.0   # time.monotonic() when the current session was adopted
    steps_applied: list[tuple[int, float]] = field(default_factory=list)  # see note_progress
    problems: list[str] = field(default_factory=list)

    @property
    def table_hex(self) -> str:
        return self.table_id.hex()

    def meta(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "name": self.name, "rules": self.rules,
                "host_key": self.host_key, "private": self.private, "code": self.code,
                "members": [[k, h, p] for k, (h, p) in self.members.items()],
                "place": self.place, "listed": self.listed}

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> TableRuntime:
        return cls(table_id=bytes(meta["table_id"]), name=str(meta["name"]),
                   rules=str(meta["rules"]), host_key=bytes(meta["host_key"]),
                   private=bool(meta["private"]), code=meta.get("code"),
                   members={bytes(k): (str(h), int(p)) for k, h, p in meta["members"]},
                   place=meta.get("place"), listed=bool(meta.get("listed", True)))

    def save_meta(self, store: Store) -> None:
        store.write_meta(self.table_id, self.meta())

    def note_progress(self, port: SessionModule, session: Any) -> None:
        """Remember when each of the last STEPS_KEPT steps was first applied (the session
        module's optional ``progress`` gives the step), so a view that shows several steps
        at once still says when each of them reached this seat."""
        where = progress_of(port, session)
        if where is None:
            return
        step = where[1]
        if not self.steps_applied or self.steps_applied[-1][0] != step:
            self.steps_applied.append((step, self.applied_at))
            del self.steps_applied[:-STEPS_KEPT]

    def apply(self, port: SessionModule, step: StepLike, own_key: bytes, send: Send,
              adopted: Callable[[], None] | None = None) -> None:
        """Carry out ``step``: persist, adopt the session (then ``adopted()``: e.g. show it to
        our own frontend, which is not a send to the table), fsync, then send. Nothing
        leaves for a peer before the records it depends on are durable."""
        assert self.log is not None, "a seated table has a log"
        self.log.append(list(step.persist), sync=False)
        if step.session is not self.session:
            self.applied_at = time.monotonic()
            self.note_progress(port, step.session)
        self.session = step.session
        if adopted is not None:
            adopted()
        if step.outgoing:
            self.log.sync()     # everything appended so far is durable before we send
            keys = list(port.seat_keys(self.session))
        for out in step.outgoing:
            if out.to is None:
                targets = [k for k in self.members if k != own_key]
            else:
                index = int(out.to)
                key = keys[index] if 0 <= index < len(keys) else None
                targets = [key] if key is not None and key != own_key else []
                if not targets:
                    log.warning("table %s: no key for seat %s; message held for catch-up",
                                self.table_hex[:8], out.to)
            for key in targets:
                send(key, out.payload)
        for problem in step.problems:
            text = str(getattr(problem, "reason", problem))
            log.warning("table %s: problem %s", self.table_hex[:8], problem)
            self.problems.append(text)
            del self.problems[:-20]
