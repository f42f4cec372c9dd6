"""One open page: its WebSocket to the server, relayed to the daemon's local API.

The page sends JSON maps ``{"id": N, "type": T, ...}`` and gets ``{"type": "reply", "id": N,
"ok": ..., ...}`` back; view events come as ``{"type": "view", ...}`` exactly as the daemon
sends them (docs/LOCAL-API.md), the newest per table only when the page reads slower than
they come (a view is a whole snapshot, so nothing is lost). The first message is ``hello``:
the player's name and the table the server was started for (``play --web``), if any.
``{"type": "link", "state": "lost" | "back"}`` says the daemon went away or runs again
(link.py).

Relayed as they are: the questions (``tables``, ``view``, ``sheet``, ``suggest``), ``peer`` and the
moves (``act``, ``ready``, ``seat``). Done here, as `fourwinds play` does them: ``host``
(create a table, seat bots in its free seats, say ready when they are three), ``join``
(join: the player says ready in the lobby),
``open`` (restart the bot seats of a table we return to) and ``leave`` (leave the table and
remove its bot seats' data). Anything else is refused with the reason; nothing here knows the
rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from fourwinds.frontends.client.ready_with_bots import READY_RETRY_S, READY_WAIT_S, ready_not_yet
from fourwinds.frontends.terminal.table_help import page_sections
from fourwinds.frontends.web.link import AsyncLink
from fourwinds.frontends.web.seats import BotKeeper
from fourwinds.protocol.bot_level import parse_level
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.registry import rule_names

log = logging.getLogger(__name__)
Message = dict[str, Any]
# the tournament requests only read: the page shows an event, it never changes one
RELAYED = frozenset(
    {
        "tables",
        "view",
        "sheet",
        "rulesets",
        "suggest",
        "act",
        "ready",
        "seat",
        "peer",
        "tournament_list",
        "tournament_status",
        "tournament_standings",
    }
)
MAX_PAGE_MESSAGE = 64 * 1024


class PageError(FourwindsError):
    """A page's request cannot be done (the reason goes back to the page)."""


class Bridge:
    """What every page shares: the daemon link, the bot seats, the table to show first."""

    def __init__(
        self, link: AsyncLink, bots: BotKeeper, table: str | None, hello: Mapping[str, Any]
    ) -> None:
        self.link = link
        self.bots = bots
        self.table = table
        self.hello = dict(hello)
        self.pages: set[web.WebSocketResponse] = set()  # the WebSockets open now

    async def close_pages(self) -> None:
        """Close every open page's WebSocket ("going away"): the server is stopping. Without
        this the server would wait for the browser to close the page first (aiohttp waits for
        running handlers), and `play --web` took 10-30 s to end after Ctrl-C."""
        await asyncio.gather(
            *(
                page.close(code=WSCloseCode.GOING_AWAY, message=b"the web server stopped")
                for page in list(self.pages)
            ),
            return_exceptions=True,
        )

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """Run one page's WebSocket until it closes."""
        # not compressed: the page is on this machine, where deflating every view (a few KB,
        # several a second) only costs both ends CPU at the moment a move must be shown
        socket = web.WebSocketResponse(
            max_msg_size=MAX_PAGE_MESSAGE, heartbeat=20.0, compress=False
        )
        await socket.prepare(request)
        self.pages.add(socket)
        try:
            await _Page(self, socket).run()
        finally:
            self.pages.discard(socket)
        return socket

    async def handle(self, message: Mapping[str, Any]) -> Message:
        """The answer to one page request (never raises for a bad request)."""
        kind = message.get("type")
        body = {k: v for k, v in message.items() if k != "id"}
        try:
            if kind in RELAYED:
                return await self.link.request(body)
            if kind == "host":
                return await self._host(body)
            if kind == "join":
                return await self._join(body)
            if kind == "open":
                return await self._open(body)
            if kind == "leave":
                return await self._leave(body)
            if kind == "keys":  # the help page: the table's one key list (table_help.py)
                return {"ok": True, "sections": page_sections()}
        except (FourwindsError, TimeoutError, OSError) as error:
            return {"ok": False, "error": str(error) or type(error).__name__}
        return {"ok": False, "error": f"unknown request type {kind!r}"}

    async def _ask(self, message: Mapping[str, Any]) -> Message:
        answer = await self.link.request(message)
        if not answer.get("ok"):
            raise PageError(str(answer.get("error") or "the daemon refused without a reason"))
        return answer

    async def _host(self, body: Mapping[str, Any]) -> Message:
        rules = body.get("rules")
        if rules not in rule_names():
            raise PageError(f"rules must be one of {', '.join(rule_names())}, not {rules!r}")
        bots = body.get("bots", 0)
        if not isinstance(bots, int) or isinstance(bots, bool) or not 0 <= bots <= 3:
            raise PageError(f"bots must be 0 to 3, not {bots!r}")
        level = body.get("bot_level") or None
        if level is not None:
            try:
                level = parse_level(level)
            except ValueError as error:
                raise PageError(str(error)) from None
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise PageError("options must be a map")
        options = dict(options)
        options.setdefault("deck", "practice" if bots == 3 else "masked")
        name = str(body.get("name") or "").strip() or await self._free_name(
            f"{self.hello.get('name') or 'my'}-table"
        )
        request: Message = {
            "type": "create",
            "name": name,
            "rules": rules,
            "private": bool(body.get("private")),
            "options": options,
        }
        if bots == 3:
            request["listed"] = False  # you and your bots: never announced
        answer = await self._ask(request)
        table = str(answer.get("table") or name)
        code = str(answer["code"]) if answer.get("code") else None
        if bots:
            port = int((await self._ask({"type": "status"}))["port"])
            key = str((await self._ask({"type": "whoami"})).get("public_key"))
            try:
                await asyncio.to_thread(
                    self.bots.seat,
                    table=table,
                    rules=str(rules),
                    count=bots,
                    host_port=port,
                    host_key=key,
                    code=code,
                    level=level,
                )
            except (FourwindsError, OSError) as error:
                await self.link.request({"type": "leave", "table": table, "force": True})
                await asyncio.to_thread(self.bots.forget, table)
                raise PageError(f"could not seat the bots: {error}") from None
        if bots == 3:  # you and three bots, who are ready at once: the hand starts
            await self._ready(table)
        return {"ok": True, "table": table, "code": code, "name": name}

    async def _free_name(self, base: str) -> str:
        tables = (await self._ask({"type": "tables"})).get("tables") or ()
        taken = {str(t.get("name")) for t in tables if isinstance(t, dict)}
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        return name

    async def _join(self, body: Mapping[str, Any]) -> Message:
        request = {
            k: body[k]
            for k in ("table", "code", "host", "port", "public_key")
            if body.get(k) not in (None, "")
        }
        answer = await self._ask({"type": "join", **request})
        # never ready on the player's behalf: each person presses Ready in the lobby
        return {"ok": True, "table": str(answer.get("table") or body.get("table"))}

    async def _ready(self, table: str) -> None:
        """Say ready at a table of the player and three bots (``host`` only; the rule and
        its wait: frontends/client/ready_with_bots.py, as `fourwinds play` says it)."""
        end = asyncio.get_running_loop().time() + READY_WAIT_S
        while (
            ready_not_yet(await self.link.request({"type": "ready", "table": table}))
            and asyncio.get_running_loop().time() < end
        ):
            await asyncio.sleep(READY_RETRY_S)

    async def _open(self, body: Mapping[str, Any]) -> Message:
        table = str(body.get("table") or "")
        event = (await self._ask({"type": "view", "table": table})).get("event") or {}
        table_id = str(event.get("table") or table)
        started = 0
        if self.bots.has_bots(table_id):
            port = int((await self._ask({"type": "status"}))["port"])
            started = await asyncio.to_thread(self.bots.resume, table_id, port)
        return {"ok": True, "event": event, "bots_started": started}

    async def _leave(self, body: Mapping[str, Any]) -> Message:
        table = str(body.get("table") or "")
        event = (await self._ask({"type": "view", "table": table})).get("event") or {}
        force = body.get("force", False)
        if not isinstance(force, bool):
            raise PageError("force must be true or false")
        await self._ask({"type": "leave", "table": table, "force": force})
        await asyncio.to_thread(self.bots.forget, str(event.get("table") or table))
        return {"ok": True}


class _Page:
    """One WebSocket: requests in (each answered in turn), the newest events out."""

    def __init__(self, bridge: Bridge, socket: web.WebSocketResponse) -> None:
        self.bridge = bridge
        self.socket = socket
        self.newest: dict[str, Message] = {}  # the newest unsent view per table
        self.wake = asyncio.Event()

    def _on_event(self, event: Message) -> None:
        self.newest[str(event.get("table") or "")] = event
        self.wake.set()

    async def _send_events(self) -> None:
        """Send the newest views as they come; a view that cannot be sent as JSON is logged
        and skipped, never the end of the page's views."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            pending, self.newest = self.newest, {}
            for event in pending.values():
                try:
                    text = json.dumps(event, default=_jsonable)
                except (TypeError, ValueError) as error:
                    log.warning(
                        "a view of table %s could not be sent to the page: %s",
                        str(event.get("table"))[:8],
                        error,
                    )
                    continue
                await self.socket.send_str(text)

    def _sender_ended(self, sender: asyncio.Task[None]) -> None:
        """The views stopped while the page is open (its connection broke under a send):
        close it, so the page reconnects and opens the table again, never left showing an
        old view."""
        if sender.cancelled():
            return
        log.warning("page views ended (%s): closing the page's connection", sender.exception())
        asyncio.get_running_loop().create_task(self.socket.close())

    async def run(self) -> None:
        stop = self.bridge.link.listen(self._on_event)
        sender = asyncio.get_running_loop().create_task(self._send_events())
        sender.add_done_callback(self._sender_ended)
        try:
            await self.socket.send_str(
                json.dumps({"type": "hello", **self.bridge.hello, "table": self.bridge.table})
            )
            if self.bridge.link.lost:  # (a page opened while the daemon is away)
                await self.socket.send_str(json.dumps({"type": "link", "state": "lost"}))
            async for frame in self.socket:
                if frame.type != WSMsgType.TEXT:
                    continue
                await self._answer(frame.data)
        except (ConnectionError, RuntimeError) as error:
            log.info("page connection closed: %s", error)
        finally:
            stop()
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    async def _answer(self, text: str) -> None:
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            await self.socket.send_str(
                json.dumps({"type": "reply", "id": None, "ok": False, "error": "not a JSON map"})
            )
            return
        answer = await self.bridge.handle(message)
        await self.socket.send_str(
            json.dumps({**answer, "type": "reply", "id": message.get("id")}, default=_jsonable)
        )


def _jsonable(value: object) -> object:
    """Bytes in a daemon answer (e.g. a transcript) as hex: JSON has no bytes."""
    if isinstance(value, bytes | bytearray):
        return value.hex()
    raise TypeError(f"cannot send {type(value).__name__} to the page")
