"""Starting local processes for `fourwinds play`: the user's daemon, and bot seats.

A bot seat is a real seat: its own ``fourwinds daemon`` (own data directory, so its own
identity) on loopback, reaching ours with ``--peer``, plus a ``fourwinds bot`` process acting
for it through its local API. Every process started here is remembered by its pid and stopped
by that pid, never by name.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fourwinds.frontends.daemon_link import DaemonUnavailable, LocalApi, checked, connect

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
) -> subprocess.Popen[bytes]:
    """Start ``fourwinds daemon`` in the background, logging to ``log_path``.

    ``detach``: the user's own daemon outlives this command (new session, not stopped by
    ``Started.stop``), so the table survives closing the screen.
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
            fourwinds_command(*args), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
            start_new_session=detach,
        )
    if not detach:
        started.add(process)
    return process


def wait_for_api(data_dir: str | None, process: subprocess.Popen[bytes], log_path: Path,
                 timeout: float = START_TIMEOUT) -> LocalApi:
    """Connect to a daemon just started, or ``DaemonUnavailable`` with the end of its log."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return connect(data_dir)
        except DaemonUnavailable as error:
            if process.poll() is not None:
                raise DaemonUnavailable(
                    f"the daemon exited at once ({_tail(log_path)})") from error
            if time.monotonic() > deadline:
                raise DaemonUnavailable(f"the daemon did not start within {timeout:.0f} s "
                                        f"({_tail(log_path)})") from error
            time.sleep(0.1)


def _tail(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "no log"
    return lines[-1].removeprefix("fourwinds: ") if lines else "empty log"


def ensure_daemon(data_dir: str | None, name: str, log_dir: Path, peers: tuple[str, ...] = ()
                  ) -> tuple[LocalApi, subprocess.Popen[bytes] | None]:
    """The user's daemon: already running, or started now (detached, so it keeps the table
    when the screen closes). Also returns the process when this call started it."""
    try:
        return connect(data_dir), None
    except DaemonUnavailable:
        pass
    log_path = log_dir / "daemon.log"
    log.info("starting the daemon (log: %s)", log_path)
    extra = [arg for peer in peers for arg in ("--peer", peer)]
    process = start_daemon(Started(), data_dir=data_dir, name=name, log_path=log_path,
                           extra=extra, detach=True)
    try:
        return wait_for_api(data_dir, process, log_path), process
    except DaemonUnavailable:
        stop_process(process)
        raise


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop one process we started (by its pid), escalating to SIGKILL after 10 s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


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
) -> None:
    """One bot seat: its own daemon on loopback (``--peer`` ours) and a `fourwinds bot`
    (logging at ``verbose`` to the seat's log, ``<base>/bot<index>/seat.log``)."""
    data_dir = base / f"bot{index}"
    data_dir.mkdir(parents=True, exist_ok=True)
    log_path = data_dir / "seat.log"
    name = f"Bot {index}"
    daemon = start_daemon(
        started, data_dir=str(data_dir), name=name, log_path=log_path,
        extra=["--port", "0", "--interface", "127.0.0.1", "--no-mdns",
               "--peer", f"127.0.0.1:{host_port}"],
    )
    api = wait_for_api(str(data_dir), daemon, log_path)
    try:  # join here, one seat after the other, before the bot starts acting
        checked(api.request({"type": "join", "table": table, "host": "127.0.0.1",
                             "port": host_port, "public_key": host_key}))
    finally:
        api.close()
    with open(log_path, "ab") as out:
        started.add(subprocess.Popen(
            fourwinds_command(*(["-v"] * verbose), "bot", "--rules", rules,
                              "--data-dir", str(data_dir), "--table", table),
            stdin=subprocess.DEVNULL, stdout=out, stderr=out,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        ))
