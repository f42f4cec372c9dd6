"""The daemon's session port over the real table session (fourwinds.protocol.table.session).

Thin translation only, no game logic: the local API's plain requests become the session's
typed actions (``TableReady``, or an engine action decoded strictly by the rules adapter from
one of the seat's current legal actions), catch-up sequence numbers are shifted to the
session's "from seq" convention, and ``seat_view`` gains ``legal_actions`` entries with a
stable ``id``, a ``label`` and the action's plain form, so a client can act without knowing
the rules.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import msgpack

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table import session as table
from fourwinds.protocol.table.options import DeckKind, TableOptions
from fourwinds.protocol.table.rotation import wind_of
from fourwinds.protocol.table.state import Step, TableSession
from fourwinds.protocol.table.transcript import export_transcript
from fourwinds.protocol.tiles import Kind

handle_message = table.handle_message
transcript = export_transcript
tick = table.tick
resume = table.resume

_OPTION_TYPES: dict[str, type] = {"call_window": float, "charleston_window": float,
                                  "turn_window": float, "stall_after": float, "hands": int}


def table_options(options: Mapping[str, Any]) -> TableOptions:
    """``TableOptions`` from the API's plain map; unknown or mistyped keys are refused."""
    known = {f.name for f in fields(TableOptions)}
    values: dict[str, Any] = {}
    for key, value in options.items():
        if key not in known or key == "rules":
            raise LocalProtocolError(f"unknown table option {key!r}")
        if key == "deck":
            try:
                values[key] = DeckKind(value)
            except ValueError:
                raise LocalProtocolError(f"deck must be one of "
                                         f"{', '.join(d.value for d in DeckKind)}") from None
            continue
        kind = _OPTION_TYPES[key]
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
            raise LocalProtocolError(f"option {key} must be a number >= 0")
        values[key] = kind(value)
    return TableOptions(**values)


def new_table(identity_private_key: bytes, name: str, rules: str, player: str,
              options: Mapping[str, Any], entropy: bytes, now: float) -> Step:
    card_text = str(options.get("card_text", "")) if isinstance(options, Mapping) else ""
    card_name = str(options.get("card_name", "")) if isinstance(options, Mapping) else ""
    plain = {k: v for k, v in options.items() if k not in ("card_text", "card_name")}
    return table.new_table(name, rules, identity_private_key, entropy, now,
                           card_name=card_name, card_text=card_text,
                           options=table_options(plain), player=player)


def join_table(identity_private_key: bytes, payloads: Sequence[bytes], place: int,
               player: str, entropy: bytes, now: float) -> Step:
    if not payloads:
        raise LocalProtocolError("joining needs the table's Open message")
    step = table.join_table(payloads[0], Seat(place), identity_private_key, entropy, now,
                            player=player)
    for payload in payloads[1:]:
        more = table.handle_message(step.session, payload, now)
        step = Step(more.session, step.outgoing + more.outgoing, step.persist + more.persist,
                    step.events + more.events, step.problems + more.problems)
    return step


def messages_since(session: TableSession, seat: int, seq: int,
                   for_seat: int | None = None) -> tuple[bytes, ...]:
    """Messages of ``seat`` after ``seq`` (the daemon's catch-up asks "after the last I have")."""
    return table.messages_since(session, Seat(seat), seq + 1,
                                for_seat=None if for_seat is None else Seat(for_seat))


def awaits_us(session: TableSession) -> bool:
    """The table waits for an input of our seat (the publisher sends such views at once)."""
    s = session
    return (s.me is not None and s.me in s.awaiting and s.me not in s.inputs
            and not s.inbox[s.me])


def last_seq(session: TableSession, seat: int) -> int:
    return session.chains[seat].next_seq - 1


def seat_keys(session: TableSession) -> Sequence[bytes | None]:
    return session.public_keys


def _packed(plain: Any) -> bytes:
    data: bytes = msgpack.packb(plain, use_bin_type=True)
    return data


def action_id(plain: Any, packed: bytes | None = None) -> str:
    """A stable id for one legal action (the same action keeps its id across views; ids are
    opaque to clients, which send them back)."""
    return hashlib.sha256(_packed(plain) if packed is None else packed).hexdigest()[:12]


_FIELDS: dict[type, tuple[str, ...]] = {}


_LEAVES = (int, str, bytes, float, bool, type(None))


def _tiles(value: object) -> list[str]:
    """Every tile an action names, in notation (``5p``), found in its fields."""
    if isinstance(value, Kind):
        return [] if value is Kind.HIDDEN else [tile_code(value)]
    if type(value) in _LEAVES:          # most fields: seat numbers, tile ids, flags
        return []
    if isinstance(value, tuple):
        return [code for item in value for code in _tiles(item)]
    names = _FIELDS.get(type(value))
    if names is None:
        names = ()
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            names = tuple(f.name for f in dataclasses.fields(value))
        _FIELDS[type(value)] = names
    return [code for name in names for code in _tiles(getattr(value, name))]


@functools.lru_cache(maxsize=256)
def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


Entry = dict[str, Any]
_ENTRIES: dict[tuple[type, bytes], tuple[str, str, str, list[str]]] = {}
_ENTRY_LIMIT = 32_768        # an American Charleston offers over a thousand passes at once
_LISTS: dict[bytes, list[Entry]] = {}
_LIST_LIMIT = 16
_RECENT: list[tuple[TableSession, tuple[Any, ...], list[Entry]]] = []
_RECENT_LIMIT = 8


def _bounded(cache: dict[Any, Any], limit: int) -> None:
    """Drop the oldest half of ``cache`` when it is full (dicts keep insertion order)."""
    if len(cache) >= limit:
        for key in list(cache)[:limit // 2]:
            del cache[key]


def _entry(rules: Any, plain: Any) -> tuple[str, str, str, list[str]]:
    """(id, type, label, tiles) of one legal action. They depend on the plain form alone, so
    they are computed once per distinct action, not once per view."""
    packed = _packed(plain)
    key = (type(rules), packed)
    found = _ENTRIES.get(key)
    if found is not None:
        return found
    label, tiles, kind = str(plain), [], "action"
    if isinstance(plain, list) and plain:
        kind = _snake(str(plain[0]))
    if rules is not None:
        try:
            action = rules.decode_action(plain)
            label, tiles = rules.describe_action(action), _tiles(action)
        except Exception:   # a label is cosmetic; never fail a view on it
            pass
    found = (action_id(plain, packed), kind, label, tiles)
    _bounded(_ENTRIES, _ENTRY_LIMIT)
    _ENTRIES[key] = found
    return found


def _remember(session: TableSession, plains: tuple[Any, ...], entries: list[Entry]) -> None:
    """Keep the legal actions of the last few sessions viewed: the ``act`` that follows a
    view finds its action there instead of building the whole view again."""
    _RECENT.append((session, plains, entries))
    del _RECENT[:-_RECENT_LIMIT]


def _find(session: TableSession, wanted: object) -> Any:
    """The plain form of the legal action ``wanted`` names (its id, or the plain form)."""
    entries = next((known for seen, _, known in reversed(_RECENT) if seen is session), None)
    if entries is None:     # not viewed lately (a client acting blind): build the list
        entries = _legal(session, table.seat_view(session))
    return next((e["plain"] for e in entries
                 if e["id"] == wanted or ("plain" in e and e["plain"] == wanted)), None)


def _legal(session: TableSession, view: Mapping[str, Any]) -> list[Entry]:
    me = view.get("me")
    if view.get("phase") == "ready" and me in view.get("waiting_for", ()):
        return [{"id": "ready", "type": "ready", "label": "Ready to start", "tiles": [],
                 "default": True}]
    plains = tuple(view.get("legal", ()))
    if not plains:
        _remember(session, plains, [])
        return []
    rules, hand = session.rules, session.hand
    default: Any = None
    if rules is not None and hand is not None and hand.seating is not None and me is not None:
        try:
            default = rules.encode_action(rules.default_action(
                hand.engine, wind_of(hand.seating, Seat(me))))
        except Exception:   # no default in this state; the view still lists the actions
            default = None
    # a new session often offers the very same actions (others' answers came in): reuse them
    key = _packed([type(rules).__name__, plains, default])
    out = _LISTS.get(key)
    if out is None:
        out = []
        for plain in plains:
            ident, kind, label, tiles = _entry(rules, plain)
            out.append({"id": ident, "type": kind, "label": label, "tiles": list(tiles),
                        "default": plain == default, "plain": plain})
        _bounded(_LISTS, _LIST_LIMIT)
        _LISTS[key] = out
    _remember(session, plains, out)
    return out


def seat_view(session: TableSession) -> dict[str, Any]:
    view = table.seat_view(session)
    view["legal_actions"] = _legal(session, view)
    return view


def phase(session: TableSession) -> str:
    """The table's phase (the publisher sends a view at once when it changes)."""
    return session.phase.value


def local_action(session: TableSession, action: object, now: float) -> Step:
    """``{"action": id}`` (or ``"ready"``) from the local API -> the session's own call."""
    if not isinstance(action, Mapping):
        raise LocalProtocolError("an action request is a map with 'action'")
    wanted = action.get("action")
    if action.get("type") == "ready" or wanted == "ready":
        return table.local_action(session, table.TableReady(), now)
    plain = _find(session, wanted)
    rules = session.rules
    if plain is not None and rules is not None:
        return table.local_action(session, rules.decode_action(plain), now)
    raise LocalProtocolError(f"{wanted!r} is not one of your legal actions now")
