"""Encode engine actions for the wire and decode them back, strictly, by their type hints.

Engines define actions as frozen dataclasses of ints, bools, strs, bytes, Enums (``Kind``,
``Seat``...), tuples and optional values. ``encode`` gives ``[type name, fields...]`` (the
canonical plain form); ``ActionCodec.decode`` rebuilds the value from a whitelist of action
classes, checking every field against its annotation, so a peer cannot smuggle in a type
the engine never expects.

The type hints are read once per type: each hint is compiled into a small decoding function
(kept per codec), so decoding a message costs one call per value rather than a walk over the
``typing`` machinery (deck messages carry hundreds of values).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

import msgpack

from fourwinds.protocol.canonical import to_plain
from fourwinds.protocol.table.wire.strict import WireError

MAX_DEPTH = 8

Decoder = Callable[[object, str, int], Any]
"""``decoder(plain value, what (for errors), depth) -> value``; WireError when it is wrong."""


def encode(action: object) -> Any:
    """The plain wire form of an action."""
    return to_plain(action)


class ActionCodec:
    """Decodes the action classes it was built with, and nothing else."""

    def __init__(self, classes: Iterable[type]) -> None:
        self._classes: dict[str, type] = {}
        self._decoders: dict[object, Decoder] = {}
        self._memo: dict[bytes, object] = {}
        for cls in classes:
            if not dataclasses.is_dataclass(cls):
                raise TypeError(f"{cls.__name__} is not a dataclass")
            self._classes[cls.__name__] = cls

    def decode(self, value: object) -> object:
        if not isinstance(value, list) or not value or not isinstance(value[0], str):
            raise WireError("action: expected [type name, fields...]")
        cls = self._classes.get(value[0])
        if cls is None:
            raise WireError(f"action: unknown action type {value[0]!r}")
        self._memo = {}
        try:
            return self._fields_of(cls)(value, cls.__name__, 0)
        finally:
            self._memo = {}

    # compiling ------------------------------------------------------------------------------

    def _compile(self, hint: Any) -> Decoder:
        decoder = self._decoders.get(hint)
        if decoder is None:
            decoder = self._decoders[hint] = self._make(hint)
        return decoder

    def _fields_of(self, cls: type, bound: dict[Any, Any] | None = None) -> Decoder:
        """Builds ``cls`` from ``[name, fields...]`` (the name already checked)."""
        key = ("fields", cls, tuple(sorted(bound.items(), key=repr)) if bound else ())
        decoder = self._decoders.get(key)
        if decoder is None:
            decoder = self._decoders[key] = self._make_fields(cls, bound)
        return decoder

    def _make_fields(self, cls: type, bound: dict[Any, Any] | None) -> Decoder:
        fields = [f for f in dataclasses.fields(cls) if f.init]
        names = tuple(f.name for f in fields)
        whats = tuple(f"{cls.__name__}.{name}" for name in names)
        count = len(fields)
        keywords = any(f.kw_only for f in fields)  # keyword-only fields cannot go by position
        label = cls.__name__
        hints = typing.get_type_hints(cls)
        if bound:  # a generic dataclass: its type variables stand for the given arguments
            hints = {name: bound.get(hint, hint) for name, hint in hints.items()}
        decoders: list[Decoder] = []  # compiled on first use (types may refer to each other)
        # plain fields take a shortcut: a value of exactly the hinted type is taken as it is
        exact = tuple(
            hints[name] if hints[name] in (int, bytes, str, bool) else None for name in names
        )

        def build(value: object, what: str, depth: int) -> object:
            assert isinstance(value, list)
            if len(value) != count + 1:
                raise WireError(f"action {label}: expected {count} fields, got {len(value) - 1}")
            if not decoders:
                decoders.extend(self._compile(hints[name]) for name in names)
            inner = depth + 1
            if inner > MAX_DEPTH:
                args = [
                    decode(v, w, inner)
                    for decode, v, w in zip(decoders, value[1:], whats, strict=True)
                ]
            else:
                args = [
                    v if type(v) is plain else decode(v, w, inner)
                    for plain, decode, v, w in zip(exact, decoders, value[1:], whats, strict=True)
                ]
            try:
                if keywords:
                    return cls(**dict(zip(names, args, strict=True)))
                return cls(*args)
            except (ValueError, TypeError) as error:
                raise WireError(f"action {label}: {error}") from None

        return build

    def _make(self, hint: Any) -> Decoder:
        origin = typing.get_origin(hint)
        if hint is Any:
            return _fail("untyped field")
        if origin in (types.UnionType, typing.Union):
            return self._union(hint)
        if origin is tuple:
            return self._tuple(hint)
        if isinstance(origin, type) and dataclasses.is_dataclass(origin):
            return self._generic(hint, origin)
        if isinstance(hint, typing.TypeVar):
            return _fail("an unbound type variable")
        if origin is typing.Literal:
            allowed = typing.get_args(hint)

            def literal(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if value not in allowed:
                    raise WireError(f"{what}: {value!r} not allowed")
                return value

            return literal
        if isinstance(hint, type):
            return self._scalar(hint)
        return _fail(f"unsupported field type {hint!r}")

    def _union(self, hint: Any) -> Decoder:
        options = typing.get_args(hint)
        none_ok = type(None) in options
        choices = [self._compile(o) for o in options if o is not type(None)]

        def union(value: object, what: str, depth: int) -> Any:
            _depth(what, depth)
            if value is None and none_ok:
                return None
            errors = []
            for choice in choices:
                try:
                    return choice(value, what, depth)
                except WireError as error:
                    errors.append(error.problem)
            raise WireError(f"{what}: matches none of its types ({'; '.join(errors)})")

        return union

    def _tuple(self, hint: Any) -> Decoder:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if item in (bytes, str) or item is int:  # fast path: long runs of plain items
                name = item.__name__

                def plain_items(value: object, what: str, depth: int) -> Any:
                    _depth(what, depth)
                    if not isinstance(value, list):
                        raise WireError(f"{what}: expected an array")
                    if all(type(v) is item for v in value):
                        return tuple(value)
                    raise WireError(f"{what}: expected {name} items")

                return plain_items
            each = self._compile(item)

            def items(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if not isinstance(value, list):
                    raise WireError(f"{what}: expected an array")
                inner = depth + 1
                return tuple(each(v, what, inner) for v in value)

            return items
        parts = [self._compile(a) for a in args]

        def fixed(value: object, what: str, depth: int) -> Any:
            _depth(what, depth)
            if not isinstance(value, list):
                raise WireError(f"{what}: expected an array")
            if len(parts) != len(value):
                raise WireError(f"{what}: expected {len(parts)} items, got {len(value)}")
            inner = depth + 1
            return tuple(p(v, what, inner) for p, v in zip(parts, value, strict=True))

        return fixed

    def _generic(self, hint: Any, origin: type) -> Decoder:
        params = getattr(origin, "__parameters__", ())
        bound = dict(zip(params, typing.get_args(hint), strict=False))
        build = self._fields_of(origin, bound)
        name = origin.__name__
        tag = repr(hint).encode()

        def generic(value: object, what: str, depth: int) -> Any:
            _depth(what, depth)
            if not isinstance(value, list) or not value or value[0] != name:
                raise WireError(f"{what}: expected a {name}")
            # a message may repeat one signed value many times (a key release behind each of
            # its keys): decode each distinct one once
            key = tag + msgpack.packb(value, use_bin_type=True)
            built = self._memo.get(key)
            if built is None:
                built = self._memo[key] = build(value, what, depth)
            return built

        return generic

    def _scalar(self, hint: type) -> Decoder:
        if issubclass(hint, Enum):
            members = hint._value2member_map_
            enum_name = hint.__name__

            def enum(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                try:
                    return members[value]
                except (KeyError, TypeError):
                    pass
                try:
                    return hint(value)
                except ValueError:
                    raise WireError(f"{what}: {value!r} is not a {enum_name}") from None

            return enum
        if hint is bool:

            def boolean(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if not isinstance(value, bool):
                    raise WireError(f"{what}: expected true/false")
                return value

            return boolean
        if hint is int:

            def integer(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if isinstance(value, bool) or not isinstance(value, int):
                    raise WireError(f"{what}: expected an integer")
                return value

            return integer
        if hint in (str, bytes, float):

            def simple(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if isinstance(value, bool) or not isinstance(value, hint):
                    raise WireError(f"{what}: expected {hint.__name__}")
                return value

            return simple
        if dataclasses.is_dataclass(hint):
            build = self._fields_of(hint)
            name = hint.__name__

            def nested(value: object, what: str, depth: int) -> Any:
                _depth(what, depth)
                if not isinstance(value, list) or not value or value[0] != name:
                    raise WireError(f"{what}: expected a {name}")
                return build(value, what, depth)

            return nested
        return _fail(f"unsupported field type {hint.__name__}")


def _depth(what: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise WireError(f"{what}: nested too deeply")


def _fail(problem: str) -> Decoder:
    def fail(value: object, what: str, depth: int) -> Any:
        _depth(what, depth)
        raise WireError(f"{what}: {problem}")

    return fail
