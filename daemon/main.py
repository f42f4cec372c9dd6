"""Run the daemon in the foreground until SIGINT/SIGTERM (``fourwinds daemon``).

A signal stops the daemon within ``STOP_S`` whatever it is doing: SIGINT and SIGTERM are
taken by a thread of their own (``sigwait``; every other thread blocks them), which asks the
event loop to stop and, should the loop not be done within ``STOP_S`` (a call stuck in a
library, a disk that does not answer), ends the process itself. Nothing is lost by that: every
record a peer could have seen was synced before it was sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass

from fourwinds.daemon import logfile
from fourwinds.daemon.app import Daemon
from fourwinds.daemon.build import build_id
from fourwinds.daemon.checks import PLAYER_NAME_LIMIT, local_name, parse_host_port
from fourwinds.daemon.paths import RUNTIME_NOTES, default_paths, ensure_private_dir
from fourwinds.daemon.peers.discovery import interface_address
from fourwinds.daemon.peers.identity import default_player_name, load_or_create_identity
from fourwinds.daemon.single import hold_data_dir
from fourwinds.daemon.table_runtimes.session_port import DEFAULT, load_session_module

DEFAULT_PORT = 7420
STOP_S = 1.8
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    """How to run: ``name`` empty means the login name; ``interface`` an interface name or
    IPv4 address to listen on (None: every interface); ``mdns`` False announces and browses
    nothing (a loopback daemon for solo play, tests)."""

    data_dir: str | None = None
    port: int = DEFAULT_PORT
    name: str = ""
    interface: str | None = None
    peers: tuple[tuple[str, int], ...] = ()
    mdns: bool = True
    session_module: str = DEFAULT


def parse_peer(text: str) -> tuple[str, int]:
    """``HOST:PORT`` -> (host, port), both checked (daemon/checks.py); raises
    FourwindsError naming the problem."""
    return parse_host_port(text, "--peer")


async def run(settings: Settings) -> None:
    paths = default_paths(settings.data_dir)
    for note in RUNTIME_NOTES:
        log.info("runtime directory: %s (private to this user)", note)
    ensure_private_dir(paths.data)
    held = hold_data_dir(paths.data)  # before anything is read or bound (daemon/single.py)
    identity = load_or_create_identity(paths.identity)
    build_id()  # read now, from the files this daemon started from (daemon/build.py)
    address = interface_address(settings.interface)
    port = load_session_module(settings.session_module)
    name = (
        local_name(settings.name, "name", PLAYER_NAME_LIMIT)
        if settings.name.strip()
        else default_player_name()
    )
    daemon = Daemon(
        identity,
        paths,
        port,
        name=name,
        host=address or "0.0.0.0",
        listen_port=settings.port,
        mdns=settings.mdns,
        interface_address=address,
        peers=settings.peers,
    )
    loop = asyncio.get_running_loop()

    def stop_soon() -> None:
        loop.call_soon_threadsafe(daemon.stop)

    watcher = SignalWatcher(stop_soon)
    watcher.start()
    try:
        starting = asyncio.create_task(daemon.start(), name="start")
        stopping = asyncio.create_task(daemon.stopping.wait(), name="stopping")
        await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if starting.done():
            starting.result()  # a start that failed says why
            print(
                f"fourwinds daemon {identity.fingerprint} on port {daemon.transport.port}; "
                f"local API {daemon.api.endpoint}",
                flush=True,
            )
            await daemon.serve_forever()
        else:
            log.info("stopped while starting")
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
        stopping.cancel()
    finally:
        await daemon.close()
        watcher.done.set()
        held.close()


class SignalWatcher(threading.Thread):
    """Takes SIGINT and SIGTERM in a thread of its own: ``on_signal`` (ask the loop to
    stop), then, unless ``done`` is set within STOP_S, the process ends itself (a second
    signal ends it at once). ``start`` blocks both signals in the calling thread, so every
    thread made after it (libzmq's, the workers') blocks them too; only this one takes
    them, even while the loop is busy or stuck."""

    def __init__(self, on_signal: Callable[[], None]) -> None:
        super().__init__(name="fourwinds-signals", daemon=True)
        self.on_signal = on_signal
        self.done = threading.Event()

    def start(self) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        super().start()

    def run(self) -> None:
        received = signal.sigwait(STOP_SIGNALS)
        log.info("%s: stopping", signal.Signals(received).name)
        with contextlib.suppress(RuntimeError):  # the loop is already closed
            self.on_signal()
        stopper = threading.Thread(target=self._second, name="fourwinds-signals-2", daemon=True)
        stopper.start()
        if not self.done.wait(STOP_S):
            log.warning("the daemon did not stop within %.1f s; ending it now", STOP_S)
            _exit_now()

    def _second(self) -> None:
        signal.sigwait(STOP_SIGNALS)
        _exit_now()


def _exit_now() -> None:
    for handler in logging.getLogger().handlers:
        with contextlib.suppress(Exception):
            handler.flush()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    os._exit(0)


def main(settings: Settings) -> int:
    logfile.setup(logging.INFO)  # rotated when it goes to a file (daemon/logfile.py)
    asyncio.run(run(settings))
    return 0
