"""Canonical plain encoding of protocol values, and the digests built on it.

Every seat must hash the same state to the same bytes, so values are turned into a plain,
ordered structure first: frozen dataclasses become ``[type name, field values...]`` (the
fields their constructor takes: one it does not, such as a ``memo.Memo``, is derived), Enums
their value, tuples/lists lists, sets and frozensets sorted lists, dicts lists of sorted
``[key, value]`` pairs. ``canonical_bytes`` packs that with msgpack; ``digest`` is its SHA-256.

A field added to a dataclass after values of it were hashed (into signed state hashes that
stored tables replay) is marked ``metadata=ADDED_LATER`` and placed last: it is left out of
the plain form while it holds its default, so every value that existed before it keeps its
bytes (as the wire forms leave out an option that is off).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from enum import Enum
from typing import Any

import msgpack

Plain = None | bool | int | float | str | bytes | list["Plain"]

ADDED_LATER: dict[str, bool] = {"fourwinds.canonical.added_later": True}
"""``dataclasses.field(default=..., metadata=ADDED_LATER)``: a trailing field left out of the
canonical form while at its default (see the module's note)."""


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
    keyed = sorted(
        ((canonical_bytes(k), to_plain(k), to_plain(v)) for k, v in value.items()),
        key=lambda item: item[0],
    )
    return [[key, val] for _, key, val in keyed]


def _converter_for(kind: type) -> Callable[[Any], Plain]:
    """Pick, once per type, how its values become plain data (a measurable share of hashing)."""
    if kind is type(None) or issubclass(kind, (bool, str, bytes, float)):
        if issubclass(kind, Enum):
            return _enum
        return _same
    if issubclass(kind, Enum):
        return (
            _int
            if issubclass(kind, int)
            and kind.__members__
            and all(
                isinstance(m.value, int) and not isinstance(m.value, bool)
                for m in kind.__members__.values()
            )
            else _enum
        )
    if issubclass(kind, int):
        return _int
    if dataclasses.is_dataclass(kind):
        name = kind.__name__
        fields = tuple(f for f in dataclasses.fields(kind) if f.init)  # not a memo's
        names = tuple(f.name for f in fields)
        later = _added_later(kind, fields)

        def _dataclass(value: Any) -> Plain:
            return [name, *(to_plain(getattr(value, n)) for n in names)]

        if not later:
            return _dataclass
        kept = names[: len(names) - len(later)]

        def _dataclass_later(value: Any) -> Plain:
            tail = [getattr(value, f.name) for f in later]
            while tail and tail[-1] == later[len(tail) - 1].default:
                tail.pop()
            return [
                name,
                *(to_plain(getattr(value, n)) for n in kept),
                *(to_plain(v) for v in tail),
            ]

        return _dataclass_later
    if issubclass(kind, (tuple, list)):
        return _sequence
    if issubclass(kind, (set, frozenset)):
        return _set
    if issubclass(kind, dict):
        return _dict

    def _refuse(value: Any) -> Plain:
        raise TypeError(f"no canonical form for {kind.__name__}")

    return _refuse


def _added_later(
    kind: type,
    fields: tuple[dataclasses.Field[Any], ...],
) -> tuple[dataclasses.Field[Any], ...]:
    """The trailing fields marked ``ADDED_LATER`` (``TypeError`` when one is not trailing or
    has no plain default: leaving it out would then be ambiguous)."""
    marked = [i for i, f in enumerate(fields) if f.metadata.get(_LATER_KEY)]
    if not marked:
        return ()
    if marked != list(range(len(fields) - len(marked), len(fields))):
        raise TypeError(f"{kind.__name__}: fields added later must come last")
    later = tuple(fields[i] for i in marked)
    if any(f.default is dataclasses.MISSING for f in later):
        raise TypeError(f"{kind.__name__}: a field added later needs a default")
    return later


_LATER_KEY = next(iter(ADDED_LATER))
_CONVERTERS: dict[type, Callable[[Any], Plain]] = {}


def canonical_bytes(value: Any) -> bytes:
    """msgpack bytes of ``to_plain(value)``; equal values give equal bytes."""
    packed: bytes = msgpack.packb(to_plain(value), use_bin_type=True)
    return packed


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical bytes."""
    return hashlib.sha256(canonical_bytes(value)).digest()
