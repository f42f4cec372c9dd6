"""Daemons as separate processes on 127.0.0.1 for the tests and benchmarks; always cleaned up."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fourwinds.frontends.client.client import Client, connect
from fourwinds.frontends.client.local_seats import Started, fourwinds_command

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests.daemon.toy_session"


_GIVEN: set[int] = set()
"""Every port this process has handed out (it is not offered again)."""

_LOW, _BLOCK, _BLOCKS = 20000, 1500, 8
"""Ports come from a block of ``_BLOCK`` below the kernel's ephemeral range (32768 up on
Linux), one block per xdist worker. Asking the kernel for a free port (bind to 0) gave a port
from the ephemeral range, which the kernel may hand to any outgoing connection, or to
another worker's probe, before the daemon given it binds it: "port ... is in use" failed a
run on three workers. Below that range no outgoing connection takes a port, and no two
workers share one. Outside xdist (a benchmark, a worker's subprocess) the last block."""


def _block() -> range:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    number = int(worker[2:]) if worker[:2] == "gw" and worker[2:].isdigit() else _BLOCKS - 1
    base = _LOW + (number % _BLOCKS) * _BLOCK
    return range(base, base + _BLOCK - 1)


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port_pair() -> int:
    """A port P with P and P+1 free on 127.0.0.1 (peer socket and key beacon), neither of
    them handed out before by this process. The search starts at a place in the block that
    depends on the process, so that a worker and the commands it runs rarely meet."""
    block = _block()
    start = (os.getpid() * 7919 + len(_GIVEN)) % len(block)
    for i in range(len(block)):
        port = block[(start + i) % len(block)]
        if {port, port + 1} & _GIVEN or not (_bindable(port) and _bindable(port + 1)):
            continue
        _GIVEN.update((port, port + 1))
        return port
    raise RuntimeError("no free port pair")


class DaemonProcess:
    """One ``fourwinds daemon`` process with its own data dir, identity and port."""

    def __init__(
        self, data_dir: Path, name: str, session_module: str = TOY, port: int | None = None
    ) -> None:
        self.data_dir = data_dir
        self.name = name
        self.session_module = session_module
        self.port = port or free_port_pair()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "stderr.log"

    def start(self, timeout: float = 20.0) -> None:
        self.spawn()
        self.wait_ready(timeout)

    def spawn(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        endpoint = self.data_dir / "run" / "api.endpoint"
        if endpoint.exists():
            endpoint.unlink()
        cmd = [
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "daemon",
            "--data-dir",
            str(self.data_dir),
            "--port",
            str(self.port),
            "--name",
            self.name,
            "--interface",
            "127.0.0.1",
            "--no-mdns",
            "--session-module",
            self.session_module,
        ]
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"},
            )

    def wait_ready(self, timeout: float = 20.0) -> None:
        assert self.proc is not None
        endpoint = self.data_dir / "run" / "api.endpoint"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon {self.name} exited: {self.log.read_text()[-2000:]}")
            if endpoint.exists():
                return
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.05)
        raise RuntimeError(f"daemon {self.name} did not start within {timeout} s")

    def client(self, subscribe: bool = True) -> Client:
        return connect(str(self.data_dir), subscribe=subscribe)

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def kill9(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.proc is not None
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.kill(self.proc.pid, signal.SIGCONT)  # a stopped process cannot exit
            self.proc.terminate()
            self.proc.wait(10)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            self.proc.kill()
            self.proc.wait(10)


def fourwinds_cli(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``fourwinds ARGS`` as a person types it, from this checkout, with no config file of
    the machine's (each command names its daemon with ``--data-dir``)."""
    return subprocess.run(
        [sys.executable, "-m", "fourwinds.frontends.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT), "FOURWINDS_CONFIG": "/nonexistent/config.toml"},
    )


def start_logged(started: Started, log: Path, *args: str) -> subprocess.Popen[bytes]:
    """``fourwinds ARGS`` in the background from this checkout (a bot seat, as the real-daemon
    tests start one), both its output streams in ``log``; ``started.stop()`` ends it."""
    with open(log, "wb") as out:
        return started.add(
            subprocess.Popen(fourwinds_command(*args), stdout=out, stderr=out, cwd=ROOT)
        )


def request(client: Client, **message: Any) -> dict[str, Any]:
    answer = client.request(message)
    if not answer.get("ok"):
        raise AssertionError(f"{message.get('type')} refused: {answer.get('error')}")
    return answer


def enter_event(
    players: Sequence[DaemonProcess], name: str, port: int, host: str = "127.0.0.1"
) -> None:
    """Each of ``players`` enters the event ``name`` of the director reached at host:port."""
    for d in players:
        client = d.client(subscribe=False)
        try:
            request(client, type="tournament_join", name=name, host=host, port=port)
        finally:
            client.close()


def start_all(daemons: list[DaemonProcess], timeout: float = 30.0) -> None:
    """Start the daemons in parallel (interpreter start-up dominates on a small machine)."""
    for d in daemons:
        d.spawn()
    for d in daemons:
        d.wait_ready(timeout)


def host_by_cli(daemon: DaemonProcess, name: str, *options: str) -> tuple[str, str]:
    """`fourwinds host NAME --rules mcr OPTIONS --json` at ``daemon`` as a script runs it
    (no config file); the table's id and the host's public key (hex), for bot seats."""
    hosted = subprocess.run(
        fourwinds_command(
            "host", name, "--rules", "mcr", *options, "--data-dir", str(daemon.data_dir), "--json"
        ),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={"FOURWINDS_CONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
    )
    assert hosted.returncode == 0, hosted.stderr
    client = daemon.client(subscribe=False)
    try:
        key = str(request(client, type="whoami")["public_key"])
    finally:
        client.close()
    return str(json.loads(hosted.stdout)["table"]), key
