"""Canonical plain encoding of protocol values, and the digests built on it.

Every seat must hash the same state to the same bytes, so values are turned into a plain,
ordered structure first: frozen dataclasses become ``[type name, field values...]``, Enums
their value, tuples/lists lists, sets and frozensets sorted lists, dicts lists of sorted
``[key, value]`` pairs. ``canonical_bytes`` packs that with msgpack; ``digest`` is its SHA-256.
"""

from __future__ import annotations

import dataclasses
import hashlib
from enum import Enum
from typing import Any

import msgpack

Plain = None | bool | int | float | str | bytes | list["Plain"]


def to_plain(value: Any) -> Plain:
    """A deterministic msgpack-friendly form of a protocol value."""
    if value is None or isinstance(value, (bool, str, bytes, float)):
        return value
    if isinstance(value, Enum):
        return to_plain(value.value)
    if isinstance(value, int):
        return int(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                *(to_plain(getattr(value, f.name)) for f in dataclasses.fields(value))]
    if isinstance(value, (tuple, list)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [to_plain(v) for v in value]
        return sorted(items, key=canonical_bytes)
    if isinstance(value, dict):
        keyed = sorted(((canonical_bytes(k), to_plain(k), to_plain(v))
                        for k, v in value.items()), key=lambda item: item[0])
        return [[key, val] for _, key, val in keyed]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def canonical_bytes(value: Any) -> bytes:
    """msgpack bytes of ``to_plain(value)``; equal values give equal bytes."""
    packed: bytes = msgpack.packb(to_plain(value), use_bin_type=True)
    return packed


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical bytes."""
    return hashlib.sha256(canonical_bytes(value)).digest()
