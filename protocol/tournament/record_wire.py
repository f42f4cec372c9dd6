"""Records on the wire and in the export file: msgpack, every field checked where it enters.

A record is ``[kind, body, signatures]``: ``body`` the list of the body's fields in the order
records.py declares them, ``signatures`` a list of 64-byte signatures or nil. What is signed
is ``signed_bytes(body)``: ``[DOMAIN, RECORD_VERSION, kind, body]`` packed, so a signature of
one kind can never be read as another's. Decoding is strict (protocol/table/wire/strict.py): a bad
record is a ``WireError`` naming the field, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from fourwinds.protocol.table.rules.registry import RULES_NAME
from fourwinds.protocol.table.wire.strict import (
    WireError,
    need_bool,
    need_bytes,
    need_int,
    need_list,
    need_str,
    pack,
    unpack,
)

from .records import (
    EVENT_ID_LEN,
    HASH_LEN,
    KEY_LEN,
    KIND_OF,
    MAX_AMOUNT,
    MAX_ENTRANTS,
    MAX_NAME,
    MAX_REASON,
    MAX_ROUNDS,
    MAX_SCORE,
    MAX_TABLES,
    NONCE_LEN,
    SIGNATURE_LEN,
    TABLE_ID_LEN,
    TURN_SECONDS,
    TURN_SECONDS_RANGE,
    Admit,
    Body,
    Correction,
    Create,
    Deck,
    EndTable,
    Entry,
    Extension,
    Kind,
    Length,
    NewDirector,
    Penalty,
    Record,
    RevealLapse,
    RoundCall,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
    Substitute,
    TableResult,
    TimeCall,
    Withdraw,
    WithdrawnBy,
)
from .seating import FillPolicy, Seats
from .standings import Scoring, default_figure

DOMAIN = "fourwinds-tournament"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 64 * 1024
"""Largest record (a round start of 1024 entrants packs to about 6 KB)."""
MAX_SIGNATURES = 4
"""Signatures of a record, but a new director's: one an entrant (MAX_ENTRANTS)."""
MAX_POINTS = 10**6


# -- to the wire ----------------------------------------------------------------------------


def body_to_wire(body: Body) -> list[Any]:
    """The body's fields as plain values, in declaration order."""
    if isinstance(body, Create):
        s = body.scoring
        return [
            body.director,
            body.name,
            body.rules,
            body.rounds,
            body.length.value,
            body.amount,
            body.fill.value,
            [
                s.bye_points.numerator,
                s.bye_points.denominator,
                s.bye_score,
                s.rules_figure,
            ],
            body.unfinished_zero,
            body.private,
            body.seeded,
            body.deck.value,
            body.nonce,
            *_creation_tail(body),
        ]
    if isinstance(body, Entry):
        return [body.event, body.player, body.name]
    if isinstance(body, Admit):
        return [body.event, body.player]
    if isinstance(body, Withdraw):
        return [body.event, body.player, body.by.value, body.reason]
    if isinstance(body, SeedCommit):
        return [body.event, body.round, body.player, body.commitment]
    if isinstance(body, SeedEcho):
        return [body.event, body.round, body.player, body.commitments]
    if isinstance(body, SeedReveal):
        return [body.event, body.round, body.player, body.nonce]
    if isinstance(body, RoundStart):
        return [
            body.event,
            body.round,
            [list(t) for t in body.tables],
            list(body.byes),
            body.seed,
            body.results,
        ]
    if isinstance(body, TableResult):
        return [
            body.event,
            body.round,
            body.table,
            list(body.players),
            list(body.scores),
            body.table_id,
        ]
    if isinstance(body, Correction):
        return [body.event, body.round, body.table, list(body.scores), body.reason]
    if isinstance(body, TimeCall | RoundCall):
        return [body.event, body.round]
    if isinstance(body, RevealLapse):
        return [body.event, body.round, list(body.players), body.reason]
    if isinstance(body, Extension):
        return [body.event, body.round, body.table, body.minutes, body.reason]
    if isinstance(body, EndTable):
        return [body.event, body.round, body.table, body.reason]
    if isinstance(body, Substitute):
        return [
            body.event,
            body.round,
            body.table,
            body.seat,
            body.leaving,
            body.substitute,
            body.hands,
            list(body.scores),
            body.reason,
        ]
    if isinstance(body, NewDirector):
        return [body.event, body.at, body.director, body.reason]
    return [
        body.event,
        body.round,
        body.player,
        body.points.numerator,
        body.points.denominator,
        body.score,
        body.reason,
    ]


def signed_bytes(body: Body) -> bytes:
    """The exact bytes every signer of ``body`` signs."""
    return pack([DOMAIN, RECORD_VERSION, KIND_OF[type(body)].value, body_to_wire(body)])


def encode_record(record: Record) -> bytes:
    """The record's wire bytes."""
    return pack([record.kind.value, body_to_wire(record.body), list(record.signatures)])


# -- from the wire --------------------------------------------------------------------------


def _enum(kind: type[Any], value: object, what: str) -> Any:
    for member in kind:
        if member.value == value:
            return member
    raise WireError(f"{what}: {value!r} is not one of {', '.join(str(m.value) for m in kind)}")


def _rules_name(value: object) -> str:
    """An event's rules: a rules name as a table's Open carries it (``"mcr"``). Whether a
    rule set of that name is here, with tournaments, is the event check's (check.py), so a
    record reads the same at every daemon whatever rule sets it has loaded."""
    rules = need_str(value, "rules", 16)
    if not RULES_NAME.fullmatch(rules):
        raise WireError(f"rules: {rules!r} is not a rules name")
    return rules


def _round(value: object) -> int:
    return need_int(value, "round", 0, MAX_ROUNDS - 1)


def _key(value: object, what: str = "player key") -> bytes:
    return need_bytes(value, what, KEY_LEN)


def _event(value: object) -> bytes:
    return need_bytes(value, "event id", EVENT_ID_LEN)


def _scores(value: object) -> tuple[int, int, int, int]:
    items = [
        need_int(v, "score", -MAX_SCORE, MAX_SCORE) for v in need_list(value, "scores", length=4)
    ]
    return (items[0], items[1], items[2], items[3])


def _fraction(numerator: object, denominator: object, what: str) -> Fraction:
    top = need_int(numerator, what, -MAX_POINTS, MAX_POINTS)
    bottom = need_int(denominator, f"{what} denominator", 1, MAX_POINTS)
    value = Fraction(top, bottom)
    if value.denominator != bottom:  # one value, one encoding: what is signed is re-packed
        raise WireError(f"{what}: {top}/{bottom} is not in lowest terms")
    return value


def _create(f: list[Any]) -> Create:
    scoring = need_list(f[7], "scoring", length=4)
    rules = _rules_name(f[2])
    return Create(
        _key(f[0], "director key"),
        need_str(f[1], "event name", MAX_NAME),
        rules,
        need_int(f[3], "rounds", 1, MAX_ROUNDS),
        _enum(Length, f[4], "round length"),
        need_int(f[5], "hands or minutes", 1, MAX_AMOUNT),
        _enum(FillPolicy, f[6], "fill"),
        Scoring(
            rules,
            _fraction(scoring[0], scoring[1], "bye points"),
            need_int(scoring[2], "bye score", -MAX_SCORE, MAX_SCORE),
            _figure(rules, scoring[3]),
        ),
        need_bool(f[8], "unfinished scores zero"),
        need_bool(f[9], "private"),
        need_bool(f[10], "seeded"),
        _enum(Deck, f[11], "deck"),
        need_bytes(f[12], "event nonce", NONCE_LEN),
        (
            _enum(SeedSteps, f[13], "seed steps")
            if len(f) > 14
            else _seed_steps(f[13])
            if len(f) > 13
            else SeedSteps.AFTER_CALL
        ),
        (need_bool(f[14], "flowers") if len(f) > 15 else _no_flowers(f[14]))
        if len(f) > 14
        else True,
        _turn_seconds(f[15]) if len(f) > 15 else TURN_SECONDS,
    )


def _creation_tail(body: Create) -> list[object]:
    """A creation's fields after the 13th, each written only when a later one is or it
    differs from what an event made before it reads as: one encoding for each event, so an
    event made before keeps its bytes and its id. The 14th is the seed steps (written when
    ahead), the 15th the flowers (written when off), the 16th a turn's seconds (written when
    not TURN_SECONDS)."""
    if body.turn_seconds != TURN_SECONDS:
        return [body.seed_steps.value, body.flowers, body.turn_seconds]
    if not body.flowers:
        return [body.seed_steps.value, False]
    if body.seed_steps is SeedSteps.AHEAD:
        return [body.seed_steps.value]
    return []


def _turn_seconds(value: object) -> int:
    """A 16th field of a creation: a turn's seconds, never TURN_SECONDS (that is left out)."""
    seconds = need_int(value, "turn seconds", *TURN_SECONDS_RANGE)
    if seconds == TURN_SECONDS:
        raise WireError(f"turn seconds: a 16th creation field is never {TURN_SECONDS}")
    return seconds


def _figure(rules: str, value: object) -> int | None:
    """The scoring's figure of an event of ``rules`` (``Scoring.figure``): None when it is
    the rule set's default, so the event reads back equal to the one its director made. A
    rule set not here keeps the number as it came (the event check refuses such an event)."""
    figure = need_int(value, "scoring figure", 0, 1000)
    return None if figure == default_figure(rules) else figure


def _seed_steps(value: object) -> SeedSteps:
    """A 14th field of a creation says the seed is made ahead; events made before it have
    13 fields and read as AFTER_CALL, so one encoding stands for each (what is signed is
    re-packed): AFTER_CALL written out is refused."""
    steps: SeedSteps = _enum(SeedSteps, value, "seed steps")
    if steps is not SeedSteps.AHEAD:
        raise WireError("seed steps: a 14th creation field is only ever 'ahead'")
    return steps


def _no_flowers(value: object) -> bool:
    """A 15th field of a creation says its tables play without flowers: only ever false
    (one encoding for each event: an event with flowers leaves it out). Whether its rules
    may (MCR only) is the event check's (check.py)."""
    if need_bool(value, "flowers"):
        raise WireError("flowers: a 15th creation field is only ever false (no flowers)")
    return False


def _seat(value: object) -> int | None:
    return None if value is None else need_int(value, "entrant", 0, MAX_ENTRANTS - 1)


def _table(value: object) -> Seats:
    items = [_seat(v) for v in need_list(value, "table", length=4)]
    return (items[0], items[1], items[2], items[3])


def _round_start(f: list[Any]) -> RoundStart:
    tables = tuple(_table(t) for t in need_list(f[2], "tables", max_len=MAX_TABLES))
    byes = tuple(
        need_int(b, "bye", 0, MAX_ENTRANTS - 1)
        for b in need_list(f[3], "byes", max_len=MAX_ENTRANTS)
    )
    return RoundStart(
        _event(f[0]),
        _round(f[1]),
        tables,
        byes,
        need_bytes(f[4], "round seed", HASH_LEN),
        need_bytes(f[5], "results digest", HASH_LEN),
    )


def _result(f: list[Any]) -> TableResult:
    seats = [
        None if k is None else _key(k, "seat key") for k in need_list(f[3], "seat keys", length=4)
    ]
    return TableResult(
        _event(f[0]),
        _round(f[1]),
        need_int(f[2], "table", 0, MAX_TABLES - 1),
        (seats[0], seats[1], seats[2], seats[3]),
        _scores(f[4]),
        need_bytes(f[5], "table id", TABLE_ID_LEN),
    )


def _substitute(f: list[Any]) -> Substitute:
    return Substitute(
        _event(f[0]),
        _round(f[1]),
        need_int(f[2], "table", 0, MAX_TABLES - 1),
        need_int(f[3], "seat", 0, 3),
        _key(f[4], "leaving player key"),
        None if f[5] is None else _key(f[5], "substitute key"),
        need_int(f[6], "hands played", 0, MAX_AMOUNT),
        _scores(f[7]),
        need_str(f[8], "reason", MAX_REASON),
    )


_BODIES: dict[Kind, tuple[int, Callable[[list[Any]], Body]]] = {
    Kind.CREATE: (13, _create),
    Kind.ENTRY: (
        3,
        lambda f: Entry(_event(f[0]), _key(f[1]), need_str(f[2], "player name", MAX_NAME)),
    ),
    Kind.ADMIT: (2, lambda f: Admit(_event(f[0]), _key(f[1]))),
    Kind.WITHDRAW: (
        4,
        lambda f: Withdraw(
            _event(f[0]),
            _key(f[1]),
            _enum(WithdrawnBy, f[2], "withdrawn by"),
            need_str(f[3], "reason", MAX_REASON),
        ),
    ),
    Kind.SEED_COMMIT: (
        4,
        lambda f: SeedCommit(
            _event(f[0]), _round(f[1]), _key(f[2]), need_bytes(f[3], "commitment", HASH_LEN)
        ),
    ),
    Kind.SEED_ECHO: (
        4,
        lambda f: SeedEcho(
            _event(f[0]), _round(f[1]), _key(f[2]), need_bytes(f[3], "commitments digest", HASH_LEN)
        ),
    ),
    Kind.SEED_REVEAL: (
        4,
        lambda f: SeedReveal(
            _event(f[0]), _round(f[1]), _key(f[2]), need_bytes(f[3], "nonce", HASH_LEN)
        ),
    ),
    Kind.ROUND_START: (6, _round_start),
    Kind.TABLE_RESULT: (6, _result),
    Kind.CORRECTION: (
        5,
        lambda f: Correction(
            _event(f[0]),
            _round(f[1]),
            need_int(f[2], "table", 0, MAX_TABLES - 1),
            _scores(f[3]),
            need_str(f[4], "reason", MAX_REASON),
        ),
    ),
    Kind.PENALTY: (
        7,
        lambda f: Penalty(
            _event(f[0]),
            _round(f[1]),
            _key(f[2]),
            _fraction(f[3], f[4], "penalty points"),
            need_int(f[5], "penalty score", -MAX_SCORE, MAX_SCORE),
            need_str(f[6], "reason", MAX_REASON),
        ),
    ),
    Kind.TIME_CALL: (2, lambda f: TimeCall(_event(f[0]), _round(f[1]))),
    Kind.ROUND_CALL: (2, lambda f: RoundCall(_event(f[0]), _round(f[1]))),
    Kind.REVEAL_LAPSE: (
        4,
        lambda f: RevealLapse(
            _event(f[0]),
            _round(f[1]),
            tuple(
                _key(k, "excused player")
                for k in need_list(f[2], "excused players", max_len=MAX_ENTRANTS)
            ),
            need_str(f[3], "reason", MAX_REASON),
        ),
    ),
    Kind.EXTENSION: (
        5,
        lambda f: Extension(
            _event(f[0]),
            _round(f[1]),
            need_int(f[2], "table", 0, MAX_TABLES - 1),
            need_int(f[3], "extra minutes", 1, MAX_AMOUNT),
            need_str(f[4], "reason", MAX_REASON),
        ),
    ),
    Kind.END_TABLE: (
        4,
        lambda f: EndTable(
            _event(f[0]),
            _round(f[1]),
            need_int(f[2], "table", 0, MAX_TABLES - 1),
            need_str(f[3], "reason", MAX_REASON),
        ),
    ),
    Kind.SUBSTITUTE: (9, _substitute),
    Kind.NEW_DIRECTOR: (
        4,
        lambda f: NewDirector(
            _event(f[0]),
            need_int(f[1], "record place", 1, 10**7),
            _key(f[2], "new director key"),
            need_str(f[3], "reason", MAX_REASON),
        ),
    ),
}


def decode_record(data: bytes) -> Record:
    """One record from its wire bytes; ``WireError`` naming the first bad field."""
    items = need_list(unpack(data, "record", max_bytes=MAX_RECORD_BYTES), "record", length=3)
    kind = _enum(Kind, items[0], "record kind")
    length, parse = _BODIES[kind]
    if (
        kind is Kind.CREATE
        and isinstance(items[1], list)
        and len(items[1]) in (length + 1, length + 2, length + 3)
    ):
        length = len(items[1])  # seeds made ahead (SeedSteps); no flowers (MCR); turn time
    fields = need_list(items[1], f"{kind.name.lower()} record", length=length)
    body = parse(fields)
    most = MAX_ENTRANTS if kind is Kind.NEW_DIRECTOR else MAX_SIGNATURES
    signatures = tuple(
        None if s is None else need_bytes(s, "signature", SIGNATURE_LEN)
        for s in need_list(items[2], "signatures", max_len=most)
    )
    return Record(body, signatures)
