"""Botzone tile names and seat ids (protocol/mcr/botzone/tiles.py): every MCR tile and every seat
goes there and back unchanged; the names follow the platform's convention."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.mcr.botzone.tiles import (
    BOTZONE_TILES,
    TileNameError,
    from_botzone,
    is_flower,
    seat_id,
    to_botzone,
    wind_of_id,
)
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.notation import tile_code

MCR_CODES = sorted({tile_code(kind) for kind in MCR_TILES})


@given(st.sampled_from(MCR_CODES))
def test_every_tile_goes_there_and_back(code: str) -> None:
    name = to_botzone(code)
    assert from_botzone(name) == code
    assert is_flower(code) == name.startswith("H")


@given(st.sampled_from(BOTZONE_TILES))
def test_every_botzone_name_comes_back(name: str) -> None:
    assert to_botzone(from_botzone(name)) == name


@given(st.integers(min_value=0, max_value=3))
def test_every_seat_goes_there_and_back(wind: int) -> None:
    assert wind_of_id(seat_id(wind)) == wind
    assert seat_id(wind_of_id(wind)) == wind


def test_the_two_sets_of_names_match_one_to_one() -> None:
    assert len(MCR_CODES) == len(BOTZONE_TILES) == 42
    assert sorted(to_botzone(code) for code in MCR_CODES) == sorted(BOTZONE_TILES)


def test_the_platform_convention() -> None:
    """W characters, B dots, T bamboo; F1-F4 the winds East to North; J1 red, J2 green,
    J3 white; H1-H4 the seasons."""
    assert [to_botzone(c) for c in ("1m", "9m", "5p", "7s")] == ["W1", "W9", "B5", "T7"]
    assert [to_botzone(f"{w}z") for w in range(1, 5)] == ["F1", "F2", "F3", "F4"]
    assert [to_botzone(c) for c in ("7z", "6z", "5z")] == ["J1", "J2", "J3"]
    assert [to_botzone(f"{s}f") for s in range(5, 9)] == ["H1", "H2", "H3", "H4"]


@given(st.text(max_size=4).filter(lambda text: text not in BOTZONE_TILES))
def test_anything_else_is_no_tile_name(text: str) -> None:
    with pytest.raises(TileNameError):
        from_botzone(text)


@pytest.mark.parametrize("bad", ["J", "F", "?", "0m", "8z", "w1"])
def test_codes_and_names_outside_the_set_are_refused(bad: str) -> None:
    with pytest.raises(TileNameError):
        to_botzone(bad)
    with pytest.raises(TileNameError):
        from_botzone(bad)


@pytest.mark.parametrize("bad", [-1, 4, 7])
def test_seats_outside_0_to_3_are_refused(bad: int) -> None:
    with pytest.raises(ValueError):
        seat_id(bad)
    with pytest.raises(ValueError):
        wind_of_id(bad)
