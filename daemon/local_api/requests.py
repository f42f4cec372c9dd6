"""Local API requests: each one a thin call into the daemon (docs/LOCAL-API.md lists them)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import Counter
from typing import Any

from fourwinds.daemon.build import build_id
from fourwinds.daemon.local_api.host import ApiHost
from fourwinds.daemon.local_api.opening import create_table, drop_table, join_table, seen_tables
from fourwinds.daemon.local_api.server import API_VERSION, ApiError, Message
from fourwinds.daemon.peers.discovery import reachable_addresses
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION, Leave
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import is_seated
from fourwinds.protocol.bot_level import BotLevel, parse_level
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.machine.transcript import Transcript, parse_transcript
from fourwinds.protocol.table.rules.registry import (
    refused_rulesets,
    rule_names,
    ruleset_named,
)
from fourwinds.protocol.table.rules.rules_label import exchange_title_of
from fourwinds.protocol.table.wire.strict import WireError

log = logging.getLogger(__name__)

SESSION_REQUESTS = ("ready", "act")


async def handle(d: ApiHost, request: Message) -> Message:
    kind = request["type"]
    handler = HANDLERS.get(kind)
    if handler is None:
        if kind in SESSION_REQUESTS:
            return await _session_request(d, request)
        return await d.other_request(request)  # the tournament's (the wiring routes them)
    return await handler(d, request)


async def _hello(d: ApiHost, request: Message) -> Message:
    return {
        "ok": True,
        "api_version": API_VERSION,
        "protocol_version": PROTOCOL_VERSION,
        "build": build_id(),  # read at the daemon's start (daemon/build.py)
        "fingerprint": d.identity.fingerprint,
        "name": d.name,
        "pid": os.getpid(),
    }


async def _subscribe(d: ApiHost, request: Message) -> Message:
    d.steps.player_returned()  # a screen opened: the window in front of our seat starts again
    d.views.resend_views()  # the new subscriber has seen none of them
    return {"ok": True}


async def _whoami(d: ApiHost, request: Message) -> Message:
    return {
        "ok": True,
        "fingerprint": d.identity.fingerprint,
        "public_key": d.identity.public_key.hex(),
        "name": d.name,
    }


async def _tables(d: ApiHost, request: Message) -> Message:
    return {
        "ok": True,
        "tables": [d.views.table_summary(rt) for rt in d.tables.values()],
        "seen": seen_tables(d),
        "peers": list(d.whereabouts.manual_seen.values()),
        "set_aside": [t.summary() for t in d.store.set_aside_tables()],
    }


async def _status(d: ApiHost, request: Message) -> Message:
    refused = Counter(d.transport.refused)
    refused.update({f"api: {k}": v for k, v in d.api.refused.items()})
    return {
        "ok": True,
        "fingerprint": d.identity.fingerprint,
        "name": d.name,
        "port": d.transport.port,
        "listen": d.host,
        "addresses": reachable_addresses(d.host),
        "mdns": d.discovery is not None,
        "pid": os.getpid(),
        "tables": [d.views.table_summary(rt) for rt in d.tables.values()],
        "set_aside": [t.summary() for t in d.store.set_aside_tables()],
        "refused": dict(refused),
    }


LEAVE_FLUSH_S = 0.3
"""How long a leave waits for its ``Leave`` frames to go out before the links they need are
closed (a frame already handed to a completed connection leaves within milliseconds)."""
LEAVE_REACH_S = 3.0
"""How long a leave waits to hear from the seats it tells (a daemon started just now to
leave has not reached them yet); one still silent then is not told."""


def _others(d: ApiHost, rt: TableRuntime) -> list[str]:
    me = d.identity.public_key
    return [d.views.player_name(rt, k) for k in rt.members if k != me]


async def _leave(d: ApiHost, request: Message) -> Message:
    """Give up our place at a table for good (docs/LOCAL-API.md, "Leaving a table"). In a
    lobby we joined the host frees the place for the next joiner; leaving a match in
    progress, or a lobby we host with others in it, needs ``force``. The table's folder is
    kept (``left-<id>``), and it is no longer resumed."""
    rt = d.find_table(request.get("table"))
    force = request.get("force", False)
    if not isinstance(force, bool):
        raise ApiError("'force' must be true or false")
    refusal = d.views.leave_warning(rt)
    if refusal and not force:
        raise ApiError(f"{refusal}; leave with force (`fourwinds leave {rt.name} --force`)")
    me = d.identity.public_key
    hosting = rt.host_key == me
    seated = is_seated(d.port, rt.session)
    told = [k for k in rt.members if k != me and (hosting or seated or k == rt.host_key)]
    reach_by = time.monotonic() + LEAVE_REACH_S
    while not all(d.alive(k) for k in told) and time.monotonic() < reach_by:
        await asyncio.sleep(0.05)
    sent = [d.transport.send(key, Leave(rt.table_id)) for key in told]
    if told:
        await asyncio.sleep(LEAVE_FLUSH_S)
    if d.tables.get(rt.table_id) is rt:
        drop_table(d, rt)
    log.info(
        "left table %s (%s; told %d of %d)",
        rt.name,
        "seated" if seated else "lobby",
        sum(sent),
        len(told),
    )
    return {
        "ok": True,
        "table": rt.table_hex,
        "name": rt.name,
        "seated": seated,
        "others": _others(d, rt) if told else [],
    }


async def _view(d: ApiHost, request: Message) -> Message:
    rt = d.find_table(request.get("table"))
    return {"ok": True, "event": d.views.view_event(rt, [])}


async def _transcript(d: ApiHost, request: Message) -> Message:
    """The table's transcript as this seat holds it (``fourwinds verify`` reads it)."""
    rt = d.find_table(request.get("table"))
    export = d.port.transcript
    if rt.session is None or export is None:
        raise ApiError(f"no transcript for table {rt.name} yet")
    data = export(rt.session)
    try:  # name the table as `fourwinds tables` lists it, as `fourwinds export` does
        held = parse_transcript(data)
    except WireError:  # a session module with a transcript of its own: as it is
        return {"ok": True, "transcript": data}
    listed = Transcript(held.table, held.payloads, rt.table_id)
    return {"ok": True, "transcript": listed.encode()}


async def _seat(d: ApiHost, request: Message) -> Message:
    """Take a seat: confirms the place you hold at a table you joined (``seat``: the place
    wanted, 0-3, or absent/null for any). Places follow the join order (the host is place 0);
    the winds are dealt by the dice when a hand starts, so a place is all there is to take."""
    rt = d.find_table(request.get("table"))
    wanted = request.get("seat")
    if wanted is not None and (
        not isinstance(wanted, int) or isinstance(wanted, bool) or not 0 <= wanted <= 3
    ):
        raise ApiError("'seat' must be a place 0-3, or null for any")
    if rt.joiner is not None or rt.place is None:
        raise ApiError(
            f"you have no place at {rt.name} yet (the host has not seated you); "
            "try again in a moment"
        )
    if wanted is not None and wanted != rt.place:
        raise ApiError(
            f"you sit at place {rt.place} of {rt.name}: places follow the join "
            f"order (the host is place 0), and winds are dealt by the dice when "
            f"the hand starts"
        )
    return {"ok": True, "table": rt.table_hex, "seat": rt.place, "seated": len(rt.members)}


async def _suggest(d: ApiHost, request: Message) -> Message:
    """The built-in bot's choice among our seat's legal actions now, or null (nothing awaited
    from us, or a session module without bots). ``level``: the bot's level (``normal``
    when absent; an unknown one is refused, naming the known)."""
    try:
        level = parse_level(request.get("level") or BotLevel.NORMAL.value)
    except ValueError as error:
        raise ApiError(str(error)) from None
    rt = d.find_table(request.get("table"))
    suggest = d.port.suggest
    if rt.session is None or suggest is None:
        return {"ok": True, "suggestion": None}
    if level is BotLevel.NORMAL:  # a session module of before the levels takes no level
        return {"ok": True, "suggestion": suggest(rt.session)}
    return {"ok": True, "suggestion": suggest(rt.session, level)}


async def _sheet(d: ApiHost, request: Message) -> Message:
    """The table's scoring sheet: every line of the American card (id, section, pattern as
    printed, value, concealed) or every MCR fan with its points. With ``rules`` and no
    ``table``: the sheet a table hosted here with those rules (and no card file) plays, for
    a lobby that has no table open."""
    if request.get("table") is None and request.get("rules") is not None:
        rules = request.get("rules")
        for_rules = d.port.sheet_for_rules
        if rules not in rule_names() or for_rules is None:
            raise ApiError(
                f"no sheet for the rules {rules!r}: 'rules' is {' or '.join(rule_names())}"
            )
        return {"ok": True, "sheet": for_rules(rules)}
    rt = d.find_table(request.get("table"))
    sheet = d.port.sheet
    if rt.session is None or sheet is None:
        raise ApiError(f"no sheet for table {rt.name} yet")
    try:
        return {"ok": True, "sheet": sheet(rt.session)}
    except FourwindsError as error:
        raise ApiError(str(error)) from None


async def _rulesets(d: ApiHost, request: Message) -> Message:
    """The rule sets this daemon plays (built in, then those ``FOURWINDS_RULESETS`` loaded)
    as a page lists them, and the rule set modules it refused with why."""
    found = [ruleset_named(name) for name in rule_names()]
    return {
        "ok": True,
        "refused": list(refused_rulesets()),
        "rulesets": [
            {
                "name": r.name,
                "title": r.title,
                "short_title": r.short_title,
                "flowers_optional": r.flowers_optional,
                "plays_a_card": r.plays_a_card,
                "exchange_title": exchange_title_of(r),
            }
            for r in found
        ],
    }


async def _stop(d: ApiHost, request: Message) -> Message:
    d.stop()
    return {"ok": True}


async def _session_request(d: ApiHost, request: Message) -> Message:
    rt = d.find_table(request.get("table"))
    if rt.session is None:
        raise ApiError(f"table {rt.name} has not started here yet")
    action: dict[str, Any] = {
        k: v for k, v in request.items() if k not in ("v", "id", "token", "table")
    }
    try:
        await d.steps.act(rt, action, time.monotonic())
    except FourwindsError as error:
        raise ApiError(str(error)) from None
    return {"ok": True}


HANDLERS = {
    "hello": _hello,
    "subscribe": _subscribe,
    "whoami": _whoami,
    "tables": _tables,
    "status": _status,
    "create": create_table,
    "join": join_table,
    "leave": _leave,
    "view": _view,
    "transcript": _transcript,
    "stop": _stop,
    "seat": _seat,
    "suggest": _suggest,
    "sheet": _sheet,
    "rulesets": _rulesets,
}
