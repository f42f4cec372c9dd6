"""Reading the table screen the way a person does, and pressing the keys a person would.

``Terminal`` is one private tmux server (its own socket) running one command in a window of a
fixed size; ``capture-pane`` gives the screen back as text. The parsers here match on what a
person reads (the "Actions" menu and its numbers, the rack with a letter under each tile, the
result headline, "Next hand") rather than on exact columns, so they survive layout changes.

``Person`` plays one seat by keys only: each ``step()`` reads the screen once and answers the
decision it shows (Mahjong when offered, a Charleston or courtesy pass by choosing tiles with
their letters and then the pass's number, a call or Pass when asked about a discard, a discard
on our turn, otherwise the highlighted default action). It never presses anything on the
end-of-hand screen: the test decides when to say "next".
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from fourwinds.protocol.notation import TileParseError, parse_tile, tile_name

TMUX = shutil.which("tmux")

# one menu entry: ">1 Pass right (select 3 tiles, then this) [default]" on its own line, or
# several packed after "Actions:" three spaces apart (the compact layouts)
_ENTRY = re.compile(r"(?:^|(?<=\s))(>?)\s?([1-9]) (\S.*?)(?= {3}|\s*$)")
_ACTIONS_HEAD = re.compile(r"^\s*Actions\b[^:]*:?\s*(.*)$")
_LETTERS = re.compile(r"^\s*a(?: +[b-z])*\s*$")
_CURSOR = re.compile(r"[\^*>+]")  # a cursor, selection or received mark in the letters row
_TIME = re.compile(r"\btime \d+\s*s\b|\b\d+\s*s left\b|\b\d+s\b")
_CHOOSE = re.compile(r"\(select (\d) tiles?, then this\)")
_DEFAULT_DISCARD = re.compile(r"\(default ([^)\s]+)\)")
# the end-of-hand screen: its headline, or the way on to the next hand
_RESULT_HEAD = re.compile(
    r"Mahjong\b.*\b(?:by|for|wins?)\b|\bwins\b|Wall game|\bDraw\b|dead hand|Hand \d+ over",
    re.IGNORECASE,
)
_NEXT = re.compile(r"Next hand|final standings", re.IGNORECASE)


class Terminal:
    """A fixed-size terminal (a private tmux server) running ``command`` under ``env``."""

    def __init__(
        self, command: str, width: int = 80, height: int = 24, env: Mapping[str, str] | None = None
    ) -> None:
        assert TMUX is not None, "tmux is not installed"
        self.socket = f"fw-people-{os.getpid()}-{time.monotonic_ns()}"
        self.size = (width, height)
        # ``env`` is the whole environment when given (a machine's: see Machine.env)
        base = dict(env) if env is not None else dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        base["TERM"] = "xterm-256color"
        # an xdist worker exports COLUMNS and LINES (its own terminal's), and curses takes
        # them over the window's size: the table would be laid out for the wrong screen
        base.pop("COLUMNS", None)
        base.pop("LINES", None)
        self._run(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            str(width),
            "-y",
            str(height),
            command,
            env=base,
        )

    def _run(self, *args: str, env: Mapping[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=dict(env) if env is not None else None,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        """What the window shows now (one line per row, trailing blanks dropped)."""
        try:
            return self._run("capture-pane", "-p", "-t", "t").rstrip("\n") + "\n"
        except subprocess.CalledProcessError:
            return ""  # the session ended (the command exited)

    def keys(self, *keys: str) -> None:
        """Press keys: single characters, or tmux key names (``Enter``, ``Up``, ``Space``)."""
        for key in keys:
            self._run("send-keys", "-t", "t", key)

    def wait_for(
        self,
        found: str | Callable[[str], bool],
        timeout: float = 10.0,
        what: str = "",
        gone: str = "[exited ",
    ) -> str:
        """The screen once ``found`` (a text on it, or a test of it) holds; fails with the
        last screen after ``timeout`` seconds, or at once when ``gone`` shows (the command
        ended: see Machine.terminal)."""
        test = (lambda s: found in s) if isinstance(found, str) else found
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if test(screen):
                return screen
            if time.monotonic() > end or (gone and gone in screen):
                why = "the command ended" if gone and gone in screen else f"after {timeout:.0f} s"
                raise AssertionError(
                    f"{what or found!r} not on the screen ({why}); screen:\n{screen}"
                )
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run(
            [TMUX or "tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            timeout=10,
            check=False,
        )


@dataclass(frozen=True)
class Entry:
    """One entry of the action menu as shown: the number that picks it, its text."""

    key: str
    text: str
    highlighted: bool

    @property
    def default(self) -> bool:
        return "[default]" in self.text

    @property
    def label(self) -> str:
        return self.text.replace("[default]", "").strip()


def menu(screen: str) -> list[Entry]:
    """The numbered entries of the action menu (under or after the "Actions" heading)."""
    lines = screen.splitlines()
    start = next((i for i, line in enumerate(lines) if _ACTIONS_HEAD.match(line)), None)
    if start is None:
        return []
    entries: list[Entry] = []
    head = _ACTIONS_HEAD.match(lines[start])
    rows = [head.group(1) if head else "", *lines[start + 1 :]]
    for row in rows:
        found = [
            Entry(m.group(2), m.group(3).strip(), m.group(1) == ">") for m in _ENTRY.finditer(row)
        ]
        if not found and row.strip() and not row.strip().startswith("..."):
            if entries:
                break  # the menu ended (a hint, the keys line...)
            continue
        entries.extend(found)
    return entries


def entry(screen: str, *words: str) -> Entry | None:
    """The first menu entry whose label contains one of ``words`` (case-insensitive)."""
    for item in menu(screen):
        if any(w.lower() in item.label.lower() for w in words):
            return item
    return None


@dataclass(frozen=True)
class RackTile:
    letter: str
    token: str  # as drawn: a code (--ascii) or a glyph
    marked: bool  # selected (a "*" above it)
    drawn: bool = False  # set apart at the right end: the tile just drawn

    def is_joker(self) -> bool:
        return self.token == "J" or _name(self.token) == "Joker"

    def same(self, code: str) -> bool:
        """Whether this is the tile ``code`` (``3m``, ``J``...) whatever way it is drawn."""
        if self.token == code:
            return True
        try:
            return parse_tile(self.token) == parse_tile(code)
        except (TileParseError, KeyError, ValueError):
            return False


def _name(token: str) -> str:
    try:
        return tile_name(parse_tile(token))
    except (TileParseError, KeyError, ValueError):
        return ""


def rack(screen: str) -> list[RackTile]:
    """Our rack: the tiles in the row over the letters row ("a  b  c ..."), each with its
    letter, whether it is selected (a "*" in the row above the tiles), and whether it is the
    tile just drawn: the last one, set apart by a gap wider than the others ("m     n")."""
    lines = screen.splitlines()
    for i in range(len(lines) - 1, 0, -1):
        row = _CURSOR.sub(" ", lines[i])
        if not _LETTERS.match(row):
            continue
        letters = row.split()
        for j in range(i - 1, max(-1, i - 4), -1):
            tokens = lines[j].split()
            if len(tokens) == len(letters) and all(_name(t) or t == "J" for t in tokens):
                marks = next(
                    (
                        lines[k]
                        for k in range(j - 1, max(-1, j - 3), -1)
                        if lines[k].strip() and set(lines[k].strip()) <= {"*", "+", " "}
                    ),
                    "",
                )
                columns = [m.start() for m in re.finditer(r"\S+", row)]
                # the full rack marks a selected tile with "*" in a row above the tiles; the
                # compact one right after the tile's letter and cursor ("c^*", "d *")
                marked = [
                    (col < len(marks) and marks[col : col + 3].strip() == "*")
                    or lines[i][col + 1 : col + 3].endswith("*")
                    for col in columns
                ]
                steps = [b - a for a, b in itertools.pairwise(columns)]
                apart = len(steps) >= 2 and steps[-1] > max(steps[:-1])
                return [
                    RackTile(letter, token, mark, apart and n == len(letters) - 1)
                    for n, (letter, token, mark) in enumerate(
                        zip(letters, tokens, marked, strict=True)
                    )
                ]
        return []
    return []


def is_result(screen: str) -> bool:
    """The end-of-hand screen: a result headline and the way on ("Next hand")."""
    return bool(_NEXT.search(screen)) and bool(_RESULT_HEAD.search(screen))


def one_line(screen: str) -> str:
    """The screen as one line of words (a long text wrapped over two rows reads as one)."""
    return " ".join(screen.split())


def shows_amount(screen: str, name: str, amount: int) -> bool:
    """Whether some row shows ``name`` followed by ``amount`` as its first number, written as
    a payment is (``+8``, ``-8``, ``0``): "South (Bob) +8" or "Bob  -8"."""
    name_at = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
    for line in screen.splitlines():
        for found in name_at.finditer(line):
            first = re.search(r"(?<![\w.])([+\-\u2212\u00b1]?)(\d+)(?![\w.])", line[found.end() :])
            if first is None:
                continue
            sign, digits = first.group(1), int(first.group(2))
            if amount == 0 and digits == 0:
                return True
            if (
                digits == abs(amount)
                and (sign == "+") == (amount > 0)
                and (sign in ("-", "\u2212")) == (amount < 0)
            ):
                return True
    return False


def _signature(screen: str) -> str:
    """What identifies the decision on the screen (the countdown left out)."""
    lines = [line for line in screen.splitlines() if not line.startswith("!")]
    return _TIME.sub("", "\n".join(lines))


@dataclass
class Person:
    """One player at the table, by keys only (see the module docstring).

    ``calls``: "take" calls every call offered (the one most likely to stand), "pass" passes,
    "hold" leaves the call window to the test.
    ``log`` keeps what was done, for the failure message.
    """

    term: Terminal
    name: str
    calls: str = "pass"
    log: list[str] = field(default_factory=list)
    _done: str = ""  # the signature of the screen last acted on
    _done_at: float = 0.0

    def step(self) -> str:
        """Read the screen and answer it; returns what was done ("" for nothing)."""
        screen = self.term.screen()
        if is_result(screen):
            return ""
        signature = _signature(screen)
        if signature == self._done and time.monotonic() - self._done_at < 4.0:
            return ""  # answered; the table has not moved yet
        done = self._answer(screen)
        if done:
            self._done, self._done_at = signature, time.monotonic()
            self.log.append(done)
            del self.log[:-40]
        return done

    def _answer(self, screen: str) -> str:
        items = menu(screen)
        win = next((e for e in items if e.label.lower().startswith("mahjong")), None)
        if win is not None:
            self.term.keys(win.key)
            return f"{win.key} {win.label}"
        calls = [e for e in items if e.label.startswith("Call ")]
        if calls and self.calls == "hold":
            return ""  # the test makes the call itself
        if calls and self.calls == "take":
            best = max(calls, key=lambda e: ("kong" in e.label, "pung" in e.label))
            self.term.keys(best.key)
            return f"{best.key} {best.label}"
        passing = next((e for e in items if e.label == "Pass"), None)
        if calls and passing is not None:
            self.term.keys(passing.key)
            return f"{passing.key} Pass"
        default = next((e for e in items if e.default), None)
        if default is not None and _CHOOSE.search(default.text):
            return self._choose(screen, default)  # a Charleston pass: tiles, then its number
        if "Discard:" in screen:
            return self._discard(screen)
        if default is not None and "more time" not in default.label.lower():
            self.term.keys(default.key)
            return f"{default.key} {default.label}"
        return ""

    def _choose(self, screen: str, action: Entry) -> str:
        """Select the tiles the pass asks for by their letters, then press its number."""
        want = int(_CHOOSE.search(action.text).group(1))  # type: ignore[union-attr]
        tiles = rack(screen)
        unmark = [t.letter for t in tiles if t.marked]
        free = [t for t in tiles if not t.is_joker()]
        if len(free) < want:
            raise AssertionError(
                f"{self.name}: cannot read {want} tiles to pass off the rack:\n{screen}"
            )
        # pass the tiles least likely to help: the last ones of the (sorted) rack
        chosen = [t.letter for t in free[-want:]]
        self.term.keys(*unmark, *chosen, action.key)
        return f"{''.join(chosen)} {action.key} {action.label}"

    def _discard(self, screen: str) -> str:
        tiles = rack(screen)
        wanted = _DEFAULT_DISCARD.search(screen)
        tile = next((t for t in tiles if wanted and t.same(wanted.group(1))), None)
        if tile is None and tiles:
            tile = tiles[-1]
        if tile is None:
            self.term.keys("Enter")
            return "Enter (discard)"
        self.term.keys(tile.letter, "Enter")
        return f"{tile.letter} Enter (discard {tile.token})"


def play_until(
    people: Sequence[Person],
    done: Callable[[], bool],
    timeout: float,
    what: str,
    pause: float = 0.05,
) -> None:
    """Let ``people`` play in turn until ``done()``; fails with every screen and the last
    moves when ``timeout`` seconds pass first."""
    end = time.monotonic() + timeout
    while not done():
        if time.monotonic() > end or any("[exited " in p.term.screen() for p in people):
            screens = "\n".join(
                f"--- {p.name} (last moves: {p.log[-6:]})\n{p.term.screen()}" for p in people
            )
            raise AssertionError(
                f"{what} did not happen (within {timeout:.0f} s, or a command ended)\n{screens}"
            )
        acted = False
        for person in people:
            acted = bool(person.step()) or acted
        # sleep-ok: a person's pace between moves (the loop is bounded by timeout)
        time.sleep(pause if acted else 0.15)
