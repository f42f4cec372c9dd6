"""The daemon's session port over the real table session (fourwinds.protocol.table.machine.session).

Thin translation only, no game logic: the local API's plain requests become the session's
typed actions (``TableReady``, or an engine action decoded strictly by the rules adapter from
one of the seat's current legal actions), catch-up sequence numbers are shifted to the
session's "from seq" convention, and ``seat_view`` gains ``legal_actions`` entries with a
stable ``id``, a ``label`` and the action's plain form, so a client can act without knowing
the rules.
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import fields
from typing import Any

from fourwinds.daemon.peers.wire import MAX_PAYLOAD
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine import lobby
from fourwinds.protocol.table.machine import session as table
from fourwinds.protocol.table.machine.options import (
    OLD_OPTION_NAMES,
    DeckKind,
    OptionError,
    TableOptions,
    checked,
    limit_text,
)
from fourwinds.protocol.table.machine.problems import shown_problems
from fourwinds.protocol.table.machine.rebuild import RebuildPool
from fourwinds.protocol.table.machine.rebuild import rebuild as rebuild_seat
from fourwinds.protocol.table.machine.state import Phase, Step, TableSession
from fourwinds.protocol.table.machine.transcript import export_transcript
from fourwinds.protocol.table.rules.registry import ruleset_of
from fourwinds.protocol.table.views import contract_view
from fourwinds.protocol.table.views.contract_view import (
    Unreachable,
    build_seat_view,
    resolve_action,
)
from fourwinds.protocol.table.views.sheet import rules_sheet, table_sheet
from fourwinds.protocol.table.views.suggest import suggest as bot_suggestion
from fourwinds.protocol.table.wire.messages import MAX_CARD_TEXT

handle_message = table.handle_message
settle = table.settle
transcript = export_transcript
tick = table.tick
resume = table.resume

_OPTION_TYPES: dict[str, type] = {
    "call_window": float,
    "exchange_window": float,
    "turn_window": float,
    "next_window": float,
    "stall_after": float,
    "hands": int,
}
OPEN_TEXT_LIMIT = 200
"""Longest card name an Open may carry (protocol/table/wire/messages.py, ``need_str``)."""


def apply_message(session: TableSession, payload: bytes, now: float) -> Step:
    """A peer's message applied, our automatic reply left for ``settle`` (the daemon adopts
    the new state first: the table's latency counts to there)."""
    return table.handle_message(session, payload, now, answer=False)


def table_options(options: Mapping[str, Any]) -> TableOptions:
    """``TableOptions`` from the API's plain map; unknown or mistyped keys are refused, and
    the values are held to the limits a joiner holds the table's Open to
    (``options.checked``: one check for both), so ``create`` never opens a table its
    joiners would refuse. Without ``deck`` the table deals the fair, masked wall.
    ``rules``: the rule set's own options, a map of name to text, whole number or bool
    (e.g. MCR ``{"flowers": false}``); the rule set checks them when the table is opened.
    A deprecated name (``OLD_OPTION_NAMES``: ``charleston_window``) counts as the option it
    stands for; both names at once are refused."""
    known = {f.name for f in fields(TableOptions)}
    values: dict[str, Any] = {}
    for old, new in OLD_OPTION_NAMES.items():
        if old in options and new in options:
            raise LocalProtocolError(f"options {old} and {new} are one option: give {new}")
    for given, value in options.items():
        key = OLD_OPTION_NAMES.get(given, given)
        if key not in known:
            raise LocalProtocolError(f"unknown table option {given!r}"[:120])
        if key == "rules":
            values[key] = _engine_options(value)
            continue
        if key in ("auto_pass", "fixed_winds"):
            if not isinstance(value, bool):
                raise LocalProtocolError(f"option {key} must be true or false")
            values[key] = value
            continue
        if key == "deck":
            try:
                values[key] = DeckKind(value)
            except (ValueError, TypeError):
                raise LocalProtocolError(
                    f"deck must be one of {', '.join(d.value for d in DeckKind)}"
                ) from None
            continue
        values[key] = _number(key, value)
    try:
        return checked(TableOptions(**values))
    except OptionError as error:
        raise LocalProtocolError(str(error)) from None


def _engine_options(value: object) -> tuple[tuple[str, str | int | bool], ...]:
    """The ``rules`` map as the table's engine option pairs, sorted by name (their
    meaning is the rule set's: ``lobby.open_table`` asks it)."""
    if not isinstance(value, dict):
        raise LocalProtocolError(
            'option rules must be a map of the rule set\'s options, e.g. {"flowers": false}'
        )
    pairs: list[tuple[str, str | int | bool]] = []
    for name, val in sorted(value.items(), key=lambda item: str(item[0])):
        if not isinstance(name, str):
            raise LocalProtocolError("option rules: a name must be text")
        if isinstance(val, float) or not isinstance(val, (str, int, bool)):
            raise LocalProtocolError(
                f"option rules {name!r}: expected text, a whole number or true/false"[:120]
            )
        pairs.append((name, val))
    return tuple(pairs)


def _number(key: str, value: object) -> float | int:
    """A timer (seconds) or the hand count, of the right type (``checked`` holds it to its
    range)."""
    kind = _OPTION_TYPES[key]
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or (kind is int and isinstance(value, float) and not value.is_integer())
    ):
        raise LocalProtocolError(f"option {key} must be {limit_text(key)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise LocalProtocolError(f"option {key} must be {limit_text(key)}, not {value!r}")
    number: float | int = kind(value)
    return number


def _open_text(options: Mapping[str, Any], key: str, limit: int) -> str:
    """``card_text`` / ``card_name`` of a ``create``: text within the Open's limit."""
    value = options.get(key, "")
    if not isinstance(value, str):
        raise LocalProtocolError(f"option {key} must be text")
    if len(value) > limit:
        raise LocalProtocolError(f"option {key} is over {limit:,} characters")
    return value


def new_table(
    identity_private_key: bytes,
    name: str,
    rules: str,
    player: str,
    options: Mapping[str, Any],
    entropy: bytes,
    now: float,
) -> Step:
    # the local API's names for the rule set's own text (an American card file, its name)
    rules_text = _open_text(options, "card_text", MAX_CARD_TEXT)
    rules_text_name = _open_text(options, "card_name", OPEN_TEXT_LIMIT)
    plain = {k: v for k, v in options.items() if k not in ("card_text", "card_name")}
    step = table.new_table(
        name,
        rules,
        identity_private_key,
        entropy,
        now,
        rules_text_name=rules_text_name,
        rules_text=rules_text,
        options=table_options(plain),
        player=player,
    )
    opened = max((len(out.payload) for out in step.outgoing), default=0)
    if opened > MAX_PAYLOAD:  # the joiners' sockets would refuse it (wire.MAX_FRAME)
        raise LocalProtocolError(
            f"the table's Open would be {opened:,} bytes, over the {MAX_PAYLOAD:,} a peer "
            "takes: use a shorter card file (fewer comments)"
        )
    return step


def opens_table(payload: bytes) -> bool:
    """Whether a table message is the table's Open, which a joiner's session starts from."""
    return lobby.is_open_message(payload)


def join_table(
    identity_private_key: bytes,
    payloads: Sequence[bytes],
    place: int,
    player: str,
    entropy: bytes,
    now: float,
) -> Step:
    if not payloads:
        raise LocalProtocolError("joining needs the table's Open message")
    step = table.join_table(
        payloads[0], Seat(place), identity_private_key, entropy, now, player=player
    )
    for payload in payloads[1:]:
        more = table.handle_message(step.session, payload, now)
        step = Step(
            more.session,
            step.outgoing + more.outgoing,
            step.persist + more.persist,
            step.events + more.events,
            step.problems + more.problems,
        )
    return step


def messages_since(
    session: TableSession, seat: int, seq: int, for_seat: int | None = None
) -> tuple[bytes, ...]:
    """Messages of ``seat`` after ``seq`` (the daemon's catch-up asks "after the last I have")."""
    return table.messages_since(
        session, Seat(seat), seq + 1, for_seat=None if for_seat is None else Seat(for_seat)
    )


def awaits_us(session: TableSession) -> bool:
    """The table waits for an input of our seat (the publisher sends such views at once)."""
    s = session
    return s.me is not None and s.me in s.awaiting and s.me not in s.inputs and not s.inbox[s.me]


def ready_due(session: TableSession) -> bool:
    """The table waits for our seat to say it is ready (the lobby's last step): a tournament
    table's daemon says it for its player, the round having been called for everyone."""
    s = session
    return s.phase is Phase.READY and s.me is not None and s.me not in s.inputs


def final_scores(session: TableSession, rules_figure: int) -> tuple[int, int, int, int] | None:
    """Each place's final score as a tournament counts it, once the match is over (else
    None): MCR the match score; American the tournament points of its hands
    (protocol/tournament/standings.py), by the event's own scoring figure (``rules_figure``:
    the rule set's ``TournamentRules.figure``)."""
    if session.phase is not Phase.OVER or session.rules is None:
        return None
    counted = _counted(session, rules_figure)
    return session.scores if counted is None else counted


def scores_so_far(
    session: TableSession, rules_figure: int
) -> tuple[int, tuple[int, int, int, int]] | None:
    """The hands the table finished and each place's score over them as a tournament
    counts it (final_scores' reckoning, the match not over): what a seat carries into the
    table going on after a substitute (records.Substitute). None before the first hand."""
    if session.rules is None or session.phase is Phase.LOBBY:
        return None
    counted = _counted(session, rules_figure)
    if counted is None:
        return session.hands_played, session.scores
    return len(session.finals), counted


def _counted(session: TableSession, rules_figure: int) -> tuple[int, int, int, int] | None:
    """The finished hands' scores as the rule set's tournaments count them, or None when
    the match score counts (the rule set's ``tournament_scores``)."""
    assert session.rules is not None
    seatings = [seating for _, _, seating in session.outcomes]
    return ruleset_of(session.rules).tournament_scores(session.finals, seatings, rules_figure)


def last_seq(session: TableSession, seat: int) -> int:
    return session.chains[seat].next_seq - 1


def keep_joins(session: TableSession, keys: Collection[bytes]) -> TableSession:
    """The host's lobby without the Joins of players no longer at the table (they left
    before the Seating): their places are free for the next joiners."""
    return lobby.keep_joins(session, keys)


def seated(session: TableSession) -> bool:
    """The four places are fixed: a player who leaves now leaves a seat the table waits for."""
    return lobby.seated(session)


def seat_keys(session: TableSession) -> Sequence[bytes | None]:
    return session.public_keys


def seat_view(
    session: TableSession,
    unreachable: Sequence[Mapping[str, Any]] = (),
    names: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The local API's seat view (docs/LOCAL-API.md): the contract VIEW with
    ``legal_actions`` (ids, human labels, tiles, ``choose``, ``default``), plus the session's
    own bookkeeping (``step``, ``hands_played``, ``problems``, ``halted``, and under
    ``session`` its phase and the *places* it waits for) for tools and tests.
    ``unreachable``: the places the daemon cannot reach (``place``, ``for_s``,
    ``last_address`` each), named in the view (contract_view.Unreachable). ``names``: by
    table place, the name each player goes by now (the daemon's: its config's, each peer's
    latest Hello), shown instead of the one signed when that player sat down."""
    away = [
        Unreachable(int(u["place"]), int(u["for_s"]), str(u.get("last_address", "")))
        for u in unreachable
    ]
    built = build_seat_view(session, time.monotonic(), unreachable=away, names=names)
    # the contract VIEW, with the daemon's own keys added for the wire
    view: dict[str, Any] = {**built["view"], "legal_actions": built["legal_actions"]}
    s = session
    view["step"] = s.step
    view["state"] = s.step_hash.hex()
    view["hands_played"] = s.hands_played
    view["problems"] = shown_problems(s.problems, s.problem_tally)  # bounded
    view["halted"] = None if s.halted is None else s.halted.describe()
    view["session"] = {
        "phase": s.phase.value,
        "me": None if s.me is None else int(s.me),
        "waiting_for": sorted(int(p) for p in s.awaiting if p not in s.inputs),
    }
    return view


def seat_returned(session: TableSession, now: float) -> TableSession:
    """Our player is back (a frontend subscribed, or the daemon caught up after a restart):
    the window of the decision in front of our seat starts again, once per step
    (protocol/table/machine/returning.py)."""
    return table.seat_returned(session, now)


def signed_names(session: TableSession) -> Sequence[str]:
    """By table place, the name each player signed when sitting down (``seat N``: none)."""
    return contract_view.signed_names(session)


def table_label(session: TableSession) -> tuple[str, str] | None:
    """(name, rules) as the table's signed Open gives them: a seat that joined by address
    knew neither until the Open arrived."""
    if session.open is None:
        return None
    return session.open.name, session.open.rules


def progress(session: TableSession) -> tuple[str, int]:
    """Where the table is: its phase and step. The publisher sends a view at once whenever
    this changes (a discard, a call resolved, a new turn); messages that leave the step as it
    was (e.g. deck keys, answers still being collected) are paced."""
    return session.phase.value, session.step


def local_action(
    session: TableSession, action: object, now: float, settle_now: bool = True
) -> Step:
    """``{"action": id, "tiles": [...]}`` (or ``"ready"``) from the local API -> the session's
    own call. The id is one of the current view's ``legal_actions``; ``tiles`` only for an
    action that asks the player to ``choose``; ``expected`` (optional) is the ACTION map the
    client was shown, so an act meant for a view the table has moved past is refused."""
    if not isinstance(action, Mapping):
        raise LocalProtocolError("an action request is a map with 'action'")
    wanted = action.get("action")
    if action.get("type") == "ready" or wanted == "ready":
        return table.local_action(session, table.TableReady(), now, settle_now=settle_now)
    if action.get("type") == "time_up":  # the tournament's time call (events/clock.py)
        return table.call_time(session, now, stop_now=action.get("stop_now") is True)
    if isinstance(wanted, str) and wanted.isdigit():
        wanted = int(wanted)
    if isinstance(wanted, bool) or not isinstance(wanted, int):
        raise LocalProtocolError(
            f"'action' is the id (a number) of one of your legal actions, not {wanted!r}"
        )
    tiles = action.get("tiles") or []
    if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
        raise LocalProtocolError('\'tiles\' is a list of tile codes such as ["3p", "5z"]')
    expected = action.get("expected")
    chosen = resolve_action(
        session, wanted, tiles, expected if isinstance(expected, Mapping) else None
    )
    return table.local_action(session, chosen, now, settle_now=settle_now)


def send_action(session: TableSession, action: object, now: float) -> Step:
    """``local_action`` that only checks, signs and queues our message; ``settle`` then
    takes it (the daemon sends it to the peers in between)."""
    return local_action(session, action, now, settle_now=False)


def suggest(session: TableSession, level: BotLevel = BotLevel.NORMAL) -> dict[str, Any] | None:
    """The built-in bot's choice for our seat now (the local API's ``suggest``):
    ``{"action": ACTION, "tiles": [...], "step": n}`` with ACTION one of the view's
    ``legal_actions``, or None when nothing is awaited from us. The table id seeds the bot's
    tie-breaks (it only breaks ties; the bot sees only our seat's tiles). ``level``: which
    of the built-in bots decides."""
    found = bot_suggestion(session, session.table, level)
    return None if found is None else found.plain()


def sheet(session: TableSession) -> dict[str, Any]:
    """The table's scoring sheet (the local API's ``sheet``): the American card's lines or
    the MCR fans with their points; ``LocalProtocolError`` with the reason if it has none."""
    return table_sheet(session)


def sheet_for_rules(rules: str) -> dict[str, Any]:
    """The sheet of a table hosted here with ``rules`` and no card file (the local API's
    ``sheet`` with ``rules`` and no table: the lobby's card, before any table is open)."""
    return rules_sheet(rules)


def rebuild_pool(place: int, own_key: bytes, host_key: bytes | None) -> RebuildPool:
    """An empty pool for the peers' copies of a table our seat ``place`` is rebuilding
    (protocol/table/machine/rebuild.py): ``add(payload)``, ``held(seat)``, ``missing(heads)``,
    ``complete(heads)``, ``refused`` and ``last_refusal``."""
    return RebuildPool(Seat(place), own_key, host_key)


def rebuild(pool: RebuildPool, identity_private_key: bytes, entropy: bytes) -> Step:
    """Our seat's session rebuilt from ``pool``; ``persist`` is the fresh log's records.
    ``LocalProtocolError``-like ``RebuildError`` (a ``FourwindsError``) with the reason."""
    return rebuild_seat(pool, identity_private_key, entropy)


def highest_seq(session: TableSession, seat: int) -> int:
    """The highest sequence number of ``seat``'s messages we hold, accepted or waiting for a
    gap to close (-1: none): what a seat rebuilding its own chain must not sign again."""
    chain = session.chains[seat]
    return max(chain.next_seq - 1, max(chain.pending, default=-1))
