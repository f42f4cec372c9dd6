"""The practice deck a table plays on (table/machine/practice.py): an open wall from the hand's
seed.

The checks that held for the deck-interface practice deck (removed: only its own test used it)
and still mean something for the wall a practice table really plays: the order is the seed's
and nothing else's, and a face claimed wrongly is named.
"""

from __future__ import annotations

from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.table.machine.practice import practice_wall
from fourwinds.protocol.tiles import Kind

SEED = b"practice seed for a tutorial hand"


def test_practice_wall_is_reproducible_from_its_seed() -> None:
    one, two = practice_wall(AMERICAN_SET, SEED), practice_wall(AMERICAN_SET, SEED)
    other = practice_wall(AMERICAN_SET, b"another seed" * 3)
    assert one == two
    assert one.faces != other.faces
    tiles = AMERICAN_SET.kinds
    order = Entropy(SEED).permutation(152, "practice wall")
    assert sorted(order) == list(range(152))
    assert one.faces == tuple(tiles[i] for i in order)


def test_practice_wall_names_every_wrongly_claimed_face() -> None:
    wall = practice_wall(MCR_SET, SEED)
    right = {3: wall.faces[3], 10: wall.faces[10]}
    assert wall.false_faces(right) == ()
    assert wall.faces_of((3, 10)) == right
    wrong = Kind.JOKER if wall.faces[10] != Kind.JOKER else Kind.FLOWER
    assert wall.false_faces({**right, 10: wrong}) == ((10, wrong, wall.faces[10]),)
    assert wall.false_faces({500: wall.faces[0]}) == ((500, wall.faces[0], Kind.HIDDEN),)
