"""Where the suite's CPU goes, test by test (opt-in: ``FOURWINDS_TEST_CPU=PREFIX``).

The suite is CPU-bound on two cores (docs/TESTING.md), so the question that matters is which
tests use the CPU, not which take long. With ``FOURWINDS_TEST_CPU`` set, each test's CPU time
is written as a line ``node id, own CPU s, children's CPU s, wall s`` (tab-separated) to
``PREFIX.<worker>``: its own is the worker process's (``time.process_time``), its children's
what the processes it started and waited for used (``RUSAGE_CHILDREN``; a process it does not
reap, a tmux'd `play` or a daemon in a namespace left to its ``ip netns exec``, is not
counted). ``python -m testkit.cpu_report PREFIX`` sums them by test and by module.
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

VARIABLE = "FOURWINDS_TEST_CPU"


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


@contextlib.contextmanager
def measured(node_id: str, prefix: str) -> Iterator[None]:
    """Write one line for the test ``node_id`` run inside this block."""
    own, children, wall = time.process_time(), _children(), time.monotonic()
    try:
        yield
    finally:
        line = (
            f"{node_id}\t{time.process_time() - own:.3f}\t{_children() - children:.3f}"
            f"\t{time.monotonic() - wall:.3f}\n"
        )
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{prefix}.{worker}", "a", encoding="utf-8") as out:
            out.write(line)


def report(prefix: str, top: int = 25) -> str:
    """The tests and the modules that used the most CPU (own + children), and the totals."""
    tests: defaultdict[str, float] = defaultdict(float)
    own = children = 0.0
    for path in sorted(Path(prefix).parent.glob(Path(prefix).name + ".*")):
        for line in path.read_text(encoding="utf-8").splitlines():
            node, mine, theirs, _ = line.split("\t")
            tests[node] += float(mine) + float(theirs)
            own += float(mine)
            children += float(theirs)
    modules: defaultdict[str, float] = defaultdict(float)
    for node, cpu in tests.items():
        modules[node.split("::")[0]] += cpu
    lines = [
        f"{len(tests)} tests: {own:.0f} CPU-s in the workers, {children:.0f} in the "
        "processes they reaped",
        "",
        "tests:",
    ]
    lines += [f"{cpu:8.1f} s  {node}" for node, cpu in _most(tests, top)]
    lines += ["", "modules:"]
    lines += [f"{cpu:8.1f} s  {module}" for module, cpu in _most(modules, top)]
    return "\n".join(lines)


def _most(found: dict[str, float], top: int) -> list[tuple[str, float]]:
    return sorted(found.items(), key=lambda item: -item[1])[:top]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: python -m testkit.cpu_report PREFIX   (the {VARIABLE} of the run)")
    print(report(sys.argv[1]))
