"""One daemon per data directory (daemon/single.py): a second `fourwinds daemon` on a data
directory a daemon runs for refuses to start, naming the first one's process, and leaves
the first one answering on its local API; a command that starts a daemon at the same moment
as another (`fourwinds web` beside `fourwinds daemon`, as tests/web/test_web_lobby.py does)
uses the one that won. Before, the second daemon started beside the first (same key, same
records), took its local API socket, and its exit could leave the first unreachable."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fourwinds.frontends.client.local_seats import wait_for_api

DAEMON = [
    sys.executable,
    "-m",
    "fourwinds.frontends.cli",
    "daemon",
    "--port",
    "0",
    "--interface",
    "127.0.0.1",
    "--no-mdns",
]


def _env(tmp_path: Path) -> dict[str, str]:
    run = tmp_path / "run"
    run.mkdir(mode=0o700, exist_ok=True)
    return dict(os.environ, XDG_RUNTIME_DIR=str(run))


def _start(tmp_path: Path, log: str) -> subprocess.Popen[bytes]:
    with open(tmp_path / log, "wb") as out:
        return subprocess.Popen(
            [*DAEMON, "--data-dir", str(tmp_path / "data")],
            stdout=out,
            stderr=out,
            env=_env(tmp_path),
        )


def _answers(tmp_path: Path, process: subprocess.Popen[bytes], log: str) -> bool:
    """Whether the daemon of the data directory answers a status request."""
    api = wait_for_api(str(tmp_path / "data"), process, tmp_path / log, timeout=30)
    try:
        return bool(api.request({"type": "status"})["ok"])
    finally:
        api.close()


def _first_to_exit(*processes: subprocess.Popen[bytes]) -> int:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        for i, process in enumerate(processes):
            if process.poll() is not None:
                return i
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    raise AssertionError("both daemons run on one data directory")


def test_a_second_daemon_on_one_data_directory_refuses_and_the_first_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", _env(tmp_path)["XDG_RUNTIME_DIR"])
    first = _start(tmp_path, "first.log")
    try:
        assert _answers(tmp_path, first, "first.log")
        second = _start(tmp_path, "second.log")
        assert second.wait(timeout=30) != 0
        said = (tmp_path / "second.log").read_text()
        assert (
            f"another fourwinds daemon already runs for {tmp_path / 'data'} "
            f"(pid {first.pid}); `fourwinds stop` stops it" in said
        ), said
        assert "Traceback" not in said
        assert first.poll() is None
        assert _answers(tmp_path, first, "first.log"), "the first daemon stopped answering"
    finally:
        first.terminate()
        first.wait(timeout=10)


def test_a_command_whose_daemon_lost_the_race_uses_the_one_that_won(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", _env(tmp_path)["XDG_RUNTIME_DIR"])
    processes = (_start(tmp_path, "first.log"), _start(tmp_path, "second.log"))
    try:
        lost = _first_to_exit(*processes)  # the two started at the same moment
        loser, log = processes[lost], ("first.log", "second.log")[lost]
        assert loser.returncode != 0
        assert "already runs for" in (tmp_path / log).read_text()
        assert _answers(tmp_path, loser, log)
        assert processes[1 - lost].poll() is None
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
