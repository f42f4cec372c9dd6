"""The American card matcher: ``match`` (match_hand, 14 tiles, whole house card) and
``nearest`` (nearest_hands, 13 tiles), each over a fixed corpus of winning and non-winning
hands, with a floor measured in the same run: building the count array of the same tiles."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

from benchmarks.timing import result
from fourwinds.protocol.american.card import house_card
from fourwinds.protocol.american.compile import compiled, copies
from fourwinds.protocol.american.matcher import match_hand, nearest_hands
from fourwinds.protocol.tiles import AMERICAN_TILES, Kind, counts

MATCH_TARGET_US = 300.0
NEAREST_TARGET_US = 1000.0
CORPUS_SEED = 2026
ROUNDS = 5


def corpus() -> list[list[Kind]]:
    """100 winning hands (some with jokers) and 100 random 14-tile hands from the wall."""
    rng = random.Random(CORPUS_SEED)
    variants = compiled(house_card()).variants
    hands: list[list[Kind]] = []
    for variant in rng.sample(list(variants), 100):
        tiles: list[Kind] = []
        for group in variant.groups:
            for kind in group.kinds:
                over = tiles.count(kind) >= copies(kind)
                joker = group.jokers and (over or rng.random() < 0.15)
                tiles.append(Kind.JOKER if joker else kind)
        rng.shuffle(tiles)
        hands.append(tiles)
    for _ in range(100):
        wall = list(AMERICAN_TILES)
        rng.shuffle(wall)
        hands.append(wall[:14])
    return hands


def _median_us(fn: Callable[[Sequence[Kind]], object], hands: list[list[Kind]]) -> float:
    for tiles in hands[:20]:
        fn(tiles)  # warm up (the card is compiled and cached on first use)
    samples = []
    for _ in range(ROUNDS):
        for tiles in hands:
            start = time.perf_counter()
            fn(tiles)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def _bench(name: str, target: float, fn: Callable[[Sequence[Kind]], object],
           hands: list[list[Kind]]) -> list[dict[str, object]]:
    floor = _median_us(counts, hands)
    value = _median_us(fn, hands)
    return [result(name, value, "us", target=target, met=value <= target,
                   floor_us=round(floor, 3), floor="count array of the same tiles",
                   ratio=round(value / floor, 1) if floor else None, hands=len(hands))]


def bench_match() -> list[dict[str, object]]:
    card = house_card()
    hands = corpus()
    winners = sum(1 for tiles in hands if match_hand(card, tiles, ()))
    lines = _bench("match", MATCH_TARGET_US, lambda tiles: match_hand(card, tiles, ()), hands)
    lines[0]["winning_hands"] = winners
    return lines


def bench_nearest() -> list[dict[str, object]]:
    card = house_card()
    hands = [tiles[:13] for tiles in corpus()]
    return _bench("nearest", NEAREST_TARGET_US,
                  lambda tiles: nearest_hands(card, tiles, (), 5), hands)


BENCHES: dict[str, Callable[[], list[dict[str, object]]]] = {
    "match": bench_match,
    "nearest": bench_nearest,
}
