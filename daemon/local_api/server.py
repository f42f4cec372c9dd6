"""The local frontend API: msgpack requests and a stream of view events over ZeroMQ.

The daemon binds a ROUTER on ``ipc://<runtime>/api.sock``; the runtime directory is mode 0700
and the socket 0600, so only the user can connect. Where ipc is unavailable, it binds
``tcp://127.0.0.1:<random>`` and every request must carry the ``token`` written (mode 0600)
to ``<runtime>/api.endpoint``, which is also where clients learn the endpoint (and the daemon's
pid and how it listens: ``listen`` address, peer ``port``, ``mdns``).

Every message is a msgpack map with ``"v": API_VERSION``. A request has ``type`` and ``id``;
its reply is ``{"v", "type": "reply", "id", "ok": true, ...}`` or ``{"ok": false, "error"}``.
After ``subscribe``, the client also receives events (``"type": "view"`` and others) as they
happen. Malformed requests are answered with the reason (when there is a client to answer),
logged and counted in ``refused``; they never reach the daemon's handlers. docs/LOCAL-API.md
lists every request and event.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, cast

import msgpack
import zmq
import zmq.asyncio

from fourwinds.daemon.local_api.version import API_VERSION as API_VERSION  # re-exported
from fourwinds.daemon.paths import Paths, ensure_private_dir
from fourwinds.daemon.store.disk import write_atomic
from fourwinds.daemon.tasks import cancel_and_wait
from fourwinds.protocol.errors import FourwindsError

log = logging.getLogger(__name__)

MAX_REQUEST = 64 * 1024
"""Bytes of the largest request a frontend may send: the API socket's ZMQ_MAXMSGSIZE (a
``create`` with a card file is the biggest; an Open over wire.MAX_PAYLOAD is refused there)."""
API_RCVHWM = 64
"""Requests libzmq holds per frontend before it stops reading from it: at most 4 MiB."""
API_SNDHWM = 1000
"""Replies and events queued per frontend; a frontend that falls this far behind is
unsubscribed. A seat's view is at most 4.9 KB in a real match (the end of a 16-hand MCR
match; ``scripts/bench frames``), a view event under 16 KB with the at most 50 events and 20
problems it carries, so a full queue of events is under 16 MB. A ``transcript`` reply is the
biggest message (docs/SECURITY.md "Socket bounds")."""
SERIAL = frozenset(
    {
        "create",
        "join",
        "leave",
        "act",
        "ready",
        "peer",
        "tournament_create",
        "tournament_join",
        "tournament_start",
        "tournament_result",
        "tournament_withdraw",
        "tournament_correct",
        "tournament_penalty",
    }
)
"""Requests that change a table or wait on the network: handled one at a time, in the order
they came. Every other request (``status``, ``view``, ``tables``...) is answered at once,
also while one of these waits (a join waits up to 10 s for the host)."""
Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[Message]]


class ApiError(FourwindsError):
    """A request we refuse; the message goes back to the client as ``error``."""


def pack(message: Message) -> bytes:
    data: bytes = msgpack.packb(message, use_bin_type=True)
    return data


def unpack_request(data: bytes) -> Message:
    """Decode one request strictly; raises ApiError with the reason."""
    if len(data) > MAX_REQUEST:
        raise ApiError(f"request of {len(data)} bytes is over the {MAX_REQUEST} limit")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            max_bin_len=MAX_REQUEST,
            max_str_len=MAX_REQUEST,
            max_array_len=1024,
            max_map_len=64,
            max_ext_len=0,
        )
    except Exception as error:
        raise ApiError(f"request is not valid msgpack ({type(error).__name__})") from None
    if not isinstance(value, dict):
        raise ApiError("a request is a map")
    if value.get("v") != API_VERSION:
        raise ApiError(
            f"local API version {value.get('v')!r} is not supported; "
            f"this daemon speaks {API_VERSION}"
        )
    if not isinstance(value.get("type"), str):
        raise ApiError("a request needs a string 'type'")
    return value


class ApiServer:
    """Serves the local API. Construct, then ``await start()``; ``publish`` sends events."""

    def __init__(self, paths: Paths, handler: Handler, force_tcp: bool = False) -> None:
        self.paths = paths
        self.handler = handler
        self.force_tcp = force_tcp
        self.refused: Counter[str] = Counter()
        self.endpoint = ""
        self.token = ""
        self.info: Message = {}  # also written to api.endpoint: how the daemon listens
        self._ctx: zmq.asyncio.Context | None = None
        self._socket: zmq.asyncio.Socket | None = None
        self._subscribers: set[bytes] = set()
        self._task: asyncio.Task[None] | None = None
        self._serial = asyncio.Lock()
        self._handling: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        ensure_private_dir(self.paths.runtime)
        self._ctx = zmq.asyncio.Context()
        sock = self._ctx.socket(zmq.ROUTER)
        sock.linger = 0
        sock.maxmsgsize = MAX_REQUEST
        sock.router_mandatory = True
        sock.sndhwm = API_SNDHWM
        sock.rcvhwm = API_RCVHWM
        self._socket = sock
        if zmq.has("ipc") and not self.force_tcp:
            path = self.paths.api_socket
            if len(str(path)) > 100:
                raise ApiError(f"the runtime path {path} is too long for an ipc socket")
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            sock.bind(f"ipc://{path}")
            os.chmod(path, 0o600)
            self.endpoint = f"ipc://{path}"
        else:
            sock.bind("tcp://127.0.0.1:*")
            self.endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
            self.token = secrets.token_hex(16)
        write_atomic(
            self.paths.api_endpoint_file,
            pack(
                {
                    **self.info,
                    "v": API_VERSION,
                    "endpoint": self.endpoint,
                    "token": self.token,
                    "pid": os.getpid(),
                }
            ),
        )
        self._task = asyncio.create_task(self._serve(), name="local-api")

    async def close(self) -> None:
        await cancel_and_wait([self._task, *self._handling])
        if self._socket is not None:
            self._socket.close(linger=0)
        if self._ctx is not None:
            self._ctx.destroy(linger=0)
        self._socket = self._ctx = None
        for path in (self.paths.api_socket, self.paths.api_endpoint_file):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def refuse(self, reason: str) -> None:
        log.warning("local API refused a request: %s", reason)
        self.refused[reason.split(" (", 1)[0]] += 1

    async def _serve(self) -> None:
        """Receive requests; each is handled in a task of its own (see SERIAL), so no
        request ever holds up the loop that receives the next one."""
        assert self._socket is not None
        while True:
            frames = await self._socket.recv_multipart()
            if len(frames) != 2:
                self.refuse("request: wrong number of frames")
                continue
            task = asyncio.create_task(self._handle(*frames), name="api-request")
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)

    async def _handle(self, client: bytes, data: bytes) -> None:
        request_id: Any = None
        try:
            request = unpack_request(data)
            request_id = request.get("id")
            if self.token and not hmac.compare_digest(str(request.get("token", "")), self.token):
                raise ApiError("missing or wrong token")
            if request["type"] == "subscribe":
                self._subscribers.add(client)
            if request["type"] in SERIAL:
                async with self._serial:
                    reply = await self.handler(request)
            else:
                reply = await self.handler(request)
        except FourwindsError as error:
            self.refuse(str(error))
            reply = {"ok": False, "error": str(error)}
        except Exception as error:  # a bug must not take the daemon down
            log.exception("local API handler failed")
            reply = {"ok": False, "error": f"internal error ({type(error).__name__})"}
        if not isinstance(request_id, (int, str)) and request_id is not None:
            request_id = None
        if self._socket is not None:
            self._send(client, {"v": API_VERSION, "type": "reply", "id": request_id, **reply})

    def _send(self, client: bytes, message: Message) -> None:
        """Send without blocking; a client that is gone or too slow is unsubscribed.

        (Sends go through the asyncio socket itself: a second, synchronous handle on the same
        socket would swallow the wake-ups the asyncio receive loop waits for.)
        """
        assert self._socket is not None
        future = cast(
            "asyncio.Future[Any]",
            self._socket.send_multipart([client, pack(message)], flags=zmq.NOBLOCK),
        )

        def done(result: asyncio.Future[Any]) -> None:
            if not result.cancelled() and result.exception() is not None:
                if client in self._subscribers:
                    log.warning(
                        "local API: a subscribed frontend gets no more events "
                        "(sending to it failed: %r)",
                        result.exception(),
                    )
                self._subscribers.discard(client)

        future.add_done_callback(done)

    def has_subscribers(self) -> bool:
        return bool(self._subscribers)

    def publish(self, event: Message) -> None:
        """Send ``event`` to every subscribed client (slow or gone clients are dropped)."""
        if self._socket is None:
            return
        message = {"v": API_VERSION, **event}
        for client in list(self._subscribers):
            self._send(client, message)
