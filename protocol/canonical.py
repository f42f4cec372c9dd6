"""Canonical plain encoding of protocol values, and the digests built on it.

Every seat must hash the same state to the same bytes, so values are turned into a plain,
ordered structure first: frozen dataclasses become ``[type name, field values...]`` (the
fields their constructor takes: one it does not, such as a ``memo.Memo``, is derived), Enums
their value, tuples/lists lists, sets and frozensets sorted lists, dicts lists of sorted
``[key, value]`` pairs. ``canonical_bytes`` packs that with msgpack; ``digest`` is its SHA-256.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from enum import Enum
from typing import Any

import msgpack

Plain = None | bool | int | float | str | bytes | list["Plain"]


def to_plain(value: Any) -> Plain:
    """A deterministic msgpack-friendly form of a protocol value."""
    kind = type(value)
    convert = _CONVERTERS.get(kind)
    if convert is None:
        convert = _converter_for(kind)
        _CONVERTERS[kind] = convert
    return convert(value)


def _same(value: Any) -> Plain:
    return value  # type: ignore[no-any-return]


def _int(value: Any) -> Plain:
    return int(value)


def _enum(value: Any) -> Plain:
    return to_plain(value.value)


def _sequence(value: Any) -> Plain:
    if value:  # runs of plain ints or of one int-valued Enum (tile faces, slots) in one go
        first = type(value[0])
        if first is int and all(type(v) is int for v in value):
            return list(value)
        if _CONVERTERS.get(first) is _int and all(type(v) is first for v in value):
            return [int(v) for v in value]
    return [to_plain(v) for v in value]


def _set(value: Any) -> Plain:
    return sorted((to_plain(v) for v in value), key=canonical_bytes)


def _dict(value: Any) -> Plain:
    keyed = sorted(((canonical_bytes(k), to_plain(k), to_plain(v)) for k, v in value.items()),
                   key=lambda item: item[0])
    return [[key, val] for _, key, val in keyed]


def _converter_for(kind: type) -> Callable[[Any], Plain]:
    """Pick, once per type, how its values become plain data (a measurable share of hashing)."""
    if kind is type(None) or issubclass(kind, (bool, str, bytes, float)):
        if issubclass(kind, Enum):
            return _enum
        return _same
    if issubclass(kind, Enum):
        return _int if issubclass(kind, int) and kind.__members__ and all(
            isinstance(m.value, int) and not isinstance(m.value, bool)
            for m in kind.__members__.values()) else _enum
    if issubclass(kind, int):
        return _int
    if dataclasses.is_dataclass(kind):
        name = kind.__name__
        names = tuple(f.name for f in dataclasses.fields(kind) if f.init)

        def _dataclass(value: Any) -> Plain:
            return [name, *(to_plain(getattr(value, n)) for n in names)]

        return _dataclass
    if issubclass(kind, (tuple, list)):
        return _sequence
    if issubclass(kind, (set, frozenset)):
        return _set
    if issubclass(kind, dict):
        return _dict

    def _refuse(value: Any) -> Plain:
        raise TypeError(f"no canonical form for {kind.__name__}")

    return _refuse


_CONVERTERS: dict[type, Callable[[Any], Plain]] = {}


def canonical_bytes(value: Any) -> bytes:
    """msgpack bytes of ``to_plain(value)``; equal values give equal bytes."""
    packed: bytes = msgpack.packb(to_plain(value), use_bin_type=True)
    return packed


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical bytes."""
    return hashlib.sha256(canonical_bytes(value)).digest()
