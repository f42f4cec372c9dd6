"""American engine figures: bot hands per second and the share of hands ending in Mahjong.

Quick (``scripts/bench --quick``): one warm-up hand and one round of 2 hands; the share over
4 hands."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from benchmarks.timing import result
from fourwinds.protocol.american.bots import AmericanBot, run_hand
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.engine import new_hand
from fourwinds.protocol.american.state import AmericanState
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.seats import SEATS

HANDS_TARGET = 20.0  # engine-only bot hands per second
SHARE_TARGET = 0.5  # share of hands ending in Mahjong
SHARE_HANDS = 100
QUICK_SHARE_HANDS = 4


def _play(seed: int) -> AmericanState:
    rng = random.Random(seed)
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    card = house_card()
    state, _ = new_hand(card, faces, (rng.randint(1, 6), rng.randint(1, 6)))
    state, _ = run_hand(state, [AmericanBot(seat, card, rng) for seat in SEATS])
    return state


def bench_hands(quick: bool) -> list[dict[str, object]]:
    """Median rate over three rounds of 20 hands, after 10 warm-up hands (card compiled,
    matcher caches filled, as in any long-running process). The machine is shared, so the
    median of rounds is steadier than one long run."""
    for seed in range(1 if quick else 10):
        _play(seed)
    rates = []
    hands = 2 if quick else 20
    for round_ in range(1 if quick else 3):
        start = time.perf_counter()
        for seed in range(1000 + 20 * round_, 1000 + 20 * round_ + hands):
            _play(seed)
        rates.append(hands / (time.perf_counter() - start))
    rate = statistics.median(rates)
    return [
        result(
            "american-hands",
            rate,
            "hands/s",
            target=HANDS_TARGET,
            met=rate >= HANDS_TARGET,
            rounds=[round(r, 1) for r in rates],
            hands=hands * len(rates),
        )
    ]


def bench_share(quick: bool) -> list[dict[str, object]]:
    wins = 0
    count = QUICK_SHARE_HANDS if quick else SHARE_HANDS
    for seed in range(count):
        state = _play(seed)
        assert state.result is not None
        wins += state.result.winner is not None
    share = wins / count
    return [
        result(
            "american-mahjong-share",
            share,
            "share",
            target=SHARE_TARGET,
            met=share >= SHARE_TARGET,
            hands=count,
        )
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "american-hands": bench_hands,
    "american-mahjong-share": bench_share,
}
