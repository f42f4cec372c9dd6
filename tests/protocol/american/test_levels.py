"""The American bot levels: every level legal, strong holds jokers and does not feed an
exposure, and no level reads a face its seat may not see."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.actions import Action, Call, Discard, ExchangeJoker
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.engine import apply, new_hand, seats_to_act, view, visible_slots
from fourwinds.protocol.american.levels import make_bot
from fourwinds.protocol.american.matcher import NearHand
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.strong import FEED_SHARE, StrongAmericanBot, keep_order
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.american.unseen import opponent_needs
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from testkit.hidden import shuffle_unseen

CARD = house_card()
LEVELS = st.sampled_from(list(BotLevel))
Decision = tuple[AmericanState, Seat, Action, AmericanBot]


def _play(seed: int, seat_levels: list[BotLevel]) -> list[Decision]:
    """A hand with each bot deciding from its seat's view; every decision, each action taken
    by the engine (which refuses an illegal one)."""
    rng = random.Random(seed)
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    state, _ = new_hand(CARD, faces, (rng.randint(1, 6), rng.randint(1, 6)))
    bots = [make_bot(seat, CARD, rng, seat_levels[seat]) for seat in SEATS]
    decided: list[Decision] = []
    for _ in range(3000):
        if state.result is not None:
            return decided
        for seat in seats_to_act(state):
            action = bots[seat].act(view(state, seat))
            if action is None:
                continue
            decided.append((state, seat, action, bots[seat]))
            try:
                state, _ = apply(state, action)
            except IllegalAction as error:
                raise AssertionError(f"{seat_levels[seat]} played {action}: {error}") from None
            if state.result is not None:
                break
    raise AssertionError("the hand did not end")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), seat_levels=st.lists(LEVELS, min_size=4, max_size=4))
def test_every_level_plays_only_legal_actions_to_the_end(
    seed: int, seat_levels: list[BotLevel]
) -> None:
    _play(seed, seat_levels)


def _permute_hidden(state: AmericanState, seat: Seat, rng: random.Random) -> AmericanState:
    return replace(state, faces=shuffle_unseen(state.faces, visible_slots(state, seat), rng))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), level=LEVELS)
def test_no_level_reads_hidden_tiles(seed: int, level: BotLevel) -> None:
    """Given the full state, a fresh bot answers the same when the faces its seat may not
    see (others' concealed tiles, the wall) are permuted."""
    shuffler = random.Random(seed)
    for state, seat, _, _ in _play(seed, [level] * 4)[::9]:
        if state.step is not CharlestonStep.PLAY:
            continue  # others' Charleston passes name their slots: not permuted here
        other = _permute_hidden(state, seat, shuffler)
        first = make_bot(seat, CARD, random.Random(3), level).act(state)
        again = make_bot(seat, CARD, random.Random(3), level).act(other)
        assert first == again


@pytest.mark.slow
def test_strong_holds_jokers_and_does_not_feed_an_exposure() -> None:
    """Over some forty hands: a strong bot never discards a joker while its plan spares another
    tile, and never a tile an exposed opponent's possible lines need often
    (``FEED_SHARE``) while its plan spares one they need less; such choices do arise
    (the normal bot, in the same spots, fed an exposure)."""
    spots = fed_by_normal = 0
    for seed in range(40):
        levels = [BotLevel.STRONG, BotLevel.NORMAL, BotLevel.NORMAL, BotLevel.NORMAL]
        for state, seat, action, bot in _play(seed, levels):
            if seat != Seat.EAST or not isinstance(action, Discard):
                continue
            seen = view(state, seat)
            held = seen.concealed_kinds(seat)
            plan = bot.plan(seen)
            spare = [k for k in plan.surplus if k != Kind.JOKER and k in held]
            assert action.face != Kind.JOKER or not spare
            if state.stage is not Stage.DISCARD:
                continue
            needs = opponent_needs(seen, seat)
            surplus = [k for k in plan.surplus if k != Kind.JOKER]
            if not any(needs.get(k, 0.0) >= FEED_SHARE for k in surplus):
                continue
            if any(needs.get(k, 0.0) < FEED_SHARE for k in surplus):
                spots += 1
                assert needs.get(action.face, 0.0) < FEED_SHARE, (seed, action)
                normal = AmericanBot(seat, CARD, random.Random(0)).act(seen)
                fed_by_normal += (
                    isinstance(normal, Discard) and needs.get(normal.face, 0.0) >= FEED_SHARE
                )
    assert spots > 0 and fed_by_normal > 0


def test_strong_calls_for_an_exposure_as_far_as_the_normal_bot_does() -> None:
    """A strong bot calls with its line up to 6 tiles away, as the normal bot (calling only
    within 4 cost points in the duplicate bench); over a few hands that arises."""
    far_calls = 0
    for seed in range(12):
        levels = [BotLevel.STRONG, BotLevel.NORMAL, BotLevel.NORMAL, BotLevel.NORMAL]
        for state, seat, action, bot in _play(seed, levels):
            if seat == Seat.EAST and isinstance(action, Call):
                distance = bot.plan(view(state, seat)).distance
                assert distance <= 6
                far_calls += distance > 4
    assert far_calls > 0


def test_easy_never_calls_for_an_exposure() -> None:
    for seed in range(6):
        for state, seat, _, _ in _play(seed, [BotLevel.EASY] * 4):
            assert not state.exposures[seat] or state.result is not None


def test_keep_order_lets_go_first_what_no_other_near_line_wants() -> None:
    """Spare copies another near line uses go last, the nearer line's weighing more; the
    others keep their order (loners before pairs) and jokers stay where they were."""
    b1, b2, d3, w = int(Kind.S1), int(Kind.S2), int(Kind.P3), int(Kind.WEST)
    surplus = (b1, b2, d3, w, w)
    need = {w: 1}
    near_line = (1.0, {b2: 2, w: 2})  # uses the B2 and the first spare West
    far_line = (0.25, {d3: 1})
    assert keep_order(surplus, need, [near_line, far_line]) == (b1, w, d3, b2, w)
    assert keep_order(surplus, need, []) == surplus


def test_strong_picks_the_equally_near_line_whose_missing_tiles_are_left() -> None:
    """Of two lines equally near, strong aims for the one whose missing tiles are still
    unseen in numbers (the normal bot takes the card's first); a line it aimed for before
    is kept while it is as near."""
    first, second = CARD.hands[0], CARD.hands[1]
    scarce = NearHand(first, (Kind.S1, Kind.S1), 2, True)
    plenty = NearHand(second, (Kind.P5, Kind.P6), 2, True)
    bot = StrongAmericanBot(Seat.EAST, CARD, random.Random(0))
    bot._unseen = {Kind.S1: 1, Kind.P5: 4, Kind.P6: 4}
    assert AmericanBot(Seat.EAST, CARD, random.Random(0))._pick_near((scarce, plenty)) == scarce
    assert bot._pick_near((scarce, plenty)) == plenty
    bot._unseen = {Kind.S1: 4, Kind.P5: 1, Kind.P6: 1}
    assert bot._pick_near((scarce, plenty)) == plenty  # kept: as near as the best


@pytest.mark.slow
def test_strong_exchanges_a_needed_tile_for_a_joker_where_a_joker_may_stand() -> None:
    """Strong also takes an exposed joker for a tile its line needs (the normal bot only for
    a surplus one), but only a tile needed in groups a joker may fill: its line is no
    further after the exchange. Such an exchange is rare (some 6 hands in 150): these
    forty hands hold three."""
    needed = 0
    for seed in range(110, 150):
        levels = [BotLevel.STRONG, BotLevel.NORMAL, BotLevel.NORMAL, BotLevel.NORMAL]
        for state, seat, action, bot in _play(seed, levels):
            if seat != Seat.EAST or not isinstance(action, ExchangeJoker):
                continue
            plan = bot.plan(view(state, seat))
            if action.face in plan.surplus:
                continue
            needed += 1
            assert all(g.jokers for g in plan.groups if action.face in g.kinds)
            after, _ = apply(state, action)
            fresh = make_bot(seat, CARD, random.Random(0), BotLevel.STRONG)
            assert fresh.plan(view(after, seat)).distance <= plan.distance
    assert needed > 0
