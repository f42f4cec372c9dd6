"""A person's computer for the end-to-end tests: a home, a login name, maybe its own network.

``Machine`` gives one player their own HOME and XDG directories (so `fourwinds` finds its own
config, identity and daemon there, exactly as on a fresh computer) and their login name (USER
and LOGNAME), optionally inside a network namespace. Commands run as the README writes them,
with the tree's ``fourwinds`` first on PATH. ``stop()`` ends every process the machine ran:
those in its namespace, or (on loopback) those whose environment carries its HOME, by pid.

``Network`` makes the namespaces: one per machine, each with one veth into a bridge that lives
in a namespace of its own, on link-local addresses (169.254.x.0/24) and with no route anywhere
else; where namespaces cannot be made (not root, no ``ip``), it says why (``Unavailable``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import platformdirs

from fourwinds.daemon.entropy import VARIABLE as ENTROPY_VARIABLE
from fourwinds.frontends.client.client import Client
from testkit.dirs import short_dir
from testkit.screen import Terminal

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the virtualenv's bin: `fourwinds` as installed
EXITED = "[exited "  # what a terminal shows when its command has ended
TEST_BOT_PAUSE = 0.0
"""The bots' pause at the tests' tables with a person (config ``bot_pause``, default 1 s:
frontends/bots/bot_pause.py): none, so the tests that play whole hands against bots are not
slowed by a pause meant for a person's eyes (the suite must stay under 10 minutes; at
0.02 s it took 11:02). The pause itself is measured at real daemons in
tests/frontends/test_bot_pause_real.py and tests/frontends/test_bot_pause.py."""


class Unavailable(Exception):
    """Network namespaces cannot be made here (the reason, for pytest.skip)."""


def fixed_deal(deal: str | None) -> str:
    """A command line's prefix that gives ``fourwinds play`` (its daemon and its bot seats)
    the same identities, table ids and so the same deal on every run (daemon/entropy.py),
    for a test that needs a hand of a certain kind, not luck; "" for a deal of chance."""
    if not deal:
        return ""
    return f"{ENTROPY_VARIABLE}={shlex.quote(deal)} "


@dataclass
class Machine:
    """One player's computer (see the module docstring)."""

    login: str  # USER / LOGNAME
    home: Path
    netns: str | None = None
    address: str | None = None  # its address on the namespaces' network
    terminals: list[Terminal] = field(default_factory=list)
    background: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for sub in ("", ".config", ".local/share", ".local/state", ".cache", "run", "tmp"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        os.chmod(self.home / "run", 0o700)
        config = self.config_file
        if not config.exists():
            config.parent.mkdir(parents=True, exist_ok=True)
            config.write_text(f"bot_pause = {TEST_BOT_PAUSE:g}\n", encoding="utf-8")

    @property
    def config_file(self) -> Path:
        """The player's config file (it holds the tests' small ``bot_pause`` at first)."""
        return self.home / ".config" / "fourwinds" / "config.toml"

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a shell on this machine (``extra`` on top; "" unsets)."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("FOURWINDS_", "XDG_", "PYTEST_"))
        }
        env.update(
            HOME=str(self.home),
            USER=self.login,
            LOGNAME=self.login,
            XDG_CONFIG_HOME=str(self.home / ".config"),
            XDG_DATA_HOME=str(self.home / ".local/share"),
            XDG_STATE_HOME=str(self.home / ".local/state"),
            XDG_CACHE_HOME=str(self.home / ".cache"),
            XDG_RUNTIME_DIR=str(self.home / "run"),
            TMPDIR=str(self.home / "tmp"),
            PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
            LANG="C.UTF-8",
            LC_ALL="C.UTF-8",
            PYTHONFAULTHANDLER="1",
        )
        env.update(extra)
        return {k: v for k, v in env.items() if v != ""}

    def _argv(self, command: str) -> list[str]:
        shell = ["sh", "-c", f"cd {shlex.quote(str(self.home))} && {command}"]
        return ["ip", "netns", "exec", self.netns, *shell] if self.netns else shell

    def run(self, command: str, timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
        """Run a shell command line on this machine and wait for it."""
        return subprocess.run(
            self._argv(command),
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def start(self, command: str, log: str) -> subprocess.Popen[bytes]:
        """Run a command line in the background (``cmd &``), its output to ``home/log``."""
        with open(self.home / log, "ab") as out:
            process = subprocess.Popen(
                self._argv(command),
                env=self.env(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,
            )
        self.background.append(process)
        return process

    def terminal(self, command: str, width: int = 80, height: int = 24, **env: str) -> Terminal:
        """Open a terminal of ``width`` x ``height`` on this machine running ``command``;
        the shell stays open after it, showing ``[exited N]`` under its last words."""
        then = f'{command}; echo "{EXITED}$?]"; exec sleep 600'
        line = " ".join(shlex.quote(a) for a in self._argv(then))
        term = Terminal(line, width, height, env=self.env(**env))
        self.terminals.append(term)
        return term

    # --- reading the daemon, as a script would ---------------------------------------------

    def runtime_dir(self) -> Path:
        with _environ(self.env()):
            return Path(platformdirs.user_runtime_dir("fourwinds", appauthor=False))

    def client(self) -> Client:
        """A client of this machine's daemon (its local API socket is a file: reachable
        from outside the namespace). Raises ConnectionError when none runs."""
        try:
            info = msgpack.unpackb((self.runtime_dir() / "api.endpoint").read_bytes(), raw=False)
        except (OSError, ValueError) as error:
            raise ConnectionError(f"{self.login}: no daemon") from error
        client = Client(str(info["endpoint"]), str(info.get("token") or ""))
        try:
            client.request({"type": "hello"}, timeout=5)
        except TimeoutError as error:
            client.close()
            raise ConnectionError(f"{self.login}: the daemon does not answer") from error
        return client

    def view(self, attempts: int = 3) -> dict[str, Any]:
        """Our seat's view at the first table of this machine's daemon ({} if none). A
        daemon slow to answer (a machine busy with four browsers) is asked again."""
        for _ in range(attempts):
            try:
                client = self.client()
            except ConnectionError:
                # sleep-ok: retry interval while the daemon is not answering yet (bounded: attempts)
                time.sleep(0.5)
                continue
            try:
                tables = client.request({"type": "tables"}, timeout=10).get("tables") or []
                if not tables:
                    return {}
                answer = client.request({"type": "view", "table": tables[0]["table"]}, timeout=10)
                view: dict[str, Any] = (answer.get("event") or {}).get("view") or {}
                if view:
                    return view
            except TimeoutError:
                continue
            finally:
                client.close()
            # sleep-ok: retry interval (bounded: attempts): a table not yet ready to show
            time.sleep(0.5)
        return {}

    def status_json(self) -> dict[str, Any]:
        """`fourwinds status --json` run on this machine, parsed."""
        done = self.run("fourwinds status --json")
        assert done.returncode == 0, f"{self.login}: fourwinds status: {done.stderr.strip()}"
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    def daemon_pid(self) -> int | None:
        try:
            client = self.client()
        except ConnectionError:
            return None
        try:
            return int(client.request({"type": "status"}, timeout=5)["pid"])
        except (TimeoutError, KeyError, ValueError):
            return None
        finally:
            client.close()

    # --- cleaning up -----------------------------------------------------------------------

    def pids(self) -> set[int]:
        """Every process running on this machine (its namespace, or carrying its HOME)."""
        if self.netns:
            done = subprocess.run(
                ["ip", "netns", "pids", self.netns],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
            return {int(p) for p in done.stdout.split()}
        marker = f"HOME={self.home}\0".encode()
        found = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            with contextlib.suppress(OSError):
                if marker in (entry / "environ").read_bytes():
                    found.add(int(entry.name))
        pid = self._endpoint_pid()  # not asked of the daemon: a killed one left its file,
        if pid is not None:  # and asking it waited out a 5 s request, three times
            found.add(pid)
        return found

    def _endpoint_pid(self) -> int | None:
        """The pid the daemon's endpoint file names, when that process still exists."""
        try:
            info = msgpack.unpackb((self.runtime_dir() / "api.endpoint").read_bytes(), raw=False)
            pid = int(info["pid"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return pid if Path(f"/proc/{pid}").exists() else None

    def bot_daemons(self) -> list[int]:
        """The pids of the bot seats' daemons `play` started here (their data under bots/)."""
        found = []
        for pid in self.pids():
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"daemon" in argv and any(b"/bots/" in a for a in argv):
                    found.append(pid)
        return sorted(found)

    def stop(self) -> None:
        """Close the terminals and end every process of this machine (see ``stop_all``)."""
        stop_all([self])


def stop_all(machines: Sequence[Machine]) -> None:
    """End every process of ``machines``, all machines at once, the way a person leaves:
    the terminals close and the frontends (`play`, `play --web`, a bot seat...) get SIGTERM
    first, while their daemons still answer, so a frontend's last word to its daemon (the
    view `play` asks for after its screen closes) is answered at once instead of waiting
    out its request timeout on a daemon stopped at the same moment; then the daemons get
    SIGTERM (each stops within daemon/main.py's STOP_S); SIGKILL ends whatever is left."""
    for machine in machines:
        for term in machine.terminals:
            term.close()
    _signal_and_wait(machines, signal.SIGTERM, 10.0, frontends=True)
    _signal_and_wait(machines, signal.SIGTERM, 10.0, frontends=False)
    _signal_and_wait(machines, signal.SIGKILL, 5.0, frontends=False)


def _signal_and_wait(
    machines: Sequence[Machine], sig: signal.Signals, wait: float, frontends: bool
) -> None:
    """Send ``sig`` to the machines' processes (only those that are no daemon when
    ``frontends``) and wait up to ``wait`` seconds for them to end."""
    pids = {
        pid for machine in machines for pid in machine.pids() if not (frontends and _is_daemon(pid))
    }
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
    end = time.monotonic() + wait
    while pids and time.monotonic() < end:
        for machine in machines:
            _reap(machine.background)
        pids = {p for p in pids if _alive(p)}
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    for machine in machines:
        _reap(machine.background)


def _is_daemon(pid: int) -> bool:
    """Whether ``pid`` runs `fourwinds daemon` (as `play` or a person starts it)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    fourwinds = any(a == b"fourwinds.frontends.cli" or a.endswith(b"/fourwinds") for a in argv)
    return fourwinds and b"daemon" in argv


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):  # a zombie is gone for our purposes
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    return False


def _reap(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.poll()


@contextlib.contextmanager
def _environ(env: Mapping[str, str]) -> Any:
    saved = dict(os.environ)
    try:
        os.environ.clear()
        os.environ.update(env)
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class Network:
    """Namespaces for ``logins`` (one machine each) on one bridge; ``close()`` removes them.
    ``multicast``: False drops mDNS (a venue network), so only ``--peer`` can find a table."""

    def __init__(self, base: Path, logins: list[str], subnet: int, multicast: bool = True) -> None:
        if os.geteuid() != 0:
            raise Unavailable("network namespaces need root")
        if subprocess.run(["sh", "-c", "command -v ip"], capture_output=True).returncode:
            raise Unavailable("no `ip` command: cannot create network namespaces")
        tag = f"{os.getpid() % 100000:05d}{subnet % 10}"
        self.bridge = f"fwb{tag}"
        self.names = [f"fw{tag}{i}" for i in range(len(logins))]
        self.machines: list[Machine] = []
        self._made: list[str] = []
        try:
            _ip("netns", "add", self.bridge)
        except subprocess.CalledProcessError as error:
            raise Unavailable(
                f"cannot create a network namespace here: {error.stderr.decode().strip()}"
            ) from None
        self._made.append(self.bridge)
        try:
            _ip("-n", self.bridge, "link", "add", "br0", "type", "bridge")
            _ip("-n", self.bridge, "link", "set", "br0", "up")
            for i, (login, ns) in enumerate(zip(logins, self.names, strict=True)):
                _ip("netns", "add", ns)
                self._made.append(ns)
                address = f"169.254.{subnet}.{i + 1}"
                _ip(
                    "link",
                    "add",
                    f"fwv{tag}{i}",
                    "netns",
                    ns,
                    "type",
                    "veth",
                    "peer",
                    "name",
                    f"fwp{tag}{i}",
                    "netns",
                    self.bridge,
                )
                _ip("-n", self.bridge, "link", "set", f"fwp{tag}{i}", "master", "br0", "up")
                if not multicast:  # the bridge forwards no multicast (mDNS) to this port
                    _ip(
                        "-n",
                        self.bridge,
                        "link",
                        "set",
                        f"fwp{tag}{i}",
                        "type",
                        "bridge_slave",
                        "mcast_flood",
                        "off",
                    )
                _ip("-n", ns, "link", "set", f"fwv{tag}{i}", "name", "eth0")
                _ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
                _ip("-n", ns, "link", "set", "eth0", "up")
                _ip("-n", ns, "link", "set", "lo", "up")
                self.machines.append(Machine(login, base / login, ns, address))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        stop_all(self.machines)
        for ns in reversed(self._made):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10, check=False)
        self._made.clear()


@contextlib.contextmanager
def one_player(name: str) -> Iterator[Machine]:
    """One player's machine on loopback (its own HOME and login name), stopped and removed
    afterwards: the fixture of the tests that play alone with bots."""
    base = short_dir()
    machine = Machine(name, base / name)
    try:
        yield machine
    finally:
        machine.stop()
        shutil.rmtree(base, ignore_errors=True)
