"""The local API's seat view, version 1 (docs/DESIGN.md, "The seat view frontends see").

``build_seat_view`` turns a table session into the plain VIEW dict a frontend renders and the
list of ACTION dicts it may choose from; ``resolve_action`` turns the id of one of those
actions (plus the tiles the player chose, for "choose" actions) back into the engine action
the session's ``local_action`` takes. Both are pure and read only what our seat may know: the
session holds only our seat's engine state. The rule-specific part is each rule set's
``RuleSetAdapter.view`` (its folder's ``table_view.py``), found through the registry; this
module does what every rule set shares
(phases, seats, timers, names, the lobby's ready action).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.masked import ready_to_act
from fourwinds.protocol.table.machine.options import DeckKind
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.returning import own_window_start
from fourwinds.protocol.table.machine.session import HandNext, MoreTime, TableReady
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.steps import (
    UNFINISHED,
    audit_done,
    more_time_allowed,
    window_seconds,
)
from fourwinds.protocol.table.rules.registry import ruleset_of
from fourwinds.protocol.table.rules.rotation import Seating, wind_of
from fourwinds.protocol.table.rules.rules_adapter import HandOutcome
from fourwinds.protocol.table.views.reveal import reveal_hands
from fourwinds.protocol.table.views.rule_view import Offer, RuleView, SeatFacts
from fourwinds.protocol.table.views.screens import screen_of
from fourwinds.protocol.table.views.view_types import (
    ActionEntry,
    HandResult,
    HandSummary,
    PastHand,
    PlayerEntry,
    RulePlayerKeys,
    RulesetWords,
    RuleTableKeys,
    SeatView,
    SeatViewEvent,
    StandingEntry,
    UnreachableEntry,
    Windows,
)
from fourwinds.protocol.table.views.waiting import waiting_entry
from fourwinds.protocol.table.wire.envelope import decode as decode_envelope
from fourwinds.protocol.table.wire.messages import MsgKind, decode_body
from fourwinds.protocol.text import shown_name

__all__ = [
    "VIEW_VERSION",
    "Unreachable",
    "build_seat_view",
    "offered_entries",
    "rack_order",
    "resolve_action",
    "signed_names",
]

VIEW_VERSION = 1
WIND_LETTERS = "ESWN"
_PHASES = {
    Phase.LOBBY: "lobby",
    Phase.READY: "lobby",
    Phase.COMMIT: "dice",
    Phase.ECHO: "dice",
    Phase.REVEAL: "dice",
    Phase.WALL: "deal",
    Phase.PLAY: "play",
    Phase.HAND_END: "hand_over",
    Phase.OVER: "match_over",
    Phase.HALTED: "match_over",
}
_DETAILS = {
    Phase.LOBBY: "Waiting for players to join",
    Phase.READY: "Waiting for every player to be ready",
    Phase.COMMIT: "Rolling the dice",
    Phase.ECHO: "Rolling the dice",
    Phase.REVEAL: "Rolling the dice",
    Phase.WALL: "Building the wall",
    Phase.HAND_END: "Hand over",
    Phase.OVER: "Match over",
}


@dataclass(frozen=True)
class Unreachable:
    """A table place whose daemon ours cannot reach, as the daemon tells it: for how long
    (whole seconds since it was last heard from) and where it was last reached ("" when
    never). The view names that player in ``unreachable`` and, when the table waits for
    them, in ``phase_detail``."""

    place: int
    for_s: int
    last_address: str = ""


@dataclass(frozen=True)
class _Ready:
    """Marker for the lobby's ready action (resolved to the session's ``TableReady``)."""


@dataclass(frozen=True)
class _Next:
    """Marker for the hand's-end "next" action (resolved to the session's ``HandNext``)."""


@dataclass(frozen=True)
class _MoreTime:
    """Marker for the "more time" action (resolved to the session's ``MoreTime``)."""


def _rule_view(s: TableSession) -> RuleView | None:
    """The rule set's half of the view (``RuleSetAdapter.view``), once the table has rules."""
    if s.rules is None:
        return None
    return ruleset_of(s.rules).view


def _ruleset_words(s: TableSession) -> RulesetWords:
    """The view's ``ruleset``: what a frontend calls the table's rule set and its parts, so
    that none of them names or compares rule sets: ``title`` (``"Chinese Official (MCR)"``),
    ``short_title`` (``"MCR"``) and ``hints_title`` (the heading of ``hints``); each ""
    before the table has rules."""
    if s.rules is None:
        return {"title": "", "short_title": "", "hints_title": ""}
    ruleset = ruleset_of(s.rules)
    return {
        "title": ruleset.title,
        "short_title": ruleset.short_title,
        "hints_title": ruleset.hints_title,
    }


def _facts(s: TableSession) -> SeatFacts | None:
    """Our wind and the hand's seating, when a hand with an engine is on the table."""
    hand = s.hand
    if hand is None or hand.seating is None or hand.engine is None or s.rules is None:
        return None
    me = None if s.me is None else wind_of(hand.seating, s.me)
    return SeatFacts(s, hand.engine, hand.seating, me, s.rules)


def _our_seat(s: TableSession, f: SeatFacts | None) -> int | None:
    """The view's ``seat``: our wind in a dealt hand; with no hand (the table's lobby, a
    match over) our place, as ``players`` then lists the places; None while a hand is being
    seated and dealt (the dice, the wall): our wind is not known yet, and the place shown as
    a wind made the page draw us as East, the dealer, with no tiles, for a second or two
    before the dice gave us West (issue 22, 16b)."""
    if f is not None:
        return None if f.me is None else int(f.me)
    if s.me is None or s.phase in _DEALING:
        return None
    return int(s.me)


_DEALING = frozenset({Phase.COMMIT, Phase.ECHO, Phase.REVEAL, Phase.WALL, Phase.PLAY})


def _our_turn(s: TableSession) -> bool:
    return (
        s.me is not None
        and s.halted is None
        and s.me in s.awaiting
        and s.me not in s.inputs
        and not s.inbox[s.me]
    )


NAME_LIMIT = 32
"""A player's name as views show it: signed messages allow 200 characters of anything; the
view keeps 32 shown ones (no control characters: names reach every seat's terminal)."""


_NAMES: dict[tuple[bytes, int], str] = {}


def _name(s: TableSession, place: Seat) -> str:
    """The display name a seat gave in its Open or Join message (cached per table)."""
    key = (s.table, int(place))
    found = _NAMES.get(key)
    if found is not None:
        return found
    name = ""
    if place == 0 and s.open is not None:
        name = shown_name(s.open.player, NAME_LIMIT)
    else:
        for env in s.chains[place].accepted[:2]:
            if env.kind is MsgKind.JOIN and env.body is not None:
                try:
                    name = shown_name(
                        getattr(decode_body(env.kind, env.body), "player", ""), NAME_LIMIT
                    )
                except Exception:  # a name is cosmetic; never fail a view on it
                    name = ""
                break
        else:
            if not s.chains[place].accepted:
                # the creator's lobby: a joiner admitted but not yet seated is known by its Join
                joined = s.joins[place]
                return _join_name(joined) if joined is not None else f"seat {int(place)}"
    name = name or f"seat {int(place)}"
    if len(_NAMES) > 256:
        _NAMES.clear()
    _NAMES[key] = name
    return name


Names = tuple[str, ...]
"""The name shown for each table place (0-3), made once per view (``_shown_names``)."""


def _shown_names(s: TableSession, current: Mapping[int, str]) -> Names:
    """Each place's name as the view shows it: the one its player goes by now (``current``,
    by place, from the caller: the daemon knows its own config's name and each peer's latest
    Hello), else the one signed in its Open or Join (the name when it sat down). A place the
    session holds no Open or Join for keeps its ``seat N``: it is free as far as the table
    knows."""
    out = []
    for place in SEATS:
        now = shown_name(current.get(int(place), ""), NAME_LIMIT)
        out.append(now if now and _taken(s, place) else _name(s, place))
    return tuple(out)


def _taken(s: TableSession, place: Seat) -> bool:
    """Does the session hold an Open or a Join for ``place`` (see ``_name``)?"""
    if place == 0:
        return s.open is not None
    return bool(s.chains[place].accepted) or s.joins[place] is not None


def signed_names(session: TableSession) -> Names:
    """By table place, the name each player signed in its Open or Join (``seat N`` for a
    place the session holds neither for): what the daemon calls a player it has not heard
    its current name from (``build_seat_view``'s ``names``)."""
    return tuple(_name(session, place) for place in SEATS)


def _join_name(payload: bytes) -> str:
    """The name in a stored Join (not cached: the seating replaces it with the chain's)."""
    try:
        env = decode_envelope(payload)
        body = decode_body(env.kind, env.body or b"")
        name = shown_name(getattr(body, "player", ""), NAME_LIMIT)
    except Exception:  # a name is cosmetic; never fail a view on it
        name = ""
    return name or "a player"


def _deadline(
    s: TableSession, f: SeatFacts | None, waiting: Sequence[Seat], now: float | None
) -> float | None:
    """Seconds left in the window of the seat the table waits for (ours first), a granted
    "more time" included; at a hand's end, in the next window (None when it has none)."""
    if now is None or s.open is None or f is None or s.step_started < 0:
        return None
    if s.phase is not Phase.PLAY and s.phase is not Phase.HAND_END:
        return None
    winds = [w for w in waiting if w == f.me] or list(waiting)
    if not winds:
        return None
    window = window_seconds(s, f.place(winds[0]))
    if window <= 0:
        return None
    start = own_window_start(s) if winds[0] == f.me else s.step_started
    return max(0.0, window - (now - start))


def _windows(s: TableSession) -> Windows:
    """The table's timers in seconds (0: none; ``next`` 0: the table waits for every
    player's "next", or, at a table opened before that window, does not wait at all)."""
    if s.open is None:
        return {"call": 0.0, "turn": 0.0, "charleston": 0.0, "next": 0.0}
    o = s.open.options
    return {
        "call": o.call_window,
        "turn": o.turn_window,
        "charleston": o.exchange_window,  # the key the local API had first
        "next": o.next_window or 0.0,
    }


def _players(
    s: TableSession,
    f: SeatFacts | None,
    rv: RuleView | None,
    connected: tuple[bool, ...] | None,
    names: Names,
) -> list[PlayerEntry]:
    out: list[PlayerEntry] = []
    for seat in SEATS:
        place = seat if f is None else f.seating[seat]
        rule: RulePlayerKeys = rv.player(f, seat) if f is not None and rv is not None else {}
        out.append(
            {
                "seat": int(seat),
                "name": names[place],
                "wind": WIND_LETTERS[seat],
                "score": int(s.match_scores[place]),
                "dead": rule.get("dead", False),
                "connected": True if connected is None else connected[place],
                "concealed_count": rule.get("concealed_count", 0),
                "exposures": rule.get("exposures", []),
                "flowers": rule.get("flowers", []),
                "discards": rule.get("discards", []),
                "ready": s.phase is Phase.READY and place in s.inputs,
                "thinking": s.phase is Phase.PLAY and place in s.thinking,
            }
        )
    return out


def _offers(s: TableSession, f: SeatFacts | None, rv: RuleView | None) -> list[Offer]:
    if s.me is None or not _our_turn(s):
        return []
    if s.phase is Phase.READY:
        return [
            Offer(
                {"id": 0, "type": "ready", "label": "Ready to start", "tiles": [], "default": True},
                lambda chosen: _Ready(),
            )
        ]
    if s.phase is Phase.HAND_END:
        if not audit_done(s):
            return []  # the deck audit first (masked deck): "next" once it is over
        label = "See the final standings" if _last_hand(s) else "Next hand"
        return [
            Offer(
                {"id": 0, "type": "next", "label": label, "tiles": [], "default": True},
                lambda chosen: _Next(),
            )
        ]
    if s.phase is not Phase.PLAY or f is None or rv is None or f.me is None or not ready_to_act(s):
        return []
    offers = rv.offers(f)
    if offers and more_time_allowed(s):  # always last: never the default
        offers.append(
            Offer(
                {"type": "more_time", "label": "More time", "tiles": [], "default": False},
                lambda chosen: _MoreTime(),
            )
        )
    # the id first, as the contract lists it
    return [
        replace(offer, entry={"id": index, **offer.entry}) for index, offer in enumerate(offers)
    ]


def _last_hand(s: TableSession) -> bool:
    """Whether the hand just over is the match's last (its rule set's ``match_over`` with
    this hand counted, or ``time_called``: stopped by the clock), so what comes after it is
    the final standings, not another hand."""
    hand = s.hand
    if s.time_called:
        return True
    if s.rules is None or hand is None or hand.outcome is None or hand.seating is None:
        return s.hands_played + 1 >= s.match_hands
    played = (*s.outcomes, (hand.hand_no, hand.outcome, hand.seating))
    return ruleset_of(s.rules).match_over(played, s.match_hands)


def _build(
    s: TableSession,
    now: float | None,
    connected: tuple[bool, ...] | None,
    unreachable: tuple[Unreachable, ...] = (),
    current: Mapping[int, str] | None = None,
) -> tuple[SeatView, list[Offer]]:
    rv = _rule_view(s)
    f = _facts(s)
    names = _shown_names(s, current or {})
    hand = s.hand
    waiting_places = sorted(p for p in s.awaiting if p not in s.inputs)
    waiting = (
        sorted(wind_of(f.seating, p) for p in waiting_places)
        if f is not None
        else list(waiting_places)
    )
    seat = _our_seat(s, f)
    # the rule set's half: the keys it knows, each in its place below (the shared default
    # where it says nothing, and before the table has rules)
    rule: RuleTableKeys = rv.table(f) if f is not None and rv is not None else {}
    phase = rule.get("phase", _PHASES[s.phase]) if s.phase is Phase.PLAY else _PHASES[s.phase]
    view: SeatView = {
        "rules": "" if s.open is None else s.open.rules,
        "ruleset": _ruleset_words(s),
        "table": s.table.hex() if s.open is None else shown_name(s.open.name, 60) or "table",
        "practice": s.open is not None and s.open.options.deck is DeckKind.PRACTICE,
        "flowers": s.open is None or s.rules is None or s.rules.flowers(s.open.options),
        "hand_number": (hand.hand_no if hand is not None else s.hands_played) + 1,
        "hands_in_match": s.match_hands,
        "seat": seat,
        "dealer": int(Seat.EAST),
        "prevalent_wind": rule.get("prevalent_wind"),
        "phase": phase,
        "phase_detail": _DETAILS.get(s.phase, rule.get("phase_detail", "")),
        "turn": rule.get("turn"),
        "waiting_for": sorted(int(w) for w in waiting),
        "deadline": _deadline(s, f, waiting, now),
        "wall_remaining": rule.get("wall_remaining", 0),
        "players": _players(s, f, rv, _gone(connected, unreachable), names),
        "hand": rule.get("hand", []),
        "drawn": rule.get("drawn"),
        "last_discard": rule.get("last_discard"),
        "news": rule.get("news", []),
        "received": rule.get("received", []),
        "hints": rule.get("hints", []),
        "live_wins": rule.get("live_wins"),
        "result": rule.get("result"),
        "windows": _windows(s),
        "next": None,
        "history": _history(s, rv, names),
        "standings": _standings(s, names),
        "unreachable": [],
        "waiting": None,
        "screen": "",
        "rack": [],
        "prompt": None,
    }
    if (
        f is not None
        and rv is not None
        and s.phase is Phase.PLAY
        and waiting
        and phase in ("play", "claim", "charleston", "courtesy")
    ):
        view["phase_detail"] = rv.detail(f, waiting)
    if s.phase is Phase.HAND_END and f is not None:
        # what the countdown leads to, said once here for every frontend
        view["next"] = {
            "waiting": sorted(int(w) for w in waiting),
            "deadline": view["deadline"],
            "then": "Final standings" if _last_hand(s) else "Next hand",
        }
        if waiting:
            who = ", ".join(names[f.place(w)] for w in waiting)
            view["phase_detail"] = f"Hand over: waiting for {who} to say next"
    view["unreachable"] = [_unreachable(f, u, names) for u in unreachable]
    waited = [
        entry
        for u, entry in zip(unreachable, view["unreachable"], strict=True)
        if u.place in waiting_places
    ]
    if waited and s.phase is not Phase.OVER:
        view["phase_detail"] = "; ".join(_waiting_text(entry) for entry in waited)
    view["waiting"] = waiting_entry(
        s,
        [(p, wind_of(f.seating, p) if f is not None else p, _name(s, p)) for p in waiting_places],
        {Seat(u.place): int(u.for_s) for u in unreachable},
        now,
    )
    if s.halted is not None:
        view["phase_detail"] = f"Table halted: {s.halted.describe()}"
    if (
        view["result"] is None
        and f is not None
        and s.phase in (Phase.HAND_END, Phase.OVER)
        and hand is not None
        and hand.outcome is not None
        and hand.outcome.summary == UNFINISHED
    ):  # stopped by a time call (steps.py)
        assert rv is not None
        view["result"] = rv.no_winner("unfinished", (0, 0, 0, 0), UNFINISHED)
    if view["result"] is not None:
        assert f is not None and rv is not None
        view["result"]["audit"] = _audit(s)
        shown = reveal_hands(s, f.engine, rv.concealed_slots)
        view["result"]["hands"] = (
            None if shown.hands is None else [list(tiles) for tiles in shown.hands]
        )
        view["result"]["hands_detail"] = shown.detail
        _name_result(s, f, view["result"], names)
    view["screen"] = screen_of(view)
    view["rack"] = rack_order(view["hand"], view["drawn"])
    offers = _offers(s, f, rv)
    view["prompt"] = _prompt(view["phase"], [o.entry for o in offers])
    return view, offers


def rack_order(hand: Sequence[str], drawn: str | None) -> list[str]:
    """The view's ``rack``: our concealed tiles in the order a frontend draws them, the
    sorted ``hand`` with the tile just drawn (``drawn``) moved to the right end, where the
    terminal and the page set it apart (a person sees at once what came from the wall)."""
    rack = list(hand)
    if drawn is None or drawn not in rack:
        return rack
    rack.reverse()  # the last tile of that code goes: the others keep their places
    rack.remove(drawn)
    rack.reverse()
    return [*rack, drawn]


_PROMPTS = {"ready": "ready", "next": "next"}


def _prompt(phase: str, offers: Sequence[ActionEntry]) -> str | None:
    """The view's ``prompt``: what the table asks of our seat now, one word for a frontend's
    title, sound or notice: None (nothing), "call" (a discard, or a kong to rob, we may
    claim), "turn" (our own turn: a discard, a declaration, a flower), "charleston" (a pass,
    a vote, the courtesy pass), "ready" (the lobby), "next" (a hand's end)."""
    kinds = [str(o.get("type")) for o in offers if o.get("type") != "more_time"]
    if not kinds:
        return None
    for kind in kinds:
        if kind in _PROMPTS:
            return _PROMPTS[kind]
    if phase == "claim":
        return "call"
    if phase in ("charleston", "courtesy"):
        return "charleston"
    return "turn"


def _gone(
    connected: tuple[bool, ...] | None, unreachable: tuple[Unreachable, ...]
) -> tuple[bool, ...] | None:
    """``connected`` with the unreachable places marked so."""
    if not unreachable:
        return connected
    base = connected or (True,) * len(SEATS)
    away = {u.place for u in unreachable}
    return tuple(c and place not in away for place, c in enumerate(base))


def _unreachable(f: SeatFacts | None, u: Unreachable, names: Names) -> UnreachableEntry:
    """One entry of the view's ``unreachable``: the seat as ``players`` numbers it."""
    place = Seat(u.place)
    seat = int(wind_of(f.seating, place)) if f is not None else int(place)
    return {
        "seat": seat,
        "name": names[place],
        "for_s": int(u.for_s),
        "last_address": u.last_address,
    }


def _waiting_text(entry: UnreachableEntry) -> str:
    """ "Waiting for Bob: unreachable for 12 s, last address 169.254.1.2:7420"."""
    text = f"Waiting for {entry['name']}: unreachable for {entry['for_s']} s"
    return text + (f", last address {entry['last_address']}" if entry["last_address"] else "")


def _name_result(s: TableSession, f: SeatFacts, result: HandResult, names: Names) -> None:
    """The result's parts every rule set shares: names, net payments, match scores after
    the hand (by wind)."""
    winner, source = result.get("winner"), result.get("from_seat")
    result["winner_name"] = None if winner is None else names[f.place(Seat(winner))]
    result["from_name"] = None if source is None else names[f.place(Seat(source))]
    payouts = [int(x) for x in result["payouts"]]
    result["payments"] = [
        {"seat": int(w), "name": names[f.place(w)], "amount": payouts[w]} for w in SEATS
    ]
    scores = s.match_scores  # the hand over is in them (counted or waiting for "next")
    result["scores"] = [int(scores[f.place(w)]) for w in SEATS]


_HISTORY: list[tuple[tuple[Any, ...], Names, list[PastHand]]] = []


def _history(s: TableSession, rv: RuleView | None, names: Names) -> list[PastHand]:
    """Every finished hand of the match, oldest first, the one just over included (while
    the table waits for "next"). A finished hand never changes, so the past ones are kept
    with the session's tuple of outcomes (by identity: each hand's end makes a new one) and
    the names they were shown with (a player's new name is shown in the past hands too)."""
    made: list[PastHand] | None = None
    for outcomes, named, found in _HISTORY:
        if outcomes is s.outcomes and named == names:
            made = found
    if made is None:
        made = [
            _past_hand(
                rv, hand_no, outcome, seating, s.finals[i] if i < len(s.finals) else None, names
            )
            for i, (hand_no, outcome, seating) in enumerate(s.outcomes)
        ]
        _HISTORY.append((s.outcomes, names, made))
        del _HISTORY[:-8]
    out: list[PastHand] = [
        {**entry, "payments": [list(p) for p in entry["payments"]]} for entry in made
    ]
    hand = s.hand
    if (
        s.phase is Phase.HAND_END
        and hand is not None
        and hand.outcome is not None
        and hand.seating is not None
    ):
        out.append(_past_hand(rv, hand.hand_no, hand.outcome, hand.seating, hand.engine, names))
    return out


def _past_hand(
    rv: RuleView | None,
    hand_no: int,
    outcome: HandOutcome,
    seating: Seating,
    engine: Any,
    names: Names,
) -> PastHand:
    def name(wind: object) -> str | None:
        return None if wind is None else names[seating[Seat(int(str(wind)))]]

    about: HandSummary
    if outcome.summary == UNFINISHED:  # stopped by a time call (steps.py)
        about = {
            "kind": "unfinished",
            "winner": None,
            "self_drawn": False,
            "from": None,
            "summary": outcome.summary,
        }
    elif rv is not None and engine is not None:
        about = rv.summary(engine)
    else:  # no engine state kept (cannot happen in a session replayed by this code)
        about = {
            "kind": "mahjong" if outcome.winner is not None else "draw",
            "winner": outcome.winner,
            "self_drawn": False,
            "from": None,
            "summary": outcome.summary,
        }
    return {
        "hand_number": hand_no + 1,
        "kind": about["kind"],
        "winner": name(about["winner"]),
        "self_drawn": bool(about["self_drawn"]),
        "from": name(about["from"]),
        "summary": about["summary"],
        "payments": [
            [names[place], int(outcome.payments[wind_of(seating, place)])] for place in SEATS
        ],
    }


def _standings(s: TableSession, names: Names) -> list[StandingEntry] | None:
    """The match's final scores, best first; equal scores share a rank (1, 1, 3...)."""
    if s.phase is not Phase.OVER:
        return None
    order = sorted(SEATS, key=lambda p: (-s.scores[p], int(p)))
    out: list[StandingEntry] = []
    for index, place in enumerate(order):
        tied = out and out[-1]["score"] == s.scores[place]
        rank = out[-1]["rank"] if tied else index + 1
        out.append({"name": names[place], "score": int(s.scores[place]), "rank": rank})
    return out


_NOT_CHEATING = frozenset({ProblemKind.STALLED, ProblemKind.MISSING, ProblemKind.REFUSED_JOIN})


def _audit(s: TableSession) -> str:
    """ "ok", or what the checks found: proven or suspected misbehaviour (a slow or missing
    seat is not an audit finding), or a masked deck's audit still running."""
    found = [p.describe() for p in s.problems if p.kind not in _NOT_CHEATING]
    if found:  # bounded: the view's problems list the rest
        more = f"; and {len(found) - 5:,} more" if len(found) > 5 else ""
        return "; ".join(found[:5]) + more
    hand = s.hand
    if hand is not None and hand.deck is not None and not hand.audited:
        return "the deck audit is still running"
    return "ok"


_Key = tuple[
    float | None, tuple[bool, ...] | None, tuple[Unreachable, ...], tuple[tuple[int, str], ...]
]
_CACHE: list[tuple[TableSession, _Key, SeatView, list[Offer]]] = []


def _cached(
    s: TableSession,
    now: float | None,
    connected: tuple[bool, ...] | None = None,
    any_key: bool = False,
    unreachable: tuple[Unreachable, ...] = (),
    names: tuple[tuple[int, str], ...] = (),
) -> tuple[SeatView, list[Offer]]:
    """The view of a session value (sessions are immutable), built once per ``now``,
    ``connected``, ``unreachable`` and ``names``; the offers depend on none of them, so
    ``resolve_action`` takes any."""
    key = (now, connected, unreachable, names)
    for seen, made_for, view, offers in reversed(_CACHE):
        if seen is s and (any_key or made_for == key):
            return view, offers
    view, offers = _build(s, now, connected, unreachable, dict(names))
    _CACHE.append((s, key, view, offers))
    del _CACHE[:-4]
    return view, offers


def offered_entries(session: TableSession) -> list[ActionEntry]:
    """The ``legal_actions`` entries of our seat's view now, as built for the view (shared
    with its cache: read them, do not change them)."""
    _, offers = _cached(session, None, any_key=True)
    return [offer.entry for offer in offers]


def build_seat_view(
    session: TableSession,
    now: float | None = None,
    connected: Sequence[bool] | None = None,
    unreachable: Sequence[Unreachable] = (),
    names: Mapping[int, str] | None = None,
) -> SeatViewEvent:
    """``{"view": VIEW, "legal_actions": [ACTION, ...]}`` for our seat (plain, msgpack-able).

    ``now`` (the caller's monotonic clock) lets ``deadline`` say how many seconds are left in
    the current window; without it ``deadline`` is None. ``connected``: by table place,
    whether each player's daemon is reachable (every one when not given). ``unreachable``:
    the places our daemon cannot reach, for how long and where they were last reached: the
    view lists them (``unreachable``: seat, name, for_s, last_address; their ``players``
    entries are not ``connected``) and, when the table waits for one of them, its
    ``phase_detail`` says so ("Waiting for Bob: unreachable for 12 s, last address
    169.254.1.2:7420"). ``names``: by table place, the name each player goes by now, as the
    caller knows it (a player may rename after sitting down): shown everywhere the view names
    that player instead of the name signed in its Open or Join; a place left out keeps the
    signed one. The dicts returned are fresh copies.
    """
    alive = None if connected is None else tuple(bool(c) for c in connected)
    if alive is not None and len(alive) != 4:
        raise ValueError(f"connected names the 4 places, not {len(alive)}")
    away = tuple(sorted(unreachable, key=lambda u: u.place))
    if any(not 0 <= u.place < len(SEATS) for u in away):
        raise ValueError("an unreachable place is 0-3")
    current = tuple(
        sorted((int(p), str(n)) for p, n in (names or {}).items() if 0 <= int(p) < len(SEATS))
    )
    view, offers = _cached(session, now, alive, unreachable=away, names=current)
    return {"view": _copy(view), "legal_actions": [_copy(o.entry) for o in offers]}


def resolve_action(
    session: TableSession,
    action_id: int,
    tiles: Sequence[str] = (),
    expected: Mapping[str, Any] | None = None,
) -> object:
    """The engine action (or the lobby's ``TableReady``) for ACTION ``action_id`` of the
    current view, with the ``tiles`` chosen for a "choose" action. ``IllegalAction`` with the
    reason when the id is not offered now or the tiles are not a valid choice.

    ``expected``: the ACTION dict the client was shown (the caller's last published view).
    If the session moved on since and that id now means something else, the request is
    refused rather than taken as a different action."""
    _, offers = _cached(session, None, any_key=True)
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise IllegalAction(f"an action id is a number, not {action_id!r}")
    if not 0 <= action_id < len(offers):
        if not offers:
            raise IllegalAction("there is nothing for this seat to do now")
        raise IllegalAction(f"no action {action_id} now: choose 0 to {len(offers) - 1}")
    offer = offers[action_id]
    if expected is not None and any(
        expected.get(k) != offer.entry.get(k) for k in ("type", "label", "tiles", "choose")
    ):
        raise IllegalAction(
            "the table has moved on since that view: look at the new one "
            f"(action {action_id} is now {offer.entry['label']!r})"
        )
    chosen = [str(t) for t in tiles]
    want = offer.entry.get("choose")
    if want is None:
        if chosen:
            raise IllegalAction(f"{offer.entry['label']!r} takes no tiles")
    else:
        _check_choice(offer.entry, chosen, int(want))
    result = offer.resolve(tuple(chosen))
    if isinstance(result, (_Ready, _Next, _MoreTime)):
        return {_Ready: TableReady, _Next: HandNext, _MoreTime: MoreTime}[type(result)]()
    return result


def _check_choice(entry: ActionEntry, chosen: list[str], want: int) -> None:
    if len(chosen) != want:
        raise IllegalAction(
            f"choose exactly {want} tile{'s' if want != 1 else ''} for "
            f"{entry['label']!r}, not {len(chosen)}"
        )
    offered = list(entry.get("tiles") or ())
    for code in chosen:
        if code not in offered:
            raise IllegalAction(
                f"{code!r} is not one of the tiles you may choose here"
                + (" (jokers are never passed)" if code == "J" else "")
            )
        offered.remove(code)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
