"""A daemon started from an older build is named as such by a newer command (issue 38,
defect 10: upgrading the program while a daemon ran gave "internal error (ImportError)").

A copy of the code folders, with their own file times, stands for the program as it was
when the daemon started; the daemon runs from it. Then `fourwinds status` from this checkout
(the program as upgraded) says in one line that the daemon runs another build and what to
do, and `fourwinds stop` stops it all the same (daemon/build.py, frontends/client/client.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fourwinds.daemon.build import build_id
from testkit.dirs import short_dir
from testkit.procs import fourwinds_cli

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_a_command_of_a_newer_build_tells_the_daemon_is_older_and_stop_still_works() -> None:
    base = short_dir()
    try:
        old = base / "old" / "fourwinds"
        for folder in ("protocol", "daemon", "frontends", "cards"):
            shutil.copytree(  # new file times: another build (daemon/build.py)
                ROOT / folder,
                old / folder,
                copy_function=shutil.copy,
                ignore=shutil.ignore_patterns("__pycache__"),
            )
        data = base / "data"
        options = ["--data-dir", str(data), "--port", "0", "--interface", "127.0.0.1", "--no-mdns"]
        daemon = subprocess.Popen(
            [sys.executable, "-m", "fourwinds.frontends.cli", "daemon", *options],
            cwd=base,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(base / "old")},
        )
        try:
            end = time.monotonic() + 60
            while not (data / "run" / "api.endpoint").exists():
                assert daemon.poll() is None and time.monotonic() < end, "the daemon did not start"
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.1)
            status = fourwinds_cli("status", "--data-dir", str(data))
            assert status.returncode == 2, status.stdout + status.stderr
            [line] = status.stderr.splitlines()
            assert "runs another build of fourwinds" in line and f"({build_id()})" in line
            assert "`fourwinds stop`, then run the command again" in line
            stopped = fourwinds_cli("stop", "--data-dir", str(data))
            assert stopped.returncode == 0, stopped.stdout + stopped.stderr
            assert daemon.wait(30) == 0
        finally:
            if daemon.poll() is None:
                daemon.kill()
                daemon.wait(10)
    finally:
        shutil.rmtree(base, ignore_errors=True)
