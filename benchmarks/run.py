"""Run fourwinds benchmarks and print one JSON object per line.

Each ``benchmarks/bench_<group>.py`` defines ``BENCHES``: a dict from bench name to a function
taking no arguments and returning a list of result dicts, each with at least ``bench``,
``value`` and ``unit``. ``scripts/bench`` with no names runs them all; a name selects a group
(``deck`` runs bench_deck.py) or a single bench. Timing targets live here, never in tests:
each result carries its ``target`` and whether it was ``met``, and ratios to a floor or peer
measured in the same run.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
Bench = Callable[[], list[dict[str, object]]]


def discover() -> dict[str, dict[str, Bench]]:
    sys.path.insert(0, str(HERE.parent))
    groups: dict[str, dict[str, Bench]] = {}
    for path in sorted(HERE.glob("bench_*.py")):
        group = path.stem.removeprefix("bench_")
        module = importlib.import_module(f"benchmarks.{path.stem}")
        groups[group] = dict(module.BENCHES)
    return groups


def main(argv: list[str]) -> int:
    groups = discover()
    selected: list[tuple[str, Bench]] = []
    for name in argv or list(groups):
        if name in groups:
            selected.extend(groups[name].items())
            continue
        found = [(n, b) for g in groups.values() for n, b in g.items() if n == name]
        if not found:
            known = sorted(set(groups) | {n for g in groups.values() for n in g})
            print(f"bench: unknown benchmark {name!r}; known: {', '.join(known)}",
                  file=sys.stderr)
            return 2
        selected.extend(found)
    for _name, bench in selected:
        for result in bench():
            print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
