"""Encode engine actions for the wire and decode them back, strictly, by their type hints.

Engines define actions as frozen dataclasses of ints, bools, strs, bytes, Enums (``Kind``,
``Seat``...), tuples and optional values. ``encode`` gives ``[type name, fields...]`` (the
canonical plain form); ``ActionCodec.decode`` rebuilds the value from a whitelist of action
classes, checking every field against its annotation, so a peer cannot smuggle in a type
the engine never expects.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable
from enum import Enum
from typing import Any

import msgpack

from fourwinds.protocol.canonical import to_plain

from .wire import WireError

MAX_DEPTH = 8


def encode(action: object) -> Any:
    """The plain wire form of an action."""
    return to_plain(action)


class ActionCodec:
    """Decodes the action classes it was built with, and nothing else."""

    def __init__(self, classes: Iterable[type]) -> None:
        self._classes: dict[str, type] = {}
        self._hints: dict[type, dict[str, Any]] = {}
        self._memo: dict[bytes, object] = {}
        for cls in classes:
            self._register(cls)

    def _register(self, cls: type) -> None:
        if cls in self._hints:
            return
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__name__} is not a dataclass")
        self._classes[cls.__name__] = cls
        self._hints[cls] = typing.get_type_hints(cls)

    def decode(self, value: object) -> object:
        if not isinstance(value, list) or not value or not isinstance(value[0], str):
            raise WireError("action: expected [type name, fields...]")
        cls = self._classes.get(value[0])
        if cls is None:
            raise WireError(f"action: unknown action type {value[0]!r}")
        self._memo = {}
        try:
            return self._build(cls, value, 0)
        finally:
            self._memo = {}

    def _build(self, cls: type, value: list[Any], depth: int,
               bound: dict[Any, Any] | None = None) -> object:
        fields = [f for f in dataclasses.fields(cls) if f.init]
        if len(value) != len(fields) + 1:
            raise WireError(f"action {cls.__name__}: expected {len(fields)} fields, "
                            f"got {len(value) - 1}")
        hints = self._hints.get(cls) or typing.get_type_hints(cls)
        if bound:  # a generic dataclass: its type variables stand for the given arguments
            hints = {name: bound.get(hint, hint) for name, hint in hints.items()}
        args = {f.name: self._value(hints[f.name], v, f"{cls.__name__}.{f.name}", depth + 1)
                for f, v in zip(fields, value[1:], strict=True)}
        try:
            return cls(**args)
        except (ValueError, TypeError) as error:
            raise WireError(f"action {cls.__name__}: {error}") from None

    def _value(self, hint: Any, value: object, what: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise WireError(f"{what}: nested too deeply")
        origin = typing.get_origin(hint)
        if hint is Any:
            raise WireError(f"{what}: untyped field")
        if origin in (types.UnionType, typing.Union):
            options = typing.get_args(hint)
            if value is None and type(None) in options:
                return None
            errors = []
            for option in options:
                if option is type(None):
                    continue
                try:
                    return self._value(option, value, what, depth)
                except WireError as error:
                    errors.append(error.problem)
            raise WireError(f"{what}: matches none of its types ({'; '.join(errors)})")
        if origin is tuple:
            if not isinstance(value, list):
                raise WireError(f"{what}: expected an array")
            args = typing.get_args(hint)
            if len(args) == 2 and args[1] is Ellipsis:
                item = args[0]
                if item in (bytes, str) or item is int:  # fast path: long runs of plain items
                    if all(type(v) is item for v in value):
                        return tuple(value)
                    raise WireError(f"{what}: expected {item.__name__} items")
                return tuple(self._value(item, v, what, depth + 1) for v in value)
            if len(args) != len(value):
                raise WireError(f"{what}: expected {len(args)} items, got {len(value)}")
            return tuple(self._value(a, v, what, depth + 1)
                         for a, v in zip(args, value, strict=True))
        if isinstance(origin, type) and dataclasses.is_dataclass(origin):
            params = getattr(origin, "__parameters__", ())
            bound = dict(zip(params, typing.get_args(hint), strict=False))
            if not isinstance(value, list) or not value or value[0] != origin.__name__:
                raise WireError(f"{what}: expected a {origin.__name__}")
            self._register(origin)
            # a message may repeat one signed value many times (a key release behind each of
            # its keys): decode each distinct one once
            key = repr(hint).encode() + msgpack.packb(value, use_bin_type=True)
            built = self._memo.get(key)
            if built is None:
                built = self._memo[key] = self._build(origin, value, depth, bound)
            return built
        if isinstance(hint, typing.TypeVar):
            raise WireError(f"{what}: an unbound type variable")
        if origin is typing.Literal:
            if value not in typing.get_args(hint):
                raise WireError(f"{what}: {value!r} not allowed")
            return value
        if isinstance(hint, type):
            return self._scalar(hint, value, what, depth)
        raise WireError(f"{what}: unsupported field type {hint!r}")

    def _scalar(self, hint: type, value: object, what: str, depth: int) -> Any:
        if issubclass(hint, Enum):
            try:
                return hint(value)
            except ValueError:
                raise WireError(f"{what}: {value!r} is not a {hint.__name__}") from None
        if hint is bool:
            if not isinstance(value, bool):
                raise WireError(f"{what}: expected true/false")
            return value
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise WireError(f"{what}: expected an integer")
            return value
        if hint in (str, bytes, float):
            if isinstance(value, bool) or not isinstance(value, hint):
                raise WireError(f"{what}: expected {hint.__name__}")
            return value
        if dataclasses.is_dataclass(hint):
            self._register(hint)
            if not isinstance(value, list) or not value or value[0] != hint.__name__:
                raise WireError(f"{what}: expected a {hint.__name__}")
            return self._build(hint, value, depth)
        raise WireError(f"{what}: unsupported field type {hint.__name__}")
