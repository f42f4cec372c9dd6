"""The suite's xdist groups hold (tests/conftest.py, docs/TESTING.md): a run on two workers
with ``--dist loadgroup`` sends every test of one group to one worker. pytest-xdist 3.8 on
pytest 9.2 silently dropped the groups (pytest-xdist#1386), which put two tables of real
daemons beside each other and a screen beside both; this test fails when that comes back."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("xdist")

GROUPED = """
import pytest

pytestmark = pytest.mark.xdist_group("together")

@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    pass
"""

FREE = """
import pytest

@pytest.mark.parametrize("i", range(6))
def test_free(i):
    pass
"""


def test_a_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_a.py").write_text(GROUPED)
    (tmp_path / "test_b.py").write_text(GROUPED)
    (tmp_path / "test_c.py").write_text(FREE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-v",
            "-p",
            "no:cacheprovider",
            "-c",
            "/dev/null",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    workers = {
        found.group(1)
        for found in re.finditer(r"\[(gw\d)\] .*PASSED .*test_grouped\[\d\]", done.stdout)
    }
    grouped = re.findall(r"PASSED .*test_grouped\[\d\](@\w+)?", done.stdout)
    assert len(grouped) == 12, done.stdout[-3000:]
    assert grouped == ["@together"] * 12, "the group name never reached the node ids"
    assert len(workers) == 1, f"one group ran on {sorted(workers)}"
