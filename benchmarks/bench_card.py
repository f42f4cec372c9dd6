"""The American card matcher: ``match`` (match_hand, 14 tiles against the whole house card)
and ``nearest`` (nearest_hands, 13 tiles), each over a fixed corpus of winning and non-winning
hands, with a floor measured in the same run (building the count array of the same tiles).

The house card is in card format 2 (issue 16: one printed line per hand, with alternatives
and several number variables, 85 lines); each figure is measured side by side, in the same
run and on the same tiles, with the house card's 74 lines as typed in format 1
(``cards/house-format1.card``): ``format1_us`` and ``ratio_to_format1``. ``load`` is the time
to read and expand the format 2 house card from its text (a player's ``--card FILE``).

Quick (``scripts/bench --quick``): 10 winning and 10 random hands, one round; ``load`` once."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from importlib import resources

from benchmarks.timing import median_seconds, result
from fourwinds.protocol.american.card import Card
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.compile import compiled, copies, forget_expansions
from fourwinds.protocol.american.matcher import match_hand, nearest_hands
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.tiles import Kind, counts

MATCH_TARGET_US = 300.0
NEAREST_TARGET_US = 1000.0
LOAD_TARGET_MS = 1000.0
CORPUS_SEED = 2026
ROUNDS = 5


def format1_card() -> Card:
    """The house card's first 74 lines as typed in card format 1."""
    text = (
        resources.files("fourwinds.cards")
        .joinpath("house-format1.card")
        .read_text(encoding="utf-8")
    )
    return parse_card(text, "house-format1.card")


def corpus() -> list[list[Kind]]:
    """100 winning hands of the format 2 house card (some with jokers) and 100 random
    14-tile hands from the wall."""
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


def _sample(hands: list[list[Kind]], quick: bool) -> list[list[Kind]]:
    """The corpus, or in quick mode its first 10 winning and first 10 random hands."""
    return hands[:10] + hands[100:110] if quick else hands


def _median_us(
    fn: Callable[[Sequence[Kind]], object], hands: list[list[Kind]], rounds: int = ROUNDS
) -> float:
    for tiles in hands[:20]:
        fn(tiles)  # warm up (the card is compiled and cached on first use)
    samples = []
    for _ in range(rounds):
        for tiles in hands:
            start = time.perf_counter()
            fn(tiles)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def _bench(
    name: str,
    target: float,
    fn: Callable[[Card, Sequence[Kind]], object],
    hands: list[list[Kind]],
    quick: bool,
) -> list[dict[str, object]]:
    card, old = house_card(), format1_card()
    rounds = 1 if quick else ROUNDS
    floor = _median_us(counts, hands, rounds)
    value = _median_us(lambda tiles: fn(card, tiles), hands, rounds)
    before = _median_us(lambda tiles: fn(old, tiles), hands, rounds)
    return [
        result(
            name,
            value,
            "us",
            target=target,
            met=value <= target,
            floor_us=round(floor, 3),
            floor="count array of the same tiles",
            ratio=round(value / floor, 1) if floor else None,
            hands=len(hands),
            card_format=2,
            lines=len(card.hands),
            variants=len(compiled(card).variants),
            format1_us=round(before, 3),
            format1_lines=len(old.hands),
            format1_variants=len(compiled(old).variants),
            ratio_to_format1=round(value / before, 2) if before else None,
        )
    ]


def bench_match(quick: bool) -> list[dict[str, object]]:
    hands = _sample(corpus(), quick)
    winners = sum(1 for tiles in hands if match_hand(house_card(), tiles, ()))
    lines = _bench(
        "match", MATCH_TARGET_US, lambda card, tiles: match_hand(card, tiles, ()), hands, quick
    )
    lines[0]["winning_hands"] = winners
    return lines


def bench_nearest(quick: bool) -> list[dict[str, object]]:
    hands = [tiles[:13] for tiles in _sample(corpus(), quick)]
    return _bench(
        "nearest",
        NEAREST_TARGET_US,
        lambda card, tiles: nearest_hands(card, tiles, (), 5),
        hands,
        quick,
    )


def bench_load(quick: bool) -> list[dict[str, object]]:
    text = resources.files("fourwinds.cards").joinpath("house.card").read_text(encoding="utf-8")

    def load() -> None:
        forget_expansions()
        compiled(parse_card(text, "house.card"))

    value = median_seconds(load, repeat=1 if quick else 5, warmup=0 if quick else 1) * 1e3
    return [
        result(
            "load",
            value,
            "ms",
            target=LOAD_TARGET_MS,
            met=value <= LOAD_TARGET_MS,
            what="read and expand the format 2 house card from its text",
        )
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "match": bench_match,
    "nearest": bench_nearest,
    "load": bench_load,
}
