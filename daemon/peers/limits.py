"""Rate limits on what strangers may make the daemon do, with bounded memory.

``RateLimit`` is a token bucket per source (a key or an address): ``burst`` at once, then
``rate`` a second. Sources are kept in least-recently-used order and at most ``sources`` of
them (a forgotten source starts again with a full bucket: an attacker cycling through more
sources than that gains a burst each, which the per-address and total limits still bound).
The clock is the caller's (``now``), so tests need no sleeping.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable


class RateLimit:
    """A token bucket per source."""

    def __init__(self, rate: float, burst: float, sources: int = 4096) -> None:
        self.rate = rate
        self.burst = burst
        self.sources = sources
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def allow(self, source: Hashable, now: float, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens from ``source``'s bucket; False (nothing taken) when it has
        fewer."""
        tokens, then = self._buckets.get(source, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - then) * self.rate)
        allowed = tokens >= cost
        if allowed:
            tokens -= cost
        self._buckets[source] = (tokens, now)
        self._buckets.move_to_end(source)
        while len(self._buckets) > self.sources:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)
