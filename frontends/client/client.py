"""A Python client of the daemon's local API (see docs/LOCAL-API.md), synchronous.

``connect(data_dir)`` reads where the daemon listens (``<runtime>/api.endpoint``), connects a
DEALER, subscribes to events and returns a ``Client``: ``request(dict) -> dict`` waits for the
matching reply (events that arrive meanwhile are queued), ``next_event(timeout)`` returns the
next queued or incoming event, ``close()`` closes the socket and the context.
"""

from __future__ import annotations

import collections
import itertools
import time
from collections.abc import Mapping
from typing import Any

import msgpack
import zmq

from fourwinds.daemon.build import build_id
from fourwinds.daemon.local_api.version import API_VERSION
from fourwinds.daemon.paths import default_paths

Message = dict[str, Any]
REQUEST_TIMEOUT = 10.0
SLOW_REQUEST_TIMEOUT = 30.0  # join waits for the host (up to ~13 s), create for the disk
# tournament_start: the daemon waits up to 10 s for the round's seed unless told otherwise
SLOW_TYPES = frozenset({"join", "create", "leave", "tournament_start"})
WAIT_MARGIN = 5.0


def timeout_for(message: Mapping[str, Any]) -> float:
    """How long a frontend waits for the daemon's answer to ``message`` by default: longer
    for the requests that wait on a host or the disk (a join may take ~13 s on a bad link),
    and for a request that asks the daemon to wait ``wait`` seconds (a round's start) at
    least that plus ``WAIT_MARGIN``: the daemon's answer after its wait says why it is still
    waiting, which a frontend that gave up first would never show."""
    base = SLOW_REQUEST_TIMEOUT if message.get("type") in SLOW_TYPES else REQUEST_TIMEOUT
    wait = message.get("wait")
    if isinstance(wait, (int, float)) and not isinstance(wait, bool) and wait > 0:
        return max(base, float(wait) + WAIT_MARGIN)
    return base


MAX_MESSAGE = 16 * 1024 * 1024


class Client:
    """One connection to the local daemon."""

    def __init__(self, endpoint: str, token: str = "") -> None:
        self.endpoint = endpoint
        self.token = token
        # The process's one ZeroMQ context, never one of our own: a client dropped without
        # close() in a reference cycle (a script's, a failed test's traceback) would have its
        # context finalized in the same garbage collection as its socket, in any order, and
        # a context terminated before its socket is closed waits for it for ever.
        self._ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context.instance()
        self._socket = self._ctx.socket(zmq.DEALER)
        self._socket.linger = 0
        self._socket.maxmsgsize = MAX_MESSAGE
        self._socket.connect(endpoint)
        self._ids = itertools.count(1)
        self._events: collections.deque[Message] = collections.deque(maxlen=1000)

    @property
    def socket(self) -> zmq.Socket[bytes]:
        """The DEALER, for a caller that polls several clients at once (zmq.Poller)."""
        return self._socket

    def pending(self) -> bool:
        """Events already received and queued (poll the socket for the others)."""
        return bool(self._events)

    def _receive(self, timeout: float) -> Message | None:
        if not self._socket.poll(max(0, int(timeout * 1000))):
            return None
        data = self._socket.recv()
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
        return value if isinstance(value, dict) else None

    def request(self, message: Mapping[str, Any], timeout: float | None = None) -> Message:
        """Send one request and return the daemon's reply (``{"ok": ..., ...}``); by default
        wait ``timeout_for(message)``."""
        if timeout is None:
            timeout = timeout_for(message)
        request_id = next(self._ids)
        payload = {**message, "v": API_VERSION, "id": request_id}
        if self.token:
            payload["token"] = self.token
        self._socket.send(msgpack.packb(payload, use_bin_type=True))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(
                    f"the daemon did not answer {message.get('type')!r} within {timeout:.0f} s"
                )
            reply = self._receive(left)
            if reply is None:
                continue
            if reply.get("type") == "reply" and reply.get("id") == request_id:
                return reply
            if reply.get("type") != "reply":
                self._events.append(reply)

    def next_event(self, timeout: float) -> Message | None:
        """The next event within ``timeout`` seconds, or None."""
        if self._events:
            return self._events.popleft()
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(max(0.0, deadline - time.monotonic()))
            if message is None:
                return None
            if message.get("type") != "reply":
                return message
            if time.monotonic() >= deadline:
                return None

    def close(self) -> None:
        self._socket.close(linger=0)


def connect(
    data_dir: str | None = None,
    subscribe: bool = True,
    timeout: float = REQUEST_TIMEOUT,
    any_build: bool = False,
) -> Client:
    """A client of the daemon using ``data_dir`` (None: the user's default daemon).

    Raises ConnectionError when no daemon is running there, and when the daemon runs another
    build of fourwinds than this process (daemon/build.py: the program was upgraded while it
    ran), saying what to do; ``any_build``: not that (`fourwinds stop` stops any daemon).
    """
    paths = default_paths(data_dir)
    try:
        info = msgpack.unpackb(paths.api_endpoint_file.read_bytes(), raw=False)
    except (OSError, ValueError) as error:
        raise ConnectionError(
            f"no fourwinds daemon is running for {paths.data} (start one with `fourwinds daemon`)"
        ) from error
    client = Client(str(info["endpoint"]), str(info.get("token") or ""))
    try:
        answer = client.request({"type": "hello"}, timeout=timeout)
    except TimeoutError as error:
        client.close()
        raise ConnectionError(f"the daemon at {info['endpoint']} does not answer") from error
    if not answer.get("ok"):
        client.close()
        raise ConnectionError(f"the daemon refused us: {answer.get('error')}")
    theirs = answer.get("build")
    if not any_build and theirs is not None and theirs != build_id():
        client.close()
        raise ConnectionError(
            f"your daemon (pid {answer.get('pid', '?')}) runs another build of fourwinds "
            f"({theirs}) than this command ({build_id()}): the program changed while it ran. "
            "`fourwinds stop`, then run the command again (your seats are kept)"
        )
    if subscribe:
        client.request({"type": "subscribe"}, timeout=timeout)
    return client
