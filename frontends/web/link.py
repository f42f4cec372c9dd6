"""The web server's link to the local daemon: the local API over asyncio ZeroMQ.

The same wire as ``fourwinds.frontends.client.client`` (one msgpack map a frame, replies matched by
``id``), but on the event loop, so one link serves every open page: a reader task hands each
reply to the request waiting for it and each event to every listener (``listen``).

The daemon may stop and start again under a running web server (a crash, `fourwinds stop`
then `fourwinds play`): the link watches the daemon's endpoint file, tells the listeners
``{"type": "link", "state": "lost"}`` when its daemon is gone and, once a daemon runs for the
data folder again, connects to it, says hello, subscribes and tells them ``"back"``. The
looking is daemon_watch.py's, shared with `fourwinds play`'s table screen.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Mapping
from typing import Any

import msgpack
import zmq
import zmq.asyncio

from fourwinds.daemon.local_api.version import API_VERSION
from fourwinds.daemon.paths import default_paths
from fourwinds.frontends.client.client import timeout_for
from fourwinds.frontends.client.daemon_link import DaemonUnavailable
from fourwinds.frontends.client.daemon_watch import WATCH_S, DaemonId, Seen, look
from fourwinds.frontends.client.local_seats import running_info

log = logging.getLogger(__name__)
Message = dict[str, Any]
Listener = Callable[[Message], None]
MAX_MESSAGE = 16 * 1024 * 1024


class AsyncLink:
    """One subscribed connection to the daemon, shared by every page."""

    def __init__(
        self,
        endpoint: str,
        token: str = "",
        pid: int = 0,
        follow: bool = False,
        data_dir: str | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.token = token
        self.pid = pid
        self.follow = follow  # watch ``data_dir``'s daemon through restarts
        self.data_dir = data_dir
        self._ctx = zmq.asyncio.Context()
        self._socket = self._connect(endpoint)
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._listeners: set[Listener] = set()
        self._reader: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self.lost = False

    def _connect(self, endpoint: str) -> zmq.asyncio.Socket:
        sock = self._ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.maxmsgsize = MAX_MESSAGE
        sock.connect(endpoint)
        return sock

    async def start(self, subscribe: bool = True) -> Message:
        """Start reading, say hello (and subscribe); the hello answer. With ``follow``,
        also start following the daemon through restarts."""
        hello = await self._greet(subscribe)
        if self.follow and self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())
        return hello

    async def _greet(self, subscribe: bool) -> Message:
        self._reader = asyncio.get_running_loop().create_task(self._read(self._socket))
        try:
            hello = await self._exchange({"type": "hello"}, timeout=5.0)
        except TimeoutError as error:
            raise DaemonUnavailable(f"the daemon at {self.endpoint} does not answer") from error
        if not hello.get("ok"):
            raise DaemonUnavailable(f"the daemon refused us: {hello.get('error')}")
        if subscribe:
            await self._exchange({"type": "subscribe"}, None)
        return hello

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns the function that stops."""
        self._listeners.add(listener)
        return lambda: self._listeners.discard(listener)

    async def request(self, message: Mapping[str, Any], timeout: float | None = None) -> Message:
        """One request; the daemon's reply. ``TimeoutError`` when it does not answer,
        ``DaemonUnavailable`` at once while it is gone (see ``_watch``)."""
        if self.lost:
            raise DaemonUnavailable(
                "your fourwinds daemon is not running (`fourwinds play` starts it)"
            )
        return await self._exchange(message, timeout)

    async def _exchange(self, message: Mapping[str, Any], timeout: float | None) -> Message:
        request_id = next(self._ids)
        payload = {**message, "v": API_VERSION, "id": request_id}
        if self.token:
            payload["token"] = self.token
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        if timeout is None:
            timeout = timeout_for(message)
        try:
            await self._socket.send(msgpack.packb(payload, use_bin_type=True))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"the daemon did not answer {message.get('type')!r} within {timeout:.0f} s"
            ) from None
        finally:
            self._waiting.pop(request_id, None)

    async def _watch(self) -> None:
        """Follow the daemon (daemon_watch.look): gone (its endpoint file removed, or its
        process ended) is ``lost``; a new daemon for the folder is connected to and
        announced ``back``."""
        while True:
            await asyncio.sleep(WATCH_S)
            known = DaemonId(self.endpoint, self.token, self.pid)
            seen, now = await asyncio.to_thread(look, self.data_dir, known)
            if seen is Seen.GONE or now is None:
                self._tell("lost")
                continue
            if seen is Seen.SAME and not self.lost:
                continue
            self._tell("lost")  # the daemon we knew is gone (also when a new one is up)
            try:
                await self._reopen(now)
            except (DaemonUnavailable, TimeoutError, zmq.ZMQError) as error:
                log.info("the daemon is not answering yet: %s", error)
                self._tell("lost")
                continue
            self._tell("back")

    def _tell(self, state: str) -> None:
        """Tell the listeners the daemon is ``lost`` or ``back`` (each change once)."""
        if (state == "lost") == self.lost:
            return
        self.lost = state == "lost"
        log.warning(
            "the daemon is %s",
            "gone: waiting for it to start again" if self.lost else f"back (process {self.pid})",
        )
        for listener in list(self._listeners):
            listener({"type": "link", "state": state})

    async def _reopen(self, daemon: DaemonId) -> None:
        """Connect to ``daemon`` (its endpoint file), say hello, subscribe."""
        await self._stop_reading()
        self._socket.close(linger=0)
        for future in self._waiting.values():  # asked of the daemon that went away
            if not future.done():
                future.set_exception(TimeoutError("the daemon restarted"))
        self.endpoint, self.token, self.pid = daemon.endpoint, daemon.token, daemon.pid
        self._socket = self._connect(self.endpoint)
        await self._greet(subscribe=True)

    async def _stop_reading(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None

    async def _read(self, sock: zmq.asyncio.Socket) -> None:
        while True:
            data = await sock.recv()
            try:
                message = msgpack.unpackb(data, raw=False, strict_map_key=False)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            if message.get("type") == "reply":
                future = self._waiting.get(message.get("id"))  # type: ignore[arg-type]
                if future is not None and not future.done():
                    future.set_result(message)
                continue
            for listener in list(self._listeners):
                listener(message)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        await self._stop_reading()
        self._socket.close(linger=0)
        self._ctx.term()


async def open_link(data_dir: str | None) -> AsyncLink:
    """A subscribed link to the daemon of ``data_dir``, following it through restarts;
    ``DaemonUnavailable`` when none runs."""
    info = running_info(data_dir)
    if info is None or not isinstance(info.get("endpoint"), str):
        raise DaemonUnavailable(
            f"no fourwinds daemon is running for {default_paths(data_dir).data}"
        )
    link = AsyncLink(
        info["endpoint"],
        str(info.get("token") or ""),
        pid=int(info.get("pid") or 0),
        follow=True,
        data_dir=data_dir,
    )
    try:
        await link.start()
    except BaseException:
        await link.close()
        raise
    return link
