"""The matcher: every category, the joker rules (A2), colours (A6), exposures (A5), nearest."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from fourwinds.protocol.american.card import Card, Category
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.matcher import (
    HandMatch,
    exposures_possible,
    match_hand,
    nearest_hands,
)
from fourwinds.protocol.notation import format_tiles, parse_tiles
from fourwinds.protocol.tiles import Kind

# Winds in notation: 1z East, 2z South, 3z West, 4z North; dragons 5z White, 6z Green, 7z Red.


def t(text: str) -> list[Kind]:
    return parse_tiles(text)


def matches(
    tiles: str, exposures: Sequence[str] = (), card: Card | None = None
) -> tuple[HandMatch, ...]:
    return match_hand(card or house_card(), t(tiles), [t(e) for e in exposures])


def ids(tiles: str, exposures: Sequence[str] = (), card: Card | None = None) -> list[str]:
    return [m.hand.id for m in matches(tiles, exposures, card)]


def small_card(*lines: str) -> Card:
    return parse_card("card: test\n" + "\n".join(lines) + "\n")


# --- one real hand of every category ---------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "hand_id", "tiles"),
    [
        (Category.YEAR, "year-2", "FF 222m 5z5z5z 222p 666s"),
        (Category.EVENS_2468, "2468-1", "222s 444s 6666s 8888s"),
        (Category.LIKE_NUMBERS, "like-1", "FF 7777m 7777p 7777s"),
        (Category.ADDITION, "add-1", "FF 3333p 5555p 8888p"),
        (Category.QUINTS, "quint-5", "4z4z4z4zJ 1z1z1z1z 2z2z2z2zJ"),
        (Category.CONSECUTIVE, "run-1", "555s 6666s 777s 8888s"),
        (Category.ODDS_13579, "odd-1", "333p 555p 7777p 9999p"),
        (Category.WINDS_DRAGONS, "wind-1", "4z4z4z4z 1z1z1z 3z3z3z 2z2z2z2z"),
        (Category.THREE_SIX_NINE, "369-2", "FF 3333m 6666p 9999s"),
        (Category.SINGLES_PAIRS, "sp-1", "1z1z 2z2z 3z3z 4z4z 5z5z 6z6z 7z7z"),
    ],
)
def test_every_category_is_matched_by_a_real_hand(
    category: Category, hand_id: str, tiles: str
) -> None:
    found = matches(tiles)
    assert hand_id in [m.hand.id for m in found]
    match = next(m for m in found if m.hand.id == hand_id)
    assert match.hand.category is category
    assert_assignment_holds(t(tiles), match)


def assert_assignment_holds(tiles: list[Kind], match: HandMatch) -> None:
    """Every real tile has its place in the assignment and the jokers fill exactly the rest."""
    places = [k for group in match.assignment for k in group]
    assert len(places) == len(tiles) == 14
    for kind in tiles:
        if kind != Kind.JOKER:
            places.remove(kind)  # ValueError if the assignment has no place for it
    assert len(places) == tiles.count(Kind.JOKER)


def test_assignment_lists_the_hands_groups_in_card_order() -> None:
    (match,) = [m for m in matches("FF 222m 5z5z5z 222p 666s") if m.hand.id == "year-2"]
    assert [format_tiles(g) for g in match.assignment] in (
        ["FF", "222m", "555z", "222p", "666s"],
        ["FF", "222p", "555z", "222m", "666s"],
    )


def test_wrong_tile_count_makes_no_hand() -> None:
    assert matches("222s 444s 6666s 888s") == ()
    assert matches("222s 444s 6666s 8888s 9s") == ()


def test_tiles_that_are_not_american_make_no_hand() -> None:
    assert matches("222s 444s 6666s 888s 1f") == ()


def test_best_match_first_by_value() -> None:
    card = small_card(
        "low | run | 25 | X | any | 111a 2222a 333a 4444a | n",
        "high | run | 40 | X | - | 111a 2222a 333a 4444a | n",
    )
    assert ids("111m 2222m 333m 4444m", card=card) == ["high", "low"]
    assert ids("222m 3333m 444m 5555m", card=card) == ["low"]


# --- jokers (A2) -------------------------------------------------------------------------------


def test_a2_joker_stands_in_a_pung_kong_or_quint() -> None:
    assert "2468-1" in ids("22J 444s 6666s 8888s".replace("22J", "22sJ"))
    assert "2468-1" in ids("222s 444s 666sJ 8888s")
    assert "quint-1" in ids("FFFFF 4z4z4z4z 9999mJ")


def test_a2_group_may_be_all_jokers() -> None:
    assert "2468-1" in ids("222s 444s JJJJ 8888s")
    assert "2468-1" in ids("222s 444s 8888s", exposures=["JJJJ"])


def test_a2_joker_never_in_a_pair() -> None:
    assert "run-4" in ids("FFF 111m 222m 333m 44m")
    assert "run-4" not in ids("FFF 111m 222m 333m 4mJ")


def test_a2_joker_never_in_a_single() -> None:
    assert "year-1" in ids("FFF 2m5z2m6m 222p 2222s")
    assert "year-1" not in ids("FFF 2m5z2mJ 222p 2222s")


def test_a2_joker_never_in_a_flower_pair() -> None:
    assert "run-2" in ids("FF 1111m 2222p 3333s")
    assert "run-2" not in ids("FJ 1111m 2222p 3333s")


def test_a2_singles_and_pairs_hands_use_no_jokers_even_in_a_pung() -> None:
    pattern = "111a 222a 333a NN EEE | n"
    card = small_card(
        f"sp-x | sp | 50 | C | - | {pattern}", f"run-x | run | 25 | X | - | {pattern}"
    )
    assert ids("111m 222m 333m 4z4z 1z1z1z", card=card) == ["sp-x", "run-x"]
    assert ids("111m 222m 33mJ 4z4z 1z1z1z", card=card) == ["run-x"]


def test_a2_quint_of_numbers_needs_a_joker() -> None:
    card = small_card("q | quints | 40 | X | any | FFFF 11111a 11111b | n")
    assert ids("FFFF 3333mJ 3333pJ", card=card) == ["q"]
    (near,) = nearest_hands(card, t("FFFF 3333m 3333p 2s"), [], 1)
    assert near.distance == 2
    assert near.missing == (Kind.JOKER, Kind.JOKER)  # no fifth 3 exists: only a joker will do


def test_a2_five_flowers_need_no_joker() -> None:
    card = small_card("f | quints | 40 | X | - | FFFFF NNNN EEE SS | n")
    (match,) = matches("FFFFF 4z4z4z4z 1z1z1z 2z2z", card=card)
    assert match.jokerless


def test_a2_sextet_needs_two_jokers() -> None:
    card = small_card("s | quints | 50 | X | any | 111111a FFFF NNNN | n")
    assert ids("1111pJJ FFFF 4z4z4z4z", card=card) == ["s"]
    assert ids("1111pJ1s FFFF 4z4z4z4z", card=card) == []


# --- colours and variables (A6) ----------------------------------------------------------------


def test_a6_one_colour_is_one_suit() -> None:
    assert "run-1" in ids("111m 2222m 333m 4444m")
    assert "run-1" not in ids("111m 2222p 333m 4444m")


def test_a6_two_colours_are_two_different_suits() -> None:
    assert "run-5" in ids("FF 111m 222m 333p 444p")
    assert "run-5" not in ids("FF 111m 222m 333m 444m")


def test_a6_three_colours_are_three_different_suits() -> None:
    assert "369-2" in ids("FF 3333s 6666m 9999p")
    assert "369-2" not in ids("FF 3333s 6666m 9999s")


def test_a6_matching_dragon_craks_red_bams_green_dots_white() -> None:
    assert "369-1" in ids("333m 666m 9999m 7z7z7z7z")
    assert "369-1" in ids("333s 666s 9999s 6z6z6z6z")
    assert "369-1" in ids("333p 666p 9999p 5z5z5z5z")
    assert "369-1" not in ids("333m 666m 9999m 6z6z6z6z")


def test_a6_opposite_dragon() -> None:
    assert "run-3" in ids("FF 111m 222m 333m 6z6z6z")
    assert "run-3" in ids("FF 111m 222m 333m 5z5z5z")
    assert "run-3" not in ids("FF 111m 222m 333m 7z7z7z")


def test_a6_white_dragon_is_zero() -> None:
    assert "year-3" in ids("222s 5z5z5z 2222m 6666p")
    assert "year-3" not in ids("222s 6z6z6z 2222m 6666p")


def test_a6_any_like_numbers() -> None:
    assert "like-1" in ids("FF 1111m 1111p 1111s")
    assert "like-1" in ids("FF 9999m 9999p 9999s")
    assert "like-1" not in ids("FF 9999m 8888p 9999s")


def test_a6_any_consecutive_numbers() -> None:
    assert "run-1" in ids("666s 7777s 888s 9999s")
    assert "run-1" not in ids("666s 7777s 888s 1111s")


def test_a6_consecutive_odds_stay_odd() -> None:
    assert "odd-1" in ids("333p 555p 7777p 9999p")
    assert "odd-1" not in ids("222p 444p 6666p 8888p")
    assert "2468-1" in ids("222p 444p 6666p 8888p")


def test_a6_these_numbers_only() -> None:
    assert "2468-1" not in ids("333p 555p 7777p 9999p")


# --- exposures (A5) and concealed hands ------------------------------------------------------


def test_a5_exposure_is_one_whole_group_of_the_hand() -> None:
    assert "2468-1" in ids("222m 444m 8888m", exposures=["6666m"])
    assert "2468-1" in ids("222m 444m 8888m", exposures=["66mJJ"])
    assert "2468-1" not in ids("222m 444m 6m 8888m", exposures=["666m"])


def test_a5_exposed_jokers_must_be_allowed_in_that_group() -> None:
    assert "run-4" not in ids("FFF 111m 222m 333m", exposures=["4mJ"])


def test_a5_concealed_hand_takes_no_exposure() -> None:
    assert "wind-9" in ids("4z4z4z 2z2z2z FFFF 1z1z1z1z")
    assert "wind-9" not in ids("2z2z2z FFFF 1z1z1z1z", exposures=["4z4z4z"])


def test_a5_singles_are_never_exposed() -> None:
    assert not exposures_possible(house_card(), [t("1z2z3z4z")])
    assert not exposures_possible(house_card(), [t("2m5z2m6m")])


def test_a7_exposures_no_hand_can_use_are_found() -> None:
    card = house_card()
    assert exposures_possible(card, [])
    assert exposures_possible(card, [t("JJJ")])
    assert exposures_possible(card, [t("5p5pJ"), t("6p6p6p")])
    assert not exposures_possible(card, [t("5p5pJ"), t("6p6p6p"), t("1z1z1z")])
    assert not exposures_possible(card, [t("1m2m3m")])
    assert not exposures_possible(card, [t("1mJJJJJ")])


# --- jokerless (A7) ----------------------------------------------------------------------------


def test_a7_jokerless_detected() -> None:
    (match,) = [m for m in matches("222s 444s 6666s 8888s") if m.hand.id == "2468-1"]
    assert match.jokerless
    (match,) = [m for m in matches("222s 444s 666sJ 8888s") if m.hand.id == "2468-1"]
    assert not match.jokerless


def test_a7_a_joker_in_an_exposure_is_not_jokerless() -> None:
    (match,) = [m for m in matches("222s 444s 8888s", ["666sJ"]) if m.hand.id == "2468-1"]
    assert not match.jokerless


# --- nearest hands -------------------------------------------------------------------------------


def test_nearest_complete_hand_is_at_distance_zero() -> None:
    near = nearest_hands(house_card(), t("222s 444s 6666s 8888s"), [], 3)
    assert near[0].hand.id == "2468-1"
    assert (near[0].distance, near[0].missing, near[0].possible) == (0, (), True)


def test_nearest_names_the_missing_tile() -> None:
    near = nearest_hands(house_card(), t("222s 444s 6666s 888s"), [], 5)
    found = {n.hand.id: n for n in near}
    assert found["2468-1"].distance == 1
    assert found["2468-1"].missing == (Kind.S8,)
    assert [n.distance for n in near] == sorted(n.distance for n in near)


def test_nearest_counts_jokers_where_the_hand_allows_them() -> None:
    card = house_card()
    with_joker = {n.hand.id: n for n in nearest_hands(card, t("FFF 111m 222m 333m J"), [], 80)}
    assert with_joker["run-4"].distance == 2  # the joker cannot go in the 44 pair
    assert with_joker["run-4"].missing == (Kind.M4, Kind.M4)
    assert with_joker["run-1"].distance == 4  # FFF are useless; the joker fills 2222
    assert with_joker["run-1"].missing == (Kind.M4,) * 4


def test_nearest_leaves_out_hands_the_exposures_rule_out() -> None:
    card = house_card()
    near = nearest_hands(card, t("222s 444s 888s 1z"), [t("6666s")], 100)
    assert near and all(n.possible for n in near)
    assert all(not n.hand.concealed for n in near)
    assert near[0].hand.id == "2468-1" and near[0].distance == 1
    listed = {n.hand.id for n in near}
    assert "wind-1" not in listed  # no 6666s there


def test_nearest_returns_at_most_n_hands() -> None:
    assert len(nearest_hands(house_card(), t("123456789m1234p"), [], 4)) == 4
    assert nearest_hands(house_card(), t("123456789m1234p"), [], 0) == ()
    assert len(nearest_hands(house_card(), t("123456789m1234p"), [], 999)) == len(
        house_card().hands
    )


def test_nearest_ties_go_to_the_higher_value() -> None:
    near = nearest_hands(house_card(), t("1z1z 2z2z 3z3z 4z4z 5z5z 6z6z 7z"), [], 2)
    assert near[0].hand.id == "sp-1" and near[0].distance == 1


def test_a2_group_marked_no_jokers_refuses_them() -> None:
    card = small_card("a | addition | 30 | X | - | FF 3333a! + 5555a = 8888a | n")
    assert ids("FF 3333p 5555p 8888p", card=card) == ["a"]
    assert ids("FF 333pJ 5555p 8888p", card=card) == []
    assert ids("FF 3333p 555pJ 8888p", card=card) == ["a"]


def test_a6_any_wind() -> None:
    assert "wind-10" in ids("1z1z1z1z 3z3z3z3z 5z5z5z 7z7z7z")
    assert "wind-10" in ids("4z4z4z4z 2z2z2zJ 5z5z5z 6z6z6z")
    assert "quint-6" in ids("3z3z3z3zJ 9999mJ 9999s")
