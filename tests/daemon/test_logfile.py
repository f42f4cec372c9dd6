"""The daemon's log file is rotated, and stderr follows it (issue 15: a flood of refusals once
grew the log to 745 MB)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from testkit.procs import ROOT

SCRIPT = """
import logging, sys
from fourwinds.daemon import logfile
logfile.LOG_BYTES = 4000
assert logfile.setup() is not None
for n in range(2000):
    logging.getLogger("fourwinds.test").warning("line %d %s", n, "x" * 60)
print("the last words", file=sys.stderr)
"""


def test_a_daemon_log_that_goes_to_a_file_is_rotated_and_stderr_follows(tmp_path: Path) -> None:
    log = tmp_path / "daemon.log"
    with open(log, "ab") as out:
        subprocess.run(
            [sys.executable, "-c", SCRIPT], cwd=ROOT, stdout=out, stderr=out, check=True, timeout=60
        )
    files = sorted(tmp_path.glob("daemon.log*"))
    assert [f.name for f in files] == ["daemon.log", "daemon.log.1", "daemon.log.2", "daemon.log.3"]
    assert sum(f.stat().st_size for f in files) < 4 * 4200  # 2,000 lines were 190 KB
    text = log.read_text()
    assert "line 1999" in text and text.rstrip().endswith("the last words")


def test_a_daemon_in_the_foreground_logs_to_stderr() -> None:
    script = (
        "import logging\nfrom fourwinds.daemon import logfile\n"
        "print(logfile.setup())\nlogging.getLogger('x').warning('to stderr')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "None" and "to stderr" in done.stderr
