"""A tiny session with the table session's interface, to test the daemon shell on its own.

It is a test double, not a game: four seats take turns "playing" a counter until ``PLAYS``.
Like the real session it signs every message (Ed25519), chains them by per-key sequence
numbers, refuses bad signatures, ignores replays, reports equivocation, persists what it
accepts and resumes from those records. The daemon treats it exactly as the real one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

PLAYS = 24


@dataclass(frozen=True)
class Outgoing:
    to: int | None
    payload: bytes


@dataclass(frozen=True)
class Problem:
    seat: int | None
    reason: str


@dataclass(frozen=True)
class Session:
    secret: bytes
    me: bytes
    name: str = ""
    seats: tuple[bytes, ...] = ()
    chains: Mapping[bytes, tuple[bytes, ...]] = field(default_factory=dict)
    pending: Mapping[tuple[bytes, int], bytes] = field(default_factory=dict)
    plays: tuple[int, ...] = ()  # the seat of each play, in order
    early: Mapping[int, bytes] = field(default_factory=dict)  # play number -> its author


@dataclass(frozen=True)
class Step:
    session: Session
    outgoing: tuple[Outgoing, ...] = ()
    persist: tuple[bytes, ...] = ()
    events: tuple[object, ...] = ()
    problems: tuple[object, ...] = ()


def _pub(secret: bytes) -> bytes:
    key = Ed25519PrivateKey.from_private_bytes(secret).public_key()
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def _seal(s: Session, kind: str, body: Any) -> bytes:
    seq = len(s.chains.get(s.me, ()))
    signed = msgpack.packb([s.me, seq, kind, body], use_bin_type=True)
    sig = Ed25519PrivateKey.from_private_bytes(s.secret).sign(signed)
    sealed: bytes = msgpack.packb([signed, sig], use_bin_type=True)
    return sealed


def _open(payload: bytes) -> tuple[bytes, int, str, Any]:
    signed, sig = msgpack.unpackb(payload, raw=False)
    Ed25519PublicKey.from_public_bytes(msgpack.unpackb(signed, raw=False)[0]).verify(sig, signed)
    pub, seq, kind, body = msgpack.unpackb(signed, raw=False)
    return bytes(pub), int(seq), str(kind), body


def _effect(
    s: Session, pub: bytes, kind: str, body: Any, replay: bool = False
) -> tuple[Session, list[Outgoing], list[bytes], list[Problem]]:
    out: list[Outgoing] = []
    persist: list[bytes] = []
    problems: list[Problem] = []
    if kind == "open" and not s.seats:
        s = replace(s, name=str(body), seats=(pub,))
    elif (
        kind == "join"
        and s.seats
        and s.seats[0] == s.me
        and pub not in s.seats
        and len(s.seats) < 4
        and not replay
    ):
        s, payload = _emit(s, "seat", pub)
        s = replace(s, seats=(*s.seats, pub))
        out.append(Outgoing(None, payload))
        persist.append(payload)
    elif kind == "seat" and s.seats and pub == s.seats[0] and bytes(body) not in s.seats:
        s = replace(s, seats=(*s.seats, bytes(body)))
    elif kind == "play":
        seat = s.seats.index(pub) if pub in s.seats else -1
        if isinstance(body, int) and len(s.plays) < body < PLAYS:
            s = replace(s, early={**s.early, body: pub})  # arrived before the plays it follows
        elif len(s.seats) == 4 and body == len(s.plays) < PLAYS and seat == len(s.plays) % 4:
            s = replace(s, plays=(*s.plays, seat))
            while len(s.plays) in s.early:
                early = dict(s.early)
                author = early.pop(len(s.plays))
                if s.seats.index(author) != len(s.plays) % 4:
                    problems.append(Problem(None, "a play out of turn"))
                    s = replace(s, early=early)
                    break
                s = replace(s, early=early, plays=(*s.plays, s.seats.index(author)))
        else:
            problems.append(Problem(seat, f"illegal play {body!r} by seat {seat}"))
    return s, out, persist, problems


def _emit(s: Session, kind: str, body: Any) -> tuple[Session, bytes]:
    payload = _seal(s, kind, body)
    chains = dict(s.chains)
    chains[s.me] = (*chains.get(s.me, ()), payload)
    return replace(s, chains=chains), payload


def _accept(s: Session, payload: bytes, replay: bool = False) -> Step:
    try:
        pub, seq, kind, body = _open(payload)
    except (InvalidSignature, ValueError, TypeError, msgpack.ExtraData) as error:
        return Step(s, problems=(Problem(None, f"bad message ({type(error).__name__})"),))
    except Exception as error:
        return Step(s, problems=(Problem(None, f"malformed message ({type(error).__name__})"),))
    chain = s.chains.get(pub, ())
    if seq < len(chain):
        if chain[seq] != payload:
            return Step(s, problems=(Problem(None, f"equivocation at seq {seq}"),))
        return Step(s)  # a replay: already have it
    pending = dict(s.pending)
    pending[(pub, seq)] = payload
    s = replace(s, pending=pending)
    out: list[Outgoing] = []
    persist: list[bytes] = []
    problems: list[Problem] = []
    while (pub, len(s.chains.get(pub, ()))) in s.pending:
        pending = dict(s.pending)
        next_payload = pending.pop((pub, len(s.chains.get(pub, ()))))
        chains = dict(s.chains)
        chains[pub] = (*chains.get(pub, ()), next_payload)
        s = replace(s, pending=pending, chains=chains)
        persist.append(next_payload)
        _, _, kind, body = _open(next_payload)
        s, o, p, pr = _effect(s, pub, kind, body, replay)
        out += o
        persist += p
        problems += pr
    return Step(s, tuple(out), tuple(persist), ("accepted",), tuple(problems))


def new_table(
    identity_private_key: bytes,
    name: str,
    rules: str,
    player: str,
    options: Mapping[str, Any],
    entropy: bytes,
    now: float,
) -> Step:
    s = Session(identity_private_key, _pub(identity_private_key))
    s, payload = _emit(s, "open", name)
    s = replace(s, name=name, seats=(s.me,))
    return Step(s, (), (payload,), ("opened",))


def opens_table(payload: bytes) -> bool:
    try:
        return _open(payload)[2] == "open"
    except Exception:
        return False


def join_table(
    identity_private_key: bytes,
    payloads: Sequence[bytes],
    place: int,
    player: str,
    entropy: bytes,
    now: float,
) -> Step:
    s = Session(identity_private_key, _pub(identity_private_key))
    persist: list[bytes] = []
    for payload in payloads:
        step = _accept(s, payload)
        s = step.session
        persist += step.persist
    if not s.seats:  # as the real session refuses it: the Open comes first (by catch-up)
        from fourwinds.protocol.errors import LocalProtocolError

        raise LocalProtocolError("not a table's Open message")
    s, join = _emit(s, "join", player)
    return Step(s, (Outgoing(0, join),), (*persist, join), ("joined",))


def handle_message(session: Session, payload: bytes, now: float) -> Step:
    return _accept(session, payload)


def local_action(session: Session, action: object, now: float) -> Step:
    from fourwinds.protocol.errors import IllegalAction

    if not isinstance(action, dict) or action.get("action") != "play":
        raise IllegalAction(f"unknown action {action!r}")
    if not _my_turn(session):
        raise IllegalAction("not your turn")
    s, payload = _emit(session, "play", len(session.plays))
    s = replace(s, plays=(*s.plays, s.seats.index(s.me)))
    return Step(s, (Outgoing(None, payload),), (payload,), ("played",))


def apply_message(session: Session, payload: bytes, now: float) -> Step:
    """The first half of ``handle_message``: the toy never answers a message by itself, so
    the whole of it is here and ``settle`` has nothing left to do."""
    return handle_message(session, payload, now)


def send_action(session: Session, action: object, now: float) -> Step:
    """The first half of ``local_action``: the toy's play is one message, signed and queued
    here; our own session has already taken it in, so ``settle`` has nothing left."""
    return local_action(session, action, now)


def settle(session: Session, now: float) -> Step:
    """The second half of ``apply_message`` and ``send_action``: nothing, for the toy."""
    return Step(session)


def tick(session: Session, now: float) -> Step:
    return Step(session)


def resume(records: Sequence[bytes], identity_private_key: bytes) -> Session:
    s = Session(identity_private_key, _pub(identity_private_key))
    for payload in records:
        pub, _seq, kind, body = _open(payload)
        if pub == s.me:
            s, _ = _emit_existing(s, payload)
            if kind == "open":
                s = replace(s, name=str(body), seats=(s.me,))
            elif kind == "seat":
                s = replace(s, seats=(*s.seats, bytes(body)))
            elif kind == "play":
                s = replace(s, plays=(*s.plays, s.seats.index(s.me)))
        else:
            s = _accept(s, payload, replay=True).session
    return s


def _emit_existing(s: Session, payload: bytes) -> tuple[Session, bytes]:
    chains = dict(s.chains)
    chains[s.me] = (*chains.get(s.me, ()), payload)
    return replace(s, chains=chains), payload


def messages_since(
    session: Session, seat: Any, seq: int, for_seat: int | None = None
) -> tuple[bytes, ...]:
    keys = seat_keys(session)
    index = int(seat)
    if index >= len(keys) or keys[index] is None:
        return ()
    return session.chains.get(keys[index] or b"", ())[seq + 1 :]


def last_seq(session: Session, seat: Any) -> int:
    keys = seat_keys(session)
    index = int(seat)
    if index >= len(keys) or keys[index] is None:
        return -1
    return len(session.chains.get(keys[index] or b"", ())) - 1


def seat_keys(session: Session) -> Sequence[bytes | None]:
    return (*session.seats, *([None] * (4 - len(session.seats))))


def _my_turn(s: Session) -> bool:
    return len(s.seats) == 4 and len(s.plays) < PLAYS and s.seats[len(s.plays) % 4] == s.me


def awaits_us(session: Session) -> bool:
    return _my_turn(session)


def transcript(session: Session) -> bytes:
    packed: bytes = msgpack.packb([session.name, list(session.plays)], use_bin_type=True)
    return packed


def seat_view(session: Session, unreachable: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    s = session
    done = len(s.plays) >= PLAYS
    view: dict[str, Any] = {
        "seat": s.seats.index(s.me) if s.me in s.seats else None,
        "seated": len(s.seats),
        "plays": len(s.plays),
        "transcript": list(s.plays),
        "phase": "over" if done else ("play" if len(s.seats) == 4 else "lobby"),
        "waiting_for": [] if done or len(s.seats) < 4 else [len(s.plays) % 4],
        "legal_actions": (
            [{"id": "play", "type": "play", "label": "Play", "tiles": []}] if _my_turn(s) else []
        ),
    }
    if unreachable:  # as the real view says it (protocol/table/views/contract_view.py)
        view["unreachable"] = [
            {
                "seat": int(u["place"]),
                "name": f"seat {u['place']}",
                "for_s": int(u["for_s"]),
                "last_address": str(u["last_address"]),
            }
            for u in unreachable
        ]
        waited = [a for a in view["unreachable"] if a["seat"] in view["waiting_for"]]
        if waited:
            view["phase_detail"] = "; ".join(
                f"Waiting for {a['name']}: unreachable for {a['for_s']} s"
                + (f", last address {a['last_address']}" if a["last_address"] else "")
                for a in waited
            )
    return view
