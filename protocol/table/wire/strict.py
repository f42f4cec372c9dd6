"""Strict msgpack on the wire: size limits, type checks, and one typed error for bad input.

Everything a peer sends is untrusted. ``unpack`` refuses oversized or malformed bytes and the
``need_*`` helpers check each field's type and range, so a bad message always ends as a
``WireError`` naming the problem, never as a crash deep inside the session.
"""

from __future__ import annotations

from typing import Any

import msgpack

from fourwinds.protocol.errors import FourwindsError

MAX_MESSAGE_BYTES = 256 * 1024
"""Largest wire message accepted (an Open carrying a card file is the biggest legal one)."""

MAX_ITEMS = 4096
"""Largest array or map inside a message."""


class WireError(FourwindsError):
    """Bytes that are not a well-formed protocol value; ``problem`` says what is wrong."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)


class WireCut(WireError):
    """Bytes that end in the middle of a value: a truncated file or message."""


def pack(value: Any) -> bytes:
    """msgpack bytes of a plain value (lists, ints, bytes, str, bools, floats, None)."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


def unpack(
    data: object,
    what: str = "message",
    max_bytes: int = MAX_MESSAGE_BYTES,
    max_items: int = MAX_ITEMS,
) -> Any:
    """Decode one msgpack value with limits (``max_bytes`` in all, ``max_items`` in any array
    or map); ``WireCut`` for bytes that stop mid-value, ``WireError`` for anything else
    malformed."""
    if not isinstance(data, bytes):
        raise WireError(f"{what}: expected bytes, got {type(data).__name__}")
    if len(data) > max_bytes:
        raise WireError(f"{what}: {len(data)} bytes is over the limit of {max_bytes}")
    if not data:
        raise WireError(f"{what}: empty")
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=max_bytes,
            max_str_len=max_bytes,
            max_array_len=max_items,
            max_map_len=max_items,
            max_ext_len=0,
        )
    except msgpack.OutOfData:
        raise WireCut(f"{what}: cut short (it ends in the middle of a value)") from None
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, TypeError) as error:
        raise WireError(f"{what}: not valid msgpack ({error.__class__.__name__})") from None
    except ValueError as error:
        text = str(error)
        if "incomplete" in text:  # msgpack's C unpacker: "Unpack failed: incomplete input"
            raise WireCut(f"{what}: cut short (it ends in the middle of a value)") from None
        if "exceeds max_" in text:  # "5000 exceeds max_array_len(4096)"
            raise WireError(f"{what}: over a size limit ({text})") from None
        raise WireError(f"{what}: not valid msgpack (ValueError)") from None
    except Exception as error:  # msgpack raises a few undocumented kinds on garbage
        raise WireError(f"{what}: undecodable ({error.__class__.__name__})") from None


def need_list(
    value: object, what: str, length: int | None = None, max_len: int = MAX_ITEMS
) -> list[Any]:
    if not isinstance(value, list):
        raise WireError(f"{what}: expected an array, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise WireError(f"{what}: expected {length} items, got {len(value)}")
    if len(value) > max_len:
        raise WireError(f"{what}: {len(value)} items is over the limit of {max_len}")
    return value


def need_int(value: object, what: str, lo: int = 0, hi: int = 2**63 - 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"{what}: expected an integer, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise WireError(f"{what}: {value} is outside {lo}..{hi}")
    return value


def need_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(f"{what}: expected true/false, got {type(value).__name__}")
    return value


def need_bytes(
    value: object, what: str, length: int | None = None, max_len: int = MAX_MESSAGE_BYTES
) -> bytes:
    if not isinstance(value, bytes):
        raise WireError(f"{what}: expected bytes, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise WireError(f"{what}: expected {length} bytes, got {len(value)}")
    if len(value) > max_len:
        raise WireError(f"{what}: {len(value)} bytes is over the limit of {max_len}")
    return value


def need_str(value: object, what: str, max_len: int = 200) -> str:
    if not isinstance(value, str):
        raise WireError(f"{what}: expected text, got {type(value).__name__}")
    if len(value) > max_len:
        raise WireError(f"{what}: {len(value)} characters is over the limit of {max_len}")
    return value
