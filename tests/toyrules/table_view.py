"""The "Pungs and a pair" half of the seat view (protocol/table/views/rule_view.py): rack, laid-out
pungs, discards, the pass/pung and discard/Mahjong offers, a one-line hint and the result.

Read from our seat's engine state, which holds only what our seat may see.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TypedDict

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.views.rule_view import (
    Offer,
    SeatFacts,
    code,
    no_winner_result,
    our_choices,
)
from fourwinds.protocol.table.views.view_types import (
    ActionEntry,
    HandResult,
    HandSummary,
    RulePlayerKeys,
    RuleTableKeys,
)
from fourwinds.protocol.tiles import Kind

from . import engine as E

SEAT_NAMES = ("East", "South", "West", "North")
FAN = "All Pungs"

SHEET: dict[str, Any] = {
    "rules": "pungs",
    "title": "Pungs and a pair: the one fan",
    "unit": "fans",
    "value_unit": "pts",
    "entries": [
        {"id": FAN, "section": "", "pattern": "", "value": E.ALL_PUNGS, "concealed": False}
    ],
}
"""The scoring sheet: one fan."""


def sorted_codes(kinds: Sequence[Kind]) -> list[str]:
    return [code(k) for k in sorted(kinds)]


def _hint(s: E.HandState, me: Seat) -> list[str]:
    """How near our tiles are: pungs held and pairs."""
    kinds = E.concealed_kinds(s, me)
    if s.phase is E.Phase.ENDED or Kind.HIDDEN in kinds:
        return []
    counts = Counter(kinds).values()
    pungs = sum(c >= 3 for c in counts) + len(s.seats[me].melds)
    pairs = sum(c == 2 for c in counts)
    return [
        f"{pungs} pung{'s' * (pungs != 1)} and {pairs} pair{'s' * (pairs != 1)}: "
        "four pungs and a pair win"
    ]


class FanEntry(TypedDict):
    """The one fan: its name, points and count."""

    name: str
    points: int
    count: int


class PungsResult(HandResult):
    """A hand's ``result``: the shared keys, its fan and total (none and 0 for a draw)."""

    fans: list[FanEntry]
    total: int


def _no_winner(kind: str, payouts: Sequence[int], hand: str = "") -> PungsResult:
    return {**no_winner_result(kind, payouts, hand), "fans": [], "total": 0}


def _result(s: E.HandState) -> PungsResult | None:
    r = s.result
    if r is None:
        return None
    if r.winner is None:
        return _no_winner("draw", r.payments)
    own = s.seats[r.winner]
    concealed = [s.faces[x] for x in own.hand]
    melds = [[s.faces[x] for x in m.slots] for m in own.melds]
    last = own.melds[-1].source if own.melds and not r.self_drawn else None
    won_on = s.drawn if r.self_drawn else None
    return {
        "kind": "mahjong",
        "winner": int(r.winner),
        "hand": f"{E.ALL_PUNGS} points: {FAN} {E.ALL_PUNGS}",
        "tiles": sorted_codes(concealed + [k for m in melds for k in m]),
        "payouts": list(r.payments),
        "audit": "ok",
        "winning_tile": None if won_on is None else code(s.faces[won_on]),
        "self_drawn": r.self_drawn,
        "from_seat": None if last is None else int(last),
        "concealed": sorted_codes(concealed),
        "exposures": [[code(k) for k in m] for m in melds],
        "flowers": [],
        "fans": [{"name": FAN, "points": E.ALL_PUNGS, "count": 1}],
        "total": E.ALL_PUNGS,
    }


def summary(s: E.HandState) -> HandSummary:
    r = s.result
    assert r is not None
    if r.winner is None:
        return {
            "kind": "draw",
            "winner": None,
            "self_drawn": False,
            "from": None,
            "summary": "draw: the wall is empty",
        }
    return {
        "kind": "mahjong",
        "winner": int(r.winner),
        "self_drawn": r.self_drawn,
        "from": None,
        "summary": f"{E.ALL_PUNGS} points: {FAN}",
    }


def _entry(s: E.HandState, action: E.Action) -> ActionEntry:
    if isinstance(action, E.Discard):
        return {
            "type": "discard",
            "label": f"Discard {code(action.face)}",
            "tiles": [code(action.face)],
        }
    if isinstance(action, E.Mahjong):
        return {
            "type": "mahjong",
            "label": "Mahjong! (All Pungs)",
            "tiles": sorted_codes([k for _, k in action.reveal]),
        }
    if isinstance(action, E.Pung):
        tile = code(action.faces[0])
        return {"type": "call", "label": f"Call pung {tile}", "tiles": [tile] * 3}
    return {"type": "pass", "label": "Pass", "tiles": []}


def _const(action: object) -> Any:
    return lambda chosen: action


class PungsView:
    """The rule view of "Pungs and a pair" (``contract_view.RuleView``)."""

    def table(self, f: SeatFacts) -> RuleTableKeys:
        s: E.HandState = f.engine
        phase, detail = {
            E.Phase.TURN: ("play", "Play"),
            E.Phase.CALLS: ("claim", "Pung or pass on the discard"),
            E.Phase.ENDED: ("hand_over", "Hand over"),
        }[s.phase]
        out: RuleTableKeys = {
            "phase": phase,
            "phase_detail": detail,
            "turn": None if s.phase is E.Phase.ENDED else int(s.turn),
            "wall_remaining": len(s.live),
            "result": _result(s),
            "prevalent_wind": None,
            "hints": [] if f.me is None else _hint(s, f.me),
        }
        if s.phase is E.Phase.CALLS and s.pending is not None:
            out["last_discard"] = {
                "seat": int(s.turn),
                "tile": code(s.faces[s.pending]),
                "index": len(s.seats[s.turn].discards),
            }
        if f.me is not None:
            own = s.seats[f.me]
            out["hand"] = sorted_codes([s.faces[x] for x in own.hand])
            if s.turn == f.me and s.drawn is not None and s.drawn in own.hand:
                out["drawn"] = code(s.faces[s.drawn])
        return out

    def player(self, f: SeatFacts, seat: Seat) -> RulePlayerKeys:
        s: E.HandState = f.engine
        own = s.seats[seat]
        row = list(own.discards)
        if s.phase is E.Phase.CALLS and s.pending is not None and seat == s.turn:
            row.append(s.pending)  # the discard being answered lies in front of its discarder
        return {
            "dead": False,
            "concealed_count": len(own.hand),
            "exposures": [
                {
                    "tiles": [code(s.faces[x]) for x in m.slots],
                    "label": "pung",
                    "from": int(m.source),
                }
                for m in own.melds
            ],
            "flowers": [],
            "discards": [code(s.faces[x]) for x in row],
        }

    def detail(self, f: SeatFacts, waiting: Sequence[Seat]) -> str:
        s: E.HandState = f.engine
        names = ", ".join(SEAT_NAMES[w] for w in waiting)
        if s.phase is E.Phase.CALLS and s.pending is not None:
            return (
                f"{SEAT_NAMES[s.turn]} discarded {code(s.faces[s.pending])}: "
                f"waiting for {names} to pung or pass"
            )
        return f"Waiting for {names} to discard"

    def offers(self, f: SeatFacts) -> list[Offer]:
        s: E.HandState = f.engine
        legal, default = our_choices(f)
        seen: set[object] = set()
        offers = []
        # discards of one kind are one choice (the default's slot kept), in tile order
        ordered = sorted(
            legal,
            key=lambda a: (
                (1, int(a.face), a != default) if isinstance(a, E.Discard) else (0, 0, False)
            ),
        )
        for action in ordered:
            key = action.face if isinstance(action, E.Discard) else action
            if key in seen:
                continue
            seen.add(key)
            entry = _entry(s, action)
            if action == default:
                entry["default"] = True
            offers.append(Offer(entry, _const(action)))
        return offers

    def summary(self, engine: Any) -> HandSummary:
        return summary(engine)

    def no_winner(self, kind: str, payouts: Sequence[int], hand: str) -> PungsResult:
        return _no_winner(kind, payouts, hand)

    def concealed_slots(self, engine: Any, seat: Seat) -> tuple[int, ...]:
        s: E.HandState = engine
        return tuple(s.seats[seat].hand)


RULES = PungsView()
