"""Answers derived from a value, kept with that value, not in a global table keyed by id().

A frozen value asked the same costly question again and again (a card: its compiled form, the
hands nearest a rack, the targets left by some exposures) keeps the answers in a ``Memo``
field of its own, declared ``field(default_factory=Memo, init=False, compare=False,
hash=False, repr=False)``: not an ``__init__`` argument (so ``dataclasses.replace`` gives the
copy an empty memo, never the original's answers), not compared, hashed or shown. The answers
go when the value goes; a global table keyed by ``id(value)`` had to hold the value itself,
so that its id could not be reused for another value, and kept it alive until the table was
next cleared.

A value that is copied with ``values.evolve`` (which copies every attribute) also names its
memo in a class attribute ``MEMO_FIELDS``, so that the copy starts with an empty one (a deck
state: protocol/deck/masked_wall.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_A = TypeVar("_A")
_T = TypeVar("_T")


class Memo:
    """Named tables of answers about one value; each caller names its own table and bounds it
    as it did before (``table``), or keeps one answer (``one``)."""

    __slots__ = ("_ones", "_tables")

    def __init__(self) -> None:
        self._tables: dict[str, dict[Any, Any]] = {}
        self._ones: dict[str, Any] = {}

    def table(self, name: str) -> dict[Any, Any]:
        """The table ``name`` (a new empty one the first time): the caller looks up, adds and
        clears it."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = {}
        return found

    def one(self, name: str, make: Callable[[_A], _T], arg: _A) -> _T:
        """The answer ``name``, made once as ``make(arg)``."""
        try:
            found: _T = self._ones[name]
        except KeyError:
            found = self._ones[name] = make(arg)
        return found
