"""Which legal calls are put to the player (issue 22, item 11): only an exposure that, with
the player's tiles, brings the hand nearer to some card line; the prompt names those lines."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any, cast

from fourwinds.protocol.american import engine
from fourwinds.protocol.american.actions import Call, CallMahjong, NoCall
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.call_offers import call_offers, lines_kept_open
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.table_rules import AmericanRules
from fourwinds.protocol.american.table_view import RULES
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.views.rule_view import SeatFacts
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, N, W, discard, play_state

EAST = "5p6m2m 1p2p3p4p7p9p 1s2s3s4s5s"
TWO_JOKERS_2468 = "JJ 2m2m2m4m4m4m6m6m8m8m 1z"  # West: towards 2468-1 / 2468-3, two jokers


def _after(tile: str, west: str = TWO_JOKERS_2468) -> AmericanState:
    state = play_state({E: EAST, W: west})
    state, _ = discard(state, E, tile)
    return state


def _calls(actions: tuple[Any, ...]) -> list[Call]:
    return [a for a in actions if isinstance(a, Call)]


def test_a_two_joker_pung_of_a_tile_no_near_line_uses_is_legal_but_not_offered() -> None:
    state = _after("5p")
    rules = AmericanRules()
    legal = rules.legal_actions(state, W)
    assert _calls(legal) == [Call(W, _calls(legal)[0].slots, (Kind.JOKER, Kind.JOKER))]
    assert rules.offered_actions(state, W) == (NoCall(W),)  # auto_pass answers it at once


def test_a_call_that_fills_a_group_of_a_near_line_is_offered_naming_the_line() -> None:
    state = _after("6m")
    offered = {o.call.faces: o.lines for o in call_offers(state, W, engine.legal_actions(state, W))}
    assert offered[(Kind.M6, Kind.M6)] == ("2468-3",)  # pung 666m of 2468-3
    assert offered[(Kind.M6, Kind.M6, Kind.JOKER)] == ("2468-1",)  # kong 6666m of 2468-1
    # spending both jokers on the 6m group brings no line nearer than keeping them
    assert offered[(Kind.JOKER, Kind.JOKER)] == ()
    assert offered[(Kind.M6, Kind.M6, Kind.JOKER, Kind.JOKER)] == ()
    worth = _calls(AmericanRules().offered_actions(state, W))
    assert {c.faces for c in worth} == {(Kind.M6, Kind.M6), (Kind.M6, Kind.M6, Kind.JOKER)}


def test_lines_kept_open_need_fewer_tiles_after_the_call_than_the_nearest_needs_now() -> None:
    card = house_card()
    concealed = _after("6m").concealed_kinds(W)
    assert lines_kept_open(card, concealed, (), (Kind.M6, Kind.M6), Kind.M6) == ("2468-3",)
    # a tile already held three times: a kong of it is no nearer than the pung in hand
    assert lines_kept_open(card, concealed, (), (Kind.M2, Kind.M2, Kind.M2), Kind.M2) == ()


def test_a_call_for_mahjong_is_always_offered() -> None:
    state = play_state({E: "8m 1p2p3p4p5p6p7p9p 1s2s3s4s5s", N: "222m444m6666m888m"})
    state, _ = discard(state, E, "8m")
    assert CallMahjong(N) in AmericanRules().offered_actions(state, N)


def _facts(state: AmericanState, me: Seat, auto_pass: bool) -> SeatFacts:
    session = SimpleNamespace(open=SimpleNamespace(options=SimpleNamespace(auto_pass=auto_pass)))
    return SeatFacts(cast(Any, session), state, cast(Any, tuple(SEATS)), me, AmericanRules())


def test_the_call_prompt_says_which_card_lines_each_call_keeps_open() -> None:
    entries = [dict(o.entry) for o in RULES.offers(_facts(_after("6m"), W, auto_pass=True))]
    calls = [e for e in entries if e["type"] == "call"]
    assert [e["label"] for e in calls] == [
        "Call pung 6m: keeps open 2468-3",
        "Call kong 6m (1 joker): keeps open 2468-1",
    ]
    assert [e["lines"] for e in calls] == [["2468-3"], ["2468-1"]]
    only = [o.entry["type"] for o in RULES.offers(_facts(_after("5p"), W, auto_pass=True))]
    assert only == ["pass"]


def test_without_auto_pass_every_legal_call_is_offered_and_says_it_brings_no_line_nearer() -> None:
    entries = [dict(o.entry) for o in RULES.offers(_facts(_after("5p"), W, auto_pass=False))]
    assert [e["label"] for e in entries] == [
        "Pass",
        "Call pung 5p (2 jokers): brings no card line nearer",
    ]
    assert entries[1]["lines"] == []


def _prompts(seed: int) -> tuple[int, int]:
    """Prompts (old rule, new rule) for the seat dealt two jokers in a bot-played hand."""
    rng = random.Random(seed)
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    state, _ = engine.new_hand(house_card(), faces, (3, 4))
    jokers = [sum(1 for x in state.hands[s] if state.faces[x] == Kind.JOKER) for s in SEATS]
    me = SEATS[jokers.index(2)]
    bots = [AmericanBot(s, house_card(), random.Random(seed + int(s))) for s in SEATS]
    rules = AmericanRules()
    old = new = 0
    while state.result is None:
        if (
            state.step is CharlestonStep.PLAY
            and state.stage is Stage.CALLS
            and state.pending[me] is None
        ):
            old += len(rules.legal_actions(state, me)) != 1
            new += len(rules.offered_actions(state, me)) != 1
        for seat in engine.seats_to_act(state):
            action = bots[seat].act(state)
            if action is not None:
                state, _ = engine.apply(state, action)
                if state.result is not None:
                    break
    return old, new


def test_a_seat_with_two_jokers_is_asked_about_few_discards_of_a_whole_hand() -> None:
    old, new = _prompts(5)  # seed 5: North is dealt two jokers
    assert old >= 30 and new <= 3, (old, new)
