"""Built-in bots: deterministic, never illegal, aiming at 8-point hands."""

from __future__ import annotations

import random

from fourwinds.protocol.mcr.actions import ClaimWin, FlowersDone, Pass
from fourwinds.protocol.mcr.autoplay import play_hand
from fourwinds.protocol.mcr.bots import choose
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.engine import apply, new_hand
from fourwinds.protocol.mcr.plans import PLANS, plan_distance, standard_distance
from fourwinds.protocol.mcr.state import HandState
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.seats import SEATS

from .rig import discard, rig, tiles

E, S, W, N = SEATS


def counts(text: str) -> tuple[int, ...]:
    c = [0] * 34
    for k in tiles(text):
        c[k] += 1
    return tuple(c)


def bot_hand(seed: int) -> HandState:
    rng = random.Random(seed)
    faces = list(MCR_TILES)
    rng.shuffle(faces)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    state, _ = new_hand(TableOptions(), faces, dice, seed % 4)
    return play_hand(state, rng)


def test_plan_distance_counts_steps_to_a_target() -> None:
    plan = next(p for p in PLANS if p.name == "mixed triple chow 1")
    assert plan_distance(plan, counts("123m123p123s1155z"), ()) == 0  # ready
    assert plan_distance(plan, counts("123m123p12s9s1155z"), ()) == 1
    assert standard_distance(counts("123456789m1122z"), 4) == 0
    seven = next(p for p in PLANS if p.name == "seven pairs")
    assert plan_distance(seven, counts("1122m3344p5566s7z"), ()) == 0


def test_bots_are_deterministic_given_the_rng() -> None:
    assert bot_hand(11) == bot_hand(11)


def test_bots_win_only_with_8_points_and_win_often() -> None:
    wins = 0
    for seed in range(8):
        state = bot_hand(seed)
        assert state.result is not None and sum(state.result.payments) == 0
        if state.result.winner is not None:
            wins += 1
            flowers = sum(n for name, _, n in state.result.fans if name == "Flower Tiles")
            assert state.result.total - flowers >= 8
    assert wins >= 3  # the benchmark measures the share over 100 hands


def test_bot_claims_a_winning_discard_and_passes_a_useless_one() -> None:
    state = rig({E: "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z", N: "123456789m46p55s"})
    state = discard(state, E, "5p")
    rng = random.Random(0)
    assert isinstance(choose(state, N, rng), ClaimWin)
    assert choose(state, E, rng) is None  # its own discard
    west = choose(state, W, rng)
    assert west is not None and west.seat is W


def test_bot_finishes_the_flower_phase() -> None:
    state = rig({}, start=False)
    action = choose(state, E, random.Random(0))
    assert action == FlowersDone(E)
    state, _ = apply(state, action)
    assert choose(state, E, random.Random(0)) is None
    assert choose(rig({}), S, random.Random(0)) is None  # East is on turn


def test_bot_passes_a_discard_it_cannot_use() -> None:
    state = rig({E: "5z 1m9m 1p9p 1s9s 1z2z3z4z 6z7z 5p", W: "123m456p789s1122s"})
    state = discard(state, E, "5z")
    assert choose(state, W, random.Random(0)) == Pass(W)
