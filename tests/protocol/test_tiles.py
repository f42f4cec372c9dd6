"""Tile kinds, tile sets and notation (issue 2, section 2)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.notation import (
    TileParseError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_code,
    tile_glyph,
    tile_name,
)
from fourwinds.protocol.tiles import NUMBER_SUITS, Kind, Suit, number_kind, rank_of, suit_of


def test_a1_american_set_has_152_tiles_in_the_listed_counts() -> None:
    kinds = Counter(AMERICAN_TILES)
    assert len(AMERICAN_TILES) == 152
    numbers = (Suit.CRAKS, Suit.DOTS, Suit.BAMS)
    assert sum(n for k, n in kinds.items() if suit_of(k) in numbers) == 108
    assert sum(n for k, n in kinds.items() if suit_of(k) is Suit.WIND) == 16
    assert sum(n for k, n in kinds.items() if suit_of(k) is Suit.DRAGON) == 12
    assert kinds[Kind.FLOWER] == 8
    assert kinds[Kind.JOKER] == 8


def test_b1_mcr_set_has_144_tiles_with_unique_flowers_and_seasons() -> None:
    kinds = Counter(MCR_TILES)
    assert len(MCR_TILES) == 144
    for bonus in range(Kind.FLOWER_1, Kind.SEASON_4 + 1):
        assert kinds[Kind(bonus)] == 1
    assert Kind.JOKER not in kinds and Kind.FLOWER not in kinds


def test_parse_runs_of_digits_and_honours() -> None:
    assert parse_tiles("123m55p789s") == [
        Kind.M1,
        Kind.M2,
        Kind.M3,
        Kind.P5,
        Kind.P5,
        Kind.S7,
        Kind.S8,
        Kind.S9,
    ]
    assert parse_tiles("1z 7z, F J 1f 8f") == [
        Kind.EAST,
        Kind.RED,
        Kind.FLOWER,
        Kind.JOKER,
        Kind.FLOWER_1,
        Kind.SEASON_4,
    ]


def test_parse_error_names_the_token_and_column() -> None:
    with pytest.raises(TileParseError) as info:
        parse_tiles("123m 8z")
    assert info.value.token == "8z"
    assert info.value.column == 6
    with pytest.raises(TileParseError) as info:
        parse_tiles("12m Q")
    assert info.value.token == "Q" and info.value.column == 5
    with pytest.raises(TileParseError, match="followed by"):
        parse_tiles("123")


def test_codes_glyphs_and_names() -> None:
    assert tile_code(Kind.P5) == "5p" and tile_code(Kind.WHITE) == "5z"
    assert tile_glyph(Kind.EAST) == "\U0001f000"
    assert tile_glyph(Kind.M1) == "\U0001f007"
    assert tile_glyph(Kind.S1) == "\U0001f010"
    assert tile_glyph(Kind.P9) == "\U0001f021"
    assert tile_name(Kind.M3) == "3 Crak" and tile_name(Kind.GREEN) == "Green Dragon"
    assert parse_tile(tile_glyph(Kind.RED)) == Kind.RED


def test_number_kind_round_trip() -> None:
    for suit in (Suit.CRAKS, Suit.DOTS, Suit.BAMS):
        for rank in range(1, 10):
            kind = number_kind(suit, rank)
            assert suit_of(kind) is suit and rank_of(kind) == rank
    with pytest.raises(ValueError):
        number_kind(Suit.WIND, 1)


real_kinds = st.sampled_from([k for k in Kind if k != Kind.HIDDEN])


@given(st.lists(real_kinds, max_size=20))
def test_format_then_parse_is_identity(kinds: list[Kind]) -> None:
    assert parse_tiles(format_tiles(kinds)) == kinds
    assert parse_tiles(format_tiles(kinds, compact=False)) == kinds


def test_a1_matching_dragons_craks_red_dots_white_bams_green() -> None:
    from fourwinds.protocol.american.compile import DRAGON_OF_SUIT

    assert [DRAGON_OF_SUIT[NUMBER_SUITS.index(s)] for s in NUMBER_SUITS] == [
        Kind.RED,
        Kind.WHITE,
        Kind.GREEN,
    ]


def test_a1_white_dragon_also_serves_as_zero_in_notation_names() -> None:
    assert parse_tile("5z") == Kind.WHITE and tile_name(Kind.WHITE) == "White Dragon"
    assert suit_of(Kind.WHITE) is Suit.DRAGON
