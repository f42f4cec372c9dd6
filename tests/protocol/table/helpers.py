"""Shared test helpers: toy-rule harnesses and message forgery by a seat that holds its key."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.harness import Harness, open_harness, run, seat_key
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.wire.envelope import (
    Envelope,
    bundle,
    decode,
    is_bundle,
    private_key_from_bytes,
    unbundle,
)
from fourwinds.protocol.table.wire.messages import Act, Body, MsgKind, decode_body, encode_body

from . import toy_rules  # noqa: F401  (registers the "toy" rules)

ONE_HAND = TableOptions(deck=DeckKind.PRACTICE, hands=1)


def toy_harness(seed: bytes = b"toy", hands: int = 1, auto_pass: bool = True) -> Harness:
    return open_harness(
        "toy", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=hands, auto_pass=auto_pass)
    )


def resign(h: Harness, env: Envelope, **changes: object) -> bytes:
    """``env`` with fields changed, validly signed by its own seat (a lying seat can do it).
    A redacted message stays redacted, with its body hash."""
    body = changes.pop("body", env.body)
    changed = replace(env, **changes)  # type: ignore[arg-type]
    if body is not None:
        assert isinstance(body, bytes)
        changed = replace(changed, body=body, body_hash=hashlib.sha256(body).digest())
    key = private_key_from_bytes(seat_key(h.seed, int(env.seat)))
    return replace(changed, signature=key.sign(changed.header_bytes())).encode()


def liar(h: Harness, seat: Seat, tamper: Callable[[Envelope], dict[str, object] | None]) -> None:
    """Make ``seat`` rewrite its outgoing messages with ``tamper`` (fields to change, or None
    to leave one alone), re-signing and re-chaining them so only the tampering shows (the
    redacted messages a bundle carries included)."""
    renamed: dict[bytes, bytes] = {}

    def rewrite(payload: bytes) -> bytes:
        env = decode(payload)
        changes = (tamper(env) if env.body is not None else None) or {}
        prev = renamed.get(env.prev, env.prev)
        if not changes and prev == env.prev:
            return payload
        new = resign(h, env, prev=prev, **changes)
        renamed[env.msg_hash] = decode(new).msg_hash
        return new

    def intercept(sender: Seat, payload: bytes) -> list[bytes]:
        if sender != seat:
            return [payload]
        if is_bundle(payload):
            message, carried = unbundle(payload)
            carried = tuple(rewrite(c) for c in carried)
            return [bundle(rewrite(message), carried)]
        return [rewrite(payload)]

    h.intercept = intercept


def body_liar(h: Harness, seat: Seat, kind: MsgKind, edit: Callable[[Body], Body | None]) -> None:
    """Make ``seat`` rewrite the body of each of its ``kind`` messages with ``edit`` (None
    leaves one as it is); see ``liar``."""

    def tamper(env: Envelope) -> dict[str, object] | None:
        if env.kind is not kind or env.body is None:
            return None
        changed = edit(decode_body(kind, env.body))
        return None if changed is None else {"body": encode_body(changed)}

    liar(h, seat, tamper)


def discard_liar(h: Harness, seat: Seat, edit: Callable[[list[Any]], None]) -> None:
    """Make ``seat`` alter the plain form of each of its discards with ``edit`` (in place)."""

    def rewrite(body: Body) -> Body | None:
        assert isinstance(body, Act)
        if body.action[0] != "Discard":
            return None
        action = list(body.action)
        edit(action)
        return Act(action, False)

    body_liar(h, seat, MsgKind.ACT, rewrite)


def finish(h: Harness) -> Harness:
    return run(h)
