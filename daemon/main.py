"""Run the daemon in the foreground until SIGINT/SIGTERM (``fourwinds daemon``)."""

from __future__ import annotations

import asyncio
import logging
import signal
from dataclasses import dataclass

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.discovery import interface_address
from fourwinds.daemon.identity import default_player_name, load_or_create_identity
from fourwinds.daemon.paths import RUNTIME_NOTES, default_paths, ensure_private_dir
from fourwinds.daemon.session_port import DEFAULT, load_session_module
from fourwinds.protocol.errors import FourwindsError

DEFAULT_PORT = 7420
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
    """``HOST:PORT`` -> (host, port); raises FourwindsError naming the problem."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65535:
        raise FourwindsError(f"--peer {text!r}: expected HOST:PORT, e.g. 192.168.1.20:7420")
    return host, int(port)


async def run(settings: Settings) -> None:
    paths = default_paths(settings.data_dir)
    for note in RUNTIME_NOTES:
        log.info("runtime directory: %s (private to this user)", note)
    ensure_private_dir(paths.data)
    identity = load_or_create_identity(paths.identity)
    address = interface_address(settings.interface)
    port = load_session_module(settings.session_module)
    daemon = Daemon(identity, paths, port, name=settings.name or default_player_name(),
                    host=address or "0.0.0.0", listen_port=settings.port,
                    mdns=settings.mdns, interface_address=address, peers=settings.peers)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, daemon.stop)
    try:
        await daemon.start()
        print(f"fourwinds daemon {identity.fingerprint} on port {daemon.transport.port}; "
              f"local API {daemon.api.endpoint}", flush=True)
        await daemon.serve_forever()
    finally:
        await daemon.close()


def main(settings: Settings) -> int:
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    asyncio.run(run(settings))
    return 0
