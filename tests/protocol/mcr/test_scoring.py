"""docs/RULES.md B5 combination principles and the score_hand contract (errors, partial hands)."""

from __future__ import annotations

import pytest

from fourwinds.protocol.mcr.hand import InvalidHand, Meld, MeldType, meld
from fourwinds.protocol.mcr.scoring import FanScore, WinContext, is_complete, score_hand
from fourwinds.protocol.notation import parse_tile, parse_tiles
from fourwinds.protocol.tiles import Kind
from tests.protocol.mcr.test_fans import fan_counts, melds_of, score


def test_b5_non_repeat_implied_fan_not_counted() -> None:
    fans = fan_counts(score("777z234m9m", "9m", "p555z p666z"))
    assert "Big Three Dragons" in fans
    assert "Dragon Pung" not in fans and "Two Dragon Pungs" not in fans
    assert "Little Three Dragons" not in fans


def test_b5_non_separation_a_set_is_read_one_way_only() -> None:
    # 111 222 333 can be three pungs or three identical chows, never both at once.
    fans = fan_counts(score("111m222m333m5p", "5p", "c789s"))
    assert "Pure Shifted Pungs" in fans
    assert "Pure Triple Chow" not in fans


def test_b5_highest_reading_wins() -> None:
    # Quadruple Chow reading (63) beats the Pure Shifted Pungs + Three Concealed Pungs
    # + Tile Hog x3 reading of the same tiles (60).
    result = score("234p234p234p234p5s", "5s")
    assert "Quadruple Chow" in fan_counts(result)
    assert "Pure Shifted Pungs" not in fan_counts(result)
    assert result.total == 63
    # Pure Terminal Chows (64) beats Seven Pairs + Full Flush for 112233778899 55.
    assert "Pure Terminal Chows" in fan_counts(score("123m123m789m789m5m", "5m"))


def test_b5_highest_reading_seven_pairs_over_weak_chows() -> None:
    fans = fan_counts(score("123m123m123p123p5s", "5s"))
    assert "Seven Pairs" in fans


def test_b5_account_once_four_chows_give_at_most_three_pair_fans() -> None:
    result = score("123m123p123p5s", "5s", "c123m")
    fans = fan_counts(result)
    assert fans.get("Pure Double Chow", 0) + fans.get("Mixed Double Chow", 0) == 3
    assert fans == {"Pure Double Chow": 2, "Mixed Double Chow": 1, "All Chows": 1, "Single Wait": 1}


def test_b5_account_once_three_chow_fan_plus_one_more() -> None:
    fans = fan_counts(score("123m456m789m5s", "5s", "c123p"))
    assert fans["Pure Straight"] == 1
    assert fans["Mixed Double Chow"] == 1
    assert "Short Straight" not in fans and "Two Terminal Chows" not in fans


def test_b5_account_once_pungs() -> None:
    # 222m 222p 555m 555p: two Double Pungs, each pung used once.
    fans = fan_counts(score("555m555p7z", "7z", "p222m p222p"))
    assert fans["Double Pung"] == 2


def test_b5_exclusion_robbing_the_kong_excludes_last_tile() -> None:
    fans = fan_counts(score("67m44z", "8m", "c234m c567p p888s", kong_related=True, last_tile=True))
    assert fans == {"Robbing the Kong": 1}


def test_b5_exclusion_replacement_tile_and_last_draw_exclude_self_drawn() -> None:
    fans = fan_counts(
        score(
            "67m44z", "8m", "c234m c567p k8888s", self_drawn=True, kong_related=True, wall_last=True
        )
    )
    assert fans == {"Out with Replacement Tile": 1, "Last Tile Draw": 1, "Melded Kong": 1}


@pytest.mark.parametrize(
    ("kongs", "fan", "points"),
    [
        ("k2222m k8888p", "Two Melded Kongs", 4),
        ("k2222m K8888p", "Concealed Kong and Melded Kong", 6),
        ("K2222m K8888p", "Two Concealed Kongs", 8),
    ],
)
def test_b5_kong_combinations_4_6_8(kongs: str, fan: str, points: int) -> None:
    result = score("123p567s9m", "9m", kongs)
    named = {name: p for name, p, _count in result.fans}
    assert named[fan] == points
    assert "Melded Kong" not in named and "Concealed Kong" not in named
    assert "Two Concealed Pungs" not in named


def test_b5_single_kongs() -> None:
    assert "Melded Kong" in fan_counts(score("67m44z", "8m", "c234m c567p k8888s"))
    assert "Concealed Kong" in fan_counts(score("67m44z", "8m", "c234m c567p K8888s"))


def test_b5_wait_fan_only_when_exactly_one_tile_completes() -> None:
    # 13m waits only on 2m: Closed Wait.
    assert "Closed Wait" in fan_counts(score("13m44z", "2m", "c234m c567p p888s"))
    # 1113m waits on 2m and 3m: winning on 2m in the middle is no Closed Wait.
    fans = fan_counts(score("1113m", "2m", "c234m c567p p888s"))
    assert "Closed Wait" not in fans
    # 45m waits on 3m and 6m; 4z shanpon: no wait fans at all.
    fans = fan_counts(score("45m44z", "6m", "c234m c567p p888s"))
    assert not {"Edge Wait", "Closed Wait", "Single Wait"} & set(fans)


def test_b5_single_wait_on_pair() -> None:
    assert "Single Wait" in fan_counts(score("456m4z", "4z", "c234m c567p p888s"))


@pytest.mark.parametrize(
    ("hand", "win", "shape"),
    [
        ("1133m5577p22s66z7z", "7z", "Seven Pairs"),
        ("19m19p19s1234567z", "1m", "Thirteen Orphans"),
        ("1112345678999m", "5m", "Nine Gates"),
        ("147m258p369s1237z", "5z", "Lesser Honors and Knitted Tiles"),
        ("1234567z147m258p", "3s", "Greater Honors and Knitted Tiles"),
        ("111m555p999s444z5m", "5m", "Four Concealed Pungs"),
    ],
)
def test_b5_concealed_by_nature_hands_add_no_concealed_hand(
    hand: str, win: str, shape: str
) -> None:
    on_discard = fan_counts(score(hand, win))
    assert shape in on_discard
    assert "Concealed Hand" not in on_discard
    self_drawn = fan_counts(score(hand, win, self_drawn=True))
    assert "Fully Concealed Hand" not in self_drawn
    assert self_drawn["Self-Drawn"] == 1


def test_b5_fully_concealed_hand_instead_of_concealed_hand_and_self_drawn() -> None:
    on_discard = fan_counts(score("123m456m789p234s7z", "7z"))
    assert on_discard["Concealed Hand"] == 1
    self_drawn = fan_counts(score("123m456m789p234s7z", "7z", self_drawn=True))
    assert self_drawn["Fully Concealed Hand"] == 1
    assert "Self-Drawn" not in self_drawn and "Concealed Hand" not in self_drawn


def test_b5_concealed_kong_keeps_the_hand_concealed() -> None:
    assert "Concealed Hand" in fan_counts(score("345m456p9s", "9s", "K2222m K5555s"))
    assert "Concealed Hand" not in fan_counts(score("345m456p9s", "9s", "k2222m K5555s"))


def test_b5_flowers_counted_after_the_8_point_check() -> None:
    result = score("789m234p7s", "7s", "p555z p666z", flowers=2)
    assert result.total == 9  # Two Dragon Pungs 6 + Single Wait 1 + 2 flowers
    assert not result.winning
    assert ("Flower Tiles", 1, 2) in result.fans


def test_b5_chicken_hand_worth_nothing_else_flowers_aside() -> None:
    result = score("67m44z", "8m", "c234m c567p p888s", flowers=1)
    assert fan_counts(result) == {"Chicken Hand": 1, "Flower Tiles": 1}
    assert result.total == 9 and result.winning
    # Self-drawn is a fan, so the same hand self-drawn is no Chicken Hand (and no win).
    drawn = score("67m44z", "8m", "c234m c567p p888s", self_drawn=True)
    assert fan_counts(drawn) == {"Self-Drawn": 1}
    assert not drawn.winning


def test_b5_pung_completed_on_a_discard_is_not_concealed() -> None:
    on_discard = fan_counts(score("555p777s99s44z", "4z", "c234m"))
    assert on_discard["Two Concealed Pungs"] == 1
    self_drawn = fan_counts(score("555p777s99s44z", "4z", "c234m", self_drawn=True))
    assert self_drawn["Three Concealed Pungs"] == 1


def test_b5_winning_tile_read_in_a_chow_keeps_the_pung_concealed() -> None:
    # 111m 23m + 1m on a discard: the 1m may complete 123m, so 111m stays concealed.
    fans = fan_counts(score("111m23m555p777s99s", "1m"))
    assert fans["Three Concealed Pungs"] == 1


def test_b5_pung_of_terminals_or_honors_not_for_seat_prevalent_or_dragons() -> None:
    fans = fan_counts(score("67m44s", "8m", "p111z p999p p555z", seat_wind=0, prevalent_wind=1))
    assert fans["Seat Wind"] == 1
    assert fans["Dragon Pung"] == 1
    assert fans["Pung of Terminals or Honors"] == 1  # only the 999p pung
    both = fan_counts(score("67m44s", "8m", "p222z p999p p555z", seat_wind=1, prevalent_wind=1))
    assert both["Seat Wind"] == 1 and both["Prevalent Wind"] == 1


def test_b5_winning_needs_8_points() -> None:
    assert not score("123p567s9m", "9m", "k2222m k8888p").winning  # 6 points
    assert score("123p567s9m", "9m", "k2222m K8888p").winning  # 8 points


def test_score_hand_incomplete_hand_is_not_an_error() -> None:
    result = score("67m45z", "8m", "c234m c567p p888s")
    assert result == FanScore((), 0, False)


@pytest.mark.parametrize(
    ("hand", "win", "melds", "message"),
    [
        ("67m44z", "8m", "c234m c567p", "needs 7 tiles"),
        ("1111m234p567p789s", "1m", "", "5 copies"),
        ("67m4z1f", "8m", "c234m c567p p888s", "cannot be part of a hand"),
        ("67m44z", "1f", "c234m c567p p888s", "winning tile"),
        ("678m4z", "8m", "c234m c567p p888m", "5 copies of 8m"),
    ],
)
def test_score_hand_rejects_impossible_input(hand: str, win: str, melds: str, message: str) -> None:
    with pytest.raises(InvalidHand, match=message):
        score(hand, win, melds)


def test_score_hand_rejects_bad_context() -> None:
    with pytest.raises(InvalidHand, match="seat_wind"):
        score("67m44z", "8m", "c234m c567p p888s", seat_wind=4)
    with pytest.raises(InvalidHand, match="flowers"):
        score("67m44z", "8m", "c234m c567p p888s", flowers=9)


@pytest.mark.parametrize(
    ("kind", "tiles", "concealed"),
    [
        (MeldType.CHOW, "124m", False),
        (MeldType.CHOW, "789m", True),
        (MeldType.PUNG, "112m", False),
        (MeldType.KONG, "111m", False),
        (MeldType.CHOW, "89m1p", False),
        (MeldType.PUNG, "111f", False),
    ],
)
def test_meld_rejects_bad_sets(kind: MeldType, tiles: str, concealed: bool) -> None:
    with pytest.raises(InvalidHand):
        meld(kind, parse_tiles(tiles), concealed)


def test_meld_sorts_its_tiles() -> None:
    m = Meld(MeldType.CHOW, (Kind.M3, Kind.M1, Kind.M2))
    assert m.tiles == (Kind.M1, Kind.M2, Kind.M3)


def test_is_complete() -> None:
    assert is_complete(melds_of("c234m c567p p888s"), parse_tiles("678m44z"))
    assert not is_complete(melds_of("c234m c567p p888s"), parse_tiles("678m45z"))
    assert is_complete([], parse_tiles("19m19p19s12345677z"))
    with pytest.raises(InvalidHand):
        is_complete([], parse_tiles("19m"))


def test_score_hand_accepts_kinds_and_context_defaults() -> None:
    result = score_hand(
        melds_of("c234m c567p p888s"), parse_tiles("67m44z"), WinContext(parse_tile("8m"))
    )
    assert result.winning and result.total == 8


def test_b5_wait_fans_judge_the_shape_not_the_tiles_left() -> None:
    # 333s 4s 5555s: the shape waits on 4s and on 5s (a fifth 5s cannot come, but the hand
    # is still not a one-tile wait), so winning on 4s in the middle is no Closed Wait.
    fans = fan_counts(score("888p333s5555s", "4s", "c678m"))
    assert "Closed Wait" not in fans
    assert fans["Tile Hog"] == 1


def test_b5_last_tile_follows_the_visible_tiles() -> None:
    # Three 8m in the hand's own pung: the winning 8m is the last one.
    assert "Last Tile" in fan_counts(score("67m44z", "8m", "c234m c567p p888m"))
    # Another 8m hidden in the hand: at most two could be visible, so no Last Tile.
    fans = fan_counts(score("678m8m", "8m", "c234m c567p c123p", last_tile=True))
    assert "Last Tile" not in fans
    assert "Last Tile" in fan_counts(score("67m44z", "8m", "c234m c567p p888s", last_tile=True))


def test_b5_kong_flags_need_a_kong() -> None:
    # Out with Replacement Tile needs a kong of one's own; Robbing the Kong needs the robbed
    # tile's three others on the konger's pung, so the winner holds none of them.
    drawn = fan_counts(
        score("67m44z", "8m", "c234m c567p p888s", self_drawn=True, kong_related=True)
    )
    assert drawn == {"Self-Drawn": 1}
    robbed = fan_counts(score("678m8m", "8m", "c234m c567p c123p", kong_related=True))
    assert "Robbing the Kong" not in robbed
