"""The MCR half of the local API's seat view: rack, melds, flowers, discards by seat, claim
and turn actions with human labels, tiles-to-win hints with their fans, and the result.

Seats are the winds of the hand. Everything is read from our seat's engine state, which holds
only what our seat may see (others' concealed tiles and concealed kongs are hidden there).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypedDict

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.mcr import actions as A
from fourwinds.protocol.mcr.events import AnswerKind
from fourwinds.protocol.mcr.fans import FAN_NAME, FAN_POINTS, Fan
from fourwinds.protocol.mcr.hand import Meld
from fourwinds.protocol.mcr.scoring import FanScore, WinContext, score_hand
from fourwinds.protocol.mcr.state import HandState, Phase, discards_made, public_slots
from fourwinds.protocol.mcr.waits import shanten, tiles_to_win
from fourwinds.protocol.mcr.wins import calc_melds
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
    Exposure,
    HandResult,
    HandSummary,
    LiveWins,
    RulePlayerKeys,
    RuleTableKeys,
)
from fourwinds.protocol.tiles import Kind, is_bonus

__all__ = ["RULES", "MCRView", "hand_hints", "hints", "live_wins", "sheet", "summary"]

SEAT_NAMES = ("East", "South", "West", "North")
HINT_WAITS = 6  # at most this many winning tiles are scored in the hints


def codes(kinds: Sequence[Kind]) -> list[str]:
    return [code(k) for k in kinds]


def sorted_codes(kinds: Sequence[Kind]) -> list[str]:
    return [code(k) for k in sorted(kinds)]


class FanEntry(TypedDict):
    """One fan of a won hand: its name, its points and how many times it counts."""

    name: str
    points: int
    count: int


class MCRResult(HandResult):
    """An MCR hand's ``result``: the shared keys, the fans it scored and their total (no
    fans and 0 for a draw)."""

    fans: list[FanEntry]
    total: int


def _phase(s: HandState) -> tuple[str, str]:
    if s.phase is Phase.ENDED:
        return "hand_over", "Hand over"
    if s.phase is Phase.CLAIMS:
        return "claim", "Claims on the discard"
    if s.phase is Phase.ROB:
        return "claim", "A kong may be robbed"
    if s.phase is Phase.FLOWERS:
        return "deal", "Flowers: each seat lays out its flowers"
    return "play", "Play"


# ---------------------------------------------------------------- hints


def _fans_text(fans: tuple[tuple[str, int, int], ...]) -> str:
    return ", ".join(
        f"{name} {points}" + (f" x{count}" if count > 1 else "") for name, points, count in fans
    )


@lru_cache(maxsize=256)
def hand_hints(
    melds: tuple[Meld, ...],
    hand: tuple[Kind, ...],
    seat_wind: int,
    prevalent: int,
    flowers: int,
    public: tuple[tuple[Kind, int], ...] = (),
    wall_empty: bool = False,
) -> tuple[str, ...]:
    """Tiles to win and their fans (13 tiles), or how far from ready; with 14 tiles, which
    discards leave the hand ready and on what.

    ``public``: how many of each kind every seat can see (discards, exposures, flowers).
    What they and the wall already decide is counted in the score: Last Tile when the other
    three copies are public, Last Tile Claim once the wall is empty. What depends on how the
    tile comes (self-drawn, with the fans that brings) is said beside the discard's score,
    so that a hint never says "scores 7" of a hand that a discard of that tile wins. Each
    wait says how many of its tiles are still live (unseen by us)."""
    try:
        if len(hand) + 3 * len(melds) == 14:
            return _hints14(melds, hand)
        waits = tiles_to_win(melds, hand)
        if not waits:
            away = shanten(melds, hand)
            return (f"{away} tile{'s' if away != 1 else ''} from ready",)
        out = [
            _wait_text(*wait)
            for wait in _scored_waits(
                melds, hand, seat_wind, prevalent, flowers, public, wall_empty
            )[:HINT_WAITS]
        ]
        if len(waits) > HINT_WAITS:
            out.append("also wins on " + " ".join(codes(waits[HINT_WAITS:])))
        return tuple(out)
    except FourwindsError:  # e.g. a hand shape the calculator refuses: no hint
        return ()


Scored = tuple[Kind, int, FanScore, FanScore | None]
"""One wait: its kind, how many of it are live (unseen by us), its score on a discard and
self-drawn (None once the wall is empty)."""


@lru_cache(maxsize=256)
def _scored_waits(
    melds: tuple[Meld, ...],
    hand: tuple[Kind, ...],
    seat_wind: int,
    prevalent: int,
    flowers: int,
    public: tuple[tuple[Kind, int], ...],
    wall_empty: bool,
) -> tuple[Scored, ...]:
    """Every tile to win of a 13-tile hand, scored as ``hand_hints`` says (raises
    ``FourwindsError`` on a shape the calculator refuses)."""
    seen = dict(public)
    out = []
    for kind in tiles_to_win(melds, hand):
        shown = seen.get(kind, 0)
        live = max(
            0, 4 - shown - hand.count(kind) - sum(m.tiles.count(kind) for m in melds if m.concealed)
        )
        last = shown >= 3
        on_discard = score_hand(
            melds,
            hand,
            WinContext(
                kind,
                False,
                last_tile=last,
                wall_last=wall_empty,
                seat_wind=seat_wind,
                prevalent_wind=prevalent,
                flowers=flowers,
            ),
        )
        drawn = (
            None
            if wall_empty
            else score_hand(
                melds,
                hand,
                WinContext(
                    kind,
                    True,
                    last_tile=last,
                    seat_wind=seat_wind,
                    prevalent_wind=prevalent,
                    flowers=flowers,
                ),
            )
        )
        out.append((kind, live, on_discard, drawn))
    return tuple(out)


def live_wins(
    melds: tuple[Meld, ...],
    hand: tuple[Kind, ...],
    seat_wind: int,
    prevalent: int,
    flowers: int,
    public: tuple[tuple[Kind, int], ...] = (),
    wall_empty: bool = False,
) -> LiveWins | None:
    """The view's ``live_wins`` of a ready 13-tile hand: ``{"left": N, "tiles": [codes]}``,
    the tiles that win for us (on a discard, or self-drawn where only that reaches 8 points)
    and how many of them are still live; None when the hand is not ready (or is 14 tiles)."""
    if len(hand) + 3 * len(melds) != 13:
        return None
    try:
        waits = _scored_waits(melds, hand, seat_wind, prevalent, flowers, public, wall_empty)
    except FourwindsError:
        return None
    if not waits:
        return None
    winning = [
        (kind, live)
        for kind, live, on_discard, drawn in waits
        if on_discard.winning or (drawn is not None and drawn.winning)
    ]
    return {"left": sum(live for _, live in winning), "tiles": [code(kind) for kind, _ in winning]}


def _wait_text(kind: Kind, live: int, on_discard: FanScore, drawn: FanScore | None) -> str:
    """One wait: its live count and what it scores on a discard; self-drawn too, where that
    changes the score or whether the hand may win."""
    head = f"{code(kind)} ({live} left)"
    if on_discard.winning:
        text = f"wins on {head}: {on_discard.total} ({_fans_text(on_discard.fans)})"
        if drawn is not None and drawn.total != on_discard.total:
            text += f"; self-drawn {drawn.total}"
        return text
    points = sum(p * c for _, p, c in on_discard.fans)
    text = f"{head} completes the hand but scores {points} on a discard (8 needed)"
    if drawn is not None and drawn.winning:
        text += f"; self-drawn it wins: {drawn.total} ({_fans_text(drawn.fans)})"
    return text


def _hints14(melds: tuple[Meld, ...], hand: tuple[Kind, ...]) -> tuple[str, ...]:
    away = shanten(melds, hand)
    if away < 0:
        return ("complete hand",)
    out = []
    for kind in sorted(set(hand)):
        rest = list(hand)
        rest.remove(kind)
        waits = tiles_to_win(melds, rest)
        if waits:
            out.append(f"discard {code(kind)}: ready on {' '.join(codes(waits))}")
    return tuple(out) or (f"{away} tile{'s' if away != 1 else ''} from ready",)


def _hint_facts(f: SeatFacts) -> tuple[Any, ...] | None:
    """What the hints are made from (``hand_hints``' and ``live_wins``' arguments), or None
    when our tiles give none (no seat, the hand over, a tile not seen yet)."""
    s: HandState = f.engine
    me = f.me
    if me is None or s.phase is Phase.ENDED:
        return None
    own = s.seats[me]
    hand = tuple(sorted(s.faces[x] for x in own.hand if not is_bonus(s.faces[x])))
    if Kind.HIDDEN in hand or len(hand) + 3 * len(own.melds) not in (13, 14):
        return None
    try:
        melds = calc_melds(s, me)
    except FourwindsError:
        return None
    # the discard in front of us is the tile that may come, not one of its kind already
    # gone: it is left out of the count
    public = Counter(
        s.faces[x]
        for x in public_slots(s)
        if x not in own.hand and x != s.pending and not is_bonus(s.faces[x])
    )
    return (
        melds,
        hand,
        int(me),
        s.prevalent_wind,
        len(own.flowers),
        tuple(sorted(public.items())),
        s.wall.remaining == 0,
    )


def hints(f: SeatFacts) -> list[str]:
    facts = _hint_facts(f)
    return [] if facts is None else list(hand_hints(*facts))


# ---------------------------------------------------------------- news

NEWS_DISCARDS = 4  # a lost claim is told until this many more discards (a round) are made
_CLAIM_NAMES = {
    AnswerKind.CHOW: "chow",
    AnswerKind.PUNG: "pung",
    AnswerKind.KONG: "kong",
    AnswerKind.WIN: "Mahjong",
}


def news(f: SeatFacts) -> list[str]:
    """A claim of ours that lost, to whom and why ("Your chow claim on 4p lost: West
    claimed pung (a pung or kong goes before a chow)"), for a round of discards."""
    s: HandState = f.engine
    closed, me = s.last_claims, f.me
    if (
        closed is None
        or me is None
        or closed.winner == me
        or s.result is not None
        or discards_made(s) - closed.made >= NEWS_DISCARDS
    ):
        return []
    ours, theirs = closed.answers[me], closed.answers[closed.winner]
    if ours is None or ours is AnswerKind.PASS or theirs is None:
        return []
    if ours is AnswerKind.CHOW and theirs is not AnswerKind.CHOW:
        why = "a pung or kong goes before a chow"
    else:
        why = f"nearer in turn after {SEAT_NAMES[closed.discarder]}"
    return [
        f"Your {_CLAIM_NAMES.get(ours, 'claim')} claim on {code(s.faces[closed.slot])} "
        f"lost: {SEAT_NAMES[closed.winner]} claimed {_CLAIM_NAMES.get(theirs, 'it')} "
        f"({why})"
    ]


# ---------------------------------------------------------------- table


def _no_winner(kind: str, payouts: Sequence[int], hand: str = "") -> MCRResult:
    """The result of a hand nobody won: no fans, 0 points."""
    return {**no_winner_result(kind, payouts, hand), "fans": [], "total": 0}


def _won_on(s: HandState) -> int | None:
    """The tile that completed the winner's hand: its self-drawn tile, or the discard (or
    the tile added to a kong) it claimed."""
    r = s.result
    assert r is not None
    return s.drawn if r.self_drawn else s.pending


def _result(s: HandState) -> MCRResult | None:
    r = s.result
    if r is None:
        return None
    if r.winner is None:
        return _no_winner("draw", r.payments)
    own = s.seats[r.winner]
    concealed = [s.faces[x] for x in own.hand]
    won_on = _won_on(s)
    if not r.self_drawn and s.pending is not None and s.pending not in own.hand:
        concealed.append(s.faces[s.pending])  # the discard (or robbed tile) it won on
    tiles = concealed + [s.faces[x] for m in own.melds for x in m.slots]
    return {
        "kind": "mahjong",
        "winner": int(r.winner),
        "hand": f"{r.total} points: {_fans_text(r.fans)}",
        "tiles": sorted_codes(tiles),
        "payouts": list(r.payments),
        "audit": "ok",
        "winning_tile": None if won_on is None else code(s.faces[won_on]),
        "self_drawn": r.self_drawn,
        "from_seat": None if r.self_drawn or r.discarder is None else int(r.discarder),
        "concealed": sorted_codes(concealed),
        "exposures": [codes([s.faces[x] for x in m.slots]) for m in own.melds],
        "flowers": codes([s.faces[x] for x in own.flowers]),
        "fans": [
            {"name": name, "points": points, "count": count} for name, points, count in r.fans
        ],
        "total": r.total,
    }


def summary(s: HandState) -> HandSummary:
    """One finished hand for the match's history: how it ended, the winner (a wind), from
    whom, and its points with the fans."""
    r = s.result
    assert r is not None
    if r.winner is None:
        return {
            "kind": "draw",
            "winner": None,
            "self_drawn": False,
            "from": None,
            "summary": "draw: the wall is exhausted",
        }
    return {
        "kind": "mahjong",
        "winner": int(r.winner),
        "self_drawn": r.self_drawn,
        "from": None if r.self_drawn or r.discarder is None else int(r.discarder),
        "summary": f"{r.total} points: {_fans_text(r.fans)}",
    }


def sheet(flowers: bool = True) -> dict[str, Any]:
    """Every MCR fan with its points, highest first (the local API's ``sheet``); without
    flowers (the table option) Flower Tiles, which cannot score there, is left out."""
    order = sorted(
        (fan for fan in Fan if flowers or fan is not Fan.FLOWER_TILES),
        key=lambda fan: (-FAN_POINTS[fan], int(fan)),
    )
    return {
        "rules": "mcr",
        "title": "Chinese Official (MCR) fans",
        "unit": "fans",
        "value_unit": "pts",
        "entries": [
            {
                "id": FAN_NAME[fan],
                "section": "",
                "pattern": "",
                "value": FAN_POINTS[fan],
                "concealed": False,
            }
            for fan in order
        ],
    }


def _detail(s: HandState, waiting: Sequence[Seat]) -> str:
    names = ", ".join(SEAT_NAMES[w] for w in waiting)
    if s.phase is Phase.FLOWERS:
        return f"Flowers: waiting for {names}"
    if s.phase in (Phase.CLAIMS, Phase.ROB) and s.pending is not None:
        tile = code(s.faces[s.pending])
        what = "discarded" if s.phase is Phase.CLAIMS else "adds to a kong"
        return f"{SEAT_NAMES[s.turn]} {what} {tile}: waiting for {names} to claim or pass"
    return f"Waiting for {names} to discard"


def _meld_entry(s: HandState, meld: Any) -> Exposure:
    label = meld.type.value
    if meld.concealed:
        label = f"concealed {label}"
    return {
        "tiles": codes([s.faces[x] for x in meld.slots]),
        "label": label,
        "from": None if meld.claimed_from is None else int(meld.claimed_from),
    }


# ---------------------------------------------------------------- our actions


def _const(action: object) -> Any:
    return lambda chosen: action


def _entry(s: HandState, action: object) -> ActionEntry | None:
    pending = code(s.faces[s.pending]) if s.pending is not None else "?"
    if isinstance(action, A.Discard):
        return {
            "type": "discard",
            "label": f"Discard {code(action.face)}",
            "tiles": [code(action.face)],
        }
    if isinstance(action, A.ExposeFlower):
        return {
            "type": "flower",
            "label": f"Lay out flower {code(action.face)}",
            "tiles": [code(action.face)],
        }
    if isinstance(action, A.FlowersDone):
        return {"type": "flower", "label": "No more flowers", "tiles": []}
    if isinstance(action, A.ConcealedKong):
        kind = s.faces[action.slots[0]]
        return {
            "type": "kong",
            "label": f"Declare concealed kong {code(kind)}",
            "tiles": [code(kind)] * 4,
        }
    if isinstance(action, A.AddedKong):
        return {
            "type": "kong",
            "label": f"Add {code(action.face)} to your pung (kong)",
            "tiles": [code(action.face)],
        }
    if isinstance(action, A.DeclareWin):
        return {
            "type": "mahjong",
            "label": "Mahjong! (self-drawn)",
            "tiles": sorted_codes([k for _, k in action.reveal]),
        }
    if isinstance(action, A.ClaimWin):
        robbing = " robbing the kong" if s.phase is Phase.ROB else ""
        return {"type": "mahjong", "label": f"Mahjong! on {pending}{robbing}", "tiles": [pending]}
    if isinstance(action, A.Pass):
        return {"type": "pass", "label": "Pass", "tiles": []}
    if isinstance(action, A.ClaimChow):
        run = sorted_codes(
            [*action.faces, s.faces[s.pending]] if s.pending is not None else list(action.faces)
        )
        return {"type": "call", "label": f"Call chow {' '.join(run)}", "tiles": run}
    if isinstance(action, A.ClaimPung):
        return {"type": "call", "label": f"Call pung {pending}", "tiles": [pending] * 3}
    if isinstance(action, A.ClaimKong):
        return {"type": "call", "label": f"Call kong {pending}", "tiles": [pending] * 4}
    return None


def _dedupe_key(action: object) -> object:
    """Discards and added kongs of the same face are the same choice for the player."""
    if isinstance(action, (A.Discard, A.AddedKong)):
        return (type(action), action.face)
    return action


def _order(action: object) -> tuple[int, int]:
    """Discards in tile order (as the rack shows them); every other action keeps its place."""
    if isinstance(action, A.Discard):
        return (1, int(action.face))
    return (0, 0)


class MCRView:
    """The MCR rule view (see ``contract_view.RuleView``)."""

    def table(self, f: SeatFacts) -> RuleTableKeys:
        s: HandState = f.engine
        phase, detail = _phase(s)
        out: RuleTableKeys = {
            "phase": phase,
            "phase_detail": detail,
            "turn": None if s.phase is Phase.ENDED else int(s.turn),
            "wall_remaining": s.wall.remaining,
            "hints": hints(f),
            "result": _result(s),
            "prevalent_wind": int(s.prevalent_wind),
            "news": news(f),
        }
        facts = _hint_facts(f)
        out["live_wins"] = None if facts is None else live_wins(*facts)
        if s.phase is Phase.CLAIMS and s.pending is not None:
            # the claimable tile lies at the end of the discarder's row (``player``), as in
            # the American view; ``index`` is its place there, for a frontend to mark that tile
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

    def concealed_slots(self, engine: Any, seat: Seat) -> tuple[int, ...]:
        """The winner's with the discard (or robbed tile) it won on, as the result's
        ``concealed`` and the American engine have it."""
        s: HandState = engine
        hand = tuple(s.seats[seat].hand)
        r = s.result
        if (
            r is not None
            and r.winner == seat
            and not r.self_drawn
            and s.pending is not None
            and s.pending not in hand
        ):
            return (*hand, s.pending)
        return hand

    def player(self, f: SeatFacts, seat: Seat) -> RulePlayerKeys:
        s: HandState = f.engine
        own = s.seats[seat]
        row = list(own.discards)
        if s.phase is Phase.CLAIMS and s.pending is not None and seat == s.turn:
            # the discard being claimed: in the engine it is no seat's until the claims close
            # (a claimed one goes into the claimer's meld), but at the table it lies in front
            # of its discarder until then
            row.append(s.pending)
        return {
            "dead": bool(own.dead),
            "concealed_count": len(own.hand),
            "exposures": [_meld_entry(s, m) for m in own.melds],
            "flowers": codes([s.faces[x] for x in own.flowers]),
            "discards": codes([s.faces[x] for x in row]),
        }

    def detail(self, f: SeatFacts, waiting: Sequence[Seat]) -> str:
        return _detail(f.engine, waiting)

    def summary(self, engine: Any) -> HandSummary:
        return summary(engine)

    def no_winner(self, kind: str, payouts: Sequence[int], hand: str) -> MCRResult:
        return _no_winner(kind, payouts, hand)

    def offers(self, f: SeatFacts) -> list[Offer]:
        s: HandState = f.engine
        legal, default = our_choices(f)
        if not legal:
            return []
        chosen: dict[object, object] = {}
        for action in legal:
            key = _dedupe_key(action)
            if key not in chosen or action == default:
                chosen[key] = action
        offers = []
        for action in sorted(legal, key=_order):
            if chosen[_dedupe_key(action)] != action:
                continue
            if isinstance(action, A.FlowersDone):
                continue  # never asked: the seat says it by itself (forced_action)
            entry = _entry(s, action)
            if entry is None:
                entry = {
                    "type": type(action).__name__.lower(),
                    "label": f.rules.describe_action(action),
                    "tiles": [],
                }
            if action == default:
                entry["default"] = True
            offers.append(Offer(entry, _const(action)))
        return offers


RULES = MCRView()
