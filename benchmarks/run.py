"""Run fourwinds benchmarks and print one JSON object per line.

Each ``benchmarks/bench_<group>.py`` defines ``BENCHES``: a dict from bench name to a function
taking ``quick`` (a bool) and returning a list of result dicts, each with ``bench``,
``value``, ``unit``, ``target`` and ``met`` (``met`` a bool judged from the measured value).
``scripts/bench`` with no names runs them all; a name selects a group (``deck`` runs
bench_deck.py) or a single bench. Timing targets live here, never in tests: each result
carries its ``target`` and whether it was ``met``, and ratios to a floor or peer measured in
the same run. Every line gets ``group``: the group that printed it.

``scripts/bench --quick [NAME...]`` runs the same benches at their smallest size (one hand,
a few frames, one fault; each bench's docstring or its ``quick`` branch says what it cuts),
to show that every bench still runs: tests/test_bench_quick.py runs it for every group. Its
lines are marked ``"quick": true``; their ``met`` is judged from the quick figures, which are
not the full run's (fewer samples, shorter pauses), so only a full run's figures count.
A group that cannot run here (no root for network namespaces, no Chromium) prints a line
with ``value`` null, ``met`` false and ``skipped``: the reason.

A bench that raises is reported (its traceback on stderr, naming it and its group) and the
others still run; the exit status is then 1. How long each bench took goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
Bench = Callable[[bool], list[dict[str, object]]]
QUICK = "--quick"


def discover() -> dict[str, dict[str, Bench]]:
    sys.path.insert(0, str(HERE.parent))
    groups: dict[str, dict[str, Bench]] = {}
    for path in sorted(HERE.glob("bench_*.py")):
        group = path.stem.removeprefix("bench_")
        module = importlib.import_module(f"benchmarks.{path.stem}")
        groups[group] = dict(module.BENCHES)
    return groups


def select(
    groups: dict[str, dict[str, Bench]], names: list[str]
) -> list[tuple[str, str, Bench]] | None:
    """(group, bench name, bench) for each name (a group or a bench), all when none; None
    (after saying so) for an unknown name."""
    selected: list[tuple[str, str, Bench]] = []
    for name in names or list(groups):
        if name in groups:
            selected.extend((name, n, b) for n, b in groups[name].items())
            continue
        found = [
            (g, n, b) for g, benches in groups.items() for n, b in benches.items() if n == name
        ]
        if not found:
            known = sorted(set(groups) | {n for g in groups.values() for n in g})
            print(f"bench: unknown benchmark {name!r}; known: {', '.join(known)}", file=sys.stderr)
            return None
        selected.extend(found)
    return selected


def main(argv: list[str]) -> int:
    quick = QUICK in argv
    selected = select(discover(), [a for a in argv if a != QUICK])
    if selected is None:
        return 2
    failed = False
    for group, name, bench in selected:
        started = time.monotonic()
        try:
            lines = bench(quick)
        except Exception:
            traceback.print_exc()
            print(
                f"bench: {name} (group {group}) raised; the others go on",
                file=sys.stderr,
                flush=True,
            )
            failed = True
            continue
        print(
            f"bench: {name} (group {group}) took {time.monotonic() - started:.1f} s",
            file=sys.stderr,
            flush=True,
        )
        for line in lines:
            marks: dict[str, object] = {"group": group, **({"quick": True} if quick else {})}
            print(json.dumps({**line, **marks}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
