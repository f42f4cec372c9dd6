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
