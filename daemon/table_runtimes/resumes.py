"""Reading our tables back at start, and setting aside an older copy: ``Resumes``.

At start every stored table is known from its metadata at once (``register``: its members
are pinned before any frame can arrive), then its records are read and replayed in a thread
(``resume``, recovery.py), one that cannot be is set aside with its reason, and a resumed
seat asks the others for its last message number before it signs (own_seq.py). A member
holding messages of ours past the end of our records shows them to be an older copy: the
folder is set aside and the seat rebuilt from the others (``_rebuild_older_copy``).

``Resumes`` reaches the rest of the daemon only through ``ResumesHost``.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol

from fourwinds.daemon.peers.identity import Identity, fingerprint
from fourwinds.daemon.store.disk import Store, StoreError
from fourwinds.daemon.table_runtimes.catching_up import RECONNECT_MAX_S, CatchingUp
from fourwinds.daemon.table_runtimes.own_seq import CONFIRM_S, OwnSeqCheck
from fourwinds.daemon.table_runtimes.rebuild import can_rebuild
from fourwinds.daemon.table_runtimes.rebuild import start as start_rebuild
from fourwinds.daemon.table_runtimes.recovery import resume_or_set_aside
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort
from fourwinds.daemon.tasks import in_thread

log = logging.getLogger("fourwinds.daemon.app")
"""Named as the daemon's own lines were before these moved out of daemon/app.py: the log
reads the same (its format names the logger)."""


class ShownViews(Protocol):
    """Our frontends' views (local_api/views.py): a resume or a rebuild shows there."""

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None: ...
    def player_name(self, rt: TableRuntime, key: bytes) -> str: ...


class AsksPeers(Protocol):
    """The rebuilds (rebuilds.py): asking the members for heads and messages."""

    def ask_rebuild(self, rt: TableRuntime) -> None: ...
    def request_catchup(self, rt: TableRuntime, key: bytes) -> None: ...


class HeldSigning(Protocol):
    """Our seat held back until the others confirmed its last number (steps.py)."""

    def ask_heads(self, rt: TableRuntime) -> None: ...
    def signing_held(self, rt: TableRuntime, now: float) -> str: ...
    def settle(self, rt: TableRuntime, now: float) -> None: ...


class ResumesHost(Protocol):
    """The daemon as ``Resumes`` sees it."""

    identity: Identity
    port: SessionPort
    store: Store
    tables: dict[bytes, TableRuntime]

    @property
    def views(self) -> ShownViews: ...
    @property
    def rebuilds(self) -> AsksPeers: ...
    @property
    def steps(self) -> HeldSigning: ...

    def alive(self, key: bytes) -> bool: ...


class Resumes:
    """Our stored tables read back at start, and an older copy set aside for a rebuild."""

    def __init__(self, host: ResumesHost) -> None:
        self.d = host

    def register(self, table_id: bytes) -> None:
        """A stored table, known from its metadata (its members are pinned and dialled at
        once); its records are read back by ``resume``."""
        try:
            rt = TableRuntime.from_meta(self.d.store.read_meta(table_id))
        except Exception:  # resume sets it aside with its reason (table_runtimes/recovery.py)
            rt = TableRuntime(table_id, "?", "?", b"", False, None, {})
        self.d.tables[table_id] = rt

    async def resume(self, rt: TableRuntime) -> None:
        """Resume a stored table in a thread (its records are read and replayed: seconds for
        a long match), off the event loop; one that cannot be is set aside with its reason
        (the ``tables`` request lists it) and never stops the daemon (table_runtimes/recovery.py).
        Then ask the live members for what we missed."""
        table_id = rt.table_id
        try:
            stored = await in_thread(
                lambda: resume_or_set_aside(
                    self.d.store,
                    self.d.port,
                    self.d.identity.private_key,
                    table_id,
                    self.d.identity.public_key,
                ),
                "fourwinds-resume",
            )
        except Exception:  # a bug must not stop the daemon starting; logged loudly
            log.exception("table %s: resuming failed", table_id.hex()[:8])
            stored = None
        if self.d.tables.get(table_id) is not rt:  # left meanwhile
            if stored is not None and stored.log is not None:
                stored.log.close()
            return
        if stored is None:
            del self.d.tables[table_id]
            return
        rt.log, rt.session, rt.rebuild = stored.log, stored.session, stored.rebuild
        keep = self.d.port.keep_joins
        if keep is not None and rt.session is not None:
            # the records hold the Join of a player who left the lobby since: its place is
            # free (the roster on disk says who is still at the table)
            rt.session = keep(rt.session, set(rt.members))
        if rt.rebuild is not None:
            rt.problems.append(
                f"rebuilding this table from the other seats' copies: {rt.rebuild.reason}"
            )
            self.d.rebuilds.ask_rebuild(rt)
            self.d.views.publish_view(rt, [])
        if rt.session is not None:
            if rt.place is not None:
                others = {k for k in rt.members if k != self.d.identity.public_key}
                rt.seq_check = OwnSeqCheck(rt.place, time.monotonic() + CONFIRM_S, others)
                rt.catching_up = CatchingUp(time.monotonic() + RECONNECT_MAX_S)
                self.d.steps.ask_heads(rt)
            for key in rt.members:
                if key != self.d.identity.public_key and self.d.alive(key):
                    self.d.rebuilds.request_catchup(rt, key)
            self.d.views.publish_view(rt, [])

    def own_seq_heard(self, rt: TableRuntime, key: bytes) -> None:
        """A member's ``Heads`` answered our check: fetch any of our messages it holds
        beyond our records; once nothing holds our seat back, make what was due."""
        check, now = rt.seq_check, time.monotonic()
        if check is None or rt.session is None:
            return
        own_last = self.d.port.last_seq(rt.session, check.place)
        if check.ahead > own_last:
            self._rebuild_older_copy(rt, check.ahead, own_last, key)
        elif not self.d.steps.signing_held(rt, now):
            self.d.steps.settle(rt, now)

    def _rebuild_older_copy(self, rt: TableRuntime, ahead: int, own_last: int, key: bytes) -> None:
        """Our records are an older copy (a restored backup, a copied folder): a member holds
        messages of ours past their end. Our session cannot take its own messages back as a
        peer's, so the folder is set aside (kept, with the reason) and the seat is rebuilt
        from the others like a damaged one; it signs nothing meanwhile."""
        # the reason reaches the screens (problems, the set-aside folder): a name; the log
        # also gives the key's fingerprint
        reason = (
            f"our records end at our message {own_last} and {self.d.views.player_name(rt, key)} "
            f"holds ours up to {ahead} (an older copy of the table)"
        )
        log.error(
            "table %s: %s (%s); rebuilding it from the other seats' copies",
            rt.table_hex[:8],
            reason,
            fingerprint(key),
        )
        if rt.place is None or not can_rebuild(self.d.port, rt.place, len(rt.members)):
            rt.problems.append(f"cannot sign at this table again: {reason}")
            return  # the check stays open: nothing is signed twice
        rt.close_log()
        rt.log, rt.session, rt.seq_check = None, None, None
        self.d.store.set_aside(
            rt.table_id, f"{reason} (the table is rebuilt from the other seats' copies)"
        )
        try:
            self.d.store.start_rebuilding(rt.table_id, rt.meta(), reason)
            rt.log = self.d.store.open_log(rt.table_id)
        except (StoreError, OSError) as error:
            log.error("table %s: cannot start rebuilding it: %s", rt.table_hex[:8], error)
            rt.problems.append(f"cannot rebuild this table: {error}")
            return
        rt.rebuild = start_rebuild(
            self.d.port, rt.place, self.d.identity.public_key, rt.host_key, reason
        )
        rt.problems.append(f"rebuilding this table from the other seats' copies: {reason}")
        self.d.rebuilds.ask_rebuild(rt)
        self.d.views.publish_view(rt, [])
