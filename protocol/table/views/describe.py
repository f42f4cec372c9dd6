"""One-line descriptions of engine actions for replays and logs (tiles in notation)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from functools import lru_cache

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tiles import Kind


def describe_action(action: object) -> str:
    """``Discard 5p (slot 17)``-style text: the action's name, then its fields but the seat.
    Kept per (frozen, hashable) action: every seat words every action of the hand."""
    try:
        return _kept(action)
    except TypeError:  # an action with an unhashable field
        return _describe(action)


@lru_cache(maxsize=1024)
def _kept(action: object) -> str:
    return _describe(action)


def _describe(action: object) -> str:
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return repr(action)
    parts = [type(action).__name__]
    for f in dataclasses.fields(action):
        if f.name == "seat":
            continue
        parts.append(f"{f.name}={_show(getattr(action, f.name))}")
    return " ".join(parts)


def _show(value: object) -> str:
    if isinstance(value, Kind):
        return tile_code(value)
    if isinstance(value, Seat):
        return value.name
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "(" + " ".join(_show(v) for v in value) + ")"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return describe_action(value)
    return str(value)
