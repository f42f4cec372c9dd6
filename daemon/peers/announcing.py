"""Announcing the tables we host over mDNS: ``Announcing``.

Each table we host is announced (python-zeroconf, daemon/peers/mdns.py) with its free seats
as the roster says now, again as each seat is admitted (``roster_changed``), and withdrawn
when we leave it. A registration takes a second or two, so each runs in the background
(cancelled when the daemon closes). A table created with ``"listed": false`` (the solo table
``play`` hosts for our own bots) is never announced: the create request says which tables
were there before it (``creating_unlisted``), and the new one is marked unlisted.

``Announcing`` reaches the rest of the daemon only through ``AnnouncingHost``.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from fourwinds.daemon.peers.discovery import Announcement
from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.table_runtimes.runtime import TableRuntime

if TYPE_CHECKING:  # zeroconf is imported only with mDNS on (daemon/peers/mdns.py)
    from fourwinds.daemon.peers.mdns import Discovery


class SavesMeta(Protocol):
    """Each table's metadata written behind (table_runtimes/meta_writes.py)."""

    def save_soon(self, rt: TableRuntime) -> None: ...


class PublishesViews(Protocol):
    """Our frontends' views (local_api/views.py): the lobby shows each admission."""

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None: ...


class AnnouncingHost(Protocol):
    """The daemon as ``Announcing`` sees it."""

    identity: Identity

    @property
    def discovery(self) -> Discovery | None: ...
    @property
    def meta_writes(self) -> SavesMeta: ...
    @property
    def views(self) -> PublishesViews: ...

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None: ...


class Announcing:
    """The mDNS announcements of the tables we host."""

    def __init__(self, host: AnnouncingHost) -> None:
        self.d = host
        self.creating_unlisted: set[bytes] | None = None  # tables before an unlisted create

    async def announce(self, rt: TableRuntime) -> None:
        """Announce (or update) a table we host, with its free seats as the roster says now;
        an unlisted table (a solo table with our own bots) is never announced."""
        before = self.creating_unlisted
        if before is not None and rt.table_id not in before and rt.listed:
            rt.listed = False  # the table the current unlisted `create` request makes
            self.d.meta_writes.save_soon(rt)
        discovery = self.d.discovery
        if discovery is None or rt.host_key != self.d.identity.public_key or not rt.listed:
            return
        await discovery.announce(
            Announcement(
                rt.table_id, rt.name, rt.rules, 4 - len(rt.members), rt.private, rt.flowers
            )
        )

    def start_announcing(self, rt: TableRuntime) -> None:
        """``announce`` in the background (mDNS registration takes a second or two)."""
        self.d.in_background(self.announce(rt), "announce")

    def roster_changed(self, rt: TableRuntime) -> None:
        """A seat was admitted at a table we host: the announcement's free seats follow the
        roster, and our frontends see the lobby change at once."""
        self.start_announcing(rt)
        if rt.session is not None:
            self.d.views.publish_view(rt, [], at_once=True)

    def withdraw_soon(self, table_id: bytes) -> None:
        """Stop announcing ``table_id`` (in the background, as ``announce``): we left it."""
        discovery = self.d.discovery
        if discovery is None:
            return
        self.d.in_background(discovery.withdraw(table_id), "withdraw")
