"""Where the parts of the table screen go: panels of lines placed on a grid of terminal cells.

The table screen is built from panels (the header, each seat, the rack, the actions, the hints,
the end-of-hand result, the keys...), each a rectangle ``(row, col, width, lines)``. ``Stack``
places them top to bottom, or two side by side; ``compose`` writes them into the screen's
lines. Every line is fitted to its own panel's width, so a panel never writes into another
one, and ``overlaps`` lets the tests check that no two panels claim the same cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fourwinds.frontends.terminal.tile_text import ascii_safe, fit, pad, text_width


@dataclass(frozen=True)
class Panel:
    """One rectangle of the screen: ``lines`` (each at most ``width`` columns) from ``row``."""

    name: str
    row: int
    col: int
    width: int
    lines: tuple[str, ...]

    @property
    def height(self) -> int:
        return len(self.lines)

    def cells(self) -> set[tuple[int, int]]:
        """The (row, column) cells this panel writes (its text, not the padding)."""
        return {
            (self.row + y, self.col + x)
            for y, line in enumerate(self.lines)
            for x in range(text_width(line))
        }


class Stack:
    """Panels placed top to bottom in a screen ``width`` columns wide."""

    def __init__(self, width: int, ascii_only: bool) -> None:
        self.width = width
        self.ascii_only = ascii_only
        self.panels: list[Panel] = []
        self.row = 0

    def add(self, name: str, lines: Sequence[str]) -> None:
        """A full-width panel under the ones placed so far (nothing when ``lines`` is empty)."""
        if lines:
            self.panels.append(self._panel(name, self.row, 0, self.width, lines))
            self.row += len(lines)

    def beside(
        self, left: tuple[str, Sequence[str]], right: tuple[str, Sequence[str]], left_width: int
    ) -> None:
        """Two panels side by side: ``left`` in ``left_width`` columns, then one blank column,
        then ``right`` in the rest."""
        name, lines = left
        self.panels.append(self._panel(name, self.row, 0, left_width, lines))
        rname, rlines = right
        col = left_width + 1
        self.panels.append(self._panel(rname, self.row, col, self.width - col, rlines))
        self.row += max(len(lines), len(rlines))

    def _panel(self, name: str, row: int, col: int, width: int, lines: Sequence[str]) -> Panel:
        fitted = tuple(fit(line, width, ascii_only=self.ascii_only) for line in lines)
        return Panel(name, row, col, width, fitted)


def place_footer(
    panels: list[Panel], footer: Sequence[str], width: int, height: int, ascii_only: bool
) -> list[Panel]:
    """The body panels cut to the rows above the footer, then the footer at the bottom of
    the body (never below the window)."""
    room = max(0, height - len(footer))
    kept: list[Panel] = []
    for panel in panels:
        rows = max(0, min(panel.height, room - panel.row))
        if rows:
            kept.append(Panel(panel.name, panel.row, panel.col, panel.width, panel.lines[:rows]))
    used = max((p.row + p.height for p in kept), default=0)
    lines = tuple(fit(line, width, ascii_only=ascii_only) for line in footer)[: height - used]
    if lines:
        kept.append(Panel("keys", used, 0, width, lines))
    return kept


def compose(panels: Sequence[Panel], ascii_only: bool) -> list[str]:
    """The screen's lines: each row the panels on it, left to right, padded to their columns."""
    rows = max((p.row + p.height for p in panels), default=0)
    out: list[str] = []
    for y in range(rows):
        on_row = sorted((p for p in panels if p.row <= y < p.row + p.height), key=lambda p: p.col)
        line = ""
        for panel in on_row:
            text = panel.lines[y - panel.row]
            if panel.col > text_width(line):
                line = pad(line, panel.col)
            line += text
        line = line.rstrip()
        out.append(ascii_safe(line) if ascii_only else line)
    return out


def overlaps(panels: Sequence[Panel]) -> list[tuple[str, str]]:
    """Pairs of panels that claim the same cell, or whose text leaves their rectangle."""
    found: list[tuple[str, str]] = []
    for i, a in enumerate(panels):
        if any(text_width(line) > a.width for line in a.lines):
            found.append((a.name, "(its own width)"))
        for b in panels[i + 1 :]:
            rows = (max(a.row, b.row), min(a.row + a.height, b.row + b.height))
            cols = (max(a.col, b.col), min(a.col + a.width, b.col + b.width))
            if rows[0] < rows[1] and cols[0] < cols[1]:
                found.append((a.name, b.name))
    return found
