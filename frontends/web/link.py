"""The web server's link to the local daemon: the local API over asyncio ZeroMQ.

The same wire as ``fourwinds.frontends.client`` (one msgpack map a frame, replies matched by
``id``), but on the event loop, so one link serves every open page: a reader task hands each
reply to the request waiting for it and each event to every listener (``listen``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Mapping
from typing import Any

import msgpack
import zmq
import zmq.asyncio

from fourwinds.daemon.api import API_VERSION
from fourwinds.daemon.paths import default_paths
from fourwinds.frontends.daemon_link import DaemonUnavailable

Message = dict[str, Any]
Listener = Callable[[Message], None]
REQUEST_TIMEOUT = 10.0
SLOW_REQUEST_TIMEOUT = 30.0     # join waits for the host (up to ~13 s), create for the disk
SLOW_TYPES = frozenset({"join", "create", "leave"})
MAX_MESSAGE = 16 * 1024 * 1024


class AsyncLink:
    """One subscribed connection to the daemon, shared by every page."""

    def __init__(self, endpoint: str, token: str = "") -> None:
        self.endpoint = endpoint
        self.token = token
        self._ctx = zmq.asyncio.Context()
        self._socket = self._ctx.socket(zmq.DEALER)
        self._socket.linger = 0
        self._socket.maxmsgsize = MAX_MESSAGE
        self._socket.connect(endpoint)
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Message]] = {}
        self._listeners: set[Listener] = set()
        self._reader: asyncio.Task[None] | None = None

    async def start(self, subscribe: bool = True) -> Message:
        """Start reading, say hello (and subscribe); the hello answer."""
        self._reader = asyncio.get_running_loop().create_task(self._read())
        try:
            hello = await self.request({"type": "hello"}, timeout=5.0)
        except TimeoutError as error:
            raise DaemonUnavailable(f"the daemon at {self.endpoint} does not answer") from error
        if not hello.get("ok"):
            raise DaemonUnavailable(f"the daemon refused us: {hello.get('error')}")
        if subscribe:
            await self.request({"type": "subscribe"})
        return hello

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns the function that stops."""
        self._listeners.add(listener)
        return lambda: self._listeners.discard(listener)

    async def request(self, message: Mapping[str, Any], timeout: float | None = None) -> Message:
        """One request; the daemon's reply. ``TimeoutError`` when it does not answer."""
        request_id = next(self._ids)
        payload = {**message, "v": API_VERSION, "id": request_id}
        if self.token:
            payload["token"] = self.token
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        if timeout is None:
            timeout = SLOW_REQUEST_TIMEOUT if message.get("type") in SLOW_TYPES \
                else REQUEST_TIMEOUT
        try:
            await self._socket.send(msgpack.packb(payload, use_bin_type=True))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(f"the daemon did not answer {message.get('type')!r} within "
                               f"{timeout:.0f} s") from None
        finally:
            self._waiting.pop(request_id, None)

    async def _read(self) -> None:
        while True:
            data = await self._socket.recv()
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
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._socket.close(linger=0)
        self._ctx.term()


async def open_link(data_dir: str | None) -> AsyncLink:
    """A subscribed link to the daemon of ``data_dir``; ``DaemonUnavailable`` when none runs."""
    paths = default_paths(data_dir)
    try:
        info = msgpack.unpackb(paths.api_endpoint_file.read_bytes(), raw=False)
    except (OSError, ValueError) as error:
        raise DaemonUnavailable(f"no fourwinds daemon is running for {paths.data}") from error
    link = AsyncLink(str(info["endpoint"]), str(info.get("token") or ""))
    try:
        await link.start()
    except BaseException:
        await link.close()
        raise
    return link
