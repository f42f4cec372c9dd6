"""Small timing helpers shared by the benchmarks (wall-clock lives here, never in protocol/)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], *, repeat: int = 200, warmup: int = 5) -> float:
    """Median wall time of one call of ``fn`` over ``repeat`` calls."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def result(bench: str, value: float, unit: str, **extra: object) -> dict[str, object]:
    """One benchmark line: ``{"bench", "value", "unit", ...}``."""
    return {"bench": bench, "value": round(value, 3), "unit": unit, **extra}
