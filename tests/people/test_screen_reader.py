"""The screen reader the people tests play by (testkit/screen.py) reads the rack as the
terminal draws it: with the cursor, the selection and the received marks (``+``) in the
compact letters row, and the marks row above the tiles on a tall screen. The compact screen
below is one the terminal drew at a real table (80x24, LANG=C) in a CI run that failed
because the reader did not know the ``+`` mark."""

from __future__ import annotations

from testkit.screen import rack

COMPACT = """\
Your hand (North): 13 tiles  (+ received)
2m 3m 7m 9m 8s 9s 9s 2z 5z 6z 7z F  J
a  b  c  d  e  f  g  h  i +j +k *l^*m
Actions: >1 Pass 3 tiles left (select 3 tiles, then this) [default]
"""

FULL = """\
Your hand (South): 13 tiles  (+ received)
                     *        +  +
2m 4m 7m 7m 8m 9m 1p 6p 8p 8p 9p 9p 7z
a  b  c  d  e  f  g  h  i  j  k  l  m
         ^
Actions: >1 Pass 3 tiles left (select 3 tiles, then this) [default]
"""


def test_the_compact_rack_is_read_with_received_and_selected_marks() -> None:
    tiles = rack(COMPACT)
    assert [t.letter for t in tiles] == list("abcdefghijklm")
    assert [t.token for t in tiles][-4:] == ["6z", "7z", "F", "J"]
    assert [t.letter for t in tiles if t.marked] == ["k", "l"]
    assert tiles[-1].is_joker()


def test_the_tall_rack_is_read_with_its_marks_row() -> None:
    tiles = rack(FULL)
    assert len(tiles) == 13 and tiles[0].same("2m") and tiles[-1].same("7z")
    assert [t.letter for t in tiles if t.marked] == ["h"]


# the tile just drawn, set apart at the right end of the rack (one empty cell before it), as
# the terminal draws it from the view's ``rack`` (frontends/terminal/table_view.py, DRAWN_GAP)
DRAWN_FULL = """\
Your hand (East): 14 tiles, drew 6s (far right)

1m 2m 3m 4p 4p 7s 8s 1z 1z 5z F  J  J     6s
a  b  c  d  e  f  g  h  i  j  k  l  m     n
                                          ^
Discard: move to a tile and press Enter (default 6s)
"""

DRAWN_COMPACT = """\
Your hand (East): 14 tiles, drew 6s (far right)
1m 2m 3m 4p 4p 7s 8s 1z 1z 5z F  J  J     6s
a  b  c  d  e  f  g  h  i  j  k  l  m *   n^*
Discard: move to a tile and press Enter (default 6s)
"""


def test_the_drawn_tile_set_apart_is_read_as_the_last_tile_and_marked_drawn() -> None:
    for screen in (DRAWN_FULL, DRAWN_COMPACT):
        tiles = rack(screen)
        assert [t.letter for t in tiles] == list("abcdefghijklmn"), screen
        assert tiles[-1].same("6s") and tiles[-1].drawn, screen
        assert not any(t.drawn for t in tiles[:-1]), screen
    assert [t.letter for t in rack(DRAWN_COMPACT) if t.marked] == ["m", "n"]


def test_a_rack_without_a_drawn_tile_has_none_marked_drawn() -> None:
    assert not any(t.drawn for t in rack(COMPACT) + rack(FULL))
