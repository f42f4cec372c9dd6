"""Shared test helpers: toy-rule harnesses and message forgery by a seat that holds its key."""

from __future__ import annotations

from collections.abc import Callable

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.envelope import Envelope, decode, private_key_from_bytes, seal
from fourwinds.protocol.table.harness import Harness, open_harness, run, seat_key
from fourwinds.protocol.table.options import TableOptions

from . import toy_rules  # noqa: F401  (registers the "toy" rules)

ONE_HAND = TableOptions(hands=1)


def toy_harness(seed: bytes = b"toy", hands: int = 1, auto_pass: bool = True) -> Harness:
    return open_harness("toy", seed, options=TableOptions(hands=hands, auto_pass=auto_pass))


def resign(h: Harness, env: Envelope, **changes: object) -> bytes:
    """``env`` with fields changed, validly signed by its own seat (a lying seat can do it)."""
    fields = {"version": env.version, "table": env.table, "seat": env.seat, "seq": env.seq,
              "prev": env.prev, "step": env.step, "state": env.state, "to": env.to,
              "kind": env.kind, "body": env.body or b""}
    fields.update(changes)
    key = private_key_from_bytes(seat_key(h.seed, int(env.seat)))
    return seal(key, **fields).encode()  # type: ignore[arg-type]


def liar(h: Harness, seat: Seat, tamper: Callable[[Envelope], dict[str, object] | None]
         ) -> None:
    """Make ``seat`` rewrite its outgoing messages with ``tamper`` (fields to change, or None
    to leave one alone), re-signing and re-chaining them so only the tampering shows."""
    renamed: dict[bytes, bytes] = {}

    def intercept(sender: Seat, payload: bytes) -> list[bytes]:
        if sender != seat:
            return [payload]
        env = decode(payload)
        changes = tamper(env) or {}
        prev = renamed.get(env.prev, env.prev)
        if not changes and prev == env.prev:
            return [payload]
        new = resign(h, env, prev=prev, **changes)
        renamed[env.msg_hash] = decode(new).msg_hash
        return [new]

    h.intercept = intercept


def finish(h: Harness) -> Harness:
    return run(h)
