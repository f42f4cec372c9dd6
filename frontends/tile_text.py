"""How tiles and text take up terminal cells: glyphs or codes, display widths, fitting.

Every tile is drawn in a *cell* three terminal columns wide, so racks line up whatever the
mode: Unicode mode shows the Mahjong Tiles glyph padded with spaces (most glyphs count as one
column but draw wider; the red dragon counts as two), ``--ascii`` shows the compact code
(``3m``, ``5z``, ``J``...) padded to three columns.
Widths follow Unicode East Asian Width, which is what curses and tmux use to place characters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from fourwinds.protocol.notation import TileParseError, parse_tile, tile_glyph, tile_name

TILE_CELL = 3


def char_width(char: str) -> int:
    """Terminal columns one character takes: 2 for wide, 0 for combining marks, else 1."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def text_width(text: str) -> int:
    """Terminal columns a string takes."""
    return sum(char_width(c) for c in text)


def fit(text: str, width: int, *, ascii_only: bool = False) -> str:
    """Cut ``text`` to at most ``width`` columns, ending with an ellipsis when cut."""
    if width <= 0:
        return ""
    if text_width(text) <= width:
        return text
    mark = "~" if ascii_only else "\u2026"
    out: list[str] = []
    used = 0
    for char in text:
        w = char_width(char)
        if used + w > width - 1:
            break
        out.append(char)
        used += w
    return "".join(out) + mark


def pad(text: str, width: int) -> str:
    """``text`` fitted to ``width`` columns and padded with spaces to exactly that width."""
    cut = fit(text, width)
    return cut + " " * (width - text_width(cut))


def tile_cell(code: str, ascii_only: bool) -> str:
    """One tile as a three-column cell: a glyph, or its code in ``--ascii`` mode.

    A code this program cannot read is shown as is (never a crash on a newer daemon's view).
    """
    if ascii_only:
        return pad(code, TILE_CELL)
    try:
        glyph = tile_glyph(parse_tile(code))
    except (TileParseError, KeyError, ValueError):
        return pad(code, TILE_CELL)
    return glyph + " " * (TILE_CELL - text_width(glyph))


def tiles_text(codes: Iterable[str], ascii_only: bool, *, sep: str = "") -> str:
    """Tiles as cells side by side (``sep`` between cells)."""
    return sep.join(tile_cell(code, ascii_only) for code in codes)


def codes_text(codes: Iterable[str]) -> str:
    """Tiles as plain codes separated by spaces, for messages and ``--ascii`` labels."""
    return " ".join(codes)


def describe_tile(code: str) -> str:
    """A plain English name for a tile code (``3m`` -> ``3 Crak``); the code if unknown."""
    try:
        return tile_name(parse_tile(code))
    except (TileParseError, KeyError, ValueError):
        return code


def wrap_cells(cells: list[str], width: int, *, sep: str = "") -> list[str]:
    """Lay pre-rendered cells out in lines of at most ``width`` columns."""
    lines: list[str] = []
    line = ""
    for cell in cells:
        candidate = cell if not line else line + sep + cell
        if line and text_width(candidate) > width:
            lines.append(line)
            line = cell
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines
