"""``evolve`` for the table's frozen values (it lives in ``fourwinds.protocol.values``, which
the deck shares)."""

from fourwinds.protocol.values import evolve

__all__ = ["evolve"]
