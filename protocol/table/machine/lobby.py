"""The lobby: opening a table, joining it, the creator's seating, and the ready step.

The creator (table place 0) signs an Open message with the table's name, rules, card and
options and the protocol versions it speaks. A joiner sends a Join for the place it wants to
the creator, signed with the key it names. When places 1-3 are filled the creator signs a
Seating message that embeds the three Joins and picks the highest protocol version all four
speak; from then on every place is its public key, and the table waits for four Readys.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.acc import Acc, LobbyHandlers, halt, report
from fourwinds.protocol.table.machine.flow import accept, receive, send
from fourwinds.protocol.table.machine.options import DeckKind, OptionError, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.state import Phase, TableSeated, TableSession
from fourwinds.protocol.table.machine.steps import start_step
from fourwinds.protocol.table.rules.registry import rules_for, rules_text_problem
from fourwinds.protocol.table.wire.envelope import (
    ENGINE_OPTIONS_SINCE,
    SUPPORTED_VERSIONS,
    X25519_WALL_SINCE,
    Envelope,
    decode,
    private_key_from_bytes,
    public_key_bytes,
    public_key_from_bytes,
    verify,
)
from fourwinds.protocol.table.wire.messages import Join, MsgKind, Open, Seating, decode_body
from fourwinds.protocol.table.wire.records import genesis_record, message_record
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.values import evolve


def base_session(
    me: Seat | None, identity_private_key: bytes | None, secret: bytes, table: bytes
) -> TableSession:
    key = None if identity_private_key is None else private_key_from_bytes(identity_private_key)
    return TableSession(me=me, key=key, secret=secret, table=table)


def table_versions(options: TableOptions) -> tuple[int, int]:
    """The versions this code can play a table with these options at: a masked wall needs
    ``X25519_WALL_SINCE``, an engine option the version that first knew it
    (``ENGINE_OPTIONS_SINCE``)."""
    low, high = SUPPORTED_VERSIONS
    if options.deck is DeckKind.MASKED:
        low = max(low, X25519_WALL_SINCE)
    for name, _ in options.rules:
        low = max(low, ENGINE_OPTIONS_SINCE.get(name, low))
    return low, high


def derive_secret(entropy: bytes) -> bytes:
    if not isinstance(entropy, bytes) or len(entropy) < 32:
        raise LocalProtocolError("entropy: at least 32 random bytes are needed")
    return hashlib.sha256(b"fourwinds-seat-secret\0" + entropy).digest()


def open_table(
    name: str,
    rules: str,
    identity_private_key: bytes,
    entropy: bytes,
    *,
    rules_text_name: str = "",
    rules_text: str = "",
    options: TableOptions | None = None,
    player: str = "",
) -> tuple[TableSession, Acc]:
    """The creator's session, after signing its Open message."""
    key = private_key_from_bytes(identity_private_key)
    pub = public_key_bytes(key)
    secret = derive_secret(entropy)
    try:
        adapter = rules_for(rules, rules_text)
    except KeyError as error:
        raise LocalProtocolError(str(error.args[0])) from None
    problem = rules_text_problem(rules, rules_text) or adapter.option_problem(
        options or TableOptions()
    )
    if problem:
        raise LocalProtocolError(problem)
    table = hashlib.sha256(b"fourwinds-table-id\0" + pub + secret).digest()[:16]
    s = base_session(Seat(0), identity_private_key, secret, table)
    acc = Acc(0.0, lobby=LOBBY)
    acc.persist.append(genesis_record(s.me, table, secret))
    options = options or TableOptions()
    body = Open(
        name, rules, rules_text_name, rules_text, options, table_versions(options), pub, player
    )
    s = _set_open(s, body)
    return send(s, acc, body), acc


def is_open_message(payload: bytes) -> bool:
    """Whether ``payload`` is, by its envelope, a table's Open (its creator's first
    message). A joiner may hear another seat's messages before the host's Open (they travel
    on other links); those wait for the Open instead of being taken for a bad one. Only
    the shape is read here: ``join`` verifies the Open itself."""
    try:
        env = decode(payload)
    except WireError:
        return False
    return env.kind is MsgKind.OPEN and env.seat == 0 and env.seq == 0


def join(
    open_payload: bytes, place: Seat, identity_private_key: bytes, entropy: bytes, player: str = ""
) -> tuple[TableSession, Acc]:
    """A joiner's session for the table an Open message describes, asking for ``place``."""
    if place == 0:
        raise LocalProtocolError("place 0 is the creator's")
    try:
        env = decode(open_payload)
    except WireError as error:
        raise LocalProtocolError(f"not a table's Open message: {error.problem}") from None
    secret = derive_secret(entropy)
    s = base_session(Seat(place), identity_private_key, secret, env.table)
    acc = Acc(0.0, lobby=LOBBY)
    acc.persist.append(genesis_record(s.me, env.table, secret))
    s = receive(s, open_payload, acc)
    if s.open is None:
        reasons = "; ".join(p.reason for p in acc.problems) or "not an Open message"
        raise LocalProtocolError(f"cannot join: {reasons}")
    lo, hi = s.open.versions
    mine = table_versions(s.open.options)
    if hi < mine[0] or lo > mine[1]:
        why = ""
        if s.open.options.deck is DeckKind.MASKED and hi < X25519_WALL_SINCE:
            why = (
                f" (its masked wall is the Edwards one of versions before "
                f"{X25519_WALL_SINCE}: update the creator's fourwinds, or play a practice "
                f"table)"
            )
        raise LocalProtocolError(
            f"the table speaks protocol {lo}..{hi}, this seat {mine[0]}..{mine[1]} for it{why}"
        )
    assert s.key is not None
    body = Join(public_key_bytes(s.key), mine, player)
    return send(s, acc, body, to=Seat(0)), acc


def _set_open(s: TableSession, body: Open) -> TableSession:
    """The table's Open taken (``OptionError`` when its rule set refuses its options, or a
    text of its own it does not take)."""
    rules = rules_for(body.rules, body.rules_text)
    problem = rules_text_problem(body.rules, body.rules_text) or rules.option_problem(body.options)
    if problem:
        raise OptionError(problem)
    keys = list(s.public_keys)
    verifiers = list(s.verifiers)
    keys[0] = body.public_key
    verifiers[0] = public_key_from_bytes(body.public_key)
    return evolve(s, open=body, rules=rules, public_keys=tuple(keys), verifiers=tuple(verifiers))


def bootstrap_open(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """The first message anyone sees of a table: verified with the key it names."""
    try:
        body = decode_body(MsgKind.OPEN, env.body or b"")
        assert isinstance(body, Open)
        if env.seq != 0:
            raise WireError("an Open message is its creator's first message")
        verify(env, public_key_from_bytes(body.public_key))
        s = _set_open(s, body)
    except (WireError, KeyError) as error:
        reason = error.problem if isinstance(error, WireError) else str(error.args[0])
        return report(s, acc, Problem(ProblemKind.MALFORMED, None, f"open: {reason}"))
    return accept(s, env, acc)


def _join_body(env: Envelope) -> Join:
    body = decode_body(MsgKind.JOIN, env.body or b"")
    assert isinstance(body, Join)
    if env.seq != 0 or env.seat == 0:
        raise WireError("a Join is the first message of places 1-3")
    verify(env, public_key_from_bytes(body.public_key))
    return body


def creator_join(s: TableSession, env: Envelope, payload: bytes, acc: Acc) -> TableSession:
    """The creator seats a joiner if its place is free and their versions overlap."""
    try:
        body = _join_body(env)
    except WireError as error:
        return report(s, acc, Problem(ProblemKind.REFUSED_JOIN, None, error.problem))
    held = s.joins[env.seat]
    if held == payload:
        return s
    assert s.open is not None
    taken = {k for k in s.public_keys if k is not None}
    taken.update(_join_body(decode(j)).public_key for j in s.joins if j is not None)
    lo, hi = body.versions
    reason = ""
    if held is not None:
        reason = f"place {int(env.seat)} is already taken"
    elif body.public_key in taken:
        reason = "this key already holds a place"
    elif hi < s.open.versions[0] or lo > s.open.versions[1]:
        reason = f"protocol versions {lo}..{hi} do not overlap the table's"
    if reason:
        return report(s, acc, Problem(ProblemKind.REFUSED_JOIN, None, reason))
    acc.persist.append(_join_record(payload))
    joins = list(s.joins)
    joins[env.seat] = payload
    return evolve(s, joins=tuple(joins))


def _join_record(payload: bytes) -> bytes:
    return message_record(payload)


def creator_seats(s: TableSession, acc: Acc) -> TableSession:
    """Once places 1-3 are taken, the creator signs the Seating (automatic)."""
    if (
        s.me != 0
        or s.phase is not Phase.LOBBY
        or any(j is None for j in s.joins[1:])
        or s.chains[0].next_seq > 1
        or s.open is None
    ):
        return s
    bodies = [_join_body(decode(j)) for j in s.joins[1:] if j is not None]
    highest = min([s.open.versions[1], *(b.versions[1] for b in bodies)])
    lowest = max([s.open.versions[0], *(b.versions[0] for b in bodies)])
    if highest < lowest:
        return report(s, acc, Problem(ProblemKind.REFUSED_JOIN, None, "no common version"))
    j1, j2, j3 = (j for j in s.joins[1:] if j is not None)
    return send(s, acc, Seating(highest, (j1, j2, j3)))


def on_seating(s: TableSession, env: Envelope, acc: Acc) -> TableSession:
    """Everyone: fix the four keys, chain the three Joins, and start the ready step."""
    try:
        if env.seat != 0:
            raise WireError("only the creator seats the table")
        body = decode_body(MsgKind.SEATING, env.body or b"")
        assert isinstance(body, Seating)
        joins = [decode(p) for p in body.joins]
        keys = [s.public_keys[0]]
        for place, join_env in enumerate(joins, start=1):
            if join_env.kind is not MsgKind.JOIN or join_env.seat != place:
                raise WireError(f"seating: entry {place} is not a Join for place {place}")
            keys.append(_join_body(join_env).public_key)
        if len(set(keys)) != 4:
            raise WireError("seating: one key in two places")
        low, high = table_versions(s.open.options) if s.open is not None else SUPPORTED_VERSIONS
        if not low <= body.version <= high:
            raise WireError(
                f"seating: version {body.version} is not one this seat plays "
                f"this table at ({low}..{high})"
            )
    except WireError as error:
        problem = Problem(ProblemKind.ILLEGAL_ACTION, Seat(0), error.problem)
        return halt(report(s, acc, problem), acc, problem)
    s = evolve(
        s,
        public_keys=tuple(keys),
        version=body.version,
        seating_hash=env.msg_hash,
        verifiers=tuple(public_key_from_bytes(k) for k in keys if k is not None),
    )
    for join_env in joins:
        s = accept(s, join_env, acc)
    if s.me is not None and s.key is not None and keys[s.me] != public_key_bytes(s.key):
        problem = Problem(
            ProblemKind.REFUSED_JOIN, None, f"place {int(s.me)} went to another player"
        )
        return halt(report(s, acc, problem), acc, problem)
    acc.events.append(TableSeated(tuple(k for k in keys if k is not None), body.version))
    s = start_step(s, Phase.READY, acc, ())
    early, s = s.early, evolve(s, early=())
    for payload in early:
        s = receive(s, payload, acc)
    return s


def keep_joins(s: TableSession, keys: Collection[bytes]) -> TableSession:
    """The creator's lobby holding only the Joins of ``keys`` (the players still at the
    table): a player who left before the Seating frees its place for the next joiner. After
    the Seating the places are fixed by a signed message, and the session is unchanged."""
    if s.me != 0 or s.phase is not Phase.LOBBY:
        return s
    kept = tuple(
        j if j is None or _join_body(decode(j)).public_key in keys else None for j in s.joins
    )
    return s if kept == s.joins else evolve(s, joins=kept)


def seated(s: TableSession) -> bool:
    """Are the four places fixed (the creator's Seating signed and taken)?"""
    return s.phase is not Phase.LOBBY


__all__ = ["SEATS", "base_session", "join", "keep_joins", "open_table", "seated"]


LOBBY = LobbyHandlers(
    bootstrap_open=bootstrap_open,
    creator_join=creator_join,
    on_seating=on_seating,
    creator_seats=creator_seats,
)
"""The lobby's handlers, for every ``Acc`` of a table session (see ``acc.py``)."""
