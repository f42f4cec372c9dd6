"""The built-in bot's suggestion for a seat (protocol/table/views/suggest.py), driven through the
in-memory harness: always one of the view's legal actions, and the same choice the harness's
own bot (``bot_moves``) makes with the same entropy."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.actions import CharlestonPass, StopVote
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    drive,
    open_harness,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import HandNext, TableReady, local_action
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.views.rule_view import code
from fourwinds.protocol.table.views.suggest import bot_entropy, match_action, same_choice, suggest
from fourwinds.protocol.tiles import Kind

# actions the view never merges with another: the suggestion must be exactly the bot's
EXACT = {
    "StopVote",
    "NoCall",
    "Pass",
    "CallMahjong",
    "ClaimWin",
    "DeclareMahjong",
    "DeclareWin",
    "FlowersDone",
    "TableReady",
    "HandNext",
    "Call",
    "ClaimPung",
    "ClaimChow",
    "ClaimKong",
}


def harness_entropy(h: Harness, place: Seat, step: int) -> bytes:
    """``bot_moves``'s entropy, written out here so a drift from ``bot_entropy`` shows."""
    return hashlib.sha256(h.seed + bytes([place]) + step.to_bytes(8, "big")).digest()


def bot_choice(h: Harness, s: TableSession, place: Seat) -> object:
    """What ``bot_moves`` would do for ``place`` now."""
    if s.phase is Phase.READY:
        return TableReady()
    if s.phase is Phase.HAND_END:
        return HandNext()
    assert s.rules is not None and s.hand is not None and s.hand.seating is not None
    return s.rules.choose(
        s.hand.engine, wind_of(s.hand.seating, place), harness_entropy(h, place, s.step)
    )


def check_seat(h: Harness, place: Seat, seen: Counter[str]) -> None:
    """The suggestion at ``place`` (if any) is a legal action of its view, and acting on it
    takes the action the harness's bot would take."""
    s = h.sessions[place]
    legal = build_seat_view(s)["legal_actions"]
    found = suggest(s, h.seed)
    if found is None:
        return
    assert found.step == s.step
    assert found.entry in legal
    chosen = list(found.tiles)
    if "choose" in found.entry:
        assert len(chosen) == found.entry["choose"]
    else:
        assert chosen == []
    resolved = resolve_action(s, found.entry["id"], chosen, found.entry)
    wanted = bot_choice(h, s, place)
    name = type(wanted).__name__
    if name in EXACT:
        assert resolved == wanted
    engine = None if s.hand is None else s.hand.engine
    assert s.rules is not None
    assert same_choice(s.rules, engine, resolved, wanted), (resolved, wanted)
    seen[name] += 1


def play_checking(rules: str, seed: bytes, seen: Counter[str]) -> Harness:
    """A whole hand of four harness bots, every seat's suggestion checked before each move."""
    h = open_harness(rules, seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))

    def moves(h: Harness) -> bool:
        for place in SEATS:
            check_seat(h, place, seen)
        return any(bot_moves(h, p) for p in SEATS)

    return drive(h, moves, max_rounds=50_000)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_the_suggestion_is_a_legal_action_and_the_harness_bots_choice(rules: str) -> None:
    seen: Counter[str] = Counter()
    h = play_checking(rules, b"suggest-" + rules.encode(), seen)
    assert h.done() and all(s.phase is Phase.OVER for s in h.sessions)
    assert seen["TableReady"] == 4
    assert seen["HandNext"] == 4  # each seat's bot says "next" when the hand is over
    assert seen["Discard"] > 20
    if rules == "american":
        assert seen["CharlestonPass"] >= 12 and seen["StopVote"] == 4
    else:
        assert seen["Pass"] > 10


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), rules=st.sampled_from(["american", "mcr"]))
def test_suggestions_match_the_bots_choice_for_any_seed(seed: bytes, rules: str) -> None:
    seen: Counter[str] = Counter()
    h = play_checking(rules, seed, seen)
    assert h.done()
    # a whole hand was checked, however short (a hand can end after a dozen discards)
    assert seen["TableReady"] == 4 and seen["HandNext"] == 4 and seen["Discard"] >= 4


def test_bot_entropy_is_the_harness_formula_and_differs_by_place_and_step() -> None:
    h = open_harness("mcr", b"entropy", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    assert bot_entropy(h.seed, Seat(2), 17) == harness_entropy(h, Seat(2), 17)
    values = {bot_entropy(b"s", Seat(p), step) for p in range(4) for step in range(5)}
    assert len(values) == 20


def test_nothing_is_suggested_to_a_seat_the_table_does_not_wait_for() -> None:
    h = open_harness("mcr", b"idle", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    assert all(suggest(s, h.seed) is None for s in h.sessions)  # lobby: joins in flight
    while h.queue:
        deliver_one(h)
    assert all(s.phase is Phase.READY for s in h.sessions)
    first = suggest(h.sessions[1], h.seed)
    assert first is not None and first.entry["type"] == "ready" and first.tiles == ()
    first.entry["tiles"].append("1m")  # the suggestion's entry is its own copy
    first.plain()["action"]["tiles"].append("2m")
    assert build_seat_view(h.sessions[1])["legal_actions"][0]["tiles"] == []
    h.take(Seat(1), local_action(h.sessions[1], TableReady(), h.now))
    assert suggest(h.sessions[1], h.seed) is None  # answered: nothing more awaited


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_a_hand_played_only_through_suggestions_is_always_accepted(rules: str) -> None:
    """Every seat acts on its suggestion (resolved from the view, as the daemon does):
    never refused, and the hand reaches its end."""
    h = open_harness(
        rules, b"through-" + rules.encode(), options=TableOptions(deck=DeckKind.PRACTICE, hands=1)
    )
    acted = 0

    def moves(h: Harness) -> bool:
        nonlocal acted
        moved = False
        for place in SEATS:
            s = h.sessions[place]
            found = suggest(s, h.seed)
            if found is None:
                continue
            action = resolve_action(s, found.entry["id"], found.tiles, found.entry)
            h.take(place, local_action(s, action, h.now))
            acted += 1
            moved = True
        return moved

    drive(h, moves, max_rounds=50_000)
    assert h.done() and all(s.phase is Phase.OVER for s in h.sessions)
    assert not any(h.problems), h.problems
    assert acted > 40


def _at_first_left(seed: bytes) -> tuple[Harness, TableSession]:
    """Harness bots play until place 0 is asked for the first-left Charleston pass."""
    h = open_harness("american", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    for _ in range(5_000):
        s = h.sessions[0]
        built = build_seat_view(s)
        if built["legal_actions"] and built["view"]["phase_detail"].startswith(
            "Charleston: first left"
        ):
            return h, s
        if any(bot_moves(h, p) for p in SEATS):
            continue
        if h.queue:
            deliver_one(h)
        else:
            h.now += 1.0
    raise AssertionError("never reached the first left pass")


@pytest.mark.parametrize("blind", [0, 1, 2, 3])
def test_a4_a_blind_pass_is_matched_to_the_blind_offer_of_its_own_tiles(blind: int) -> None:
    """A blind pass names 3 own tiles, the first 3 - blind going out; the view lets the
    player choose only those (it names the fall-back tiles itself), so the suggestion is the
    blind offer with the tiles that go out, whatever fall-back tiles the bot named."""
    h, s = _at_first_left(b"blind-suggest")
    assert s.hand is not None and s.hand.seating is not None and s.me is not None
    engine = s.hand.engine
    wind = wind_of(s.hand.seating, s.me)
    own = sorted(
        (x for x in engine.hands[wind] if engine.faces[x] != Kind.JOKER),
        key=lambda x: (engine.faces[x], x),
        reverse=True,
    )[:3]
    action = CharlestonPass(wind, tuple(own), blind)
    found = match_action(s, action)
    assert found is not None
    assert found.entry["type"] == "charleston"
    assert found.entry.get("choose") == (3 - blind or None)
    assert ("Blind" in found.entry["label"]) == (blind > 0)
    assert list(found.tiles) == [code(engine.faces[x]) for x in own[: 3 - blind]]
    resolved = resolve_action(s, found.entry["id"], found.tiles, found.entry)
    assert isinstance(resolved, CharlestonPass) and resolved.blind == blind
    assert s.rules is not None and same_choice(s.rules, engine, resolved, action)
    local_action(s, resolved, h.now)  # accepted


def test_same_choice_tells_other_faces_and_other_blind_counts_apart() -> None:
    _, s = _at_first_left(b"blind-suggest")
    assert s.hand is not None and s.hand.seating is not None and s.me is not None
    engine = s.hand.engine
    rules = s.rules
    assert rules is not None
    wind = wind_of(s.hand.seating, s.me)
    slots = sorted(
        (x for x in engine.hands[wind] if engine.faces[x] != Kind.JOKER),
        key=lambda x: (engine.faces[x], x),
    )
    low, high = tuple(slots[:3]), tuple(slots[-3:])
    assert same_choice(rules, engine, CharlestonPass(wind, low, 0), CharlestonPass(wind, low, 0))
    assert not same_choice(
        rules, engine, CharlestonPass(wind, low, 0), CharlestonPass(wind, low, 1)
    )
    if [engine.faces[x] for x in low] != [engine.faces[x] for x in high]:
        assert not same_choice(
            rules, engine, CharlestonPass(wind, low, 0), CharlestonPass(wind, high, 0)
        )
    # a blind pass of 3 passes none of its own tiles: the fall-back tiles do not matter
    assert same_choice(rules, engine, CharlestonPass(wind, low, 3), CharlestonPass(wind, high, 3))
    assert not same_choice(rules, engine, CharlestonPass(wind, low, 0), StopVote(wind, True))
