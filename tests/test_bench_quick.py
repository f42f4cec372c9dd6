"""Every benchmark group still runs: `scripts/bench --quick GROUP` (benchmarks/run.py) at the
smallest sizes, one test per group (so that on several workers the groups run side by side),
printing complete lines (issue 21). No timing is asserted:
the figures and their targets belong to the full run; the subprocess's time limit only makes
the test stop by itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import bench_faults, bench_web
from testkit.netns import Unavailable

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = ("bench", "value", "unit", "target", "met")
BOUND_S = 600.0  # stops a hung run; not a target (a group's quick run takes seconds to ~1 min)


def groups() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py"))


def problems_of(line: dict[str, object]) -> list[str]:
    """What a quick line lacks: a required field, a bool ``met``, the quick mark, a group."""
    found = [f"no {key!r}" for key in REQUIRED if key not in line]
    if "met" in line and not isinstance(line["met"], bool):
        found.append(f"met is {line['met']!r}, not a bool")
    if line.get("quick") is not True:
        found.append('no "quick": true')
    if line.get("group") not in groups():
        found.append(f"group {line.get('group')!r} is not a benchmark group")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("group", groups())
def test_every_group_prints_complete_quick_lines(group: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--quick", group],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=BOUND_S,
    )
    assert "Traceback" not in done.stderr, done.stderr[-6000:]
    assert done.returncode == 0, done.stderr[-6000:]
    printed: dict[str, list[str]] = {group: []}
    problems = []
    for text in done.stdout.splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            problems.append(f"not a JSON line: {text[:200]!r}")
            continue
        name = str(line.get("bench"))
        problems += [f"{name}: {p}" for p in problems_of(line)]
        printed.setdefault(str(line.get("group")), []).append(name)
    assert [group for group, names in printed.items() if not names] == []
    assert problems == []


def test_the_checks_catch_an_incomplete_line() -> None:
    good = {
        "bench": "b",
        "value": 1,
        "unit": "ms",
        "target": "<= 2 ms",
        "met": True,
        "group": "deck",
        "quick": True,
    }
    assert problems_of(good) == []
    assert problems_of({**good, "met": None}) == ["met is None, not a bool"]
    assert problems_of({k: v for k, v in good.items() if k != "target"}) == ["no 'target'"]
    assert problems_of({**good, "quick": False}) == ['no "quick": true']


def test_web_without_chromium_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_web, "unavailable", lambda: "no chromedriver on PATH")
    [line] = bench_web.bench_web(True)
    assert line["value"] is None and line["met"] is False
    assert line["skipped"] == "no chromedriver on PATH"
    assert problems_of({**line, "group": "web", "quick": True}) == []


def test_faults_without_namespaces_say_why(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_namespaces(base: Path, quick: bool) -> list[dict[str, object]]:
        raise Unavailable("network namespaces need root")

    monkeypatch.setattr(bench_faults, "_run", no_namespaces)
    [line] = bench_faults.bench_faults(True)
    assert line["value"] is None and line["met"] is False
    assert line["skipped"] == "network namespaces need root"
    assert problems_of({**line, "group": "faults", "quick": True}) == []
