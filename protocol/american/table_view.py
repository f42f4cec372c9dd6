"""The American half of the local API's seat view: rack, exposures, discards by seat, the
Charleston as "choose 3" actions, card-hand hints and the hand's result.

Seats are the winds of the hand. Everything is read from our seat's engine state, which holds
only what our seat may see (others' concealed tiles are ``Kind.HIDDEN`` there), so nothing
private of another seat can reach the view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from fourwinds.protocol.american import actions as A
from fourwinds.protocol.american.call_offers import call_offer
from fourwinds.protocol.american.card import SECTION_NAMES, Card, CardHand
from fourwinds.protocol.american.charleston import BLIND_STEPS, PASS_TARGET
from fourwinds.protocol.american.exchange import find_joker
from fourwinds.protocol.american.matcher import HandMatch, match_hand, nearest_hands
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.notation import format_tiles
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

__all__ = [
    "RULES",
    "SECTION_NAMES",
    "AmericanView",
    "discards_by_seat",
    "hints",
    "sheet",
    "summary",
]

SEAT_NAMES = ("East", "South", "West", "North")
GROUP_NAMES = {1: "single", 2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}
STEP_TEXT = {
    CharlestonStep.FIRST_RIGHT: "Charleston: first right",
    CharlestonStep.FIRST_ACROSS: "Charleston: first across",
    CharlestonStep.FIRST_LEFT: "Charleston: first left (blind pass allowed)",
    CharlestonStep.POOL: "Charleston: tiles into the pool",
    CharlestonStep.POOL_TAKE: "Charleston: tiles out of the pool",
    CharlestonStep.STOP_VOTE: "Charleston: stop or go on to the second Charleston?",
    CharlestonStep.SECOND_LEFT: "Second Charleston: left",
    CharlestonStep.SECOND_ACROSS: "Second Charleston: across",
    CharlestonStep.LAST_RIGHT: "Second Charleston: last right (blind pass allowed)",
    CharlestonStep.COURTESY: "Courtesy pass across (0 to 3 tiles)",
}
_DIRECTION = {
    CharlestonStep.FIRST_RIGHT: "right",
    CharlestonStep.FIRST_ACROSS: "across",
    CharlestonStep.FIRST_LEFT: "left",
    CharlestonStep.SECOND_LEFT: "left",
    CharlestonStep.SECOND_ACROSS: "across",
    CharlestonStep.LAST_RIGHT: "right",
}


def codes(kinds: Sequence[Kind]) -> list[str]:
    return [code(k) for k in kinds]


def sorted_codes(kinds: Sequence[Kind]) -> list[str]:
    return [code(k) for k in sorted(kinds)]


def _whose(f: SeatFacts, owner: Seat) -> str:
    return "your" if owner == f.me else f"{SEAT_NAMES[owner]}'s"


# ---------------------------------------------------------------- the table


def discards_by_seat(f: SeatFacts) -> Mapping[int, Seat]:
    """Who discarded each tile of this hand, by slot (the engine keeps one pile; an exposure
    names whose discard completed it through its called slot)."""
    engine: AmericanState = f.engine
    return engine.discarders


def _phase(s: AmericanState) -> tuple[str, str]:
    if s.result is not None:
        return "hand_over", "Hand over"
    if s.step is CharlestonStep.COURTESY:
        return "courtesy", STEP_TEXT[s.step]
    if s.step is not CharlestonStep.PLAY:
        return "charleston", STEP_TEXT[s.step]
    if s.stage is Stage.CALLS:
        return "claim", "Calls on the discard"
    return "play", "Play"


Near = tuple[str, tuple[Kind, ...]]
"""One hint line and the tiles its card hand still needs."""

_NEAR = __name__ + ".near"
"""This module's table in a card's memo (memo.py): hint lines by rack, at most ``_NEAR_LIMIT``."""
_NEAR_LIMIT = 512


def _near(
    card: Card, concealed: tuple[Kind, ...], exposures: tuple[tuple[Kind, ...], ...]
) -> tuple[Near, ...]:
    """Hint lines with the tiles they need, kept in the card's memo by rack (a card's
    identity, not its value: hashing a whole card costs more than the search)."""
    key = (concealed, exposures)
    made: dict[tuple[tuple[Kind, ...], tuple[tuple[Kind, ...], ...]], tuple[Near, ...]] = (
        card.memo.table(_NEAR)
    )
    found = made.get(key)
    if found is not None:
        return found
    out = []
    for near in nearest_hands(card, concealed, exposures, 3):
        need = " ".join(codes(near.missing)) if near.missing else "nothing: Mahjong!"
        which = near.hand.alternative_label(near.alternative)
        line = f"{near.pattern}, {which}" if which else near.pattern
        out.append(
            (f"{near.hand.id} ({line}, {near.hand.value}): needs {need}", tuple(near.missing))
        )
    if len(made) >= _NEAR_LIMIT:
        made.clear()
    made[key] = tuple(out)
    return tuple(out)


def unseen_counts(s: AmericanState, me: Seat) -> Counter[Kind]:
    """How many of each kind we have not seen: the tile set less every discard on the
    table, every seat's exposures and our own concealed tiles (a tile we passed in the
    Charleston is in someone's hand, unseen by the table: it counts as unseen)."""
    seen_slots = set(s.discards) | set(s.hands[me])
    for seat_exposures in s.exposures:
        for exposure in seat_exposures:
            seen_slots.update(exposure.slots)
    seen = Counter(s.faces[x] for x in seen_slots)
    return Counter({kind: max(0, _COPIES[kind] - seen[kind]) for kind in _COPIES})


_COPIES: Counter[Kind] = Counter(AMERICAN_TILES)


def _unseen_text(missing: tuple[Kind, ...], unseen: Counter[Kind]) -> str:
    """ "; unseen: 2m 3, 4m 2": how many of each tile a hint needs are still unseen."""
    kinds = sorted(set(missing))
    if not kinds:
        return ""
    return "; unseen: " + ", ".join(f"{code(k)} {unseen[k]}" for k in kinds)


def hints(f: SeatFacts) -> list[str]:
    """The three nearest card hands, each with its card line (id, pattern as printed, which
    of the line's alternatives when it has several, value), and the tiles they still need
    (cached per rack)."""
    s: AmericanState = f.engine
    if f.me is None or s.result is not None:
        return []
    concealed = tuple(sorted(s.concealed_kinds(f.me)))
    if Kind.HIDDEN in concealed:
        return []
    exposures = s.exposure_kinds(f.me)
    near = _near(s.card, concealed, exposures)
    unseen = unseen_counts(s, f.me)
    return [line + _unseen_text(missing, unseen) for line, missing in near]


def _ending(s: AmericanState) -> str:
    """How the hand ended: "mahjong", "dead_hand" (every seat's hand is dead, so nobody can
    win: the engine stops the hand as a wall game) or "wall_game"."""
    r = s.result
    assert r is not None
    if r.winner is not None:
        return "mahjong"
    return "dead_hand" if all(s.dead) else "wall_game"


def _winning_slot(s: AmericanState) -> int | None:
    """The tile that completed the winner's hand: the discard it called, or its last draw
    (None for East's dealt Mahjong)."""
    r = s.result
    assert r is not None and r.winner is not None
    if not r.self_drawn:
        return s.last_discard
    if s.wall.front > 0 and s.wall.live[s.wall.front - 1] in s.hands[r.winner]:
        return s.wall.live[s.wall.front - 1]
    return s.hands[r.winner][-1] if s.hands[r.winner] else None


def made(s: AmericanState) -> HandMatch | None:
    """How the winner's tiles make the scored card line: which of its patterns and the
    concrete tiles of each group (the winner's tiles are public once Mahjong is declared)."""
    r = s.result
    if r is None or r.winner is None or r.hand_id is None:
        return None
    concealed = s.concealed_kinds(r.winner)
    if Kind.HIDDEN in concealed:
        return None
    for match in match_hand(s.card, concealed, s.exposure_kinds(r.winner)):
        if match.hand.id == r.hand_id:
            return match
    return None


def made_text(hand: CardHand, match: HandMatch | None) -> str:
    """The line's pattern the tiles make, as printed, which alternative when the line has
    several, and the concrete tiles: "FF 444a 666a 888a 222b (alternative 2 of 2) as FF 444s
    666s 888s 222m"."""
    if match is None:
        return hand.text
    which = hand.alternative_label(match.alternative)
    text = f"{match.pattern} ({which})" if which else match.pattern
    return f"{text} as {' '.join(format_tiles(group) for group in match.assignment)}"


def _card_hand(s: AmericanState) -> dict[str, Any] | None:
    r = s.result
    if r is None or r.hand_id is None:
        return None
    try:
        line = s.card.hand(r.hand_id)
    except KeyError:  # an id the card lacks (cosmetic): the id and value alone
        return {
            "id": r.hand_id,
            "pattern": "",
            "value": r.value,
            "jokerless": r.jokerless,
            "section": "",
            "printed": "",
            "alternative": None,
            "as": "",
        }
    match = made(s)
    several = len(line.alternatives) > 1 and match is not None
    return {
        "id": line.id,
        "pattern": made_text(line, match),
        "value": r.value,
        "jokerless": r.jokerless,
        "section": line.heading,
        "printed": match.pattern if match is not None else line.text,
        "alternative": match.alternative + 1 if several and match is not None else None,
        "as": " ".join(format_tiles(g) for g in match.assignment) if match else "",
    }


class AmericanResult(HandResult):
    """An American hand's ``result``: the shared keys and the card line it was won with
    (``_card_hand``: id, pattern as made, value...; None when nobody won)."""

    card_hand: dict[str, Any] | None


def _no_winner(kind: str, payouts: Sequence[int], hand: str = "") -> AmericanResult:
    """The result of a hand nobody won: no card line."""
    return {**no_winner_result(kind, payouts, hand), "card_hand": None}


def _result(f: SeatFacts) -> AmericanResult | None:
    s: AmericanState = f.engine
    r = s.result
    if r is None:
        return None
    if r.winner is None:
        return _no_winner(_ending(s), r.payments)
    tiles = [*s.concealed_kinds(r.winner), *(k for e in s.exposure_kinds(r.winner) for k in e)]
    hand = str(r.hand_id or "")
    try:
        card_hand = s.card.hand(hand)
        hand = (
            f"{hand}: {made_text(card_hand, made(s))} "
            f"({r.value}{', jokerless' if r.jokerless else ''})"
        )
    except KeyError:  # unknown id (cosmetic): keep the id alone
        pass
    won_on = _winning_slot(s)
    return {
        "kind": "mahjong",
        "winner": int(r.winner),
        "hand": hand,
        "tiles": sorted_codes(tiles),
        "payouts": list(r.payments),
        "audit": "ok",
        "winning_tile": None if won_on is None else code(s.faces[won_on]),
        "self_drawn": r.self_drawn,
        "from_seat": None if r.self_drawn or r.discarder is None else int(r.discarder),
        "concealed": sorted_codes(s.concealed_kinds(r.winner)),
        "exposures": [codes(kinds) for kinds in s.exposure_kinds(r.winner)],
        "flowers": [],
        "card_hand": _card_hand(s),
    }


def summary(s: AmericanState) -> HandSummary:
    """One finished hand for the match's history: how it ended, the winner (a wind), from
    whom, and the card line with its value."""
    r = s.result
    assert r is not None
    kind = _ending(s)
    if r.winner is None:  # the summary says why, not the kind's name again
        why = "every hand at the table is dead" if kind == "dead_hand" else "the wall is exhausted"
        return {
            "kind": kind,
            "winner": None,
            "self_drawn": False,
            "from": None,
            "summary": f"no winner: {why}",
        }
    line = f"{r.hand_id} ({r.value}{', jokerless' if r.jokerless else ''})"
    return {
        "kind": kind,
        "winner": int(r.winner),
        "self_drawn": r.self_drawn,
        "from": None if r.self_drawn or r.discarder is None else int(r.discarder),
        "summary": line,
    }


def sheet(card: Card) -> dict[str, Any]:
    """Every line of the table's card: id, section, the pattern as printed, its value and
    whether it must be concealed (the local API's ``sheet``)."""
    return {
        "rules": "american",
        "title": card.name,
        "unit": "hands",
        "value_unit": "",
        "entries": [
            {
                "id": h.id,
                "section": h.heading,
                "pattern": h.text,
                "value": h.value,
                "concealed": h.concealed,
            }
            for h in card.hands
        ],
    }


def _detail(f: SeatFacts, waiting: Sequence[Seat]) -> str:
    s: AmericanState = f.engine
    names = ", ".join(SEAT_NAMES[w] for w in waiting)
    if s.step is not CharlestonStep.PLAY:
        return f"{STEP_TEXT[s.step]}: waiting for {names}"
    if s.stage is Stage.CALLS and s.last_discard is not None and s.discarder is not None:
        tile = code(s.faces[s.last_discard])
        return f"{SEAT_NAMES[s.discarder]} discarded {tile}: waiting for {names} to call or pass"
    if s.stage is Stage.MAHJONG:
        return f"Waiting for {names} to show the Mahjong hand"
    return f"Waiting for {names} to discard"


# ---------------------------------------------------------------- news


NEWS_DISCARDS = 4  # a lost call is told until this many more discards (a round) are made


def _since(s: AmericanState, made: int) -> int:
    """Discards made in the hand since ``made`` of them had been (called ones count too)."""
    return len(s.discarders) - made


def _group_text(answer: A.Action | None) -> str:
    if isinstance(answer, A.CallMahjong):
        return "Mahjong"
    if isinstance(answer, A.Call):
        return GROUP_NAMES.get(len(answer.slots) + 1, "group")
    return "no call"


def _lost_call(f: SeatFacts) -> str | None:
    """ "Your pung call on 6m lost: West called kong (nearer in turn after South)" while the
    last call window we called in went to another seat, for a round of discards."""
    s: AmericanState = f.engine
    closed, me = s.last_calls, f.me
    if closed is None or me is None or closed.winner is None or closed.winner == me:
        return None
    ours = closed.answers[me]
    if not isinstance(ours, (A.Call, A.CallMahjong)) or _since(s, closed.made) >= NEWS_DISCARDS:
        return None
    winner = closed.answers[closed.winner]
    if isinstance(winner, A.CallMahjong) and not isinstance(ours, A.CallMahjong):
        why = "Mahjong beats an exposure"
    else:
        why = f"nearer in turn after {SEAT_NAMES[closed.discarder]}"
    return (
        f"Your {_group_text(ours)} call on {code(s.faces[closed.slot])} lost: "
        f"{SEAT_NAMES[closed.winner]} called {_group_text(winner)} ({why})"
    )


_PASSED = {
    CharlestonStep.FIRST_ACROSS: ("first right", "left"),
    CharlestonStep.FIRST_LEFT: ("first across", "across"),
    CharlestonStep.STOP_VOTE: ("first left", "right"),
    CharlestonStep.POOL: ("first left", "right"),
    CharlestonStep.POOL_TAKE: ("first left", "right"),
    CharlestonStep.SECOND_LEFT: ("first left", "right"),
    CharlestonStep.SECOND_ACROSS: ("second left", "right"),
    CharlestonStep.LAST_RIGHT: ("second across", "across"),
    CharlestonStep.COURTESY: ("last right", "left"),
}
"""The pass just made before each step, and from which neighbour (our left, across, right)
its tiles came (a blind pass may have sent them on from further away)."""


def _received_text(f: SeatFacts) -> str | None:
    """ "Received 3p 5s N from West (first right)": the tiles the last pass brought us."""
    s: AmericanState = f.engine
    me = f.me
    if me is None or not s.received[me] or not _charleston_news_time(s):
        return None
    tiles = " ".join(codes(s.kinds(s.received[me])))
    if s.step is CharlestonStep.PLAY:  # the courtesy pass, across
        return f"Received {tiles} from {SEAT_NAMES[me.across]} (courtesy pass)"
    step, side = _PASSED.get(s.step, ("", ""))
    if s.step is CharlestonStep.COURTESY and s.stop_votes:  # stopped: no second Charleston
        step, side = "first left", "right"
    source = {"left": me.left, "across": me.across, "right": me.right}.get(side)
    if source is None:
        return f"Received {tiles}"
    return f"Received {tiles} from {SEAT_NAMES[source]} ({step})"


def _charleston_news_time(s: AmericanState) -> bool:
    """Charleston news is told through the Charleston and the first round of play."""
    return s.step is not CharlestonStep.PLAY or len(s.discarders) < 4


def _stop_text(s: AmericanState) -> str | None:
    """Who stopped the Charleston, or that it went on to the second one, once voted."""
    if s.stop_votes is None or not _charleston_news_time(s):
        return None
    if not s.stop_votes:
        return "No one voted to stop: the second Charleston"
    names = ", ".join(SEAT_NAMES[w] for w in s.stop_votes)
    return f"The Charleston stopped: {names} voted to stop"


def news(f: SeatFacts) -> list[str]:
    """What just happened that the table would otherwise not tell us: a call of ours that
    lost (to whom and why), who stopped the Charleston, the tiles a pass brought us."""
    s: AmericanState = f.engine
    if s.result is not None:
        return []
    out = [_lost_call(f), _stop_text(s), _received_text(f)]
    return [line for line in out if line]


def received(f: SeatFacts) -> list[str]:
    """The tiles the last pass brought us (codes), to mark in the rack while it is news."""
    s: AmericanState = f.engine
    me = f.me
    if me is None or s.result is not None or not _charleston_news_time(s):
        return []
    held = set(s.hands[me])
    return codes(s.kinds(x for x in s.received[me] if x in held))


# ---------------------------------------------------------------- our actions


def _passable(s: AmericanState, me: Seat) -> list[int]:
    """Our non-joker tiles, sorted by face (jokers are never passed)."""
    slots = [x for x in s.hands[me] if s.faces[x] != Kind.JOKER]
    return sorted(slots, key=lambda x: (s.faces[x], x))


def _slots_for(s: AmericanState, pool: Sequence[int], chosen: Sequence[str]) -> tuple[int, ...]:
    """Map chosen codes to distinct slots of ``pool`` (first free slot of each face)."""
    left = list(pool)
    out = []
    for wanted in chosen:
        slot = next((x for x in left if code(s.faces[x]) == wanted), None)
        if slot is None:
            raise IllegalAction(f"{wanted!r} is not one of the tiles you may choose here")
        left.remove(slot)
        out.append(slot)
    return tuple(out)


def _charleston_offers(f: SeatFacts, legal: Sequence[object]) -> list[Offer]:
    s: AmericanState = f.engine
    me = f.me
    assert me is not None
    pool = _passable(s, me)
    tiles = [code(s.faces[x]) for x in pool]
    offers: list[Offer] = []
    if s.step is CharlestonStep.STOP_VOTE:
        offers.append(
            Offer(
                {"type": "stop_vote", "label": "Stop the Charleston", "tiles": [], "default": True},
                lambda chosen: A.StopVote(me, True),
            )
        )
        offers.append(
            Offer(
                {"type": "stop_vote", "label": "Go on to the second Charleston", "tiles": []},
                lambda chosen: A.StopVote(me, False),
            )
        )
        return offers
    if s.step is CharlestonStep.COURTESY:
        for n in range(min(3, len(pool)) + 1):
            entry: ActionEntry
            if n == 0:
                entry = {
                    "type": "courtesy",
                    "label": "No courtesy pass",
                    "tiles": [],
                    "default": True,
                }
            else:
                entry = {
                    "type": "courtesy",
                    "label": f"Courtesy pass: offer {n} tile{'s' if n > 1 else ''} across",
                    "tiles": tiles,
                    "choose": n,
                }

            def courtesy(chosen: tuple[str, ...]) -> object:
                return A.CourtesyPass(me, _slots_for(s, pool, chosen))

            offers.append(Offer(entry, courtesy))
        return offers
    if s.step in PASS_TARGET:
        where = _DIRECTION[s.step]

        def plain(chosen: tuple[str, ...]) -> object:
            return A.CharlestonPass(me, _slots_for(s, pool, chosen), 0)

        offers.append(
            Offer(
                {
                    "type": "charleston",
                    "label": f"Pass 3 tiles {where}",
                    "tiles": tiles,
                    "choose": 3,
                    "default": True,
                },
                plain,
            )
        )
        if s.step in BLIND_STEPS:
            for blind in (1, 2, 3):
                offers.append(_blind_offer(s, me, pool, tiles, blind, where))
        return offers
    return _generic(f, legal)


def _blind_offer(
    s: AmericanState, me: Seat, pool: list[int], tiles: list[str], blind: int, where: str
) -> Offer:
    """Pass ``blind`` of the tiles arriving now on unseen, with 3 - blind of ours. The engine
    wants 3 own tiles named (used if the table's blind passes cannot all go through): the
    chosen ones first, then the first other passable tiles."""
    own = 3 - blind
    label = (
        f"Blind pass {where}: {own} of yours + {blind} unseen"
        if own
        else f"Blind pass {where}: pass on all 3 tiles you receive"
    )
    entry: ActionEntry = {"type": "charleston", "label": label, "tiles": tiles if own else []}
    if own:
        entry["choose"] = own

    def resolve(chosen: tuple[str, ...]) -> object:
        slots = list(_slots_for(s, pool, chosen))
        slots.extend(x for x in pool if x not in slots)
        return A.CharlestonPass(me, tuple(slots[:3]), blind)

    return Offer(entry, resolve)


def _exchange_label(f: SeatFacts, action: A.ExchangeJoker) -> str:
    s: AmericanState = f.engine
    where = find_joker(s, action.joker_slot)
    group = "exposure"
    owner = f.me
    if where is not None:
        owner, index = where
        group = GROUP_NAMES.get(len(s.exposures[owner][index].slots), "group")
    assert owner is not None
    return f"Exchange {code(action.face)} for the joker in {_whose(f, owner)} {group}"


def _play_offers(f: SeatFacts, legal: Sequence[object], default: object) -> list[Offer]:
    s: AmericanState = f.engine
    offers: list[Offer] = []
    shown: dict[Kind, A.Discard] = {}  # one discard per face: the default's slot if any
    for action in legal:
        if isinstance(action, A.Discard) and (action.face not in shown or action == default):
            shown[action.face] = action
    exchanges: set[tuple[int, int]] = set()
    for action in sorted(legal, key=_order):
        entry: ActionEntry | None
        if isinstance(action, A.Discard):
            if shown[action.face] != action:
                continue
            entry = {
                "type": "discard",
                "label": f"Discard {code(action.face)}",
                "tiles": [code(action.face)],
            }
        elif isinstance(action, A.NoCall):
            entry = {"type": "pass", "label": "Pass", "tiles": []}
        elif isinstance(action, A.CallMahjong):
            tile = code(s.faces[s.last_discard]) if s.last_discard is not None else "?"
            entry = {"type": "mahjong", "label": f"Mahjong! on {tile}", "tiles": [tile]}
        elif isinstance(action, A.Call):
            call = _call_entry(f, action)
            if call is None:
                continue
            entry = call
        elif isinstance(action, A.ExchangeJoker):
            where = find_joker(s, action.joker_slot)
            key = (-1, action.joker_slot) if where is None else (int(where[0]), where[1])
            if key in exchanges:
                continue
            exchanges.add(key)
            entry = {
                "type": "exchange",
                "label": _exchange_label(f, action),
                "tiles": [code(action.face), "J"],
            }
        elif isinstance(action, A.DeclareMahjong):
            entry = {"type": "mahjong", "label": "Mahjong!", "tiles": sorted_codes(action.faces)}
        else:
            offers.extend(_generic(f, (action,)))
            continue
        if action == default:
            entry["default"] = True
        offers.append(Offer(entry, _const(action)))
    return offers


def _asks_every_call(f: SeatFacts) -> bool:
    """The table's ``auto_pass`` is off (``--no-auto-pass``): every legal call is offered,
    also those that bring the hand no nearer to a card line."""
    opened = f.session.open
    return opened is not None and not opened.options.auto_pass


class CallEntry(ActionEntry):
    """An exposure call's ACTION: also the card lines the call keeps open."""

    lines: list[str]


def _call_entry(f: SeatFacts, action: A.Call) -> CallEntry | None:
    """The ACTION of an exposure call, saying which card lines it keeps open ("Call pung 5p
    (2 jokers): keeps open 2468-1, run-3"); None for a call worth no prompt (it brings the
    hand no nearer to any line: ``call_offers``) unless the table asks every call."""
    s: AmericanState = f.engine
    assert f.me is not None
    offer = call_offer(s, f.me, action)
    if not offer.worth_offering and not _asks_every_call(f):
        return None
    kind = s.faces[s.last_discard] if s.last_discard is not None else Kind.HIDDEN
    group = GROUP_NAMES.get(len(action.slots) + 1, "group")
    jokers = sum(1 for k in action.faces if k == Kind.JOKER)
    extra = f" ({jokers} joker{'s' if jokers > 1 else ''})" if jokers else ""
    why = f"keeps open {', '.join(offer.lines)}" if offer.lines else "brings no card line nearer"
    return {
        "type": "call",
        "label": f"Call {group} {code(kind)}{extra}: {why}",
        "tiles": [*codes(action.faces), code(kind)],
        "lines": list(offer.lines),
    }


def _order(action: object) -> tuple[int, int]:
    """Discards last, in tile order (as the rack shows them); the rest keep their place."""
    if isinstance(action, A.Discard):
        return (1, int(action.face))
    return (0, 0)


def _const(action: object) -> Any:
    return lambda chosen: action


def _generic(f: SeatFacts, legal: Sequence[object]) -> list[Offer]:
    """Actions without a dedicated form (e.g. pooling): the adapter's one-line text."""
    return [
        Offer(
            {"type": type(a).__name__.lower(), "label": f.rules.describe_action(a), "tiles": []},
            _const(a),
        )
        for a in legal
    ]


class AmericanView:
    """The American rule view (see ``contract_view.RuleView``)."""

    def table(self, f: SeatFacts) -> RuleTableKeys:
        s: AmericanState = f.engine
        phase, detail = _phase(s)
        out: RuleTableKeys = {
            "phase": phase,
            "phase_detail": detail,
            "turn": int(s.turn) if s.step is CharlestonStep.PLAY and s.result is None else None,
            "wall_remaining": s.wall.remaining,
            "hints": hints(f),
            "result": _result(f),
            "prevalent_wind": None,
            "news": news(f),
            "received": received(f),
        }
        if (
            s.last_discard is not None
            and s.discarder is not None
            and s.stage is Stage.CALLS
            and s.result is None
        ):
            owners = discards_by_seat(f)
            row = [x for x in s.discards if owners.get(x) == s.discarder]
            out["last_discard"] = {
                "seat": int(s.discarder),
                "tile": code(s.faces[s.last_discard]),
                "index": row.index(s.last_discard),
            }
        if f.me is not None:
            out["hand"] = sorted_codes(s.concealed_kinds(f.me))
            hand = s.hands[f.me]
            if (
                s.step is CharlestonStep.PLAY
                and s.turn == f.me
                and s.stage is Stage.DISCARD
                and s.drew
                and hand
                and (s.discards or any(s.exposures))
            ):
                out["drawn"] = code(s.faces[hand[-1]])
        return out

    def concealed_slots(self, engine: Any, seat: Seat) -> tuple[int, ...]:
        s: AmericanState = engine
        return tuple(s.hands[seat])

    def player(self, f: SeatFacts, seat: Seat) -> RulePlayerKeys:
        s: AmericanState = f.engine
        owners = discards_by_seat(f)
        return {
            "dead": bool(s.dead[seat]),
            "concealed_count": len(s.hands[seat]),
            "exposures": [
                {
                    "tiles": codes(s.kinds(e.slots)),
                    "label": GROUP_NAMES.get(len(e.slots), "group"),
                    "from": next((int(owners[x]) for x in e.slots if x in owners), None),
                }
                for e in s.exposures[seat]
            ],
            "flowers": [],
            "discards": [code(s.faces[x]) for x in s.discards if owners.get(x) == seat],
        }

    def detail(self, f: SeatFacts, waiting: Sequence[Seat]) -> str:
        return _detail(f, waiting)

    def summary(self, engine: Any) -> HandSummary:
        return summary(engine)

    def no_winner(self, kind: str, payouts: Sequence[int], hand: str) -> AmericanResult:
        return _no_winner(kind, payouts, hand)

    def offers(self, f: SeatFacts) -> list[Offer]:
        s: AmericanState = f.engine
        legal, default = our_choices(f)
        if not legal:
            return []
        if s.step is not CharlestonStep.PLAY:
            return _charleston_offers(f, legal)
        return _play_offers(f, legal, default)


RULES = AmericanView()
