"""The local API's tournament requests (`fourwinds tournament ...`): each request checked
where it enters, then handed to daemon/events/held.py. Answers are built from the checker's
reading of the held record (``check_event``), never from what a peer said."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, TypeVar

from fourwinds.daemon.checks import BadInput, checked_address, local_name
from fourwinds.daemon.events.describe import describe, entrant_named
from fourwinds.daemon.events.faults import EventFaults
from fourwinds.daemon.events.held import Events
from fourwinds.daemon.events.tables import EventTables
from fourwinds.daemon.local_api.server import ApiError, Message
from fourwinds.daemon.peers.identity import (
    BadKey,
    Identity,
    checked_public_key,
    curve_public_from_ed25519,
)
from fourwinds.daemon.peers.transport import Transport, TransportError
from fourwinds.daemon.peers.wire import PROTOCOL_VERSION
from fourwinds.protocol.table.rules.registry import EVENT_BY_DEFAULT
from fourwinds.protocol.table.rules.rules_label import rules_label
from fourwinds.protocol.tournament.event_rules import (
    NoTournaments,
    event_ruleset,
    flowers_refused,
)
from fourwinds.protocol.tournament.points_text import points_text
from fourwinds.protocol.tournament.records import (
    MAX_AMOUNT,
    MAX_NAME,
    MAX_REASON,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_TABLES,
    TURN_SECONDS,
    TURN_SECONDS_RANGE,
    Correction,
    Deck,
    EndTable,
    Extension,
    Length,
    Penalty,
)
from fourwinds.protocol.tournament.seating import FillPolicy
from fourwinds.protocol.tournament.session.creating import EventSettings
from fourwinds.protocol.tournament.session.lapses import REVEAL_WAIT_S
from fourwinds.protocol.tournament.standings_state import StandingsState, standings_state

if TYPE_CHECKING:
    from fourwinds.daemon.events.runtime import EventRuntime


class RequestsHost(Protocol):
    """The daemon as the local API's tournament requests see it: the tournament part's
    pieces themselves, our identity, whether a peer is reachable, and fetching a key."""

    identity: Identity
    transport: Transport

    @property
    def events(self) -> Events: ...
    @property
    def event_tables(self) -> EventTables: ...
    @property
    def event_faults(self) -> EventFaults: ...

    def alive(self, key: bytes) -> bool: ...


def _text(request: Message, name: str, limit: int, default: str | None = None) -> str:
    try:
        return local_name(request.get(name, default), name, limit)
    except BadInput as error:
        raise ApiError(error.reason) from None


def _count(request: Message, name: str, low: int, high: int, default: int) -> int:
    value = request.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ApiError(f"{name} must be a whole number from {low} to {high}")
    return value


def _flag(request: Message, name: str) -> bool:
    value = request.get(name, False)
    if not isinstance(value, bool):
        raise ApiError(f"{name} must be true or false")
    return value


E = TypeVar("E", FillPolicy, Deck)


def _choice(request: Message, name: str, kind: type[E], default: E) -> E:
    value = request.get(name, default.value)
    for member in kind:
        if member.value == value:
            return member
    raise ApiError(f"{name} must be one of {', '.join(str(m.value) for m in kind)}")


def _event_rules(request: Message) -> str:
    """The event's rules name (``EVENT_BY_DEFAULT`` when the request names none): a rule set
    this daemon has, with tournaments; else refused with the one-line reason."""
    rules = request.get("rules", EVENT_BY_DEFAULT)
    if not isinstance(rules, str):
        raise ApiError("rules must be a rules name")
    try:
        event_ruleset(rules)
    except NoTournaments as error:
        raise ApiError(str(error)) from None
    return rules


async def _create(d: RequestsHost, request: Message) -> Message:
    name = _text(request, "name", MAX_NAME)
    rules = _event_rules(request)
    rounds = _count(request, "rounds", 1, MAX_ROUNDS, 4)
    if request.get("minutes") is not None and request.get("hands") is not None:
        raise ApiError("a round is a number of hands or of minutes, not both")
    if request.get("minutes") is not None:
        length, amount = Length.MINUTES, _count(request, "minutes", 1, MAX_AMOUNT, 90)
    else:
        length, amount = Length.HANDS, _count(request, "hands", 1, MAX_AMOUNT, 4)
    flowers = request.get("flowers", True)
    if not isinstance(flowers, bool):
        raise ApiError("flowers must be true or false")
    refused = None if flowers else flowers_refused(rules)
    if refused is not None:
        raise ApiError(refused)
    turn = _count(request, "turn_seconds", *TURN_SECONDS_RANGE, TURN_SECONDS)
    settings = EventSettings(
        name,
        rules,
        rounds,
        length,
        amount,
        _choice(request, "fill", FillPolicy, FillPolicy.BOTS),
        _flag(request, "private"),
        _flag(request, "seeded"),
        _choice(request, "deck", Deck, Deck.FAIR),
        _flag(request, "unfinished_zero"),
        flowers,
        turn,
    )
    rt = d.events.create(settings)
    return {"ok": True, **describe(rt, d.identity.public_key)}


async def _join(d: RequestsHost, request: Message) -> Message:
    """Enter an event by its director's address (``host``, ``port``; the key from its
    beacon unless ``public_key`` is given), or by its name alone when it is announced on
    this network (mDNS)."""
    name = _text(request, "name", MAX_NAME)
    code = request.get("code") or ""
    if not isinstance(code, str) or len(code) > 16:
        raise ApiError("code must be text of at most 16 characters")
    if request.get("host") is None and request.get("port") is None:
        seen = [e for e in d.events.seen() if e.name == name]
        if not seen:
            raise ApiError(
                f"no event {name!r} is announced on this network; give the "
                "director's address (--peer HOST:PORT)"
            )
        if len(seen) > 1:
            raise ApiError(
                f"{len(seen)} events called {name!r} are announced; give the "
                "director's address (--peer HOST:PORT)"
            )
        request = {
            **request,
            "host": seen[0].host,
            "port": seen[0].port,
            "public_key": seen[0].public_key.hex(),
        }
    try:
        host, port = checked_address(request.get("host"), request.get("port"))
    except BadInput as error:
        raise ApiError(f"{error.reason} (give the director's address: --peer HOST:PORT)") from None
    key_hex = request.get("public_key")
    if key_hex is not None:
        try:
            key = checked_public_key(bytes.fromhex(str(key_hex)))
        except (ValueError, BadKey):
            raise ApiError("public_key must be the director's key in hex") from None
    else:
        try:
            key = (await d.transport.fetch_key(host, port)).public_key
        except TransportError as error:
            raise ApiError(f"cannot join {name}: {error}") from None
    rt = await d.events.join(name, key, host, port, code)
    return {"ok": True, **describe(rt, d.identity.public_key)}


async def _list(d: RequestsHost, request: Message) -> Message:
    me = d.identity.public_key
    seen = [
        {
            "event": e.event_id.hex(),
            "name": e.name,
            "rules": e.rules,
            "flowers": e.flowers,
            "rules_label": rules_label(e.rules, e.flowers),
            "private": e.private,
            "director": e.director,
            "host": e.host,
            "port": e.port,
            "compatible": e.version == PROTOCOL_VERSION,
        }
        for e in d.events.seen()
    ]
    return {
        "ok": True,
        "events": [describe(rt, me) for rt in d.events.events.values()],
        "seen": seen,
        "set_aside": [{"event": s.event.hex(), "reason": s.reason} for s in d.events.set_aside],
    }


RECONNECT_GRACE_S = 10.0
"""After the daemon starts, how long an entrant's daemon not heard from since is said to be
reconnecting rather than missing: the others' links reach a restarted director within a
second or two (their heartbeats come every 0.5 s), so a director's status right after a
restart does not call the whole room missing."""


async def _status(d: RequestsHost, request: Message) -> Message:
    """An EVENT, with who is missing: at the director, the entrants (not withdrawn) whose
    daemons it has not heard from lately (``missing``), less those not heard since a start
    of RECONNECT_GRACE_S ago (``reconnecting``); at an entrant, whether the director is
    heard."""
    rt = d.events.find(_text(request, "name", 64))
    me = d.identity.public_key
    answer = describe(rt, me)
    answer["my_table_state"] = d.event_tables.describe(rt)
    answer["my_table_counted"] = d.event_tables.counted(rt)
    answer["my_table_open"] = d.event_tables.playing_at(rt)
    if rt.director == me:
        silent = [
            (key, name)
            for n, (key, name) in enumerate(zip(rt.verdict.entrants, rt.verdict.names, strict=True))
            if n not in rt.verdict.withdrawn and not d.alive(key)
        ]
        # just started (a restart): a daemon not heard since is reconnecting, not missing
        started = d.transport.started_at
        young = started is not None and time.monotonic() - started < RECONNECT_GRACE_S
        waiting = {
            key
            for key, _ in silent
            if young and not d.transport.heard_since_start(curve_public_from_ed25519(key))
        }
        answer["reconnecting"] = [name for key, name in silent if key in waiting]
        answer["missing"] = [name for key, name in silent if key not in waiting]
    else:
        answer["missing"] = [] if d.alive(rt.director) else ["the director"]
    return {"ok": True, **answer}


async def _standings(d: RequestsHost, request: Message) -> Message:
    rt = d.events.find(_text(request, "name", 64))
    names = rt.verdict.names
    rows = [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names[row.player],
            "points": str(row.points),
            "points_text": points_text(row.points),
            "score": row.score,
            "played": row.played,
            "byes": row.byes,
        }
        for row in rt.verdict.standings
    ]
    return {
        "ok": True,
        "event": rt.event.hex(),
        "name": rt.name,
        "rules": rt.create.rules,
        "rounds_started": rt.rounds_started(),
        "results": rt.verdict.results,
        "standings": rows,
        "state": _state_of(standings_state(rt.verdict)),
    }


def _state_of(state: StandingsState) -> Message:
    return {
        "label": state.label(),
        "provisional": state.provisional,
        "final": state.final,
        "round": state.round,
        "tables": state.tables,
        "counted": state.counted,
    }


async def _export(d: RequestsHost, request: Message) -> Message:
    rt = d.events.find(_text(request, "name", 64))
    return {"ok": True, "event": rt.event.hex(), "name": rt.name, "data": d.events.export(rt)}


START_WAIT_S = 10.0


async def _start(d: RequestsHost, request: Message) -> Message:
    """The director calls the next round and waits (``wait`` seconds, START_WAIT_S unless
    given) for its seed and start; the round still starts by itself later when an entrant
    was away."""
    rt = d.events.find(_text(request, "name", 64))
    wait = _count(request, "wait", 0, 60, int(START_WAIT_S))
    r = d.events.call_round(rt)
    deadline = asyncio.get_running_loop().time() + wait
    while (
        rt.rounds_started() <= r
        and not rt.start_problem
        and asyncio.get_running_loop().time() < deadline
    ):
        await asyncio.sleep(0.05)
    if rt.start_problem:
        raise ApiError(f"round {r + 1} of {rt.name} cannot be seated: {rt.start_problem}")
    if rt.rounds_started() <= r:
        seeding = describe(rt, d.identity.public_key)["seeding"] or {}
        waiting = ", ".join(seeding.get("waiting_for") or ()) or "the director"
        raise ApiError(
            f"round {r + 1} of {rt.name} is called; its seed waits for "
            f"{waiting} ({seeding.get('step', 'commit')}); it starts by itself "
            f"when they answer, or without who has not revealed {REVEAL_WAIT_S:.0f} s after "
            "the call (`fourwinds tournament status` shows it)"
        )
    return {"ok": True, **describe(rt, d.identity.public_key)}


RESULT_WAIT_S = 3.0


async def _result(d: RequestsHost, request: Message) -> Message:
    """Our player's final scores of their table (``table`` from 1, ``scores`` E, S, W, N):
    signed and sent to the director; ``held`` says whether the result counts yet (all four
    seats signed the same scores), waiting for that up to ``wait`` seconds (RESULT_WAIT_S
    unless given)."""
    rt = d.events.find(_text(request, "name", 64))
    table = _count(request, "table", 1, 1024, 0) - 1
    scores = _scores(request)
    wait = _count(request, "wait", 0, 60, int(RESULT_WAIT_S))
    body = d.events.result(rt, table, scores)
    where = (body.round, body.table)
    deadline = asyncio.get_running_loop().time() + wait
    while where not in dict(rt.verdict.scores) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    return {
        "ok": True,
        "held": where in dict(rt.verdict.scores),
        **describe(rt, d.identity.public_key),
    }


async def _withdraw(d: RequestsHost, request: Message) -> Message:
    """Our player leaves the event from the next round; or, at the director, ``player``
    (a name) is withdrawn with a ``reason``."""
    rt = d.events.find(_text(request, "name", 64))
    player = _text(request, "player", MAX_NAME, "") if request.get("player") else ""
    reason = _text(request, "reason", 200, "") if request.get("reason") else ""
    d.events.withdraw(rt, player, reason)
    return {"ok": True, **describe(rt, d.identity.public_key)}


async def _correct(d: RequestsHost, request: Message) -> Message:
    """The director sets a table's final scores with a reason (``round`` and ``table``
    from 1, ``scores`` E, S, W, N): a result entered wrong, or a table ended by force."""
    rt = d.events.find(_text(request, "name", 64))
    round_no = _count(request, "round", 1, MAX_ROUNDS, 0) - 1
    table = _count(request, "table", 1, MAX_TABLES, 0) - 1
    scores = _scores(request)
    reason = _text(request, "reason", MAX_REASON)
    d.events.director_record(rt, Correction(rt.event, round_no, table, scores, reason))
    return {"ok": True, **describe(rt, d.identity.public_key)}


async def _penalty(d: RequestsHost, request: Message) -> Message:
    """The director takes ``points`` (a whole number or a fraction such as "1/2") and
    ``score`` from the entrant named ``player`` in ``round`` (from 1), with a reason."""
    rt = d.events.find(_text(request, "name", 64))
    round_no = _count(request, "round", 1, MAX_ROUNDS, 0) - 1
    player = _text(request, "player", MAX_NAME)
    key = entrant_named(rt, player)
    try:
        points = Fraction(str(request.get("points", "0")))
    except (ValueError, ZeroDivisionError):
        raise ApiError("points must be a number such as 1 or 1/2") from None
    if not 0 <= points <= 1000:
        raise ApiError("points must be from 0 to 1000")
    score = _count(request, "score", 0, MAX_SCORE, 0)
    reason = _text(request, "reason", MAX_REASON)
    d.events.director_record(rt, Penalty(rt.event, round_no, key, points, score, reason))
    return {"ok": True, **describe(rt, d.identity.public_key)}


def _clock_table(d: RequestsHost, request: Message) -> tuple[EventRuntime, int, int, str]:
    """(event, round under way, ``table`` from 1 as a number from 0, ``reason``) of an
    extension or a forced end: always a table of the round under way."""
    rt = d.events.find(_text(request, "name", 64))
    if not rt.verdict.rounds:
        raise ApiError(f"no round of {rt.name} has started")
    table = _count(request, "table", 1, MAX_TABLES, 0) - 1
    return rt, rt.verdict.rounds[-1].round, table, _text(request, "reason", MAX_REASON)


async def _extend(d: RequestsHost, request: Message) -> Message:
    """The director gives ``table`` (from 1) of the round under way ``minutes`` more
    before its time is called, with a reason (docs/TOURNAMENT.md, "The round clock")."""
    rt, round_no, table, reason = _clock_table(d, request)
    minutes = _count(request, "minutes", 1, MAX_AMOUNT, 0)
    d.events.director_record(rt, Extension(rt.event, round_no, table, minutes, reason))
    return {"ok": True, **describe(rt, d.identity.public_key)}


async def _end_table(d: RequestsHost, request: Message) -> Message:
    """The director ends ``table`` (from 1) of the round under way by force, with a reason:
    its time is called now, the hand in progress is its last."""
    rt, round_no, table, reason = _clock_table(d, request)
    d.events.director_record(rt, EndTable(rt.event, round_no, table, reason))
    return {"ok": True, **describe(rt, d.identity.public_key)}


SUBSTITUTE_WAIT_S = 10.0
SEATS = "ESWN"


async def _substitute(d: RequestsHost, request: Message) -> Message:
    """The director replaces the player at ``seat`` (E, S, W or N) of ``table`` (from 1) of
    the round under way from the next hand, with the entrant named ``reserve`` or, without
    one, a bot seat its daemon plays; with a reason. The three seats left sign it (each
    daemon when it cannot reach the leaving one's); ``held`` says whether the record holds
    it within ``wait`` seconds (SUBSTITUTE_WAIT_S unless given); it is asked again after."""
    rt = d.events.find(_text(request, "name", 64))
    table = _count(request, "table", 1, MAX_TABLES, 0) - 1
    seat = _text(request, "seat", 5).strip().upper()[:1]
    if not seat or seat not in SEATS:
        raise ApiError("seat is one of E, S, W, N")
    reserve = None
    if request.get("reserve"):
        reserve = entrant_named(rt, _text(request, "reserve", MAX_NAME))
    reason = _text(request, "reason", MAX_REASON)
    wait = _count(request, "wait", 0, 60, int(SUBSTITUTE_WAIT_S))
    body = d.event_faults.substitute(rt, table, SEATS.index(seat), reserve, reason)
    deadline = asyncio.get_running_loop().time() + wait

    def held() -> bool:
        return any((s.round, s.table) == (body.round, body.table) for s in rt.verdict.substitutes)

    while not held() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    return {"ok": True, "held": held(), **describe(rt, d.identity.public_key)}


async def _director(d: RequestsHost, request: Message) -> Message:
    """A new director: ``propose`` (an entrant's name or a 64-hex-digit key) with a
    ``reason``, signed by our player; or ``agree``: our player signs the proposal we hold.
    ``named`` says whether the record holds a new director yet (within ``wait`` s)."""
    rt = d.events.find(_text(request, "name", 64))
    wait = _count(request, "wait", 0, 60, 3)
    before = len(rt.verdict.directors)
    if request.get("propose"):
        who = _text(request, "propose", 64)
        try:
            key = bytes.fromhex(who) if len(who) == 64 else entrant_named(rt, who)
        except ValueError:
            raise ApiError(f"{who!r} is neither an entrant's name nor a key") from None
        body = d.event_faults.propose(rt, key, _text(request, "reason", MAX_REASON))
    elif _flag(request, "agree"):
        body = d.event_faults.agree(rt)
    else:
        proposals = d.event_faults.proposals_of(rt)
        return {
            "ok": True,
            "named": False,
            "proposals": [
                {"director": p.body.director.hex(), "reason": p.body.reason, "signed": len(p.sigs)}
                for p in proposals
            ],
            **describe(rt, d.identity.public_key),
        }
    deadline = asyncio.get_running_loop().time() + wait
    while len(rt.verdict.directors) == before and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    return {
        "ok": True,
        "named": len(rt.verdict.directors) > before,
        "proposed": body.director.hex(),
        **describe(rt, d.identity.public_key),
    }


def _scores(request: Message) -> tuple[int, int, int, int]:
    scores = request.get("scores")
    if (
        not isinstance(scores, list)
        or len(scores) != 4
        or not all(
            isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_SCORE for x in scores
        )
    ):
        raise ApiError("scores must be four whole numbers: East, South, West, North")
    return scores[0], scores[1], scores[2], scores[3]


Handler = Callable[[RequestsHost, Message], Awaitable[Message]]
HANDLERS: dict[str, Handler] = {
    "tournament_create": _create,
    "tournament_join": _join,
    "tournament_list": _list,
    "tournament_status": _status,
    "tournament_standings": _standings,
    "tournament_export": _export,
    "tournament_start": _start,
    "tournament_result": _result,
    "tournament_withdraw": _withdraw,
    "tournament_correct": _correct,
    "tournament_penalty": _penalty,
    "tournament_extend": _extend,
    "tournament_end_table": _end_table,
    "tournament_substitute": _substitute,
    "tournament_director": _director,
}
