"""The card file format and the house card (issue 2 section 3, docs/RULES.md A6)."""

from __future__ import annotations

import pytest

from fourwinds.protocol.american.card import Card, Category, NumberRule
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.compile import compiled, hand_variants
from fourwinds.protocol.errors import CardError
from fourwinds.protocol.notation import format_tiles


def one_hand(
    pattern: str,
    *,
    category: str = "like",
    numbers: str = "-",
    xc: str = "X",
    value: str = "25",
    hand_id: str = "h-1",
) -> str:
    return f"card: test\n{hand_id} | {category} | {value} | {xc} | {numbers} | {pattern} | note\n"


def card_error(text: str) -> CardError:
    with pytest.raises(CardError) as info:
        parse_card(text)
    return info.value


def variant_texts(pattern: str, **kw: str) -> set[str]:
    card = parse_card(one_hand(pattern, **kw))
    return {" ".join(format_tiles(g.kinds) for g in v.groups) for v in hand_variants(card.hands[0])}


# --- the house card -------------------------------------------------------------------------


def test_house_card_has_at_least_50_hands_in_every_a6_category() -> None:
    card = house_card()
    assert len(card.hands) >= 50
    assert {hand.category for hand in card.hands} == set(Category)


def test_house_card_values_run_from_25_to_75_with_some_concealed_hands() -> None:
    card = house_card()
    values = [hand.value for hand in card.hands]
    assert min(values) == 25 and max(values) == 75
    assert all(25 <= v <= 75 for v in values)
    concealed = [hand for hand in card.hands if hand.concealed]
    assert 3 <= len(concealed) < len(card.hands) // 2
    assert sum(1 for v in values if v <= 30) >= 20  # plenty of easier hands for the bots


def test_house_card_ids_are_unique_and_found_by_hand() -> None:
    card = house_card()
    ids = [hand.id for hand in card.hands]
    assert len(set(ids)) == len(ids)
    assert card.hand("2468-1").category is Category.EVENS_2468
    with pytest.raises(KeyError, match="no hand 'nope'"):
        card.hand("nope")


def test_house_card_year_hands_use_the_current_year() -> None:
    years = [hand for hand in house_card().hands if hand.category is Category.YEAR]
    assert years and all("2026" in h.text or ("000" in h.text and "666" in h.text) for h in years)


def test_house_card_is_read_once() -> None:
    assert house_card() is house_card()
    assert compiled(house_card()) is compiled(house_card())


def test_every_house_hand_has_a_concrete_variant_of_14_tiles() -> None:
    for hand in house_card().hands:
        variants = hand_variants(hand)
        assert variants, hand.id
        assert all(sum(v.need) == 14 for v in variants), hand.id


# --- reading the format ---------------------------------------------------------------------


def test_card_fields_are_read() -> None:
    card = parse_card(
        "# a comment\ncard: My 2026 card\n\n"
        "run-1 | run | 30 | C | any | 111a 2222a 333a 4444a | any 4 consecutive | note with |\n"
    )
    assert isinstance(card, Card)
    assert card.name == "My 2026 card"
    hand = card.hands[0]
    assert (hand.id, hand.category, hand.value, hand.concealed) == (
        "run-1",
        Category.CONSECUTIVE,
        30,
        True,
    )
    assert hand.numbers is NumberRule.ANY
    assert hand.text == "111a 2222a 333a 4444a"
    assert hand.note == "any 4 consecutive | note with |"
    assert [g.size for g in hand.groups] == [3, 4, 3, 4]
    assert hand.line == 4


def test_printed_operators_are_ignored() -> None:
    card = parse_card(one_hand("FF 3333a + 5555a = 8888a", category="addition"))
    assert [g.text for g in card.hands[0].groups] == ["FF", "3333a", "5555a", "8888a"]


def test_card_without_a_name_is_named_after_its_source() -> None:
    card = parse_card("h | sp | 50 | C | - | NN EE WW SS 55a 66a 77a | x\n", "mine.card")
    assert card.name == "mine.card"


def test_a6_white_dragon_is_zero_in_a_year_group() -> None:
    assert variant_texts("FFF 2026a 222b 2222c", category="year") >= {
        "FFF 2m5z26m 222p 2222s",
        "FFF 2m5z26m 222s 2222p",
    }


def test_a6_matching_dragons_pair_craks_red_bams_green_dots_white() -> None:
    texts = variant_texts("111a 222a 3333a DDDDa", category="run")
    assert texts == {"111m 222m 3333m 7777z", "111p 222p 3333p 5555z", "111s 222s 3333s 6666z"}


def test_a6_opposite_dragons_are_the_dragons_of_other_suits() -> None:
    texts = variant_texts("111a 222a 3333a DDDDb", category="run")
    assert len(texts) == 6
    assert "111m 222m 3333m 7777z" not in texts
    assert "111m 222m 3333m 6666z" in texts and "111m 222m 3333m 5555z" in texts


def test_a6_three_colours_are_three_different_suits() -> None:
    texts = variant_texts("FF 1111a 2222b 3333c", category="run")
    assert len(texts) == 6
    assert all(len({t[-1] for t in text.split()[1:]}) == 3 for text in texts)


def test_a6_fixed_suit_letters_pin_the_suit() -> None:
    assert variant_texts("FF 1111p 2222a 3333a", category="run") == {
        "FF 1111p 2222m 3333m",
        "FF 1111p 2222s 3333s",
    }


def test_a6_any_like_numbers_moves_every_number_together() -> None:
    texts = variant_texts("FF 1111a 1111b 1111c", numbers="any")
    assert texts == {f"FF {r}{r}{r}{r}m {r}{r}{r}{r}p {r}{r}{r}{r}s" for r in range(1, 10)}


def test_a6_any_consecutive_numbers_stay_within_one_to_nine() -> None:
    texts = variant_texts("11a 222a 3333a 444a 55a", numbers="any", category="run")
    assert len(texts) == 5 * 3
    assert "55m 666m 7777m 888m 99m" in texts


def test_a6_step2_keeps_odds_odd() -> None:
    texts = variant_texts("111a 333a 5555a 7777a", numbers="step2", category="13579")
    assert {t.split()[0][0] for t in texts} == {"1", "3"}


def test_a2_quint_of_numbers_needs_a_joker_at_compile_time() -> None:
    card = parse_card(one_hand("11111a FFFF 11111b", numbers="any", category="quints"))
    assert all(v.min_jokers == 2 for v in hand_variants(card.hands[0]))


# --- errors name the hand, the line, the column and the reason ------------------------------

PATTERN_COLUMN = len("bad-3 | like | 25 | X | - | ") + 1


@pytest.mark.parametrize(
    ("pattern", "offset", "reason"),
    [
        ("FF 1111a 2222b 333Qc", 18, "'Q' in '333Qc' is not a card symbol"),
        ("FF 1111 2222b 3333c", 3, "number '1' in '1111' needs a suit letter"),
        ("FF NNNNa 2222b 3333c", 7, "suit letter 'a' on 'NNNNa'"),
        ("FF 1111a 2222b 333c", 0, "the pattern has 13 tiles, a hand has 14"),
        ("FFFFFFF 2222a 333b", 0, "a group holds at most 6 alike tiles"),
        ("FF 11a 22b 33c 44m 22a 33b", 0, "4 different suit letters"),
        ("FF DDD 2222a 3333b N", 3, "dragon D 'D' in 'DDD' needs a suit letter"),
    ],
)
def test_card_error_names_hand_line_column_and_reason(
    pattern: str, offset: int, reason: str
) -> None:
    error = card_error(one_hand(pattern, hand_id="bad-3"))
    assert (error.hand, error.line, error.column) == ("bad-3", 2, PATTERN_COLUMN + offset)
    assert reason in error.reason
    assert str(error).startswith("line 2, hand bad-3, column ")


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("category", "dragons", "unknown category 'dragons'"),
        ("value", "lots", "value must be a positive whole number"),
        ("xc", "E", "must be X (exposed) or C (concealed)"),
        ("numbers", "odd", "numbers must be '-' (fixed), 'any' or 'step2'"),
    ],
)
def test_card_error_in_a_field(field: str, value: str, reason: str) -> None:
    fields = {"category": "run", "value": "25", "xc": "X", "numbers": "any"} | {field: value}
    text = (
        f"run-9 | {fields['category']:<4} | {fields['value']:<4} | {fields['xc']} | "
        f"{fields['numbers']:<3} | 111a 2222a 333a 4444a | note\n"
    )
    error = card_error(text)
    assert (error.hand, error.line, error.column) == ("run-9", 1, text.index(f" {value} ") + 2)
    assert reason in error.reason


def test_card_error_for_missing_fields() -> None:
    error = card_error("x-1 | run | 25 | X | 111a 2222a 333a 4444a\n")
    assert error.hand == "x-1" and error.line == 1
    assert "expected 7 fields" in error.reason


def test_card_error_for_a_duplicate_id() -> None:
    line = "dup | run | 25 | X | any | 111a 2222a 333a 4444a | n\n"
    error = card_error(line + "\n" + line)
    assert (error.hand, error.line) == ("dup", 3)
    assert "duplicate hand id (first on line 1)" in error.reason


def test_card_error_for_a_hand_no_tiles_can_make() -> None:
    error = card_error(one_hand("NN NN NN EE WW SS FF", category="sp"))
    assert "no set of tiles can make this hand" in error.reason


def test_card_error_for_numbers_rule_without_numbers() -> None:
    error = card_error(one_hand("NNNN EEE WWW SSSS", category="winds", numbers="any"))
    assert "no number tiles" in error.reason


def test_card_error_for_an_empty_card() -> None:
    assert "has no hands" in str(card_error("# nothing here\ncard: empty\n"))


def test_a6_any_wind_letters_are_different_winds_not_named_in_the_hand() -> None:
    assert variant_texts("XXXX YYY ZZZ NNNN", category="winds") == {
        "1111z 222z 333z 4444z",
        "2222z 111z 333z 4444z",
        "3333z 111z 222z 4444z",
    }


def test_exclamation_mark_forbids_jokers_in_a_group() -> None:
    card = parse_card(one_hand("FF 3333a! 5555a 8888a", category="addition"))
    groups = card.hands[0].groups
    assert [g.jokers_allowed for g in groups] == [False, False, True, True]
    assert groups[1].text == "3333a!" and groups[1].size == 4


def test_card_file_with_byte_order_mark_and_windows_line_ends_is_read() -> None:
    card = parse_card(
        "\ufeffcard: saved on windows\r\nw-1 | winds | 25 | X | - | NNNN EEE WWW SSSS | n\r\n"
    )
    assert card.name == "saved on windows"
    assert card.hands[0].id == "w-1" and card.hands[0].note == "n"
