"""Property tests of the matcher against the house card (hypothesis, modest example counts)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american import matcher
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.compile import Variant, compiled, copies, hand_variants
from fourwinds.protocol.american.matcher import match_hand, nearest_hands
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.tiles import Kind

CARD = house_card()
VARIANTS = compiled(CARD).variants
variant_indexes = st.integers(min_value=0, max_value=len(VARIANTS) - 1)


def tiles_of(variant: Variant) -> list[Kind]:
    """Real tiles making the variant: jokers where it needs more of a kind than exist (A2)."""
    out: list[Kind] = []
    for group in variant.groups:
        for kind in group.kinds:
            out.append(Kind.JOKER if out.count(kind) >= copies(kind) else kind)
    return out


def hand_ids(tiles: list[Kind], exposures: list[list[Kind]] | None = None) -> list[str]:
    return [m.hand.id for m in match_hand(CARD, tiles, exposures or [])]


def slot_distance(variant: Variant, tiles: list[Kind]) -> int:
    """Independent count: fill the variant's slots one by one (real tiles first into slots
    where no joker may go, then jokers), and count the slots left empty."""
    pool = Counter(tiles)
    jokers = pool.pop(Kind.JOKER, 0)
    slots = [(k, g.jokers) for g in variant.groups for k in g.kinds]
    empty_jokerable = 0
    empty = 0
    for kind, jokerable in sorted(slots, key=lambda slot: slot[1]):
        if pool[kind]:
            pool[kind] -= 1
        elif jokerable:
            empty_jokerable += 1
        else:
            empty += 1
    return empty + max(0, empty_jokerable - jokers)


@settings(max_examples=150, deadline=None)
@given(variant_indexes, st.randoms(use_true_random=False))
def test_a_variant_matches_its_hand_in_any_tile_order(index: int, rng: random.Random) -> None:
    variant = VARIANTS[index]
    tiles = tiles_of(variant)
    rng.shuffle(tiles)
    found = match_hand(CARD, tiles, [])
    assert variant.hand.id in [m.hand.id for m in found]
    assert all(m.jokerless == (variant.min_jokers == 0) for m in found)
    assert [m.hand.value for m in found] == sorted((m.hand.value for m in found), reverse=True)


@settings(max_examples=150, deadline=None)
@given(variant_indexes, st.data())
def test_a2_joker_replacing_a_tile_of_a_3_plus_group_keeps_the_match(
    index: int, data: st.DataObject
) -> None:
    variant = VARIANTS[index]
    groups = [g for g in variant.groups if g.jokers]
    if not groups:
        return
    group = data.draw(st.sampled_from(groups))
    tiles = tiles_of(variant)
    tiles.remove(group.kinds[0])
    tiles.append(Kind.JOKER)
    found = [m for m in match_hand(CARD, tiles, []) if m.hand.id == variant.hand.id]
    assert found and not found[0].jokerless


@settings(max_examples=150, deadline=None)
@given(variant_indexes, st.data())
def test_a2_joker_replacing_a_tile_of_a_pair_or_single_breaks_the_hand(
    index: int, data: st.DataObject
) -> None:
    variant = VARIANTS[index]
    # a kind that is also in a group jokers may fill (2026's 0 beside a pung of White)
    # is no test: the joker then stands in that group
    jokered = {k for g in variant.groups if g.jokers for k in g.kinds}
    kinds = [k for g in variant.groups if not g.jokers for k in g.kinds if k not in jokered]
    if not kinds:
        return
    kind = data.draw(st.sampled_from(kinds))
    tiles = tiles_of(variant)
    tiles.remove(kind)
    tiles.append(Kind.JOKER)
    assert variant.hand.id not in hand_ids(tiles)


@settings(max_examples=100, deadline=None)
@given(variant_indexes, st.data())
def test_a5_exposing_a_group_keeps_an_exposed_hand(index: int, data: st.DataObject) -> None:
    variant = VARIANTS[index]
    groups = [g for g in variant.groups if g.jokers]
    if not groups or variant.min_jokers:
        return
    group = data.draw(st.sampled_from(groups))
    jokers = data.draw(st.integers(min_value=0, max_value=len(group.kinds)))
    exposure = [Kind.JOKER] * jokers + list(group.kinds[jokers:])
    tiles = tiles_of(variant)
    for kind in group.kinds:
        tiles.remove(kind)
    assert (variant.hand.id in hand_ids(tiles, [exposure])) == (not variant.hand.concealed)


@settings(max_examples=100, deadline=None)
@given(variant_indexes, st.data())
def test_nearest_one_tile_short_names_that_tile(index: int, data: st.DataObject) -> None:
    variant = VARIANTS[index]
    tiles = tiles_of(variant)
    removed = data.draw(st.sampled_from(tiles))
    tiles.remove(removed)
    near = {n.hand.id: n for n in nearest_hands(CARD, tiles, [], len(CARD.hands))}
    assert near[variant.hand.id].distance == 1
    assert len(near[variant.hand.id].missing) == 1


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=13, max_value=14))
def test_nearest_distances_agree_with_filling_slots_one_by_one(
    rng: random.Random, size: int
) -> None:
    wall = list(AMERICAN_TILES)
    rng.shuffle(wall)
    tiles = wall[:size]
    near = nearest_hands(CARD, tiles, [], len(CARD.hands))
    assert len(near) == len(CARD.hands)
    for index, entry in enumerate(CARD.hands):
        expected = min(slot_distance(v, tiles) for v in hand_variants(entry, index))
        (found,) = [n for n in near if n.hand.id == entry.id]
        assert found.distance == expected == len(found.missing), entry.id


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_adding_the_missing_tiles_completes_the_hand(rng: random.Random) -> None:
    wall = list(AMERICAN_TILES)
    rng.shuffle(wall)
    tiles = wall[:13]
    for near in nearest_hands(CARD, tiles, [], 5):
        completed = tiles + list(near.missing)
        again = {n.hand.id: n for n in nearest_hands(CARD, completed, [], len(CARD.hands))}
        assert again[near.hand.id].distance == 0


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(
        variant_indexes.map(lambda i: tiles_of(VARIANTS[i])),
        st.randoms(use_true_random=False).map(lambda r: r.sample(list(AMERICAN_TILES), 14)),
    )
)
def test_match_hand_agrees_with_distance_zero(tiles: list[Kind]) -> None:
    matched = set(hand_ids(tiles))
    zero = {n.hand.id for n in nearest_hands(CARD, tiles, [], len(CARD.hands)) if n.distance == 0}
    assert matched == zero


EXPOSURES = [["JJJ"], ["5p5pJ"], ["FFFF"], ["JJJJ", "1z1z1z"], ["3m3m3m", "6m6m6mJ"], ["2s2s2s"]]


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(EXPOSURES))
def test_nearest_with_exposures_same_with_and_without_packed_tables(
    rng: random.Random, exposures: list[str]
) -> None:
    laid = [parse_tiles(text) for text in exposures]
    wall = list(AMERICAN_TILES)
    rng.shuffle(wall)
    tiles = wall[: 13 - sum(len(group) for group in laid)]
    original = matcher._PACK_FROM
    try:
        matcher._PACK_FROM = 0
        packed = nearest_hands(CARD, tiles, laid, len(CARD.hands))
        matcher._PACK_FROM = 10**9
        looped = nearest_hands(CARD, tiles, laid, len(CARD.hands))
    finally:
        matcher._PACK_FROM = original
    assert [(n.hand.id, n.distance, n.missing) for n in packed] == [
        (n.hand.id, n.distance, n.missing) for n in looped
    ]
    assert all(not n.hand.concealed for n in packed)


exposure_groups = st.lists(
    st.tuples(
        st.sampled_from([k for k in AMERICAN_TILES if k is not Kind.JOKER]),
        st.integers(min_value=3, max_value=5),
        st.integers(min_value=0, max_value=4),
    ),
    min_size=1,
    max_size=3,
)


@given(exposure_groups)
@settings(max_examples=150)
def test_a7_the_quick_exposure_check_agrees_with_the_full_target_list(
    groups: list[tuple[Kind, int, int]],
) -> None:
    """``exposures_possible`` stops at the first hand that takes the exposures; it must say
    what building every target would say (docs/RULES.md A7's dead-hand check)."""
    from fourwinds.protocol.american import targets

    exposures = [
        [Kind.JOKER] * min(jokers, size - 1) + [kind] * (size - min(jokers, size - 1))
        for kind, size, jokers in groups
    ]
    key = targets.exposure_key(exposures)
    cc = compiled(CARD)
    cc.memo.table(targets._POSSIBLE).clear()
    quick = targets.has_target(cc, key)
    cc.memo.table(targets._TARGETS).clear()
    assert quick == bool(targets.targets_for(cc, key).targets)
    assert matcher.exposures_possible(CARD, exposures) == quick
