"""The views our frontends see: each table's seat view, built from the session and what the
daemon knows of the other seats (who is unreachable, who rebuilds, the players' names now),
and published to the local API's subscribers (at once when the table waits for us or moved a
step, otherwise the newest of a burst at most every PUBLISH_IDLE_S).

``Views`` reaches the daemon only through ``ViewHost``, the members it reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from fourwinds.daemon.local_api.server import Message
from fourwinds.daemon.peers.identity import Identity, fingerprint
from fourwinds.daemon.table_runtimes.catching_up import RECONNECTING_TEXT
from fourwinds.daemon.table_runtimes.rebuild import PEER_SHOWN_S
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionPort, is_seated, progress_of
from fourwinds.daemon.table_runtimes.view_changes import shown
from fourwinds.protocol.table.rules.rules_label import rules_label

log = logging.getLogger(__name__)

PUBLISH_S = 0.001
PUBLISH_IDLE_S = 0.1
UNREACHABLE_S = 3.0
"""A seat not heard from for this long is named in the view as unreachable (with how long and
its last address); ``offline`` lists it after 2 s already (transport.HEARTBEAT_S x 4)."""


class Subscribers(Protocol):
    """The local API server's side of publishing (api/server.py)."""

    def has_subscribers(self) -> bool: ...
    def publish(self, event: Message) -> None: ...


class RebuildPeers(Protocol):
    """The seats a rebuild waits for (tables/rebuilds.py)."""

    def rebuild_peers(self, rt: TableRuntime) -> list[bytes]: ...


class LastHeard(Protocol):
    """When and where each other seat was last reached (peers/whereabouts.py)."""

    def unreachable_for(self, key: bytes, now: float) -> float: ...
    def last_address(self, rt: TableRuntime, key: bytes) -> str: ...


class Reconnecting(Protocol):
    """Whether a table still catches up after our restart (table_runtimes/steps.py)."""

    def reconnecting(self, rt: TableRuntime, now: float) -> bool: ...


class ViewHost(Protocol):
    """The daemon as the views see it."""

    identity: Identity
    name: str
    names: dict[bytes, str]
    port: SessionPort
    tables: dict[bytes, TableRuntime]

    @property
    def api(self) -> Subscribers: ...
    @property
    def rebuilds(self) -> RebuildPeers: ...
    @property
    def whereabouts(self) -> LastHeard: ...
    @property
    def steps(self) -> Reconnecting: ...

    def alive(self, key: bytes) -> bool: ...


class Views:
    """Builds and publishes the view events of one daemon's tables."""

    def __init__(self, host: ViewHost) -> None:
        self.d = host
        # table -> (session, unreachable places, its view, when built, current names)
        self._views: dict[
            bytes, tuple[Any, tuple[Any, ...], dict[str, Any], float, dict[int, str]]
        ] = {}
        self._dirty: dict[bytes, list[str]] = {}
        self._published_at: dict[bytes, float] = {}  # table -> when its last view went
        self._published_progress: dict[bytes, object] = {}  # table -> where it was then
        self._published_shown: dict[bytes, object] = {}  # table -> what its last view showed
        self._wake = asyncio.Event()

    def current_names(self, rt: TableRuntime) -> dict[int, str]:
        """By table place, the name each player of ``rt`` goes by now: ours from our config,
        each peer's from its latest Hello (a player renamed since sitting down shows the new
        name; the signed Join keeps the old one). A peer not heard from yet is left out: the
        view shows the name it signed."""
        keys = list(self.d.port.seat_keys(rt.session)) if rt.session is not None else []
        places = {key: place for place, key in enumerate(keys) if key is not None}
        for key, place in rt.places().items():
            places.setdefault(key, place)
        me = self.d.identity.public_key
        out = {}
        for key, place in places.items():
            name = self.d.name if key == me else self.d.names.get(key, "")
            if name and 0 <= place < 4:
                out[place] = name
        return out

    def player_name(self, rt: TableRuntime | None, key: bytes) -> str:
        """What our screens and logs call the player of ``key``: the name it goes by now
        (``names``: its latest Hello), else the one it signed at ``rt`` (the session port's
        optional ``signed_names``), else "a player"; never a key fingerprint, which belongs
        where trust is decided (pairing, ``whoami``)."""
        if key == self.d.identity.public_key:
            return self.d.name
        name = self.d.names.get(key, "")
        signed = self.d.port.signed_names
        if name or rt is None or rt.session is None or signed is None:
            return name or "a player"
        keys = list(self.d.port.seat_keys(rt.session))
        place = keys.index(key) if key in keys else rt.places().get(key, -1)
        names = list(signed(rt.session))
        found = str(names[place]) if 0 <= place < len(names) else ""
        return "a player" if not found or found == f"seat {place}" else found

    def _seat_view(self, rt: TableRuntime, away: tuple[Any, ...] = ()) -> dict[str, Any]:
        """The session's view, computed once per session value (sessions are immutable), per
        set of unreachable places (``_unreachable``: their seconds change once a second, and
        only while a seat is unreachable) and per set of current names (``current_names``)."""
        if rt.rebuild is not None:
            return {
                "phase_detail": rt.rebuild.detail(self.d.rebuilds.rebuild_peers(rt)),
                "rebuilding": rt.rebuild.reason,
            }
        if rt.session is None:
            return {}
        names = self.current_names(rt) if self.d.port.view_takes_names else {}
        cached = self._views.get(rt.table_id)
        if (
            cached is None
            or cached[0] is not rt.session
            or cached[1] != away
            or cached[4] != names
            or (cached[2].get("waiting") and time.monotonic() - cached[3] >= 1.0)
        ):
            # (a view that waits for a seat past its window counts the seconds: once a second)
            extra: dict[str, Any] = {"names": names} if self.d.port.view_takes_names else {}
            if away and self.d.port.view_takes_reach:
                extra["unreachable"] = [
                    {"place": place, "for_s": for_s, "last_address": where}
                    for place, for_s, where in away
                ]
            made = self.d.port.seat_view(rt.session, **extra)
            cached = (rt.session, away, dict(made), time.monotonic(), names)
            self._views[rt.table_id] = cached
        view = dict(cached[2])
        deadline = view.get("deadline")
        if isinstance(deadline, (int, float)) and not isinstance(deadline, bool):
            # the view is cached per session state: count down the time since it was built
            view["deadline"] = max(0.0, float(deadline) - (time.monotonic() - cached[3]))
            if isinstance(view.get("next"), dict):  # a hand's end: the same "next" countdown
                view["next"] = {**view["next"], "deadline": view["deadline"]}
        return view

    def forget(self, table_id: bytes) -> None:
        """A table this daemon dropped (left, or an event's table whose result counts): its
        cached view goes, and with it the table's whole session, which the cache held (a
        bot entrant's daemon kept every earlier round's table so, about 4 MB each)."""
        for cache in (
            self._views,
            self._dirty,
            self._published_at,
            self._published_progress,
            self._published_shown,
        ):
            cache.pop(table_id, None)

    def countdown_over(self, rt: TableRuntime, now: float) -> None:
        """The countdown in the view last built for ``rt`` has just run out: a new view, at
        once. Our own window's end changes the table anyway (our default answer); another
        seat's means the table now waits for it past its window, which the view says in
        ``waiting`` (protocol/table/views/waiting.py) instead of a countdown stuck at 0."""
        cached = self._views.get(rt.table_id)
        if cached is None or cached[0] is not rt.session:
            return
        deadline = cached[2].get("deadline")
        if (
            isinstance(deadline, (int, float))
            and not isinstance(deadline, bool)
            and deadline > 0
            and now - cached[3] >= deadline
        ):
            del self._views[rt.table_id]
            self.publish_view(rt, [], at_once=True)

    def _unreachable(self, rt: TableRuntime, now: float) -> list[tuple[bytes, int, int, str]]:
        """(key, place, whole seconds, last address) of each other seat we cannot reach:
        not heard from for UNREACHABLE_S (counted from our start when never); places as the
        session numbers them, or in join order before it knows them."""
        keys = list(self.d.port.seat_keys(rt.session)) if rt.session is not None else []
        order = rt.places()
        out = []
        for key in rt.members:
            if key == self.d.identity.public_key or self.d.alive(key):
                continue
            gone = self.d.whereabouts.unreachable_for(key, now)
            place = keys.index(key) if key in keys else order.get(key, -1)
            if gone >= UNREACHABLE_S and 0 <= place < 4:
                out.append((key, place, int(gone), self.d.whereabouts.last_address(rt, key)))
        return out

    def view_event(self, rt: TableRuntime, events: list[str]) -> Message:
        missing = self._unreachable(rt, time.monotonic())
        away = tuple((place, for_s, where) for _, place, for_s, where in missing)
        view = rt.show_pause(self._seat_view(rt, away))  # a full disk's pause says why
        view = self._show_rebuilding_peers(rt, view)
        legal = view.pop("legal_actions", [])
        if self.d.steps.reconnecting(rt, time.monotonic()):
            # the table as our records left it is stale: say what we do, offer nothing
            view = {
                **view,
                "reconnecting": True,
                "phase_detail": RECONNECTING_TEXT,
                "deadline": None,
                "waiting": None,
                "screen": "reconnecting",
            }
            legal = []
        elif view:
            view["reconnecting"] = False
        now = time.monotonic()
        offline = [
            {
                "fingerprint": fingerprint(k),
                "player": self.d.names.get(k, ""),
                "for_s": int(self.d.whereabouts.unreachable_for(k, now)),
                "last_address": self.d.whereabouts.last_address(rt, k),
            }
            for k in rt.members
            if not self.d.alive(k)
        ]
        rt.view_seq += 1
        event = {
            "type": "view",
            "table": rt.table_hex,
            "name": rt.name,
            "rules": rt.rules,
            "seq": rt.view_seq,
            "applied_at": rt.applied_at,
            "steps_applied": [[n, t] for n, t in rt.steps_applied],
            "view": view,
            "legal_actions": legal,
            "offline": offline,
            "events": events,
            "problems": list(rt.problems),
        }
        if view.get("phase") in (None, "lobby"):
            # before the seating the session knows only the places it has seen join; the
            # daemon's roster (join order, the host first) shows an admitted player at once
            event["members"] = self.table_summary(rt)["members"]
            # what leaving does to the others, when the lobby's Leave must be confirmed
            event["leave_warning"] = self.leave_warning(rt)
            if rt.code is not None and len(rt.members) < 4:
                # only the host keeps the code: its lobby shows it while places are free
                event["code"] = rt.code
        return event

    def _show_rebuilding_peers(self, rt: TableRuntime, view: dict[str, Any]) -> dict[str, Any]:
        """While another seat rebuilds its table from ours (it asked within PEER_SHOWN_S),
        the view says so (``phase_detail`` and ``rebuilding_peers``): the table waits for it."""
        now = time.monotonic()
        names = [
            self.player_name(rt, k)
            for k, at in rt.peers_rebuilding.items()
            if now - at < PEER_SHOWN_S
        ]
        if not names:
            return view
        view = dict(view)
        view["rebuilding_peers"] = names
        view["phase_detail"] = "; ".join(
            f"{name} is rebuilding its table from the others" for name in names
        )
        return view

    def peer_rebuilding(self, rt: TableRuntime, key: bytes) -> None:
        """A member asked us for its lost table (``Rebuild``): say so on our screens."""
        now = time.monotonic()
        already = now - rt.peers_rebuilding.get(key, -PEER_SHOWN_S) < PEER_SHOWN_S
        rt.peers_rebuilding[key] = now
        if not already:
            name = self.player_name(rt, key)
            log.warning(
                "table %s: %s is rebuilding its table from the others", rt.table_hex[:8], name
            )
            rt.problems.append(f"{name} is rebuilding its table from the others")
            del rt.problems[:-20]
            self.publish_view(rt, [], at_once=True)

    def resend_views(self) -> None:
        """Every table's view again, to every subscriber, even if it shows nothing new (a
        frontend just subscribed)."""
        self._published_shown.clear()
        for rt in self.d.tables.values():
            if rt.session is not None:
                self.publish_view(rt, [])

    def publish_view(self, rt: TableRuntime, events: list[str], at_once: bool = False) -> None:
        """Send a view event to our frontends (only while one is subscribed: a view is built
        only for someone). ``at_once``: now, if it is due now (see ``_due_now``); otherwise
        it is queued for the publisher, which sends only the newest state of a burst."""
        if not self.d.api.has_subscribers():
            return
        pending = self._dirty.setdefault(rt.table_id, [])
        pending.extend(events)
        if at_once and self._due_now(rt):
            del self._dirty[rt.table_id]
            self._send_view(rt, pending, time.monotonic())
            return
        self._wake.set()

    def _due_now(self, rt: TableRuntime) -> bool:
        """A view is due at once when the table waits for our seat or moved on a step."""
        return self._progress(rt) != self._published_progress.get(rt.table_id) or self._urgent(rt)

    def _send_view(self, rt: TableRuntime, events: list[str], now: float) -> None:
        """Build and send one view event. A failure to build it is logged and never stops
        the caller: views run inside ``apply``, before the fsync and the sends to peers."""
        self._published_at[rt.table_id] = now
        self._published_progress[rt.table_id] = self._progress(rt)
        try:
            event = self.view_event(rt, events[-50:])
        except Exception:  # a bug in a view must not hold up the table
            log.exception("table %s: building the view failed", rt.table_hex[:8])
            return
        seen = shown(event, time.monotonic())
        if not events and self._published_shown.get(rt.table_id) == seen:
            return  # a refresh that shows nothing new is not sent (view_changes.py)
        self._published_shown[rt.table_id] = seen
        self.d.api.publish(event)

    def _urgent(self, rt: TableRuntime) -> bool:
        """Does the table wait for our seat? (Then the frontend needs the view at once.)"""
        awaits = self.d.port.awaits_us
        return rt.session is not None and (awaits is None or bool(awaits(rt.session)))

    def _progress(self, rt: TableRuntime) -> object:
        """Where the table is, as the session module's optional ``progress`` says (a change
        is sent at once); None for a module without it."""
        return progress_of(self.d.port, rt.session)

    async def publisher(self) -> None:
        """Views of tables that wait for us, or that moved to a new step, go out at once;
        other changes at most every PUBLISH_IDLE_S (a burst of messages within one step
        needs only the newest view). Sleeps while nothing is due."""
        while True:
            await self._wake.wait()
            await asyncio.sleep(0)  # let the rest of this burst of frames land first
            self._wake.clear()
            now = time.monotonic()
            later: dict[bytes, list[str]] = {}
            due = PUBLISH_IDLE_S
            for table_id, events in self._dirty.items():
                rt = self.d.tables.get(table_id)
                if rt is None:
                    continue
                waited = now - self._published_at.get(table_id, -PUBLISH_IDLE_S)
                if waited >= PUBLISH_IDLE_S or self._due_now(rt):
                    self._send_view(rt, events, now)
                else:
                    later[table_id] = events
                    due = min(due, PUBLISH_IDLE_S - waited)
            self._dirty = later
            if later:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), max(due, PUBLISH_S))
                self._wake.set()

    def leave_warning(self, rt: TableRuntime) -> str:
        """What leaving ``rt`` does to the others, when it needs ``force`` ("" when it does
        not): a seated match not over cannot go on without our seat; a lobby we host where
        others wait closes for them. A lobby we joined (the host frees the place), a finished
        or halted match, or a table with nobody else: nothing to warn of."""
        me = self.d.identity.public_key
        others = [self.player_name(rt, k) for k in rt.members if k != me]
        if not others or rt.session is None:
            return ""
        who = ", ".join(others)
        if not is_seated(self.d.port, rt.session):
            if rt.host_key != me:
                return ""
            return (
                f"you host {rt.name}, where {who} {'waits' if len(others) == 1 else 'wait'}"
                ": leaving closes the table for them"
            )
        progress = progress_of(self.d.port, rt.session)
        if progress is not None and progress[0] in ("over", "halted"):
            return ""
        if progress is not None and progress[0] == "ready":
            return (
                f"all four places at {rt.name} are taken: if you leave, {who} cannot "
                f"start (the table waits for your seat for ever)"
            )
        return (
            f"the match at {rt.name} has started: if you leave, {who} cannot go on "
            f"(the table waits for your seat for ever)"
        )

    def table_summary(self, rt: TableRuntime) -> Message:
        return {
            "table": rt.table_hex,
            "name": rt.name,
            "rules": rt.rules,
            "flowers": rt.flowers,
            "rules_label": rules_label(rt.rules, rt.flowers),
            "leave_warning": self.leave_warning(rt),
            "private": rt.private,
            "seated": len(rt.members),
            "bot_seat": rt.bot_seat,
            "host": rt.host_key == self.d.identity.public_key,
            "code": rt.code if rt.host_key == self.d.identity.public_key else None,
            "members": [
                {
                    "fingerprint": fingerprint(k),
                    "alive": self.d.alive(k),
                    "player": self.d.names.get(k, ""),
                    "place": place,
                }
                for k, place in rt.places().items()
            ],
        }
