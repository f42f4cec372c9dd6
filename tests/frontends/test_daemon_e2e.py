"""The frontends against real daemons: four `fourwinds daemon` processes on 127.0.0.1, the
table opened with `fourwinds host` and joined with `fourwinds join`; one seat played from
the CLI (`status --wait`, `act default`) and three by `fourwinds bot` seats, through the
local API, until the hand is over.

The daemons run the daemon tests' session double (tests/daemon/toy_session.py: four seats take
turns until 24 plays) because the real table session does not yet produce the "seat view" of
the local API contract. What is exercised here is everything of the frontends' own: the CLI's
requests and JSON output, joining, the bot seat loop on published view events, act requests.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.frontends.client.local_seats import Started, fourwinds_command
from testkit.procs import ROOT, DaemonProcess, request, start_logged
from tests.daemon.toy_session import PLAYS

pytestmark = pytest.mark.slow


@pytest.fixture
def daemons(tmp_path: Path) -> Iterator[list[DaemonProcess]]:
    procs = [DaemonProcess(tmp_path / f"d{i}", f"player{i}") for i in range(4)]
    try:
        for d in procs:
            d.start()
        yield procs
    finally:
        for d in procs:
            d.stop()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        fourwinds_command(*args),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "FOURWINDS_CONFIG": "/nonexistent/config.toml"},
    )


def test_cli_hosts_and_four_bot_seats_play_the_hand(
    daemons: list[DaemonProcess], tmp_path: Path
) -> None:
    host = daemons[0]
    done = _cli("host", "east-wind", "--rules", "mcr", "--data-dir", str(host.data_dir), "--json")
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)["table"]
    client = host.client(subscribe=False)
    key = request(client, type="whoami")["public_key"]
    started = Started()
    try:
        logs = []
        for d in daemons[1:]:  # one after the other, as `fourwinds play` seats its bots
            joined = _cli(
                "join",
                table,
                "--host",
                "127.0.0.1",
                "--port",
                str(host.port),
                "--key",
                key,
                "--data-dir",
                str(d.data_dir),
                "--json",
            )
            assert joined.returncode == 0, joined.stderr
            assert json.loads(joined.stdout)["table"] == table
        for i, d in enumerate(daemons[1:], start=1):
            seat_args = ["--table", table[:8]]
            log = tmp_path / f"bot{i}.log"
            logs.append(log)
            start_logged(
                started, log, "bot", "--rules", "mcr", "--data-dir", str(d.data_dir), *seat_args
            )
        deadline = time.monotonic() + 90
        cli_moves = 0
        while time.monotonic() < deadline:  # seat 0 is played from the CLI, as a script would
            status = _cli("status", "--wait", "5", "--data-dir", str(host.data_dir), "--json")
            assert status.returncode == 0, status.stderr
            view = json.loads(status.stdout)["view"]
            if view.get("plays", 0) >= PLAYS:
                break
            if json.loads(status.stdout)["legal_actions"]:
                moved = _cli("act", "default", "--data-dir", str(host.data_dir))
                assert moved.returncode == 0, moved.stderr
                assert moved.stdout.strip() == "Play: done"
                cli_moves += 1
        else:
            started.stop()
            raise AssertionError(
                f"the hand did not finish: {view} "
                + " | ".join(log.read_text()[-600:] for log in logs)
            )
        transcripts = []
        for d in daemons:
            status = _cli("status", "--data-dir", str(d.data_dir), "--json")
            assert status.returncode == 0, status.stderr
            event = json.loads(status.stdout)
            assert event["type"] == "view" and event["table"] == table
            transcripts.append(event["view"]["transcript"])
        assert transcripts[0] == [n % 4 for n in range(PLAYS)]
        assert cli_moves == PLAYS // 4
        assert all(t == transcripts[0] for t in transcripts)
    finally:
        started.stop()
        client.close()


def test_cli_errors_from_a_real_daemon_are_one_line(daemons: list[DaemonProcess]) -> None:
    done = _cli("status", "--data-dir", str(daemons[1].data_dir))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "fourwinds: you are at no table: `fourwinds host` or `fourwinds join` first"
    ]
    done = _cli("host", "x", "--rules", "mcr", "--data-dir", str(daemons[1].data_dir))
    assert done.returncode == 0, done.stderr
    again = _cli("host", "x", "--rules", "mcr", "--data-dir", str(daemons[1].data_dir))
    assert again.returncode == 2
    assert "you already sit at a table named 'x'" in again.stderr
