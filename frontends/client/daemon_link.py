"""The frontends' side of the local API: what the table, the CLI and the bots need from it.

Everything above this module talks to two small interfaces, so it runs against the daemon's
Python client (``fourwinds.frontends.client.client``) or against a fake in tests:

* ``TableClient``: the latest view event of one table, and "act" requests (curses table, bots);
* ``LocalApi``: one request, one answer (the scriptable CLI).

``connect()`` opens the daemon's client. The names used from ``fourwinds.frontends.client.client``
are ``connect(data_dir)`` returning an object with ``request(dict) -> dict``,
``next_event(timeout) -> dict | None`` and ``close()``; when that module or the daemon is
missing, the user gets one clear line saying what to do.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from fourwinds.frontends.client.view_shapes import ViewEvent, view_event
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.views.view_types import SeatView

Message = dict[str, Any]


class DaemonUnavailable(FourwindsError):
    """The local daemon cannot be reached (not running, or no client in this build)."""


class LocalApi(Protocol):
    """One request to the local daemon, one answer (``{"ok": bool, ...}``)."""

    def request(self, message: Mapping[str, Any]) -> Message: ...

    def next_event(self, timeout: float) -> Message | None: ...

    def close(self) -> None: ...


class TableClient(Protocol):
    """What the curses table and the bot seats need: views in, act requests out."""

    def latest_event(self, timeout: float) -> ViewEvent | None:
        """The newest view event if one arrived within ``timeout`` seconds, else None."""

    def act(self, request: Mapping[str, Any]) -> Message:
        """Send an act request; the daemon's answer ``{"ok": true}`` or the refusal."""

    def close(self) -> None: ...


@runtime_checkable
class SheetSource(Protocol):
    """A table link that can also fetch the card / fan sheet (the ``sheet`` request)."""

    def sheet(self) -> Message:
        """``{"rules", "title", "entries": [...]}``; ``FourwindsError`` when refused."""


@runtime_checkable
class Noticing(Protocol):
    """A table link that can say what is wrong with the daemon (e.g. it is being started
    again after a crash: daemon_watch.FollowedTable); "" while all is well."""

    notice: str


def connect(
    data_dir: str | None = None, *, subscribe: bool = True, any_build: bool = False
) -> LocalApi:
    """The daemon's local API client, or ``DaemonUnavailable`` with what to do about it.
    ``subscribe``: receive view events (the table screen, bots, ``status --wait``);
    ``any_build``: also a daemon of another build (client.py's ``connect``: `stop`)."""
    try:
        module = importlib.import_module("fourwinds.frontends.client.client")
    except ModuleNotFoundError as error:
        if error.name != "fourwinds.frontends.client.client":
            raise
        raise DaemonUnavailable(
            "the local API client is not part of this build yet; try `fourwinds demo american`"
        ) from error
    opener = getattr(module, "connect", None)
    if not callable(opener):
        raise DaemonUnavailable(
            "fourwinds.frontends.client.client has no connect(); cannot reach it"
        )
    try:
        client: LocalApi = opener(data_dir, subscribe=subscribe, any_build=any_build)
    except (OSError, ConnectionError) as error:
        raise DaemonUnavailable(str(error) or "cannot reach the local daemon") from error
    return client


def checked(answer: Mapping[str, Any]) -> Message:
    """The daemon's answer, or a ``FourwindsError`` carrying its reason when it refused."""
    if not answer.get("ok"):
        raise FourwindsError(str(answer.get("error") or "the daemon refused without a reason"))
    return dict(answer)


NOT_SEATED = "you are not seated at a table"  # the daemon's answer about a table it left
TABLE_GONE = (
    "This table is gone: its host closed it, or you left it elsewhere (Q closes the screen)"
)


class DaemonTable:
    """A ``TableClient`` for one table over the daemon's local API.

    View events are pushed by the daemon; when none has come for ``refresh`` seconds the
    current view is pulled, so a seat whose act was refused (the table had moved on, and no
    new event will follow) still sees that it is awaited and acts again.

    In the lobby the table summary (the ``tables`` request) is also read every ``refresh``
    seconds and its ``members`` (who the host's daemon admitted, in join order) are added to
    the event as ``"members"``: the lobby screen shows an admitted player at once, even while
    the view still names the place ``seat N``.
    """

    def __init__(self, api: LocalApi, table: str, refresh: float = 1.0) -> None:
        self.api = api
        self.table = table  # its id (hex), a prefix of it, or its name
        self.refresh = refresh
        self._latest: ViewEvent | None = None
        self._last_seen = time.monotonic()
        self._members: list[dict[str, Any]] = []
        self._members_read = -refresh

    def is_ours(self, event: Mapping[str, Any]) -> bool:
        """A view event of this table (the daemon names tables by id and by name)."""
        table = str(event.get("table") or "")
        return event.get("type") == "view" and (
            table.startswith(self.table) or event.get("name") == self.table
        )

    def _arrived(self, timeout: float) -> list[ViewEvent]:
        """This table's view events, oldest first: waiting up to ``timeout`` seconds for
        the first, then taking only those already queued (each checked: ``view_event``)."""
        found: list[ViewEvent] = []
        end = time.monotonic() + timeout
        wait = timeout
        while True:
            event = self.api.next_event(wait)
            if event is None:
                return found
            if self.is_ours(event):
                found.append(view_event(event))
            wait = max(0.0, end - time.monotonic()) if not found else 0.0

    def latest_event(self, timeout: float) -> ViewEvent | None:
        arrived = self._arrived(timeout)
        newest: ViewEvent | None = arrived[-1] if arrived else None
        now = time.monotonic()
        if newest is None and now - self._last_seen >= self.refresh:
            try:
                newest = current_view(self.api, self.table)
            except FourwindsError as error:
                newest = self._gone(str(error))
        if newest is not None:
            self._latest = newest
            self._last_seen = now
        return self._with_members(newest, now)

    def events(self, timeout: float) -> list[ViewEvent]:
        """Every view event of this table that arrived within ``timeout`` seconds, oldest
        first (``latest_event`` keeps only the newest: a Botzone bot must hear each step);
        when none came for ``refresh`` seconds, the current view pulled."""
        found = self._arrived(timeout)
        now = time.monotonic()
        if not found and now - self._last_seen >= self.refresh:
            with contextlib.suppress(FourwindsError):  # the next pull asks again
                found.append(current_view(self.api, self.table))
        if found:
            self._latest = found[-1]
            self._last_seen = now
        return found

    def _gone(self, reason: str) -> ViewEvent | None:
        """The last view once more, saying the table is gone, when the daemon no longer sits
        at it (its host closed the lobby, or it was left from another window: `fourwinds
        leave`); None for any other refusal (the next pull asks again)."""
        latest = self._latest
        if latest is None or not reason.startswith(NOT_SEATED) or latest.get("gone"):
            return None
        view: SeatView = {**latest["view"], "phase_detail": TABLE_GONE, "deadline": None}
        return {**latest, "gone": True, "view": view, "legal_actions": [], "members": []}

    def pull_due(self) -> bool:
        """Would ``latest_event`` ask the daemon now, if no event came (the view, or in
        the lobby the members)? A follower looks at the daemon first (daemon_watch.py)."""
        now = time.monotonic()
        lobby = self._latest is not None and self._latest["view"].get("phase") == "lobby"
        return now - self._last_seen >= self.refresh or (
            lobby and now - self._members_read >= self.refresh
        )

    def refresh_now(self) -> None:
        """Pull the view at the next ``latest_event`` (a new daemon connection)."""
        self._last_seen = time.monotonic() - self.refresh

    def _with_members(self, newest: ViewEvent | None, now: float) -> ViewEvent | None:
        """In the lobby: the event with the table summary's ``members`` (re-read every
        ``refresh`` seconds); the last event again when only the members changed."""
        latest = self._latest
        if latest is None or latest["view"].get("phase") != "lobby":
            return newest
        if now - self._members_read >= self.refresh:
            self._members_read = now
            try:
                members = self._read_members()
            except FourwindsError:
                members = self._members
            if members != self._members:
                self._members = members
                newest = newest or latest
        if newest is not None:
            newest = {**newest, "members": self._members}
            self._latest = newest
        return newest

    def _read_members(self) -> list[dict[str, Any]]:
        answer = checked(self.api.request({"type": "tables"}))
        for summary in answer.get("tables") or ():
            table = str(summary.get("table") or "")
            if table.startswith(self.table) or summary.get("name") == self.table:
                return list(summary.get("members") or ())
        return []

    def act(self, request: Mapping[str, Any]) -> Message:
        return self.api.request(request)

    def sheet(self) -> Message:
        """The card (American) or the fan list (MCR) of this table: the ``sheet`` request."""
        answer = checked(self.api.request({"type": "sheet", "table": self.table}))
        sheet = answer.get("sheet")
        if not isinstance(sheet, dict):
            raise FourwindsError("the daemon sent no card for this table")
        return sheet

    def close(self) -> None:
        self.api.close()


def current_view(api: LocalApi, table: str) -> ViewEvent:
    """Ask the daemon for the table's current view event (the CLI's `status`, `hand`...),
    checked (``view_event``)."""
    answer = checked(api.request({"type": "view", "table": table}))
    event = answer.get("event", answer)
    if not isinstance(event, dict) or "view" not in event:
        raise FourwindsError(f"the daemon sent no view for table {table!r}")
    return view_event(event)
