"""Built-in bots: they play whole hands legally, deterministically, towards card hands."""

from __future__ import annotations

import random
from dataclasses import replace

from fourwinds.protocol.american.actions import CharlestonPass, CourtesyPass
from fourwinds.protocol.american.bots import AmericanBot, run_hand
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.config import (
    DeadPlayer,
    DeclarationMode,
    TableOptions,
)
from fourwinds.protocol.american.engine import new_hand
from fourwinds.protocol.american.state import AmericanState
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, charleston_state


def _hand(seed: int, options: TableOptions | None = None) -> AmericanState:
    rng = random.Random(seed)
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    card = house_card()
    state, _ = new_hand(card, faces, (rng.randint(1, 6), rng.randint(1, 6)), options)
    state, _ = run_hand(state, [AmericanBot(seat, card, rng) for seat in SEATS])
    return state


def test_bots_play_a_hand_to_its_end_and_replay_it_from_the_seed() -> None:
    first, again = _hand(5), _hand(5)
    assert first.result is not None and first == again


def test_bots_mostly_reach_mahjong_on_the_house_card() -> None:
    results = [_hand(seed).result for seed in range(8)]
    winners = [r for r in results if r is not None and r.winner is not None]
    assert len(winners) >= 3  # the benchmark measures the share over 100 hands
    for result in winners:
        assert result.hand_id is not None and sum(result.payments) == 0


def test_a4_bots_never_pass_jokers() -> None:
    state = charleston_state({E: "JJJJ 1m2m3m4m5m6m7m8m9m 1p"})
    bot = AmericanBot(E, state.card, random.Random(0))
    action = bot.act(state)
    assert isinstance(action, (CharlestonPass, CourtesyPass))
    assert all(state.faces[s] != Kind.JOKER for s in action.tiles)


def test_bots_play_under_every_table_option() -> None:
    options = TableOptions(
        hot_wall=True,
        pooling=True,
        dead_player=DeadPlayer.SITS_OUT,
        exchange_from_own_exposure=False,
        declaration=DeclarationMode.TOURNAMENT,
    )
    for seed in (1, 2):
        state = _hand(seed, options)
        assert state.result is not None and not any(state.dead)


def test_a4_bots_short_of_spare_tiles_pass_blind_on_the_first_left() -> None:
    from fourwinds.protocol.american.state import CharlestonStep

    # East holds 2468-1 complete but for one tile: only one spare tile to pass.
    state = charleston_state({E: "222m444m6666m888m1z"})
    state = replace(state, step=CharlestonStep.FIRST_LEFT)
    action = AmericanBot(E, state.card, random.Random(0)).act(state)
    assert isinstance(action, CharlestonPass) and action.blind == 2
    assert state.faces[action.tiles[0]] == Kind.EAST
    cautious = AmericanBot(E, state.card, random.Random(0), blind_passes=False).act(state)
    assert isinstance(cautious, CharlestonPass) and cautious.blind == 0
