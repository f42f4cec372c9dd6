"""The opt-in per-test CPU report (testkit/cpu_report.py) adds up what the workers wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit import cpu_report


def test_the_report_sums_each_tests_cpu_over_workers_and_by_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # a run without workers
    prefix = tmp_path / "cpu"
    with cpu_report.measured("tests/a.py::test_one", str(prefix)):
        sum(range(10_000))
    written = (tmp_path / "cpu.main").read_text().split("\t")
    assert written[0] == "tests/a.py::test_one" and len(written) == 4
    (tmp_path / "cpu.gw0").write_text(
        "tests/a.py::test_two\t2.0\t1.0\t9.0\ntests/b.py::test_three\t0.5\t0.0\t1.0\n"
    )
    text = cpu_report.report(str(prefix))
    assert text.splitlines()[0].startswith("3 tests: ")
    assert "     3.0 s  tests/a.py::test_two" in text
    modules = text.split("modules:")[1].splitlines()
    assert modules[1].split()[-1] == "tests/a.py" and modules[2].split()[-1] == "tests/b.py"
