"""Opening, joining and dropping a table at the local API's request (docs/LOCAL-API.md,
"create", "join"): a table we host opened with its rules and options, a table found (on mDNS,
by address, by code) and joined through pairing until its Open arrives, and a table given
up or left forgotten with the connections only it needed. The tournament's round tables are
opened and joined through the same calls (daemon/events/tables.py)."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from typing import Any

from fourwinds.daemon.checks import TABLE_NAME_LIMIT, BadInput, checked_address
from fourwinds.daemon.entropy import fresh_bytes
from fourwinds.daemon.local_api.fields import text
from fourwinds.daemon.local_api.host import ApiHost
from fourwinds.daemon.local_api.server import ApiError, Message
from fourwinds.daemon.peers.identity import BadKey, checked_public_key
from fourwinds.daemon.peers.pairing import JoinerPairing, new_code
from fourwinds.daemon.peers.transport import TransportError
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION, PairStart, Refuse
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.protocol.table.rules.registry import (
    HOSTED_BY_DEFAULT,
    rule_names,
)
from fourwinds.protocol.table.rules.rules_label import rules_label

log = logging.getLogger("fourwinds.daemon.local_api.requests")  # its log lines, as before

JOIN_TIMEOUT_S = 10.0
OPEN_TIMEOUT_S = 5.0
_OPEN_SAID = re.compile(r"^(the table's Open: )(cannot join: )?(open: )?")
"""After the host admitted us: how long its roster and the table's Open may take (they
come within milliseconds; the client waits 10 s for the whole request)."""


def seen_tables(d: ApiHost) -> list[Message]:
    seen: list[Message] = []
    if d.discovery is not None:
        for found in d.discovery.seen.values():
            seen.append(
                {
                    "table": found.table_id.hex(),
                    "name": found.table,
                    "rules": found.rules,
                    "flowers": found.flowers,
                    "rules_label": rules_label(found.rules, found.flowers),
                    "free": found.free,
                    "private": found.private,
                    "version": found.version,
                    "compatible": found.compatible,
                    "fingerprint": found.fingerprint,
                    "host": found.host,
                    "port": found.port,
                    "public_key": found.public_key.hex(),
                    "player": found.player,
                }
            )
    known = {entry["table"] for entry in seen}
    for tables in d.whereabouts.manual_tables.values():  # --peer daemons where multicast is blocked
        seen.extend(entry for entry in tables if entry["table"] not in known)
    return seen


async def create_table(d: ApiHost, request: Message) -> Message:
    """Host a new table. Its options are checked as its joiners will check them (no
    ``deck`` option: the fair, masked wall; ``"deck": "practice"`` for the open one)."""
    name = text(request, "name", limit=TABLE_NAME_LIMIT)
    rules = text(request, "rules", HOSTED_BY_DEFAULT)
    if rules not in rule_names():
        raise ApiError(f"rules must be one of {', '.join(rule_names())}, not {rules!r}")
    if any(rt.name == name for rt in d.tables.values()):
        raise ApiError(f"you already sit at a table named {name!r}")
    private = bool(request.get("private", False))
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError("'options' must be a map")
    table_id = fresh_bytes(16, f"table:{d.identity.public_key.hex()}:{name}")
    rt = open_at(d, table_id, name, rules, options, private)
    await d.announcing.announce(rt)
    return {"ok": True, "table": rt.table_hex, "code": rt.code}


def open_at(
    d: ApiHost,
    table_id: bytes,
    name: str,
    rules: str,
    options: dict[str, Any],
    private: bool = False,
    listed: bool = True,
    bot_seat: bool = False,
) -> TableRuntime:
    """Open the table ``table_id`` as its host (place 0), its first record on disk;
    ``ApiError`` with the reason when its options are refused or it cannot be written.
    ``listed``: announced over mDNS (a tournament table is not: its seats know it);
    ``bot_seat``: a seat played for an event we direct, not our player's table."""
    me = d.identity.public_key
    rt = TableRuntime(
        table_id=table_id,
        name=name,
        rules=rules,
        host_key=me,
        private=private,
        code=new_code() if private else None,
        members={me: (d.host, d.transport.port)},
        place=0,
        listed=listed,
        bot_seat=bot_seat,
    )
    step = d.port.new_table(
        d.identity.private_key,
        name,
        rules,
        d.name,
        options,
        d.seat_entropy(table_id),
        time.monotonic(),
    )
    rt.save_meta(d.store)
    rt.log = d.store.open_log(table_id)
    d.tables[table_id] = rt
    d.steps.apply(rt, step)
    if rt.session is None:  # its first record could not be written (a full disk)
        del d.tables[table_id]
        rt.close_log()
        d.store.leave(table_id)
        raise ApiError(f"cannot create {name}: {rt.paused}")
    return rt


def _find_offer(d: ApiHost, request: Message) -> tuple[bytes, str, str, bytes, str, int]:
    """(table id, name, rules, host key, host, port) of the table a join request names."""
    ref = text(request, "table", limit=64)
    for found in seen_tables(d):
        if ref in (found["table"], found["name"]) or found["table"].startswith(ref):
            if not found["compatible"]:
                raise ApiError(
                    f"table {found['name']} is hosted with protocol version "
                    f"{found['version']}; we speak {PROTOCOL_VERSION}"
                )
            if found["free"] <= 0:
                raise ApiError(f"table {found['name']} is full")
            return (
                bytes.fromhex(found["table"]),
                found["name"],
                found["rules"],
                bytes.fromhex(found["public_key"]),
                found["host"],
                found["port"],
            )
    host, port = request.get("host"), request.get("port")
    key_hex = request.get("public_key")
    if host is not None or port is not None or key_hex is not None:
        return _offer_by_address(ref, host, port, key_hex)
    raise ApiError(f"no table {ref!r} is visible; `fourwinds tables` lists those seen")


def _offer_by_address(
    ref: str, host: object, port: object, key_hex: object
) -> tuple[bytes, str, str, bytes, str, int]:
    """A join by address (``table`` id, ``host``, ``port``, ``public_key`` hex): each
    checked where it enters (a key libsodium cannot use, a port no daemon listens on and a
    host that does not parse are refused with the reason)."""
    if not isinstance(key_hex, str):
        raise ApiError("a join by address needs 'public_key' (hex)")
    try:
        table_id, key = bytes.fromhex(ref), bytes.fromhex(key_hex)
    except ValueError:
        raise ApiError("table and public_key must be hex") from None
    if len(table_id) != 16:
        raise ApiError("a table id is 16 bytes (32 hex digits)")
    try:
        key = checked_public_key(key)
        host, port = checked_address(host, port)
    except (BadKey, BadInput) as error:
        raise ApiError(error.reason) from None
    return table_id, ref[:8], "?", key, host, port


async def join_table(d: ApiHost, request: Message) -> Message:
    """Join a table: pair with its host, then wait for the host's roster and the table's
    Open. A table whose Open this seat refuses (options out of range, another protocol...)
    or that never comes is dropped and the request answers why in one line."""
    table_id, name, rules, host_key, host, port = _find_offer(d, request)
    code = request.get("code")
    if code is not None and not isinstance(code, str):
        raise ApiError("'code' must be a string")
    return await join_at(d, table_id, name, rules, host_key, (host, port), code)


async def join_at(
    d: ApiHost,
    table_id: bytes,
    name: str,
    rules: str,
    host_key: bytes,
    address: tuple[str, int],
    code: str | None,
    bot_seat: bool = False,
) -> Message:
    """Join ``table_id`` at its host ``host_key`` reached at ``address``: pair (with the
    code of a private table), then wait for the roster and the table's Open. ``ApiError``
    with the reason when the table cannot be joined. ``bot_seat`` as for ``open_at``."""
    host, port = address
    try:
        beacon = await d.transport.fetch_key(host, port)
    except TransportError as error:
        raise ApiError(f"cannot join {name}: {error}") from None
    if beacon.public_key != host_key:
        raise ApiError(f"cannot join {name}: the daemon at {host}:{port} has another key")
    free = beacon.tables.get(table_id)
    if free is None:
        raise ApiError(f"cannot join {name}: {host}:{port} hosts no such table")
    problem = _rules_problem(beacon.details.get(table_id, (name, rules, False, True))[1])
    if problem:  # before pairing: the host keeps the place for a seat that can play it
        raise ApiError(f"cannot join {name}: {problem}")
    if free <= 0 and table_id not in d.tables:
        raise ApiError(f"cannot join {name}: table {name} is full")
    if table_id in d.tables and d.tables[table_id].joiner is None:
        return {"ok": True, "table": table_id.hex(), "already": True}
    me = d.identity.public_key
    rt = TableRuntime(
        table_id=table_id,
        name=name,
        rules=rules,
        host_key=host_key,
        private=code is not None,
        code=None,
        members={me: (d.host, d.transport.port), host_key: (host, port)},
        bot_seat=bot_seat,
    )
    rt.joiner = JoinerPairing(table_id, me, host_key, code)
    d.tables[table_id] = rt
    d.admission.pairing_hosts.add(host_key)
    deadline = time.monotonic() + JOIN_TIMEOUT_S
    try:
        d.transport.connect(host_key, host, port)
        d.transport.send(host_key, PairStart(table_id, rt.joiner.start()))
        while rt.joiner is not None and not rt.join_error and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
    except BaseException:
        if d.tables.get(table_id) is rt and rt.joiner is not None:
            del d.tables[table_id]  # never a half-made table left behind
        raise
    finally:
        d.admission.pairing_hosts.discard(host_key)
    if rt.joiner is None:
        return await _await_open(d, rt, name, time.monotonic() + OPEN_TIMEOUT_S)
    d.tables.pop(table_id, None)
    reason = (
        rt.join_error
        or d.frames.last_refusal.get(host_key)
        or (f"the host at {host}:{port} did not answer within {JOIN_TIMEOUT_S:.0f} s")
    )
    raise ApiError(f"cannot join {name}: {reason}")


def _rules_problem(rules: str) -> str | None:
    """Why this daemon cannot sit at a table of ``rules`` (as its host's key beacon or
    announcement names them; "?" when unknown: the table's Open says), or None. Every seat
    of a table plays the same rule set: a daemon without it refuses to join."""
    if rules == "?" or rules in rule_names():
        return None
    return (
        f"it plays the rules {rules!r}, which this daemon does not have "
        f"({', '.join(rule_names())}; a rule set that is not built in is loaded with "
        "FOURWINDS_RULESETS: docs/DESIGN.md)"
    )


async def _await_open(d: ApiHost, rt: TableRuntime, name: str, deadline: float) -> Message:
    """Admitted: wait for the table's Open to be taken (``rt.session``). Refused
    (``give_up_joining`` dropped it) or never sent: the join fails with the reason."""
    while rt.session is None and not rt.join_error and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    if rt.session is not None:
        return {"ok": True, "table": rt.table_hex}
    if not rt.join_error:
        give_up_joining(
            d,
            rt,
            "the host admitted us but sent no usable roster and Open "
            f"within {OPEN_TIMEOUT_S:.0f} s",
        )
    raise ApiError(f"cannot join {name}: {rt.join_error}")


def give_up_joining(d: ApiHost, rt: TableRuntime, reason: str) -> None:
    """A table we were admitted to but cannot play (its Open refused: options out of
    range, another protocol; or it never came): dropped once, with the reason logged, kept
    as the joining ``join`` request's answer and told to the host, instead of the Open
    being refused again at every catch-up. Its folder is kept as ``left-<id>``."""
    rt.join_error = _OPEN_SAID.sub(r"\1", reason)
    if d.tables.get(rt.table_id) is not rt:
        return
    log.warning("table %s: not joined: %s", rt.table_hex[:8], rt.join_error)
    d.transport.send(rt.host_key, Refuse(f"cannot join {rt.name}: {rt.join_error}"[:200]))
    _drop(d, rt)


def _drop(d: ApiHost, rt: TableRuntime) -> None:
    """Forget the table ``rt`` (its folder kept as ``left-<id>``) and the connections
    only it needed."""
    del d.tables[rt.table_id]
    d.views.forget(rt.table_id)  # the cached view holds the table's whole session
    rt.close_log()
    d.store.leave(rt.table_id)
    still = d.admission.pinned_keys()
    for key in rt.members:
        if key not in still:
            d.transport.disconnect(key)


def drop_table(d: ApiHost, rt: TableRuntime) -> None:
    """Forget ``rt`` for good (its folder kept as ``left-<id>``) and stop announcing it."""
    if d.tables.get(rt.table_id) is not rt:
        return
    _drop(d, rt)
    d.announcing.withdraw_soon(rt.table_id)
