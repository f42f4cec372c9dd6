"""A fast way to derive a changed copy of a frozen dataclass (the table and the deck)."""

from __future__ import annotations

from typing import Any, TypeVar

from .memo import Memo

_T = TypeVar("_T")


def evolve(value: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` without re-running ``__init__`` (a session changes on every
    message and replace is the hottest path of a hand): copy the fields, set the changes.
    Only for frozen dataclasses without ``__post_init__`` checks, whose fields are all set.
    A value that keeps answers about itself (``MEMO_FIELDS``, protocol/memo.py) gives the copy
    an empty ``Memo``: the answers were about the value, not the copy."""
    new = object.__new__(type(value))
    fields = new.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    for name in getattr(value, "MEMO_FIELDS", ()):
        fields[name] = Memo()
    return new
