"""Real mDNS discovery between two daemons, each in a network namespace this test creates.

The two namespaces are joined only to each other by a veth pair with link-local addresses
(169.254.77.0/24): nothing is routed to or from any real network. Where namespaces cannot be
made (not root, no ``ip``, a sandbox), the test is skipped and says why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.frontends.client.client import connect
from testkit.procs import ROOT, TOY

pytestmark = [pytest.mark.netns, pytest.mark.slow]

NET = "169.254.77"


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


@pytest.fixture
def namespaces() -> Iterator[tuple[str, str]]:
    if shutil.which("ip") is None:
        pytest.skip("no `ip` command: cannot create network namespaces")
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    tag = str(os.getpid())[-5:]
    a, b = f"fwA{tag}", f"fwB{tag}"
    try:
        _ip("netns", "add", a)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"cannot create a network namespace here: {error.stderr.decode().strip()}")
    try:
        _ip("netns", "add", b)
        _ip("link", "add", f"va{tag}", "type", "veth", "peer", "name", f"vb{tag}")
        _ip("link", "set", f"va{tag}", "netns", a)
        _ip("link", "set", f"vb{tag}", "netns", b)
        for ns, dev, host in ((a, f"va{tag}", 1), (b, f"vb{tag}", 2)):
            _ip("-n", ns, "addr", "add", f"{NET}.{host}/24", "dev", dev)
            _ip("-n", ns, "link", "set", dev, "up", "multicast", "on")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield a, b
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)


def _daemon(ns: str, data: Path, address: str, name: str) -> subprocess.Popen[bytes]:
    data.mkdir(parents=True)
    cmd = [
        "ip",
        "netns",
        "exec",
        ns,
        sys.executable,
        "-m",
        "fourwinds.frontends.cli",
        "daemon",
        "--data-dir",
        str(data),
        "--port",
        "7420",
        "--name",
        name,
        "--interface",
        address,
        "--session-module",
        TOY,
    ]
    with open(data / "stderr.log", "wb") as err:
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )


def _wait_started(data: Path, proc: subprocess.Popen[bytes], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (data / "run" / "api.endpoint").exists():
            return
        if proc.poll() is not None:
            raise AssertionError((data / "stderr.log").read_text()[-2000:])
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    raise AssertionError("daemon did not start")


def test_mdns_discovery_between_namespaces_then_join(
    namespaces: tuple[str, str], tmp_path: Path
) -> None:
    a, b = namespaces
    procs = [
        _daemon(a, tmp_path / "a", f"{NET}.1", "alice"),
        _daemon(b, tmp_path / "b", f"{NET}.2", "bob"),
    ]
    try:
        for proc, name in zip(procs, ("a", "b"), strict=True):
            _wait_started(tmp_path / name, proc)
        host = connect(str(tmp_path / "a"), subscribe=False)
        guest = connect(str(tmp_path / "b"), subscribe=False)
        try:
            made = host.request({"type": "create", "name": "lantern", "rules": "american"})
            assert made["ok"], made
            deadline = time.monotonic() + 15
            seen: list[dict[str, object]] = []
            while time.monotonic() < deadline and not seen:
                seen = [
                    t for t in guest.request({"type": "tables"})["seen"] if t["name"] == "lantern"
                ]
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.2)
            assert seen, "bob never saw alice's table over mDNS"
            found = seen[0]
            assert found["host"] == f"{NET}.1" and found["port"] == 7420
            assert found["rules"] == "american" and found["free"] == 3
            assert found["compatible"] is True
            assert found["player"] == "alice"  # the host by name (issue 22, 7)
            joined = guest.request({"type": "join", "table": "lantern"})
            assert joined["ok"], joined
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                status = host.request({"type": "status"})
                if status["tables"][0]["seated"] == 2:
                    break
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.1)
            assert status["tables"][0]["seated"] == 2
        finally:
            host.close()
            guest.close()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
