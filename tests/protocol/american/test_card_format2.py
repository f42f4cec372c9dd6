"""Card format 2 (issue 16): one printed line = one hand id, for every construct a printed
card uses; each construct's concrete hands equal the union of the format 1 lines it replaces
(both written here), errors name line, hand, column and what was expected, and the format 1
house card still loads and makes the same hands."""

from __future__ import annotations

from importlib import resources

import pytest

from fourwinds.protocol.american.actions import CallMahjong, DeclareMahjong
from fourwinds.protocol.american.card import Card, CardHand, Category, ValueRule, section_category
from fourwinds.protocol.american.cardfile import house_card, parse_card, read_card
from fourwinds.protocol.american.compile import hand_variants
from fourwinds.protocol.american.engine import apply
from fourwinds.protocol.american.events import MahjongDeclared
from fourwinds.protocol.american.matcher import exposures_possible, match_hand, nearest_hands
from fourwinds.protocol.american.table_view import _near, made, made_text
from fourwinds.protocol.errors import CardError
from fourwinds.protocol.notation import format_tiles, parse_tiles
from fourwinds.protocol.tiles import Kind

from .engine_fixtures import E, N, answer_rest, discard, play_state


def card2(*lines: str, section: str = "Test hands") -> Card:
    return parse_card("format: 2\ncard: test\nsection: " + section + "\n" + "\n".join(lines) + "\n")


def card1(*lines: str) -> Card:
    return parse_card("card: test\n" + "\n".join(lines) + "\n")


def line2(
    pattern: str, vary: str = "-", *, value: str = "25", xc: str = "X", hand_id: str = "h-1"
) -> str:
    return f"{hand_id} | {value} | {xc} | {vary} | {pattern} | note"


def concrete(hand: CardHand) -> set[tuple[tuple[tuple[Kind, ...], bool], ...]]:
    """A line's concrete hands as sorted groups (kinds, jokers allowed)."""
    return {
        tuple(sorted((tuple(sorted(g.kinds)), g.jokers) for g in v.groups))
        for v in hand_variants(hand)
    }


def union(card: Card) -> set[tuple[tuple[tuple[Kind, ...], bool], ...]]:
    out: set[tuple[tuple[tuple[Kind, ...], bool], ...]] = set()
    for hand in card.hands:
        out |= concrete(hand)
    return out


def texts(hand: CardHand) -> set[str]:
    return {" ".join(format_tiles(g.kinds) for g in v.groups) for v in hand_variants(hand)}


# --- every construct equals the format 1 lines it replaces -----------------------------------

EQUIVALENT = [
    pytest.param(  # alternatives on one line
        line2("FF 222a 444a 666a 888b or FF 444a 666a 888a 222b"),
        [
            "a | 2468 | 25 | X | - | FF 222a 444a 666a 888b | n",
            "b | 2468 | 25 | X | - | FF 444a 666a 888a 222b | n",
        ],
        12,
        id="alternatives",
    ),
    pytest.param(  # a list of alternatives: 2 + 7, 3 + 6 or 4 + 5 = 9
        line2("FF 2222a + 7777a = 9999a -or- FF 3333a + 6666a = 9999a or FF 4444a + 5555a = 9999a"),
        [
            "a | addition | 25 | X | - | FF 2222a 7777a 9999a | n",
            "b | addition | 25 | X | - | FF 3333a 6666a 9999a | n",
            "c | addition | 25 | X | - | FF 4444a 5555a 9999a | n",
        ],
        9,
        id="or-list",
    ),
    pytest.param(  # any 1 or 2 suits
        line2("FF 11a 222a 333b 4444b", "any suits=1,2"),
        [
            "a | run | 25 | X | any | FF 11a 222a 333b 4444b | n",
            "b | run | 25 | X | any | FF 11a 222a 333a 4444a | n",
        ],
        6 * 6 + 6 * 3,
        id="suits12",
    ),
    pytest.param(  # any 1 or 3 suits: never exactly 2
        line2("NEWS 111a 2222b 333c", "any suits=1,3"),
        [
            "a | run | 25 | X | any | NEWS 111a 2222b 333c | n",
            "b | run | 25 | X | any | NEWS 111a 2222a 333a | n",
        ],
        7 * 6 + 7 * 3,
        id="suits13",
    ),
    pytest.param(  # kongs of 3, 6 or 9
        line2("FFFF 3333a 3333b 33c", "3,6,9"),
        [f"{n} | 369 | 25 | X | - | FFFF {n * 4}a {n * 4}b {n * 2}c | n" for n in "369"],
        9,
        id="number-set",
    ),
    pytest.param(  # a range of numbers
        line2("FF 1111a 1111b 1111c", "2-4"),
        [f"{n} | like | 25 | X | - | FF {n * 4}a {n * 4}b {n * 4}c | n" for n in "234"],
        3,
        id="number-range",
    ),
    pytest.param(  # any dragon, whatever the suits of the numbers
        line2("11111a 22222b DDDD", "any"),
        [f"{d} | quints | 45 | X | any | 11111a 22222b {d * 4} | n" for d in "RG0"],
        8 * 6 * 3,
        id="any-dragon",
    ),
    pytest.param(  # part fixed, part "any like odd number"
        line2("FFFF 369a 369b 1111c@k", "k=odd"),
        [f"{n} | 369 | 25 | X | - | FFFF 369a 369b {n * 4}c | n" for n in "13579"],
        5 * 3,
        id="fixed-and-odd",
    ),
    pytest.param(  # like even pairs beside a fixed run
        line2("123456a 22b@k 22c@k NN SS", "k=even", xc="C"),
        [f"{n} | sp | 50 | C | - | 123456a {n * 2}b {n * 2}c NN SS | n" for n in "2468"],
        4 * 3,
        id="fixed-and-even-pairs",
    ),
    pytest.param(  # two independent variables with their own ranges
        line2("111a 111b 2222c@k 3333c@k", "any k=any"),
        [
            f"{n}{k} | like | 25 | X | - | {n * 3}a {n * 3}b {k * 4}c {str(int(k) + 1) * 4}c | n"
            for n in "123456789"
            for k in "12345678"
        ],
        9 * 8 * 3,
        id="two-variables",
    ),
    pytest.param(  # the pair's place in a run, kongs matching the pair
        line2("FFFF 112345a@p 1111b@p", "any p=pos"),
        [
            f"{s}{p} | run | 25 | X | - | FFFF {''.join(str(s + i) for i in range(5))}a "
            f"{str(s + p) * 4}b {s + p!s}a | n"
            for s in range(1, 6)
            for p in range(5)
        ],
        25 * 6,
        id="pair-in-run",
    ),
]


@pytest.mark.parametrize(("line", "format1", "count"), EQUIVALENT)
def test_a_format2_line_makes_exactly_the_hands_of_the_format1_lines(
    line: str, format1: list[str], count: int
) -> None:
    new = card2(line)
    old = card1(*format1)
    assert len(new.hands) == 1 and new.hands[0].id == "h-1"
    tiles_new = {tuple(sorted(k for g in key for k in g[0])) for key in concrete(new.hands[0])}
    tiles_old = {tuple(sorted(k for g in key for k in g[0])) for key in union(old)}
    assert tiles_new == tiles_old
    assert len(hand_variants(new.hands[0])) == count


def test_the_pair_in_a_run_is_a_pair_and_singles_without_jokers() -> None:
    hand = card2(line2("FFFF 112345a@p 1111b@p", "any p=pos")).hands[0]
    shapes = {
        tuple(sorted((len(g.kinds), g.jokers) for g in v.groups)) for v in hand_variants(hand)
    }
    assert shapes == {((2, False), (4, False), (4, True), (4, True))}
    assert "FFFF 33m 1245m 3333p" in texts(hand)


def test_alternatives_keep_their_text_column_and_index() -> None:
    text = (
        "format: 2\nsection: 2468\nh | 25 | X | - | FF 222a 444a 666a 888b or FF "
        "444a 666a 888a 222b | n\n"
    )
    hand = parse_card(text).hands[0]
    first, second = hand.alternatives
    assert first.text == "FF 222a 444a 666a 888b" and second.text == "FF 444a 666a 888a 222b"
    assert text.splitlines()[2][second.column - 1 :].startswith("FF 444a")
    assert {v.alternative for v in hand_variants(hand)} == {0, 1}
    assert hand.alternative_label(1) == "alternative 2 of 2"
    assert hand.text == "FF 222a 444a 666a 888b or FF 444a 666a 888a 222b"


# --- jokers (A2) -----------------------------------------------------------------------------


def test_jokers_where_allowed_never_in_singles_pairs_or_singles_and_pairs() -> None:
    card = card2(
        line2("FFFF 3333a 3333b 33c", "3,6,9"),
        line2("NEWS 111a 2222b 333c", "any suits=1,3", hand_id="h-2"),
    )
    kongs = card.hands[0]
    assert all(
        [g.jokers for g in v.groups] == [True, True, True, False] for v in hand_variants(kongs)
    )
    assert all(
        not g.jokers
        for v in hand_variants(card.hands[1])
        for g in v.groups
        if len(g.kinds) < 3 or len(set(g.kinds)) > 1
    )
    assert [m.hand.id for m in match_hand(card, parse_tiles("FFFF 666mJ 6666p 66s"), [])] == ["h-1"]
    assert match_hand(card, parse_tiles("FFFF 6666m 6666p 6sJ"), []) == ()  # not in a pair
    sp = card2(
        line2("123456a 22b@k 22c@k NN SS", "k=even", xc="C", value="50"),
        section="Singles and Pairs",
    )
    assert sp.hands[0].category is Category.SINGLES_PAIRS
    assert match_hand(sp, parse_tiles("123456m 44p 44s 4zJ 2z2z"), []) == ()
    assert [m.hand.id for m in match_hand(sp, parse_tiles("123456m 44p 44s 4z4z 2z2z"), [])] == [
        "h-1"
    ]


# --- sections --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "category"),
    [
        ("2026", Category.YEAR),
        ("Year", Category.YEAR),
        ("2468", Category.EVENS_2468),
        ("Any Like Numbers", Category.LIKE_NUMBERS),
        ("Addition / Multiplication", Category.ADDITION),
        ("Quints", Category.QUINTS),
        ("Consecutive Run", Category.CONSECUTIVE),
        ("13579", Category.ODDS_13579),
        ("Winds & Dragons", Category.WINDS_DRAGONS),
        ("369", Category.THREE_SIX_NINE),
        ("Singles & Pairs", Category.SINGLES_PAIRS),
        ("Lucky Numbers", Category.OTHER),
    ],
)
def test_sections_are_free_text_with_the_ten_a6_names_known(name: str, category: Category) -> None:
    assert section_category(name) is category
    hand = card2(line2("NNNN EEE WWW SSSS"), section=name).hands[0]
    assert (hand.category, hand.heading) == (category, name)


# --- errors name the line, the hand, the column and what was expected ------------------------

HEAD = "format: 2\ncard: t\nsection: S\n"
PREFIX = "bad-1 | 25 | X | "


@pytest.mark.parametrize(
    ("vary", "pattern", "where", "reason"),
    [
        ("-", "FF 1111a 2222b 333Qc", ("pattern", 18), "'Q' in '333Qc' is not a card symbol"),
        (
            "-",
            "FFFF 5555a X 5555b 22c",
            ("pattern", 0),
            "the capital X at column 33 is read as a single wind; if it is the card's times sign",
        ),
        ("-", "FF 1111a 2222b 3333c or", ("pattern", 21), "expected a pattern after 'or'"),
        ("-", "or FF 1111a 2222b 3333c", ("pattern", 0), "expected a pattern before 'or'"),
        (
            "-",
            "FF 1111a 2222b 3333c or FF 1111a 2222b 333c",
            ("pattern", 24),
            "the pattern has 13 tiles, a hand has 14",
        ),
        ("-", "FF 1111a 2222b 3333c@k", ("pattern", 20), "variable 'k' is not defined"),
        ("k=any", "FF 1111a 2222b 3333c", ("vary", 0), "variable 'k' moves no group"),
        ("any", "NNNN EEE WWW SSSS", ("vary", 0), "no number group to move"),
        ("k=7,8", "FF 1111a 2222b 3333c@k", ("vary", 0), ""),
        (
            "k=8,9",
            "FF 1111a 2222b 2345c@k",
            ("vary", 0),
            "'k=8,9': 8, 9 would take a number out of 1-9",
        ),
        ("k=odd", "FF 1111a 2222b 33c@k@k", ("pattern", 20), "names variable 'k' twice"),
        ("k=lots", "FF 1111a 2222b 3333c@k", ("vary", 2), "'lots' is not a number rule"),
        ("k=5-2", "FF 1111a 2222b 3333c@k", ("vary", 2), "expected the lower number first"),
        ("suits=4", "FF 1111a 2222b 3333c", ("vary", 6), "from 1 to 3"),
        ("suits=1,2", "FF 1111a 2222a 3333a", ("vary", 0), "needs a and b"),
        ("pos", "FF 112345a 2222b 33c", ("vary", 0), "pos needs a name"),
        ("p=pos", "FF 1111a@p 2222b 3333c", ("vary", 0), "p=pos needs a run"),
        ("p=pos", "FF 1122345a@p 2222b 3c", ("pattern", 11), "exactly one number written twice"),
        ("k=odd j=odd", "FF 1111a@k@j 2222b 3333c", ("pattern", 8), "two value variables"),
        ("any any", "FF 1111a 2222b 3333c", ("vary", 4), "given twice"),
        ("-", "FF NNNN@k 2222b 3333c", ("pattern", 8), "has no numbers for variable 'k'"),
    ],
)
def test_format2_errors_name_line_hand_column_and_what_was_expected(
    vary: str, pattern: str, where: tuple[str, int], reason: str
) -> None:
    line = f"{PREFIX}{vary} | {pattern} | note"
    if not reason:  # 7 and 8 fit: the line is fine
        parse_card(HEAD + line + "\n")
        return
    with pytest.raises(CardError) as info:
        parse_card(HEAD + line + "\n")
    error = info.value
    field, offset = where
    start = len(PREFIX) + 1 if field == "vary" else len(PREFIX) + len(vary) + 4
    assert (error.line, error.hand) == (4, "bad-1")
    assert error.column == start + offset, str(error)
    assert reason in error.reason
    assert str(error).startswith("line 4, hand bad-1, column ")


@pytest.mark.parametrize(
    ("text", "line", "column", "reason"),
    [
        ("format: 2\nh | 25 | X | - | NNNN EEE WWW SSSS | n\n", 2, 1, "expected a 'section: NAME'"),
        (
            "format: 2\nsection: S\nh | winds | 25 | X | - | NNNN EEE WWW SSSS | n\n",
            3,
            5,
            "no category field",
        ),
        ("format: 3\n", 1, 9, "format '3': expected 1 or 2"),
        ("format: 2\nsection:\n", 2, 9, "expected a section name"),
        (
            "card: x\nh | winds | 25 | X | - | NNNN EEE WWW SSSS | n\nformat: 2\n",
            3,
            1,
            "must come before the first hand",
        ),
        ("format: 2\nsection: S\nh | 25 | X | - | NNNN EEE WWW SSSS\n", 3, 35, "expected 6 fields"),
    ],
)
def test_format2_file_errors(text: str, line: int, column: int, reason: str) -> None:
    with pytest.raises(CardError) as info:
        parse_card(text)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert reason in info.value.reason


def test_format1_capital_x_error_says_it_may_be_a_times_sign() -> None:
    with pytest.raises(CardError, match="capital X at column 40 is read as a single wind"):
        parse_card("a | addition | 25 | X | - | FFFF 5555a X 5555b = 22c | n\n")


def test_an_alternative_no_tiles_can_make_is_refused() -> None:
    with pytest.raises(CardError, match="no set of tiles can make alternative 2") as info:
        card2(line2("NNNN EEE WWW SSSS or NN NN NN EE WW SS FF"))
    assert info.value.column == len("h-1 | 25 | X | - | NNNN EEE WWW SSSS or ") + 1


def test_check_mode_lists_every_mistake_and_keeps_the_good_lines() -> None:
    problems: list[CardError] = []
    card = read_card(
        HEAD + "a | 25 | X | - | NNNN EEE WWW SSSS | n\nb | 25 | Q | - | NN | n\n"
        "c | 25 | X | - | NN NN NN EE WW SS FF | n\n",
        "t",
        problems,
    )
    assert [h.id for h in card.hands] == ["a"]
    assert [(p.hand, p.line) for p in problems] == [("b", 5), ("c", 6)]


# --- the house card ---------------------------------------------------------------------------


def format1_house() -> Card:
    text = (
        resources.files("fourwinds.cards")
        .joinpath("house-format1.card")
        .read_text(encoding="utf-8")
    )
    return parse_card(text, "house-format1.card")


def test_format1_house_card_loads_unchanged_and_makes_the_same_hands() -> None:
    old, new = format1_house(), house_card()
    assert old.format == 1 and new.format == 2
    assert len(old.hands) == 74 and len(new.hands) >= 70
    by_id = {hand.id: hand for hand in new.hands}
    for hand in old.hands:
        assert concrete(hand) == concrete(by_id[hand.id]), hand.id
        assert (hand.value, hand.concealed, hand.category) == (
            by_id[hand.id].value,
            by_id[hand.id].concealed,
            by_id[hand.id].category,
        ), hand.id


def test_house_card_uses_every_format2_construct() -> None:
    hands = house_card().hands
    assert any(len(h.alternatives) > 2 for h in hands)
    assert any(h.suit_counts == (1, 2) for h in hands) and any(
        h.suit_counts == (1, 3) for h in hands
    )
    rules = {(bool(v.name), v.rule) for h in hands for v in h.variables}
    assert {
        (False, ValueRule.LISTED),
        (True, ValueRule.ODD),
        (True, ValueRule.ANY),
        (True, ValueRule.POSITION),
    } <= rules
    assert any(s.symbol == "D" and s.suit is None for h in hands for g in h.groups for s in g.specs)
    assert any(h.category is Category.OTHER for h in hands)


# --- hints, Mahjong and the end of the hand name the line and the alternative ----------------


def test_nearest_names_the_line_and_its_nearest_alternative() -> None:
    near = {
        n.hand.id: n
        for n in nearest_hands(house_card(), parse_tiles("FF 4444m 5555m 9999m"), [], 85)
    }
    assert near["add-7"].distance == 0 and near["add-7"].alternative == 2
    assert near["add-7"].pattern == "FF 4444a + 5555a = 9999a"
    near = {
        n.hand.id: n
        for n in nearest_hands(house_card(), parse_tiles("FF 2222m 777m 9999m"), [], 85)
    }
    assert (near["add-7"].distance, near["add-7"].alternative) == (1, 0)
    assert near["add-7"].missing == (Kind.M7,)


def test_a_hint_names_the_line_and_which_alternative_is_nearest() -> None:
    # (each line with the tiles it needs: the view adds how many of them are unseen)
    near = _near(house_card(), tuple(sorted(parse_tiles("FF 2222m 777m 9999m"))), ())
    lines = [line for line, _ in near]
    assert "add-7 (FF 2222a + 7777a = 9999a, alternative 1 of 3, 30): needs 7m" in lines
    near = _near(house_card(), tuple(sorted(parse_tiles("222s 444s 6666s 888s"))), ())
    assert near[0] == (
        "2468-1 (222a 444a 6666a 8888a, 25): needs 8s",  # one pattern
        tuple(parse_tiles("8s")),
    )


def test_a_mahjong_names_the_line_the_alternative_and_the_concrete_tiles() -> None:
    state = play_state({E: "9m 1p2p3p4p5p6p7p 1s2s3s4s5s6s", N: "FF 333mJ 6666m 999m"})
    state, _ = discard(state, E, "9m")
    state, _ = answer_rest(state, {N: CallMahjong(N)})
    state, events = apply(state, DeclareMahjong(N, state.concealed_kinds(N)))
    (declared,) = [e for e in events if isinstance(e, MahjongDeclared)]
    assert (declared.hand_id, declared.alternative, declared.alternatives) == ("add-7", 1, 3)
    assert declared.made == " (alternative 2 of 3) as FF 3333m 6666m 9999m"
    match = made(state)
    assert match is not None and match.alternative == 1
    line = house_card().hand("add-7")
    assert made_text(line, match) == (
        "FF 3333a + 6666a = 9999a (alternative 2 of 3) as FF 3333m 6666m 9999m"
    )


# --- exposures: only the Mahjong tile is called for a pair -----------------------------------


def test_two_exposed_pairs_are_refused() -> None:
    card = card1("p | like | 25 | X | - | 333s 5555s 777s 99s 11s | n")
    tiles = parse_tiles("3s3s3s 5s5s5s5s 7s7s7s")
    assert match_hand(card, tiles + parse_tiles("9s9s"), [parse_tiles("1s1s")])
    assert match_hand(card, tiles, [parse_tiles("9s9s"), parse_tiles("1s1s")]) == ()
    assert not exposures_possible(card, [parse_tiles("9s9s"), parse_tiles("1s1s")])
    assert nearest_hands(card, tiles, [parse_tiles("9s9s"), parse_tiles("1s1s")], 3) == ()
