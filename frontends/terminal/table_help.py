"""The table's keys, once: what each key does on each screen, for the help, the README and
the tests.

``SECTIONS`` is the one list of the keys of the terminal table (and of the page, which reads
the same keys). Each ``Binding`` names the keys as ``table_keys.handle_key`` receives them,
how the help writes them, what they do in words, and what they do as ``Outcome`` s:
tests/frontends/test_table_help.py presses every listed key through the real handler on a
screen of the section's ``Where`` and checks the outcome is one of those listed (and that each
listed one happens), so the help cannot say a key does what it does not. ``help_lines`` (the
``?`` screen), ``readme_keys`` (the README's key section, between ``README_BEGIN`` and
``README_END``, checked by the same test) and ``page_sections`` (the browser's help page) are
made from it.

Run ``python -m fourwinds.frontends.terminal.table_help`` to print the README section.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

RACK_KEYS = tuple("abcdefghijklmn")  # a rack holds at most 14 tiles
DIGITS = tuple("123456789")


class Where(Enum):
    """The screen (or the kind of decision) a key is read on."""

    ANY = "anywhere at the table"
    PLAY = "during a hand"
    CHOOSE = "when an action asks you to choose tiles (Charleston, courtesy, blind pass)"
    LOBBY = "in the lobby"
    RESULT = "at a hand's end"
    PAGES = "on the help, card, history and scores pages"


class Outcome(Enum):
    """What a key press did, as the tests see it in the handler's result."""

    CURSOR = "moves the cursor"
    SELECT = "selects or unselects a tile"
    HIGHLIGHT = "highlights another action"
    DISCARD = "discards the tile under the cursor"
    ACT_HIGHLIGHTED = "does the highlighted action"
    ACT_NUMBERED = "does the numbered action"
    MORE_TIME = "asks for more time"
    NEXT = "says next"
    READY = "says ready"
    LEAVE = "leaves the table"
    HELP = "opens the help"
    SHEET = "opens the card"
    HISTORY = "opens the history"
    SCORES = "opens the scores"
    HINTS = "shows or hides the hints"
    QUIT = "closes the screen"
    SCROLL = "scrolls"
    BACK = "goes back to the table"


@dataclass(frozen=True)
class Binding:
    """One key (or a run of keys) and what it does."""

    keys: tuple[str, ...]  # as handle_key receives them ("a", "ENTER", "UP"...)
    shown: str  # as the help and the README write them
    does: str  # what it does, in words
    outcomes: frozenset[Outcome]
    page: str = ""  # what it does in the browser, where that differs ("": same)


@dataclass(frozen=True)
class Section:
    """The keys read on one screen."""

    where: Where
    bindings: tuple[Binding, ...]


def _b(keys: tuple[str, ...], shown: str, does: str, *outcomes: Outcome, page: str = "") -> Binding:
    return Binding(keys, shown, does, frozenset(outcomes), page)


OUT = Outcome
SECTIONS: tuple[Section, ...] = (
    Section(
        Where.PLAY,
        (
            _b(
                ("LEFT", "RIGHT", *RACK_KEYS),
                "<- ->  or  a-n",
                "move the cursor (^) to a tile of your rack (a-n: the letter under it)",
                OUT.CURSOR,
            ),
            _b(
                ("ENTER",),
                "Enter",
                "discard the tile under the cursor (each turn it starts on the default discard); "
                "the highlighted action (>) instead when the default is one (Mahjong, a flower) or "
                "after up/down",
                OUT.DISCARD,
                OUT.ACT_HIGHLIGHTED,
            ),
            _b(("UP", "DOWN"), "up / down", "highlight an action in the list", OUT.HIGHLIGHT),
            _b(
                DIGITS,
                "1-9",
                "do that action now (a call, Pass, Mahjong, a joker exchange, More time...)",
                OUT.ACT_NUMBERED,
                OUT.MORE_TIME,
            ),
            _b(
                ("T", "t"),
                "T or t",
                "more time: one extension of a call window, when offered (t: when no rack tile "
                "has that letter)",
                OUT.MORE_TIME,
            ),
        ),
    ),
    Section(
        Where.CHOOSE,
        (
            _b(
                RACK_KEYS,
                "a-n",
                "select / unselect that tile (*), and move the cursor to it",
                OUT.SELECT,
            ),
            _b(("SPACE",), "space", "select / unselect the tile under the cursor", OUT.SELECT),
            _b(("LEFT", "RIGHT"), "<- ->", "move the cursor", OUT.CURSOR),
            _b(DIGITS, "1-9", "pass (or do) that action with the selected tiles", OUT.ACT_NUMBERED),
            _b(
                ("ENTER",),
                "Enter",
                "do the highlighted action with the selected tiles",
                OUT.ACT_HIGHLIGHTED,
            ),
        ),
    ),
    Section(
        Where.LOBBY,
        (
            _b(
                ("ENTER", "1"),
                "Enter or 1",
                "ready to start (once all four places are taken)",
                OUT.READY,
            ),
            _b(
                ("L",),
                "L",
                "leave the table for good: your place is free for someone else (as `fourwinds "
                "leave`; a table that cannot go on without you asks first: L again)",
                OUT.LEAVE,
            ),
        ),
    ),
    Section(
        Where.RESULT,
        (
            _b(
                ("ENTER", "N", "n"),
                "Enter, N or n",
                "next hand, once the result has been up a second (after the last: the standings)",
                OUT.NEXT,
            ),
            _b(("h",), "h", "history, as H (no rack on this screen: h is no tile)", OUT.HISTORY),
        ),
    ),
    Section(
        Where.ANY,
        (
            _b(("H",), "H", "history: every finished hand of the match", OUT.HISTORY),
            _b(
                ("C",),
                "C",
                "the card (every hand: pattern, value, concealed) or, for MCR, every "
                "fan with its points",
                OUT.SHEET,
            ),
            _b(("S",), "S", "scoreboard and the table's timers", OUT.SCORES),
            _b(("TAB",), "Tab", "show / hide hints (nearest card hands, tiles to win)", OUT.HINTS),
            _b(("?",), "?", "this help", OUT.HELP),
            _b(
                ("Q",),
                "Q",
                "close the screen. During a match your daemon keeps your seat: `fourwinds play` "
                "brings you back (at several tables: `play --table NAME`), with the bots `play` "
                "seated; after the match's end you leave the table",
                OUT.QUIT,
                page="back to the lobby (your daemon keeps your seat)",
            ),
        ),
    ),
    Section(
        Where.PAGES,
        (
            _b(
                ("UP", "DOWN", "PGUP", "PGDN", "LEFT", "RIGHT", "SPACE"),
                "up down PgUp PgDn",
                "scroll (<- -> and space: ten lines)",
                OUT.SCROLL,
            ),
            _b(
                ("x", "ENTER", "ESC", "Q"),
                "any other key",
                "back to the table",
                OUT.BACK,
                page="back to the table (Esc, a click outside the page)",
            ),
        ),
    ),
)

NOTES = (
    "Only legal actions are ever offered; a call prompt lists exactly the calls you may make, "
    "with Pass. 'time Ns' counts down the window the table waits on; when it ends, the action "
    "marked [default] is taken for you. 'X is thinking': that seat asked for more time.",
    "Seats: exposures as [tiles label<from], flowers (fl:), then discards (d:), oldest first, "
    "wrapped so the newest is always shown.",
)
KEY_COLUMN = 19
HELP_WIDTH = 78


def _wrapped(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def help_lines(ascii_only: bool) -> list[str]:
    """The ``?`` screen: every section's keys (fits 80 columns), then how to read the table."""
    lines = ["=== fourwinds: help ==="]
    for section in SECTIONS:
        lines += ["", f"{section.where.value[0].upper()}{section.where.value[1:]}:"]
        for binding in section.bindings:
            text = _wrapped(binding.does, HELP_WIDTH - KEY_COLUMN - 3)
            lines.append(f"  {binding.shown:<{KEY_COLUMN}} {text[0]}")
            lines += [" " * (KEY_COLUMN + 3) + rest for rest in text[1:]]
    tiles = "Tiles are shown as " + (
        "codes (3m, 5z, J...)."
        if ascii_only
        else "glyphs with their codes (3m, 5z, J...): under each tile of your rack, after each "
        "tile of the other seats (codes alone when the window is narrow)."
    )
    lines.append("")
    for note in (*NOTES, tiles):
        lines += _wrapped(note, HELP_WIDTH)
    return lines


def page_sections() -> list[dict[str, Any]]:
    """The key table for the browser's help page (`fourwinds web`, the ``keys`` request):
    ``[{"where", "keys": [[shown, what it does on the page], ...]}]``."""
    return [
        {
            "where": f"{section.where.value[0].upper()}{section.where.value[1:]}",
            "keys": [[b.shown, b.page or b.does] for b in section.bindings],
        }
        for section in SECTIONS
    ]


README_BEGIN = "<!-- keys: made by `python -m fourwinds.frontends.terminal.table_help` -->"
README_END = "<!-- keys: end -->"


def readme_keys() -> str:
    """The README's key section (markdown, between the markers), from ``SECTIONS``."""
    out = [README_BEGIN, ""]
    for section in SECTIONS:
        out += [
            f"{section.where.value[0].upper()}{section.where.value[1:]}:",
            "",
            "| key | what it does |",
            "|---|---|",
        ]
        for binding in section.bindings:
            out.append(f"| `{binding.shown}` | {binding.does} |")
        out.append("")
    out.append(README_END)
    return "\n".join(out)


def readme_section(readme: str) -> str | None:
    """The key section as the README has it (markers included), or None without one."""
    start = readme.find(README_BEGIN)
    end = readme.find(README_END)
    if start < 0 or end < start:
        return None
    return readme[start : end + len(README_END)]


if __name__ == "__main__":  # pragma: no cover - a maintainer's helper
    print(readme_keys())
