"""Routing each local API request as it arrives: ``RequestRouter``.

A few requests are answered at once, even while our tables are still being read back at
start (``QUICK_REQUESTS``); the others wait until they are resumed. ``peer`` goes to the
``--peer`` probes, and a ``create`` that carries ``"listed": false`` (the solo table ``play``
hosts for our own bots) tells the announcements which table it makes, so it is never
announced over mDNS; everything else is the requests' (``requests.handle``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from fourwinds.daemon.local_api.host import ApiHost
from fourwinds.daemon.local_api.server import ApiError, Message

QUICK_REQUESTS = frozenset(
    {"hello", "status", "whoami", "tables", "stop", "peer", "subscribe", "rulesets"}
)
"""Local API requests answered while tables are still being resumed (the others wait)."""


class UnlistedCreates(Protocol):
    """Our announcements (peers/announcing.py): the tables there before an unlisted
    ``create`` (the one it makes is then never announced), None otherwise."""

    creating_unlisted: set[bytes] | None


class RequestRouter:
    """Routes the local API's requests; ``resumed`` is set once our tables are read back."""

    def __init__(
        self,
        host: ApiHost,
        peer_request: Callable[[Message], Message],
        unlisted: UnlistedCreates,
    ) -> None:
        self.d = host
        self._peer_request = peer_request
        self._unlisted = unlisted
        self.resumed = asyncio.Event()

    async def route(self, request: Message) -> Message:
        """Route one local API request. ``create`` may carry ``"listed": false``: the table
        is not announced over mDNS (a solo table whose other seats are our own bots)."""
        from fourwinds.daemon.local_api import requests

        if request.get("type") == "peer":
            return self._peer_request(request)
        if request.get("type") not in QUICK_REQUESTS:
            await self.resumed.wait()  # a request about a table waits for its resume
        if request.get("type") != "create" or "listed" not in request:
            return await requests.handle(self.d, request)
        listed = request.pop("listed")
        if not isinstance(listed, bool):
            raise ApiError("'listed' must be true or false")
        # creates are handled one at a time (api.SERIAL): the new table is the one not here
        self._unlisted.creating_unlisted = None if listed else set(self.d.tables)
        try:
            return await requests.handle(self.d, request)
        finally:
            self._unlisted.creating_unlisted = None
