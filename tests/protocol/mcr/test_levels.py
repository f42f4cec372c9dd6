"""The MCR bot levels: every level legal, strong counts tiles and defends, and no level reads
a face its seat may not see."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.mcr import bots, levels, strong
from fourwinds.protocol.mcr.actions import Discard
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.engine import apply, legal_actions, new_hand, view
from fourwinds.protocol.mcr.hand import MeldType
from fourwinds.protocol.mcr.plans import INF, Counts
from fourwinds.protocol.mcr.state import HandState, MeldRec, Phase, SeatState, evolve, visible_to
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from testkit.hidden import shuffle_unseen

from .rig import rig

E, S, W, N = SEATS
LEVELS = st.sampled_from(list(BotLevel))


def _dealt(seed: int) -> HandState:
    rng = random.Random(seed)
    faces = list(MCR_TILES)
    rng.shuffle(faces)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    state, _ = new_hand(TableOptions(), faces, dice, seed % 4)
    return state


def _play(
    seed: int, seat_levels: list[BotLevel], stop_after: int = 10_000
) -> list[tuple[HandState, Seat]]:
    """Play a hand, each bot deciding from its seat's view; every (state, seat) decided,
    each action checked legal on the full state."""
    state = _dealt(seed)
    rng = random.Random(seed)
    decided: list[tuple[HandState, Seat]] = []
    for _ in range(2000):
        if state.phase is Phase.ENDED or len(decided) >= stop_after:
            break
        for seat in SEATS:
            action = levels.choose(view(state, seat), seat, rng, seat_levels[seat])
            if action is None:
                continue
            assert action in legal_actions(state, seat), (seat_levels[seat], action)
            decided.append((state, seat))
            state, _ = apply(state, action)
            break
    else:
        raise AssertionError("the hand did not end")
    return decided


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), seat_levels=st.lists(LEVELS, min_size=4, max_size=4))
def test_every_level_plays_only_legal_actions_to_the_end(
    seed: int, seat_levels: list[BotLevel]
) -> None:
    _play(seed, seat_levels)


def _permute_hidden(state: HandState, seat: Seat, rng: random.Random) -> HandState:
    """The same state with every face ``seat`` may not see shuffled among those slots."""
    return evolve(state, faces=shuffle_unseen(state.faces, visible_to(state, seat), rng))


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), level=LEVELS)
def test_no_level_reads_hidden_tiles(seed: int, level: BotLevel) -> None:
    """Given the full state (others' tiles and the wall in it), a bot answers the same when
    those hidden faces are permuted: it reads only what its seat may see."""
    shuffler = random.Random(seed)
    for state, seat in _play(seed, [level] * 4)[::7]:
        other = _permute_hidden(state, seat, shuffler)
        assert levels.choose(state, seat, random.Random(1), level) == levels.choose(
            other, seat, random.Random(1), level
        )


def _south_looks_ready(east: str, south_discards: str) -> HandState:
    """South has laid three bamboo melds (a bamboo flush, one tile from ready) and thrown
    ``south_discards``; East is to discard from ``east``."""
    state = rig({E: east, S: "111s456s888s9p" + south_discards})
    hand = state.seats[S].hand
    melds = tuple(
        MeldRec(t, hand[i : i + 3], claimed_from=N)
        for i, t in ((0, MeldType.PUNG), (3, MeldType.CHOW), (6, MeldType.PUNG))
    )
    seats = list(state.seats)
    seats[S] = SeatState(hand=hand[9:10], melds=melds, discards=hand[10:13])
    return evolve(state, seats=(seats[0], seats[1], seats[2], seats[3]))


def test_strong_does_not_feed_a_ready_looking_flush_when_a_safe_tile_exists() -> None:
    state = _south_looks_ready("13579m2468p5s1177z", "1z9m3p")
    normal = bots.choose(state, E, random.Random(0))
    assert isinstance(normal, Discard) and normal.face == Kind.S5  # the loner plans spare
    chosen = strong.choose(view(state, E), E, random.Random(0))
    assert isinstance(chosen, Discard) and chosen in legal_actions(state, E)
    assert not Kind.S1 <= chosen.face <= Kind.S9  # nothing of South's flush suit


def test_strong_keeps_the_discard_with_more_unseen_improving_tiles() -> None:
    state = rig({E: "34589m688p124799s"})
    pos = strong._Position(state, E)
    plans = pos.plans(pos.key, pos.counts)

    def after(kind: Kind) -> tuple[int, int]:
        work = list(pos.counts)
        work[kind] -= 1
        rest: Counts = tuple(work)
        dist, _ = bots._plan_value(rest, pos.key, plans)
        return dist, strong._improving(pos, rest, pos.key, plans, dist)

    normal = bots.choose(state, E, random.Random(0))
    chosen = strong.choose(state, E, random.Random(0))
    assert isinstance(normal, Discard) and isinstance(chosen, Discard)
    assert normal.face == Kind.M9 and chosen.face != normal.face
    (d_normal, n_normal), (d_strong, n_strong) = after(normal.face), after(chosen.face)
    assert d_normal == d_strong and n_strong > n_normal


def _one_from_mixed_triple_chow(dead_wait: bool) -> HandState:
    """East holds 123m 123p 12s 456m 9p 5z and a 9m to let go: one step from a Mixed Triple
    Chow that waits on 3s whatever comes; with ``dead_wait`` South has thrown all four 3s."""
    state = rig({E: "1234569m123p12s9p5z", S: "3333s12345678m1z"})
    if not dead_wait:
        return state
    seats = list(state.seats)
    hand = seats[S].hand
    seats[S] = SeatState(hand=hand[4:], melds=(), discards=hand[:4])
    return evolve(state, seats=(seats[0], seats[1], seats[2], seats[3]))


def test_one_step_from_ready_strong_counts_only_draws_to_a_live_winning_wait() -> None:
    for dead_wait, improving, ready in ((False, 10, 10), (True, 6, 0)):
        state = _one_from_mixed_triple_chow(dead_wait)
        pos = strong._Position(state, E)
        plans = pos.plans(pos.key, pos.counts)
        work = list(pos.counts)
        work[Kind.M9] -= 1
        rest: Counts = tuple(work)
        assert bots._plan_value(rest, pos.key, plans)[0] == 1
        # 3s, 9p and 5z each bring it a step nearer; with every 3s seen, the 9p and the 5z
        # still do (a ready shape), but that shape can only wait on the dead 3s
        assert strong._improving(pos, rest, pos.key, plans, 1) == improving
        assert strong._ready_draws(pos, rest, pos.melds, pos.key, plans) == ready


def test_strong_aims_for_mixed_shifted_chows_the_normal_plans_miss() -> None:
    state = rig({E: "1239m234p345s5677z"})  # 123m 234p 345s: Mixed Shifted Chows
    normal = bots._Position(state, E)
    mine = strong._Position(state, E)
    normal_plans = normal.plans(normal.key, normal.counts)
    strong_plans = mine.plans(mine.key, mine.counts)
    assert all("shifted" not in p.name for p in normal_plans)
    assert [p.name for p in strong_plans] == ["mixed shifted chows mps 1"]
    assert bots._plan_value(mine.counts, mine.key, strong_plans)[0] == 1
    assert bots._plan_value(normal.counts, normal.key, normal_plans)[0] == 3
    chosen = strong.choose(state, E, random.Random(0))
    assert isinstance(chosen, Discard)
    assert chosen.face not in parse_tiles("123m234p345s")


def test_the_draws_strong_skips_would_never_help(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting ways forward, strong tries only the kinds that may help (held, near a held
    suited tile, a plan's fixed tile): over the positions of two hands it counts what trying
    every kind counts."""
    every = 0
    for state, seat in [d for seed in (3, 4) for d in _play(seed, [BotLevel.STRONG] * 4)]:
        if state.phase is not Phase.TURN or state.turn != seat:
            continue
        pos = strong._Position(view(state, seat), seat)
        plans = pos.plans(pos.key, pos.counts)
        for k in (k for k in range(34) if pos.counts[k]):
            work = list(pos.counts)
            work[k] -= 1
            rest: Counts = tuple(work)
            dist = bots._plan_value(rest, pos.key, plans)[0]
            if dist >= INF:
                continue
            counted = []
            for helpers in (
                strong._draws_that_may_help,
                lambda after, _: [t for t in range(34) if after[t] < 4],
            ):
                monkeypatch.setattr(strong, "_draws_that_may_help", helpers)
                ready = (
                    strong._ready_draws(pos, rest, pos.melds, pos.key, plans) if dist == 1 else 0
                )  # counted only one step from ready
                counted.append((strong._improving(pos, rest, pos.key, plans, dist), ready))
                monkeypatch.undo()
            assert counted[0] == counted[1]
            every += 1
    assert every > 100


def test_easy_never_melds_but_still_wins() -> None:
    """Easy claims only to win: over a few hands it lays no claimed meld."""
    for seed in range(4):
        for state, seat in _play(seed, [BotLevel.EASY] * 4):
            assert all(m.claimed_from is None for m in state.seats[seat].melds)
