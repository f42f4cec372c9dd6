"""Tiles to win and shanten (issue 3 section 2: the hint helper for bots and players)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.mcr.hand import InvalidHand
from fourwinds.protocol.mcr.waits import complete_counts, shanten, tiles_to_win
from fourwinds.protocol.notation import format_tiles, parse_tiles
from fourwinds.protocol.tiles import Kind
from testkit.mcr_hands import random_winning_hand
from tests.protocol.mcr.test_fans import melds_of


def waits(hand: str, melds: str = "") -> str:
    return format_tiles(tiles_to_win(melds_of(melds), parse_tiles(hand)))


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("1112345678999m", "", "123456789m"),  # Nine Gates: any tile of the suit
        ("19m19p19s1234567z", "", "19m19p19s1234567z"),  # Thirteen Orphans, 13-sided
        ("19m19p19s1234566z", "", "7z"),
        ("1133m5577p22s66z7z", "", "7z"),  # Seven Pairs
        ("147m258p369s1234z", "", "567z"),  # Lesser Honors and Knitted Tiles
        ("147m258p369s12s55z", "", "3s"),  # Knitted Straight, edge
        ("67m44z", "c234m c567p p888s", "58m"),
        ("13m44z", "c234m c567p p888s", "2m"),
        ("1113m", "c234m c567p p888s", "23m"),
        ("2345m", "p111z p222z p333z", "25m"),
        ("4z", "c234m c567p p888s c123p", "4z"),
        ("67m45z", "c234m c567p p888s", ""),
    ],
)
def test_tiles_to_win(hand: str, melds: str, expected: str) -> None:
    assert waits(hand, melds) == expected


def test_tiles_to_win_skips_a_tile_the_hand_holds_four_of() -> None:
    # 1111m waits only on a fifth 1m: no tile can complete it.
    assert waits("1111m234p567p789s") == ""
    assert shanten([], parse_tiles("1111m234p567p789s")) == 0


def test_tiles_to_win_rejects_a_wrong_count() -> None:
    with pytest.raises(InvalidHand, match="13 tiles"):
        tiles_to_win([], parse_tiles("123m"))


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("123m456p789s11z22z", "", 0),
        ("123m456p789s11z22z3z", "", -1 + 1),  # 14 tiles, not complete: 0 (discard 3z)
        ("123m456p789s11z222z", "", -1),
        ("19m19p19s1234567z", "", 0),
        ("19m19p19s123456z9s", "", 0),
        ("19m19p19s12345z9s5m", "", 1),
        ("1m3m5m7m9m2p4p6p8p1s3s5s7s", "", 4),
        ("147m258p369s1234z", "", 0),
        ("1133m5577p22s6z7z1z", "", 1),
        ("67m44z", "c234m c567p p888s", 0),
        ("68m4z5z", "c234m c567p p888s", 1),
    ],
)
def test_shanten_known_hands(hand: str, melds: str, expected: int) -> None:
    assert shanten(melds_of(melds), parse_tiles(hand)) == expected


def test_shanten_rejects_a_wrong_count() -> None:
    with pytest.raises(InvalidHand):
        shanten([], parse_tiles("123m"))


def _unlimited_waits(tiles: list[Kind]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    found = []
    for k in range(34):
        counts[k] += 1
        if complete_counts(counts, 0):
            found.append(k)
        counts[k] -= 1
    return found


@st.composite
def near_hands(draw: st.DrawFn) -> list[Kind]:
    """13 concealed tiles: a complete hand minus one tile, with up to two tiles swapped."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    melds, tiles, ctx = random_winning_hand(rng)
    full = [*tiles, ctx.win_tile, *(k for m in melds for k in m.tiles[:3])]
    rng.shuffle(full)
    hand = full[:13]
    for _ in range(draw(st.integers(0, 2))):
        hand[rng.randrange(13)] = Kind(rng.randrange(34))
    return hand


@settings(max_examples=150, deadline=None)
@given(near_hands())
def test_shanten_zero_exactly_when_some_tile_completes(hand: list[Kind]) -> None:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    if max(counts) > 4:
        return
    ready = bool(_unlimited_waits(hand))
    assert (shanten([], hand) == 0) == ready
    found = tiles_to_win([], hand)
    assert set(found) <= set(_unlimited_waits(hand))
    for k in found:
        assert shanten([], [*hand, k]) == -1


@settings(max_examples=100, deadline=None)
@given(near_hands(), st.integers(0, 33))
def test_shanten_drops_by_at_most_one_per_tile(hand: list[Kind], extra: int) -> None:
    if sum(1 for t in hand if t == extra) >= 4 or max(hand.count(t) for t in hand) > 4:
        return
    before = shanten([], hand)
    after = shanten([], [*hand, Kind(extra)])
    assert after >= before - 1
    assert before >= 0
