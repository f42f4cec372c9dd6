"""How tiles and text take up terminal cells: glyphs or codes, display widths, fitting.

Every tile is drawn in a *cell* three terminal columns wide, so racks line up whatever the
mode: Unicode mode shows the Mahjong Tiles glyph padded with spaces (most glyphs count as one
column but draw wider; the red dragon counts as two), ``--ascii`` shows the compact code
(``3m``, ``5z``, ``J``...) padded to three columns.
Widths follow Unicode East Asian Width, which is what curses and tmux use to place characters.
Other seats' tiles are drawn as *coded cells* (``coded_cell``): the glyph followed by its code,
or the code alone, so every tile on the table can be read as a code whatever the font.
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


CODED_CELL = 5


def coded_cell(code: str, ascii_only: bool) -> str:
    """One tile as its glyph then its code (five columns), or the code alone (three columns)
    in ``--ascii`` mode: readable as a code in any terminal, recognisable as a tile."""
    if ascii_only:
        return pad(code, TILE_CELL)
    glyph = tile_cell(code, False).rstrip()
    if glyph == code:  # a code this program cannot draw
        return pad(code, CODED_CELL)
    return glyph + " " * (2 - text_width(glyph)) + pad(code, TILE_CELL)


def seat_cell(code: str, ascii_only: bool, glyphs: bool) -> str:
    """A tile of a seat's row: ``coded_cell`` when there is room for glyphs, else the code."""
    return coded_cell(code, ascii_only or not glyphs)


def ascii_safe(text: str) -> str:
    """``text`` with every non-ASCII character replaced by ``?`` (terminals without UTF-8)."""
    return text.encode("ascii", "replace").decode("ascii")


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


def group_rows(groups: list[list[str]], width: int, ascii_only: bool, *, gap: int = 2) -> list[str]:
    """Groups of tiles side by side (``gap`` columns between groups), wrapped to ``width``
    columns; in glyph mode each row of glyphs has a row of their codes under it, so a hand
    laid out this way reads as codes in any font."""
    per_row = max(1, width // TILE_CELL)
    pieces = [group[i : i + per_row] for group in groups for i in range(0, len(group), per_row)]
    rows: list[list[list[str]]] = []
    used = 0
    for piece in pieces:
        size = len(piece) * TILE_CELL
        if rows and used + gap + size <= width:
            rows[-1].append(piece)
            used += gap + size
        else:
            rows.append([piece])
            used = size
    sep = " " * gap
    out: list[str] = []
    for row in rows:
        out.append(sep.join(tiles_text(piece, ascii_only) for piece in row).rstrip())
        if not ascii_only:
            out.append(
                sep.join("".join(pad(c, TILE_CELL) for c in piece) for piece in row).rstrip()
            )
    return out


def wrap_text(text: str, width: int, *, indent: str = "") -> list[str]:
    """Words of ``text`` in lines of at most ``width`` columns, later lines after ``indent``
    (a single word longer than a line stays whole; the screen then cuts it)."""
    lead = text[: len(text) - len(text.lstrip(" "))]
    first, *rest = wrap_cells(text.lstrip(" ").split(" "), max(1, width - len(lead)), sep=" ") or [
        ""
    ]
    first = lead + first
    if not rest:
        return [first]
    tail = " ".join(rest)
    return [
        first,
        *(
            indent + line
            for line in wrap_cells(tail.split(" "), max(1, width - text_width(indent)), sep=" ")
        ),
    ]
