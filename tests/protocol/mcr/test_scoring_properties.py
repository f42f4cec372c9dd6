"""Property tests of the fan calculator on random winning hands (hypothesis)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.mcr.fans import EXCLUSION_TABLE, FAN_NAME, FAN_POINTS
from fourwinds.protocol.mcr.hand import MeldType
from fourwinds.protocol.mcr.scoring import (
    is_complete,
    score_hand,
    shanten,
    tiles_to_win,
)
from testkit.mcr_hands import Hand, random_winning_hand
from tests.protocol.mcr.test_fans import fan_counts, score


def winning_hands() -> st.SearchStrategy[Hand]:
    return st.integers(0, 2**32).map(lambda seed: random_winning_hand(random.Random(seed)))


@settings(max_examples=150, deadline=None)
@given(winning_hands(), st.randoms(use_true_random=False))
def test_b5_total_never_changes_when_tiles_are_reordered(hand: Hand, rng: random.Random) -> None:
    melds, tiles, ctx = hand
    result = score_hand(melds, tiles, ctx)
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    reordered_melds = list(reversed(melds))
    assert score_hand(reordered_melds, shuffled, ctx) == result


@settings(max_examples=150, deadline=None)
@given(winning_hands())
def test_b5_complete_hands_score_consistently(hand: Hand) -> None:
    melds, tiles, ctx = hand
    assert is_complete(melds, [*tiles, ctx.win_tile])
    assert ctx.win_tile in tiles_to_win(melds, tiles)
    assert shanten(melds, tiles) == 0
    assert shanten(melds, [*tiles, ctx.win_tile]) == -1
    result = score_hand(melds, tiles, ctx)
    assert result.fans, "a complete hand always scores something (at least Chicken Hand)"
    assert result.total == sum(points * count for _name, points, count in result.fans)
    without_flowers = result.total - ctx.flowers
    assert result.winning == (without_flowers >= 8)
    names = fan_counts(result)
    for fan, excluded in EXCLUSION_TABLE:
        if FAN_NAME[fan] in names:
            assert not {FAN_NAME[e] for e in excluded} & set(names), FAN_NAME[fan]
    if "Chicken Hand" in names:
        assert set(names) <= {"Chicken Hand", "Flower Tiles"}


@settings(max_examples=100, deadline=None)
@given(winning_hands())
def test_b5_flowers_only_add_their_own_points(hand: Hand) -> None:
    melds, tiles, ctx = hand
    bare = score_hand(melds, tiles, replace(ctx, flowers=0))
    flowered = score_hand(melds, tiles, replace(ctx, flowers=4))
    assert flowered.total == bare.total + 4
    assert flowered.winning == bare.winning
    assert ("Flower Tiles", FAN_POINTS[FAN_NAME.index("Flower Tiles")], 4) in flowered.fans


# Removing (changing) the tile that defines a fan removes that fan.
@pytest.mark.parametrize(
    ("fan", "with_fan", "without_fan"),
    [
        (
            "Dragon Pung",
            ("67m44z", "8m", "c234m c567p p555z"),
            ("67m44z", "8m", "c234m c567p p555s"),
        ),
        (
            "All Simples",
            ("67m44s", "8m", "c234m c567p p888s"),
            ("67m11s", "8m", "c234m c567p p888s"),
        ),
        ("Tile Hog", ("67m44z", "8m", "c234m c567p p777m"), ("67m44z", "8m", "c234m c567p p111s")),
        ("Half Flush", ("123p67p99p", "8p", "c123p p555z"), ("123p67p99p", "8p", "c123p p555s")),
        ("Mixed Straight", ("123m456p789s1z", "1z", "c234m"), ("123m456p678s1z", "1z", "c234m")),
        ("Pure Straight", ("123m456m789m1p", "1p", "c789s"), ("123m456m678m1p", "1p", "c789s")),
        ("Seven Pairs", ("1133m5577p22s66z7z", "7z", ""), ("1133m5577p22s66z7z", "6z", "")),
        ("Edge Wait", ("12m44z", "3m", "c234m c567p p888s"), ("23m44z", "1m", "c234m c567p p888s")),
        ("Big Three Winds", ("111z222z333z5p", "5p", "c234m"), ("111z222z555z5p", "5p", "c234m")),
        ("All Green", ("234s234s666s66z88s", "6z", ""), ("234s234s666s77z88s", "7z", "")),
    ],
)
def test_b5_changing_the_defining_tile_removes_the_fan(
    fan: str, with_fan: tuple[str, str, str], without_fan: tuple[str, str, str]
) -> None:
    assert fan in fan_counts(score(*with_fan))
    result = score(*without_fan)
    assert fan not in fan_counts(result)


def test_meld_type_values_match_the_jsonl_names() -> None:
    assert [m.value for m in MeldType] == ["chow", "pung", "kong"]
