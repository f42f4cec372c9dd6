"""Daemons as separate processes on 127.0.0.1 for the tests and benchmarks; always cleaned up."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fourwinds.frontends.client import Client, connect

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests.daemon.toy_session"


_GIVEN: set[int] = set()
"""Every port this process has handed out: the kernel may offer a port again once its probe
socket is closed, before the daemon given it has bound it (four daemons made in a row)."""


def free_port_pair() -> int:
    """A port P with P and P+1 free on 127.0.0.1 (peer socket and key beacon), neither of
    them handed out before by this process."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port >= 65000 or {port - 1, port, port + 1} & _GIVEN:
            continue
        with socket.socket() as s2:
            try:
                s2.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        _GIVEN.update((port, port + 1))
        return port
    raise RuntimeError("no free port pair")


class DaemonProcess:
    """One ``fourwinds daemon`` process with its own data dir, identity and port."""

    def __init__(self, data_dir: Path, name: str, session_module: str = TOY,
                 port: int | None = None) -> None:
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
        cmd = [sys.executable, "-m", "fourwinds.frontends.cli", "daemon", "--data-dir",
               str(self.data_dir), "--port", str(self.port), "--name", self.name,
               "--interface", "127.0.0.1", "--no-mdns", "--session-module",
               self.session_module]
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
                                         env={**os.environ, "PYTHONPATH": str(ROOT),
                                              "PYTHONFAULTHANDLER": "1"})

    def wait_ready(self, timeout: float = 20.0) -> None:
        assert self.proc is not None
        endpoint = self.data_dir / "run" / "api.endpoint"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon {self.name} exited: {self.log.read_text()[-2000:]}")
            if endpoint.exists():
                return
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
            os.kill(self.proc.pid, signal.SIGCONT)   # a stopped process cannot exit
            self.proc.terminate()
            self.proc.wait(10)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            self.proc.kill()
            self.proc.wait(10)


def request(client: Client, **message: Any) -> dict[str, Any]:
    answer = client.request(message)
    if not answer.get("ok"):
        raise AssertionError(f"{message.get('type')} refused: {answer.get('error')}")
    return answer


def start_all(daemons: list[DaemonProcess], timeout: float = 30.0) -> None:
    """Start the daemons in parallel (interpreter start-up dominates on a small machine)."""
    for d in daemons:
        d.spawn()
    for d in daemons:
        d.wait_ready(timeout)
