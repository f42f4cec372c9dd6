"""The engine contract (protocol/game.py): view, learn, public_digest, illegal actions, and
invariants over any sequence of legal actions."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.actions import CharlestonPass, Discard
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.config import DeclarationMode, TableOptions
from fourwinds.protocol.american.engine import (
    apply,
    learn,
    legal_actions,
    new_hand,
    public_digest,
    seats_to_act,
    view,
)
from fourwinds.protocol.american.events import TileSeen, TilesReceived
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.tileset import AMERICAN_TILES, american_plan
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, S, W, charleston_state, discard, play_state


def _shuffled(seed: int) -> list[Kind]:
    faces = list(AMERICAN_TILES)
    random.Random(seed).shuffle(faces)
    return faces


def test_a3_new_hand_deals_east_14_others_13_and_leaves_99() -> None:
    state, _ = new_hand(house_card(), _shuffled(1), (2, 5))
    assert [len(h) for h in state.hands] == [14, 13, 13, 13]
    assert state.wall.remaining == 99
    assert state.hands == american_plan((2, 5)).deal


def test_new_hand_refuses_a_wall_that_is_not_an_american_set() -> None:
    with pytest.raises(IllegalAction, match="152"):
        new_hand(house_card(), _shuffled(1)[:150], (2, 5))
    with pytest.raises(IllegalAction, match="JOKER"):
        new_hand(house_card(), [Kind.JOKER] * 152, (2, 5))
    with pytest.raises(IllegalAction, match="dice"):
        new_hand(house_card(), _shuffled(1), (0, 5))


def test_view_hides_other_seats_concealed_tiles_and_the_wall() -> None:
    state = play_state({E: "9s 1p2p3p4p6p7p9p 1s2s3s4s 7z7z"})
    state, _ = discard(state, E, "9s")
    seen = view(state, S)
    for slot in state.hands[S]:
        assert seen.faces[slot] == state.faces[slot]
    for seat in (E, W):
        assert all(seen.faces[s] == Kind.HIDDEN for s in state.hands[seat])
    assert all(seen.faces[s] == Kind.HIDDEN for s in state.wall.live[state.wall.front :])
    assert seen.faces[state.discards[-1]] == Kind.S9


def test_view_hides_other_seats_charleston_passes_until_they_fire() -> None:
    state = charleston_state()
    state, _ = apply(state, CharlestonPass(E, state.hands[E][:3]))
    assert view(state, S).pending[E] is None
    assert view(state, E).pending[E] is not None


def test_an_illegal_action_leaves_the_state_unchanged() -> None:
    state = play_state({E: "9s 1p2p3p4p6p7p9p 1s2s3s4s 7z7z"})
    before = public_digest(state), state
    slot = state.hands[E][0]
    for action in (
        Discard(S, state.hands[S][0], state.faces[state.hands[S][0]]),
        Discard(E, slot, Kind.JOKER if state.faces[slot] != Kind.JOKER else Kind.M1),
        Discard(E, state.hands[S][0], state.faces[state.hands[S][0]]),
    ):
        with pytest.raises(IllegalAction):
            apply(state, action)
        assert (public_digest(state), state) == before


def test_learn_adds_faces_and_refuses_contradictions() -> None:
    state, _ = new_hand(house_card(), [Kind.HIDDEN] * 152, (3, 3))
    state = learn(state, {0: Kind.M1})
    assert state.faces[0] == Kind.M1
    with pytest.raises(IllegalAction, match="already known"):
        learn(state, {0: Kind.M2})


def _mirror_hand(seed: int, options: TableOptions | None = None) -> None:
    """Bots play on a full-information engine; South's engine sees only what South may and
    learns its own tiles as they come. Both agree on public_digest at every step."""
    faces = _shuffled(seed)
    card = house_card()
    rng = random.Random(seed)
    full, _ = new_hand(card, faces, (4, 2), options)
    plan = american_plan((4, 2))
    masked = [Kind.HIDDEN] * 152
    for slot in plan.deal[S]:
        masked[slot] = faces[slot]
    mine, _ = new_hand(card, masked, (4, 2), options)
    bots = [AmericanBot(seat, card, rng) for seat in SEATS]
    steps = 0
    while full.result is None and steps < 2000:
        for seat in seats_to_act(full):
            action = bots[seat].act(view(full, seat))
            assert action is not None
            full, events = apply(full, action)
            mine, _ = apply(mine, action)
            for event in events:
                if isinstance(event, (TilesReceived, TileSeen)) and event.seat == S:
                    slots = event.slots if isinstance(event, TilesReceived) else (event.slot,)
                    mine = learn(mine, {s: faces[s] for s in slots})
            assert public_digest(mine) == public_digest(full)
            steps += 1
            if full.result is not None:
                break
    assert full.result is not None and mine.result == full.result


def test_a_seat_engine_with_hidden_faces_follows_the_full_engine() -> None:
    for seed in (1, 2):
        _mirror_hand(seed)
    _mirror_hand(3, TableOptions(pooling=True, declaration=DeclarationMode.TOURNAMENT))


def _check_invariants(state: AmericanState) -> None:
    held = [s for h in state.hands for s in h]
    exposed = [s for ex in state.exposures for e in ex for s in e.slots]
    wall = list(state.wall.live[state.wall.front :])
    everything = held + exposed + list(state.discards) + wall + list(state.pool)
    assert sorted(everything) == list(range(152))  # every tile exactly once
    for seat in SEATS:
        count = state.tile_count(seat)
        if state.step is not CharlestonStep.PLAY:
            assert count == (14 if seat == E else 13)
        elif state.result is None:
            holding = state.stage is not Stage.CALLS and seat == state.turn
            assert count == (14 if holding else 13)
        assert all(
            state.faces[s] != Kind.JOKER or len(e.slots) >= 3
            for e in state.exposures[seat]
            for s in e.slots
        )
    assert not any(state.dead) or state.options.declaration is DeclarationMode.TOURNAMENT


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.booleans(), st.booleans(), st.booleans())
def test_no_sequence_of_legal_actions_reaches_an_invalid_state(
    seed: int, tournament: bool, pooling: bool, hot_wall: bool
) -> None:
    rng = random.Random(seed)
    mode = DeclarationMode.TOURNAMENT if tournament else DeclarationMode.FRIENDLY
    options = TableOptions(declaration=mode, pooling=pooling, hot_wall=hot_wall)
    state, _ = new_hand(
        house_card(), _shuffled(seed), (rng.randint(1, 6), rng.randint(1, 6)), options
    )
    for _ in range(600):
        if state.result is not None:
            break
        actions = [a for seat in SEATS for a in legal_actions(state, seat)]
        assert actions
        if tournament:  # mostly sensible moves, the occasional false declaration
            quiet = [
                a for a in actions if type(a).__name__ not in ("DeclareMahjong", "CallMahjong")
            ]
            actions = quiet if quiet and rng.random() < 0.97 else actions
        state, _ = apply(state, rng.choice(actions))
        _check_invariants(state)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 500), st.integers(1, 20), st.permutations([0, 1, 2, 3]))
def test_a5_the_order_call_answers_arrive_in_never_changes_the_result(
    seed: int, target: int, order: list[int]
) -> None:
    """Bots play to the ``target``-th discard; its answers, in any order, settle alike."""
    rng = random.Random(seed)
    card = house_card()
    state, _ = new_hand(card, _shuffled(seed), (3, 3))
    bots = [AmericanBot(seat, card, rng) for seat in SEATS]
    seen, last = 0, None
    while state.result is None:
        if state.stage is Stage.CALLS and state.last_discard != last:
            seen, last = seen + 1, state.last_discard
            if seen == target:
                break
        seat = seats_to_act(state)[0]
        action = bots[seat].act(state)
        assert action is not None
        state, _ = apply(state, action)
    assume(state.result is None)
    answers = [a for a in (bots[seat].act(state) for seat in seats_to_act(state)) if a is not None]
    finals = []
    for arrangement in (order, sorted(order)):
        final = state
        for index in arrangement:
            if index < len(answers):
                final, _ = apply(final, answers[index])
        finals.append(final)
    assert finals[0] == finals[1]
    assert finals[0].stage is not Stage.CALLS  # the window has resolved


def test_every_seats_view_has_the_same_public_digest_as_the_full_state() -> None:
    card = house_card()
    rng = random.Random(9)
    state, _ = new_hand(card, _shuffled(9), (5, 5), TableOptions(pooling=True))
    bots = [AmericanBot(seat, card, rng) for seat in SEATS]
    step = 0
    while state.result is None:
        seat = seats_to_act(state)[0]
        action = bots[seat].act(state)
        assert action is not None
        state, _ = apply(state, action)
        step += 1
        if step % 7 == 0 or state.result is not None:
            digest = public_digest(state)
            assert all(public_digest(view(state, s)) == digest for s in SEATS)
