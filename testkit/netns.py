"""Four network namespaces on one bridge, each with one real daemon, for the daemon's tests.

``Lan`` makes a namespace per machine, each with one veth into a bridge that lives in a
namespace of its own, on link-local addresses only (169.254.<subnet>.<n>/16 by default: no
route anywhere else). ``LanDaemon`` runs one ``fourwinds daemon`` in a machine's namespace,
listening on every interface (no ``--interface``: the way a player starts it, and how its
address can later change). ``move`` gives a machine a new address (a laptop on a new DHCP
lease). Where namespaces cannot be made (not root, no ``ip``), ``Unavailable`` says why, for
``pytest.skip``. Every process started here is ended by its pid in ``close``.

For the fault harness (testkit/faults.py): ``cut``/``restore`` take a machine's link down
and up (``ip link set down`` on its veth), ``isolate`` leaves a machine no direct route to the
others (``prohibit`` routes both ways, as no iptables is needed for them) so it reaches them
only through a relay in the bridge's namespace (``bridge_address``, ``in_bridge``), and
``netem`` applies a delay with ``tc`` where the kernel has ``sch_netem`` (else says why not).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fourwinds.frontends.client.client import Client, connect
from testkit.procs import ROOT, TOY


class Unavailable(Exception):
    """Network namespaces cannot be made here (the reason, for pytest.skip)."""


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class Lan:
    """``count`` namespaces on one bridge; ``close()`` removes them."""

    def __init__(self, count: int, subnet: int) -> None:
        if os.geteuid() != 0:
            raise Unavailable("network namespaces need root")
        if subprocess.run(["sh", "-c", "command -v ip"], capture_output=True).returncode:
            raise Unavailable("no `ip` command: cannot create network namespaces")
        tag = f"{os.getpid() % 10000:04d}{subnet % 100:02d}"
        self.tag = tag
        self.subnet = subnet
        self.bridge = f"fwrb{tag}"
        self.names = [f"fwr{tag}{i}" for i in range(count)]
        self.addresses = [f"169.254.{subnet}.{i + 1}" for i in range(count)]
        self._made: list[str] = []
        try:
            ip("netns", "add", self.bridge)
        except subprocess.CalledProcessError as error:
            raise Unavailable(
                f"cannot create a network namespace here: {error.stderr.decode().strip()}"
            ) from None
        self._made.append(self.bridge)
        try:
            ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
            ip("-n", self.bridge, "link", "set", "br0", "up")
            for i, ns in enumerate(self.names):
                ip("netns", "add", ns)
                self._made.append(ns)
                ip(
                    "link",
                    "add",
                    f"fwrv{tag}{i}",
                    "netns",
                    ns,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    f"fwrp{tag}{i}",
                    "netns",
                    self.bridge,
                )
                ip("-n", self.bridge, "link", "set", f"fwrp{tag}{i}", "master", "br0", "up")
                ip("-n", ns, "link", "set", f"fwrv{tag}{i}", "name", "eth0")
                ip("-n", ns, "addr", "add", f"{self.addresses[i]}/16", "dev", "eth0")
                ip("-n", ns, "link", "set", "eth0", "up", "multicast", "on")
                ip("-n", ns, "link", "set", "lo", "up")
        except BaseException:
            self.close()
            raise

    def move(self, i: int, address: str) -> None:
        """Give machine ``i`` the address ``address`` instead of its old one (a new lease)."""
        ns = self.names[i]
        ip("-n", ns, "addr", "del", f"{self.addresses[i]}/16", "dev", "eth0")
        ip("-n", ns, "addr", "add", f"{address}/16", "dev", "eth0")
        self.addresses[i] = address

    def cut(self, i: int) -> None:
        """Machine ``i``'s link goes down (its veth, ``ip link set down``): a cable pulled."""
        ip("-n", self.names[i], "link", "set", "eth0", "down")

    def restore(self, i: int) -> None:
        """Machine ``i``'s link comes back up (its address and route with it)."""
        ip("-n", self.names[i], "link", "set", "eth0", "up")

    def isolate(self, i: int) -> None:
        """No direct route between machine ``i`` and the others (``prohibit`` routes on both
        sides): it reaches them only through addresses of the bridge's namespace."""
        for j, ns in enumerate(self.names):
            if j != i:
                ip("-n", self.names[i], "route", "add", "prohibit", f"{self.addresses[j]}/32")
                ip("-n", ns, "route", "add", "prohibit", f"{self.addresses[i]}/32")

    def bridge_address(self, address: str) -> None:
        """An address on the bridge itself, for a relay running in the bridge's namespace."""
        ip("-n", self.bridge, "addr", "add", f"{address}/16", "dev", "br0")

    def in_bridge(self, argv: list[str], log: Path) -> subprocess.Popen[bytes]:
        """A process in the bridge's namespace (its stderr to ``log``); ended by its pid."""
        with open(log, "ab") as err:
            return subprocess.Popen(
                ["ip", "netns", "exec", self.bridge, *argv],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )

    def netem(self, i: int, delay_ms: int, jitter_ms: int) -> str | None:
        """A ``tc netem`` delay on machine ``i``'s link; None when applied, else why not
        (these machines' kernels have no ``sch_netem``)."""
        done = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                self.names[i],
                "tc",
                "qdisc",
                "add",
                "dev",
                "eth0",
                "root",
                "netem",
                "delay",
                f"{delay_ms}ms",
                f"{jitter_ms}ms",
            ],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
        return (
            None
            if done.returncode == 0
            else f"no tc netem here (the kernel lacks sch_netem?): {done.stderr.strip()}"
        )

    def close(self) -> None:
        for ns in reversed(self._made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10, check=False)
        self._made.clear()


class LanDaemon:
    """One daemon in a namespace of ``lan``, its data in ``data_dir``, port 7420."""

    def __init__(
        self,
        lan: Lan,
        index: int,
        data_dir: Path,
        name: str,
        session_module: str = TOY,
        mdns: bool = False,
        peers: tuple[str, ...] = (),
        log: Path | None = None,
    ) -> None:
        self.lan = lan
        self.index = index
        self.data_dir = data_dir
        self.name = name
        self.session_module = session_module
        self.mdns = mdns
        self.peers = peers
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log or data_dir / "stderr.log"  # elsewhere when the data disk may fill

    @property
    def address(self) -> str:
        return self.lan.addresses[self.index]

    def spawn(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        endpoint = self.data_dir / "run" / "api.endpoint"
        if endpoint.exists():
            endpoint.unlink()
        cmd = [
            "ip",
            "netns",
            "exec",
            self.lan.names[self.index],
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "daemon",
            "--data-dir",
            str(self.data_dir),
            "--port",
            "7420",
            "--name",
            self.name,
            "--session-module",
            self.session_module,
        ]
        if not self.mdns:
            cmd.append("--no-mdns")
        for peer in self.peers:
            cmd += ["--peer", peer]
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"},
            )

    def wait_ready(self, timeout: float = 30.0) -> None:
        assert self.proc is not None
        endpoint = self.data_dir / "run" / "api.endpoint"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon {self.name} exited: {self.log.read_text()[-3000:]}")
            if endpoint.exists():
                return
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.05)
        raise RuntimeError(f"daemon {self.name} did not start within {timeout} s")

    def client(self, subscribe: bool = False) -> Client:
        return connect(str(self.data_dir), subscribe=subscribe)

    def signal(self, sig: int) -> None:
        """Send ``sig`` to the daemon (its pid: ``ip netns exec`` execs it)."""
        assert self.proc is not None
        self.proc.send_signal(sig)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s (by pid: ``ip netns exec`` execs the daemon)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def start_all(daemons: list[LanDaemon], timeout: float = 40.0) -> None:
    """Start the daemons in parallel (interpreter start-up dominates on a small machine)."""
    for d in daemons:
        d.spawn()
    for d in daemons:
        d.wait_ready(timeout)
