"""Starting local processes for `fourwinds play`: the user's daemon, and bot seats.

A bot seat is a real seat: its own ``fourwinds daemon`` (own data directory, so its own
identity) on loopback, reaching ours with ``--peer``, plus a ``fourwinds bot`` process acting
for it through its local API. The bot seats' data stays in the player's state directory
(``bots/<table>``), so a table left with ``Q`` is returned to with the same seats. Every
process started here is remembered by its pid and stopped by that pid, never by name.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from fourwinds.daemon.paths import default_paths
from fourwinds.daemon.single import ALREADY
from fourwinds.frontends.client.daemon_link import DaemonUnavailable, LocalApi, checked, connect
from fourwinds.protocol.bot_level import BotLevel, parse_level

log = logging.getLogger(__name__)
START_TIMEOUT = 15.0


def fourwinds_command(*args: str) -> list[str]:
    """How to run this same fourwinds (same interpreter, same package) as a sub-process."""
    return [sys.executable, "-m", "fourwinds.frontends.cli", *args]


@dataclass
class Started:
    """Processes this run started, stopped in reverse order by pid."""

    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def add(self, process: subprocess.Popen[bytes]) -> subprocess.Popen[bytes]:
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        self.processes.clear()


def start_daemon(
    started: Started,
    *,
    data_dir: str | None,
    name: str,
    log_path: Path,
    extra: list[str] | None = None,
    detach: bool = False,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``fourwinds daemon`` in the background, logging to ``log_path``.

    ``detach``: the user's own daemon outlives this command (new session, not stopped by
    ``Started.stop``), so the table survives closing the screen. ``env``: added to ours.
    """
    args = ["daemon"]
    if data_dir:
        args += ["--data-dir", data_dir]
    if name:
        args += ["--name", name]
    args += extra or []
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as out:
        process = subprocess.Popen(
            fourwinds_command(*args),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=detach,
            env={**os.environ, **(env or {})},
        )
    if not detach:
        started.add(process)
    return process


def wait_for_api(
    data_dir: str | None,
    process: subprocess.Popen[bytes],
    log_path: Path,
    timeout: float = START_TIMEOUT,
) -> LocalApi:
    """Connect to a daemon just started, or ``DaemonUnavailable`` with the end of its log."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return connect(data_dir)
        except DaemonUnavailable as error:
            # another daemon took the data directory first (started by another command at
            # the same moment): ours refused to start, and that one is ours to use once
            # its local API is up (daemon/single.py)
            if process.poll() is not None and ALREADY not in _tail(log_path):
                raise DaemonUnavailable(f"the daemon exited at once ({_tail(log_path)})") from error
            if time.monotonic() > deadline:
                raise DaemonUnavailable(
                    f"the daemon did not start within {timeout:.0f} s ({_tail(log_path)})"
                ) from error
            time.sleep(0.1)


def _tail(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "no log"
    return lines[-1].removeprefix("fourwinds: ") if lines else "empty log"


class SoloBusy(DaemonUnavailable):
    """The daemon `play` started for solo play (127.0.0.1 only) is playing that table now, so
    it cannot be restarted on the network."""


@dataclass(frozen=True)
class DaemonPlan:
    """How to start the user's daemon when none runs (`play`, `tables`): its data directory
    (None: the platform's), the folder of its log, and ``port`` (None: the config file's or
    the default; the daemon reads the config file itself, as every command does)."""

    data_dir: str | None
    log_dir: Path
    port: int | None = None
    peers: tuple[str, ...] = ()  # HOST:PORT daemons to reach directly (`--peer`)


SOLO_ARGS = ["--port", "0", "--interface", "127.0.0.1", "--no-mdns"]
"""A daemon for a solo table (you and your bots): loopback only, any free port, no mDNS."""


def running_info(data_dir: str | None) -> dict[str, Any] | None:
    """What the running daemon of ``data_dir`` wrote about itself (``pid``, ``listen``,
    ``port``, ``mdns``: daemon/local_api/server.py), or None when there is no such file."""
    try:
        info = msgpack.unpackb(default_paths(data_dir).api_endpoint_file.read_bytes(), raw=False)
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


def is_running(data_dir: str | None) -> bool:
    """Is a daemon running for ``data_dir``? (Its endpoint file names a live process: a
    daemon killed with -9 leaves the file, and a client would wait for its answer; until
    its parent reaps it, such a daemon is a zombie, which has ended too.)"""
    info = running_info(data_dir)
    pid = info.get("pid") if info is not None else None
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _exited(pid)


def _solo_marker(data_dir: str | None) -> Path:
    return default_paths(data_dir).runtime / "solo.pid"


def runs_solo(data_dir: str | None) -> bool:
    """Does the running daemon listen on loopback only because `play` started it for a solo
    table (not a daemon the user started that way on purpose)?"""
    info = running_info(data_dir)
    if info is None or not str(info.get("listen", "")).startswith("127."):
        return False
    try:
        return int(_solo_marker(data_dir).read_text().strip()) == int(info.get("pid", -1))
    except (OSError, ValueError):
        return False


def ensure_daemon(
    plan: DaemonPlan, *, solo: bool = False
) -> tuple[LocalApi, subprocess.Popen[bytes] | None]:
    """The user's daemon: already running, or started now (detached: it keeps the seat when
    the screen closes, and stays up until `fourwinds stop`). ``solo``: a daemon started for
    a table of you and your bots listens on 127.0.0.1 only, on any free port, and announces
    nothing; a networked table needs a daemon on the network, so one that `play` started
    for solo play is restarted (its tables resume from disk). Also returns the process when
    this call started it."""
    api: LocalApi | None = None
    if is_running(plan.data_dir):
        with contextlib.suppress(DaemonUnavailable):
            api = connect(plan.data_dir)
    if api is not None:
        if solo or not runs_solo(plan.data_dir):
            add_peers(api, plan.peers)
            return api, None
        _restart_for_network(api, plan)
    log_path = plan.log_dir / "daemon.log"
    log.info("starting the daemon (log: %s)", log_path)
    extra = (
        list(SOLO_ARGS) if solo else (["--port", str(plan.port)] if plan.port is not None else [])
    )
    process = start_daemon(
        Started(), data_dir=plan.data_dir, name="", log_path=log_path, extra=extra, detach=True
    )
    try:
        api = wait_for_api(plan.data_dir, process, log_path)
    except DaemonUnavailable:
        stop_process(process)
        raise
    if solo:
        _solo_marker(plan.data_dir).write_text(f"{process.pid}\n")
    add_peers(api, plan.peers)
    return api, process


def add_peers(api: LocalApi, peers: tuple[str, ...]) -> None:
    """Tell the daemon to reach these ``HOST:PORT`` daemons directly (where multicast is
    blocked); each is checked first (one clear line for a typo)."""
    from fourwinds.daemon.main import parse_peer

    for host, port in [parse_peer(peer) for peer in peers]:
        checked(api.request({"type": "peer", "host": host, "port": port}))


def _restart_for_network(api: LocalApi, plan: DaemonPlan) -> None:
    """Stop the loopback daemon `play` started for solo play, so a networked one can start;
    refused while a solo table is being played (its bots are connected to it)."""
    try:
        answer = checked(api.request({"type": "tables"}))
        busy = [
            t
            for t in answer.get("tables") or ()
            if isinstance(t, dict) and sum(1 for m in t.get("members") or () if m.get("alive")) > 1
        ]
        if busy:
            raise SoloBusy(
                f"your daemon is playing the solo table {busy[0].get('name')} on 127.0.0.1 "
                "only; quit that table first (Q), then try again"
            )
        print(
            "fourwinds: restarting your daemon on the network (it ran for solo play, on "
            "127.0.0.1 only)",
            file=sys.stderr,
            flush=True,
        )
        stop_running(api, plan.data_dir)
    finally:
        api.close()


def stop_running(api: LocalApi, data_dir: str | None, timeout: float = 10.0) -> int | None:
    """Ask the daemon behind ``api`` to stop and wait until its process is gone; its pid."""
    info = running_info(data_dir) or {}
    pid = info.get("pid")
    checked(api.request({"type": "stop"}))
    if not isinstance(pid, int):
        return None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):  # reaped here if it is our child
            os.waitpid(pid, os.WNOHANG)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            return pid  # another user's process now holds that number
        if _exited(pid):
            return pid  # a zombie: it has ended, its parent (e.g. a `play`) reaps it
        time.sleep(0.05)
    raise DaemonUnavailable(f"the daemon (pid {pid}) did not stop within {timeout:.0f} s")


def _exited(pid: int) -> bool:
    """Whether ``pid`` has ended and only waits for its parent to reap it (a bot seat's
    daemon whose `play` is still open): signal 0 still reaches such a process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop one process we started (by its pid), escalating to SIGKILL after 10 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


BOT_ENV = {"FOURWINDS_CONFIG": os.devnull, "PYTHONUNBUFFERED": "1"}
"""Bot seats do not read the player's config file (its peers, port and name are the
player's): everything they need is on their command line."""
SEATS_FILE = "seats.json"
SOCKET_ROOM = 100 - len("/bot1/run/api.sock")  # an ipc socket path has ~100 characters


def start_bot_seat(
    started: Started,
    *,
    base: Path,
    index: int,
    rules: str,
    table: str,
    host_port: int,
    host_key: str,
    verbose: int = 0,
    code: str | None = None,
    join: bool = True,
    pause: float = 0.0,
    level: BotLevel = BotLevel.NORMAL,
) -> None:
    """One bot seat: its own daemon on loopback (``--peer`` ours) and a `fourwinds bot`
    (logging at ``verbose`` to the seat's log, ``<base>/bot<index>/seat.log``). ``join``:
    join the table first (False: the seat's daemon already sits there and resumes it).
    ``pause``: the bot's ``--pause``, seconds before each decision (bot_pause.py).
    ``level``: the bot's ``--bot-level``."""
    data_dir = base / f"bot{index}"
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "seat.log"
    name = f"Bot {index}"
    daemon = start_daemon(
        started,
        data_dir=str(data_dir),
        name=name,
        log_path=log_path,
        extra=[*SOLO_ARGS, "--peer", f"127.0.0.1:{host_port}"],
        env=BOT_ENV,
    )
    api = wait_for_api(str(data_dir), daemon, log_path)
    try:  # join here, one seat after the other, before the bot starts acting
        if join:
            request: dict[str, Any] = {
                "type": "join",
                "table": table,
                "host": "127.0.0.1",
                "port": host_port,
                "public_key": host_key,
            }
            if code:
                request["code"] = code
            checked(api.request(request))
    finally:
        api.close()
    with open(log_path, "ab") as out:
        started.add(
            subprocess.Popen(
                fourwinds_command(
                    *(["-v"] * verbose),
                    "bot",
                    "--rules",
                    rules,
                    "--data-dir",
                    str(data_dir),
                    "--table",
                    table,
                    "--pause",
                    f"{pause:g}",
                    "--bot-level",
                    level.value,
                ),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                env={**os.environ, **BOT_ENV},
            )
        )


@dataclass(frozen=True)
class BotSeats:
    """The bot seats `play` seated at one table: their daemons' data (identity and the
    table) live in ``home``, so returning to the table restarts the same seats."""

    home: Path
    table: str  # the table's id (hex)
    rules: str
    count: int
    level: BotLevel = BotLevel.NORMAL


def bots_home(state: Path, table: str) -> Path:
    """Where the bot seats of ``table`` keep their daemons' data."""
    return state / "bots" / table[:12]


def load_bot_seats(state: Path, table: str) -> BotSeats | None:
    """The bot seats `play` seated at ``table`` (its id), or None."""
    home = bots_home(state, table)
    try:
        data = json.loads((home / SEATS_FILE).read_text(encoding="utf-8"))
        return BotSeats(
            home,
            str(data["table"]),
            str(data["rules"]),
            int(data["count"]),
            parse_level(data.get("level", BotLevel.NORMAL.value)),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _new_home(state: Path, table: str) -> Path:
    """A folder for the bot seats' data; where its path leaves too little room for the
    daemons' ipc sockets, the folder is made in the temporary directory and linked."""
    home = bots_home(state, table)
    home.parent.mkdir(parents=True, exist_ok=True)
    if len(str(home.resolve())) <= SOCKET_ROOM:
        home.mkdir(exist_ok=True)
    else:
        home.symlink_to(tempfile.mkdtemp(prefix="fw-bots-"))
    return home


def seat_new_bots(
    started: Started,
    state: Path,
    *,
    table: str,
    rules: str,
    count: int,
    host_port: int,
    host_key: str,
    code: str | None = None,
    verbose: int = 0,
    pause: float = 0.0,
    level: BotLevel = BotLevel.NORMAL,
    say: Callable[[str], None] = print,
) -> BotSeats:
    """Seat ``count`` new bot seats at our table, one after the other (each its own daemon
    on 127.0.0.1), remembered in ``state`` for a later return. ``pause``: seconds each bot
    lets pass before a decision, so the person at the table can follow (bot_pause.py);
    ``level``: how well they play (remembered for the return)."""
    home = _new_home(state, table)
    seats = BotSeats(home, table, rules, 0, level)
    for index in range(1, count + 1):
        say(f"seating bot {index} of {count} (its own daemon on 127.0.0.1)...")
        start_bot_seat(
            started,
            base=home,
            index=index,
            rules=rules,
            table=table,
            host_port=host_port,
            host_key=host_key,
            verbose=verbose,
            code=code,
            pause=pause,
            level=level,
        )
        seats = BotSeats(home, table, rules, index, level)
        (home / SEATS_FILE).write_text(
            json.dumps({"table": table, "rules": rules, "count": index, "level": level.value}),
            encoding="utf-8",
        )
    return seats


def resume_bot_seats(
    started: Started,
    seats: BotSeats,
    *,
    host_port: int,
    verbose: int = 0,
    pause: float = 0.0,
    say: Callable[[str], None] = print,
) -> None:
    """Start the bot seats of a table we return to: their daemons resume it from disk
    (``pause`` as for ``seat_new_bots``; at the level they were seated with)."""
    say(f"restarting {seats.count} bot seat{'s' if seats.count > 1 else ''}...")
    for index in range(1, seats.count + 1):
        start_bot_seat(
            started,
            base=seats.home,
            index=index,
            rules=seats.rules,
            table=seats.table,
            host_port=host_port,
            host_key="",
            verbose=verbose,
            join=False,
            pause=pause,
            level=seats.level,
        )


def forget_bot_seats(seats: BotSeats) -> None:
    """Remove the bot seats' data (the table is over, or left)."""
    target = seats.home.resolve()
    if seats.home.is_symlink():
        seats.home.unlink()
    shutil.rmtree(target, ignore_errors=True)


def bot_daemon_dirs(state: Path) -> list[Path]:
    """The data directories of every bot seat `play` keeps (for `fourwinds stop`)."""
    root = state / "bots"
    if not root.is_dir():
        return []
    return sorted(
        seat for home in root.iterdir() for seat in home.glob("bot[0-9]") if seat.is_dir()
    )
