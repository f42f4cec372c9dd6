"""Invariants over random sequences of legal actions: tiles conserved, 13/14 tiles held,
views hiding other seats' concealed tiles, no legal action ever reaching an invalid state,
answers in any order giving one result; with flowers and at a table without them."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.mcr.actions import Action
from fourwinds.protocol.mcr.bots import choose
from fourwinds.protocol.mcr.config import TableMode, TableOptions
from fourwinds.protocol.mcr.engine import (
    apply,
    learn,
    legal_actions,
    new_hand,
    public_digest,
    view,
)
from fourwinds.protocol.mcr.events import FlowerExposed, FlowersFinished, TileDrawn
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.tileset import MCR_SET, MCR_TILES
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.tiles import Kind, is_bonus


def check_views(state: HandState) -> None:
    """No seat's view shows another seat's concealed tiles (unless shown at a Mahjong)."""
    for seat in SEATS:
        seen = view(state, seat)
        for other in SEATS:
            if other == seat:
                continue
            own = state.seats[other]
            hidden = [*own.hand, *(s for m in own.melds if m.concealed for s in m.slots)]
            for slot in hidden:
                if slot not in state.revealed:
                    assert seen.faces[slot] == Kind.HIDDEN


def check_invariants(state: HandState) -> None:
    wall = state.wall
    places: list[int] = list(wall.live[wall.front : len(wall.live) - wall.back])
    for own in state.seats:
        places += list(own.hand) + list(own.flowers) + list(own.discards)
        for meld in own.melds:
            places += list(meld.slots)
    if state.pending is not None:
        places.append(state.pending)
    size = 144 if state.options.flowers else 136
    assert len(state.faces) == size
    assert sorted(places) == list(range(size)), "every tile is in exactly one place"
    if not state.options.flowers:
        assert not any(is_bonus(f) for f in state.faces), "no flower in a wall without them"
        assert all(not own.flowers for own in state.seats)
    for seat in SEATS:
        mine = state.seats[seat]
        held = len(mine.hand) + 3 * len(mine.melds)
        if state.phase is Phase.FLOWERS:
            on_turn = seat == SEATS[0]  # East holds 14 until its first discard
        else:
            on_turn = seat == state.turn and state.phase is Phase.TURN
        if state.phase is Phase.ENDED:
            assert held in (13, 14)
        else:
            assert held == (14 if on_turn else 13), (seat, state.phase, held)


@pytest.mark.slow
@settings(max_examples=14, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_random_legal_actions_never_reach_an_invalid_state(
    rnd: random.Random, tournament: bool, flowers: bool
) -> None:
    faces = list(MCR_SET.played(flowers=flowers).kinds)
    rnd.shuffle(faces)
    mode = TableMode.TOURNAMENT if tournament else TableMode.FRIENDLY
    state, events = new_hand(
        TableOptions(mode=mode, flowers=flowers), faces, (rnd.randint(1, 6), 3, 4, 5)
    )
    for _ in range(1500):
        check_invariants(state)
        check_views(state)
        if state.phase is Phase.ENDED:
            break
        options: list[Action] = [a for s in SEATS for a in legal_actions(state, s)]
        assert options, "an unfinished hand always has someone to act"
        state, events = apply(state, rnd.choice(options))
        if not flowers:
            assert not any(isinstance(e, (FlowerExposed, FlowersFinished)) for e in events)
    assert state.phase is Phase.ENDED
    assert state.result is not None and sum(state.result.payments) == 0


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10_000))
def test_claim_answers_in_any_order_give_the_same_state(seed: int) -> None:
    rng = random.Random(seed)
    faces = list(MCR_TILES)
    rng.shuffle(faces)
    state, _ = new_hand(TableOptions(), faces, (2, 2, 3, 3))
    windows = 0
    while state.phase is not Phase.ENDED:
        if state.phase is Phase.CLAIMS and all(a is None for a in state.answers):
            answers = [choose(state, s, rng) for s in SEATS if s != state.turn]
            outcomes = set()
            for order in permutations(answers):
                final = state
                for answer in order:
                    assert answer is not None
                    final, _ = apply(final, answer)
                outcomes.add(final)
            assert len(outcomes) == 1
            state = outcomes.pop()
            windows += 1
            continue
        action = next(a for a in (choose(state, s, rng) for s in SEATS) if a is not None)
        state, _ = apply(state, action)
    assert windows > 0


@settings(max_examples=3, deadline=None)
@given(st.randoms(use_true_random=False))
def test_hidden_information_engines_follow_any_legal_play(rnd: random.Random) -> None:
    """Four engines that each see one seat's tiles (learning only their own draws) apply the
    same random legal actions as the full engine and agree on every public digest."""
    faces = list(MCR_TILES)
    rnd.shuffle(faces)
    state, events = new_hand(TableOptions(), faces, (rnd.randint(1, 6), 2, 5, 1))
    engines = {seat: view(state, seat) for seat in SEATS}
    for step in range(1500):
        if state.phase is Phase.ENDED:
            break
        options: list[Action] = [a for s in SEATS for a in legal_actions(state, s)]
        action = rnd.choice(options)
        state, events = apply(state, action)
        for seat in SEATS:
            engines[seat], _ = apply(engines[seat], action)
            drawn = {
                e.slot: state.faces[e.slot]
                for e in events
                if isinstance(e, TileDrawn) and e.seat == seat
            }
            engines[seat] = learn(engines[seat], drawn)
        checked = SEATS[step % 4]  # one seat per step keeps the test quick
        assert public_digest(engines[checked]) == public_digest(state)
    assert all(public_digest(engines[s]) == public_digest(state) for s in SEATS)
    assert all(engines[s].result == state.result for s in SEATS)
