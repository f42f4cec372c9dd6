"""Property tests of card format 2 (issue 16, hypothesis with modest example counts):

* every concrete variation of every house card line is matched as that line, with and
  without jokers and with one of its groups exposed;
* a format 2 line matches exactly the tiles that the format 1 lines it replaces match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.card import Card
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.compile import Variant, compiled, copies
from fourwinds.protocol.american.matcher import match_hand
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.tiles import Kind

from .test_card_format2 import EQUIVALENT

CARD = house_card()
VARIANTS = compiled(CARD).variants
variant_indexes = st.integers(min_value=0, max_value=len(VARIANTS) - 1)


def tiles_of(
    variant: Variant, rng: random.Random | None = None, joker_odds: float = 0.0
) -> list[list[Kind]]:
    """Real tiles making the variant, group by group: a joker for each tile beyond a kind's
    copies, in a group that allows one (a line may ask five white dragons, the zeros of
    its years and a pung of them: the pung's jokers make up the fifth, whatever the order of
    the groups), and (with ``rng``) now and then in any group that allows one."""
    wanted = [kind for group in variant.groups for kind in group.kinds]
    short = {kind: wanted.count(kind) - copies(kind) for kind in set(wanted)}
    out: list[list[Kind]] = []
    for group in variant.groups:
        tiles = []
        for kind in group.kinds:
            joker = group.jokers and (
                short[kind] > 0 or (rng is not None and rng.random() < joker_odds)
            )
            if joker:
                short[kind] -= 1
            tiles.append(Kind.JOKER if joker else kind)
        out.append(tiles)
    return out


def ids(card: Card, tiles: list[Kind], exposures: list[list[Kind]]) -> list[str]:
    return [m.hand.id for m in match_hand(card, tiles, exposures)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(variant_indexes, st.randoms(use_true_random=False), st.booleans())
def test_every_variation_of_every_house_line_is_matched_as_that_line(
    index: int, rng: random.Random, jokers: bool
) -> None:
    variant = VARIANTS[index]
    groups = tiles_of(variant, rng, 0.3 if jokers else 0.0)
    tiles = [k for group in groups for k in group]
    rng.shuffle(tiles)
    found = [m for m in match_hand(CARD, tiles, []) if m.hand.id == variant.hand.id]
    assert found, (variant.hand.id, variant.alternative)
    assert found[0].jokerless == (Kind.JOKER not in tiles)
    real = sorted(k for k in tiles if k != Kind.JOKER)
    made = [k for group in found[0].assignment for k in group]
    assert len(made) == 14 and all(real.count(k) <= made.count(k) for k in set(real))


@settings(max_examples=200, deadline=None)
@given(variant_indexes, st.randoms(use_true_random=False))
def test_a_variation_with_a_group_exposed_is_matched_as_that_line(
    index: int, rng: random.Random
) -> None:
    variant = VARIANTS[index]
    groups = tiles_of(variant, rng, 0.3)
    exposable = [
        i for i, g in enumerate(variant.groups) if len(g.kinds) >= 3 and len(set(g.kinds)) == 1
    ]
    if variant.hand.concealed or not exposable:
        return
    shown = rng.choice(exposable)
    tiles = [k for i, group in enumerate(groups) if i != shown for k in group]
    assert variant.hand.id in ids(CARD, tiles, [groups[shown]])


def _cards(case: Any) -> tuple[Card, Card]:
    """The format 2 card of one line and the format 1 card of the lines it replaces."""
    line, format1, _ = case.values
    return (parse_card(f"format: 2\nsection: S\n{line}\n"), parse_card("\n".join(format1) + "\n"))


EQUIVALENT_CARDS = [_cards(case) for case in EQUIVALENT]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=len(EQUIVALENT_CARDS) - 1),
    st.randoms(use_true_random=False),
    st.integers(min_value=0, max_value=3),
)
def test_a_format2_line_matches_exactly_what_its_format1_lines_match(
    case: int, rng: random.Random, changes: int
) -> None:
    new, old = EQUIVALENT_CARDS[case]
    pool = list(compiled(new).variants) + list(compiled(old).variants)
    groups = tiles_of(rng.choice(pool), rng, 0.2)
    tiles = [k for group in groups for k in group]
    for _ in range(changes):  # near misses: a tile swapped for any tile of the set
        tiles[rng.randrange(len(tiles))] = rng.choice(AMERICAN_TILES)
    assert bool(match_hand(new, tiles, [])) == bool(match_hand(old, tiles, []))
