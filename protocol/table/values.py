"""``evolve`` for the table's frozen values (it lives in ``fourwinds.protocol.values``, which
the deck shares)."""

from fourwinds.protocol.values import CACHE_KEY, evolve

__all__ = ["CACHE_KEY", "evolve"]
