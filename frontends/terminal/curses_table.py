"""The interactive table: stdlib curses drawing ``table_view`` lines and feeding ``table_keys``.

The loop is deliberately thin: poll the ``TableClient`` for the newest view event, draw the
lines ``render`` returns for the current window size (so resizing just redraws), read one key
with a short timeout (the call-window countdown keeps running), and send the act request a key
produced. Refusals from the daemon are shown on screen with their reason.
"""

from __future__ import annotations

import codecs
import contextlib
import curses
import locale
import os
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from fourwinds.frontends.client.acting import decision_key
from fourwinds.frontends.client.daemon_link import Noticing, SheetSource, TableClient
from fourwinds.frontends.client.view_shapes import NO_EVENT, ViewEvent
from fourwinds.frontends.terminal.table_keys import handle_key, on_new_event
from fourwinds.frontends.terminal.table_view import UiState, render, scroll_room
from fourwinds.protocol.errors import FourwindsError

TICK = 0.1  # seconds between polls of the daemon and countdown redraws

_SPECIAL_KEYS = {
    curses.KEY_LEFT: "LEFT",
    curses.KEY_RIGHT: "RIGHT",
    curses.KEY_UP: "UP",
    curses.KEY_DOWN: "DOWN",
    curses.KEY_ENTER: "ENTER",
    curses.KEY_RESIZE: "RESIZE",
    curses.KEY_PPAGE: "PGUP",
    curses.KEY_NPAGE: "PGDN",
}


def key_name(key: int | str) -> str | None:
    """A curses key (int for special keys, str for characters) as a ``table_keys`` name."""
    if isinstance(key, int):
        return _SPECIAL_KEYS.get(key)
    if key in ("\n", "\r"):
        return "ENTER"
    if key == " ":
        return "SPACE"
    if key == "\t":
        return "TAB"
    if key == "\x1b":
        return "ESC"
    return key


def utf8_terminal() -> bool:
    """Does the locale (after ``setlocale``) write UTF-8? Without it (``LANG=C``) curses cannot
    draw the tile glyphs, so the table falls back to codes."""
    if _coerced_c_locale(os.environ):
        return False
    try:
        # the C library's codeset, which curses writes with (Python's own UTF-8 mode under
        # LANG=C would say utf-8 while curses cannot write a glyph)
        codeset = locale.nl_langinfo(locale.CODESET)
    except (AttributeError, ValueError):
        codeset = locale.getpreferredencoding(False)
    try:
        return codecs.lookup(codeset).name == "utf-8"
    except LookupError:
        return False


def set_locale(env: Mapping[str, str]) -> None:
    """The user's locale for curses. A LANG naming a locale this machine lacks (common over
    ssh: the laptop's en_US.UTF-8 on a server without it) falls back to C.UTF-8 when it asked
    for UTF-8, else stays C (codes), instead of failing."""
    try:
        locale.setlocale(locale.LC_ALL, "")
    except locale.Error:
        wanted = env.get("LC_ALL") or env.get("LC_CTYPE") or env.get("LANG", "")
        if "UTF8" in wanted.upper().replace("-", ""):
            with contextlib.suppress(locale.Error):
                locale.setlocale(locale.LC_ALL, "C.UTF-8")


def _coerced_c_locale(env: Mapping[str, str]) -> bool:
    """Whether the user's locale is not UTF-8 and only Python made it so (PEP 538 sets
    LC_CTYPE=C.UTF-8 at start-up when LANG=C, or names a locale the machine lacks): the
    terminal then is not a UTF-8 one, even though the C library now says UTF-8."""
    if env.get("LC_ALL"):
        return False
    lang = env.get("LANG", "")
    return env.get("LC_CTYPE") in ("C.UTF-8", "C.utf8") and "UTF" not in lang.upper()


class TableScreen:
    """The state of one open table screen (event, screen state, when the event arrived)."""

    def __init__(self, client: TableClient, ascii_only: bool) -> None:
        self.client = client
        self.ascii_only = ascii_only
        self.event: ViewEvent | None = None
        self.ui = UiState()
        self.received = time.monotonic()
        self.decision_shown = 0.0  # when the current decision first came on screen

    def poll(self, timeout: float) -> bool:
        """Take the newest view event, if any; True when the screen must be redrawn."""
        event = self.client.latest_event(timeout)
        notice = self.client.notice if isinstance(self.client, Noticing) else ""
        if notice != self.ui.daemon:  # the daemon went away, or is back
            self.ui = replace(self.ui, daemon=notice)
            if event is None:
                return True
        if event is None:
            return False
        if self.event is None or decision_key(self.event) != decision_key(event):
            self.decision_shown = time.monotonic()
        self.ui = on_new_event(self.event, event, self.ui)
        self.event = event
        self.received = time.monotonic()
        return True

    def lines(self, width: int, height: int) -> list[str]:
        if self.ui.screen != "table":
            # scrolled screens: keep the scroll within what the page can show
            page = render(self.event, replace(self.ui, scroll=0), width, 10**6, self.ascii_only)
            top = max(0, len(page) - 2 - scroll_room(height))
            if self.ui.scroll > top:
                self.ui = replace(self.ui, scroll=top)
        ui = replace(self.ui, elapsed=time.monotonic() - self.received)
        return render(self.event, ui, width, height, self.ascii_only)

    def fetch_sheet(self) -> None:
        """Ask the daemon for the card / fan sheet (the ``sheet`` request) once."""
        if not isinstance(self.client, SheetSource):
            self.ui = replace(self.ui, sheet_problem="this link to the daemon cannot ask for it")
            return
        try:
            self.ui = replace(self.ui, sheet=self.client.sheet(), sheet_problem="")
        except FourwindsError as error:
            self.ui = replace(self.ui, sheet_problem=str(error))

    def press(self, name: str) -> bool:
        """Handle one key; False when the player quits."""
        on_screen = time.monotonic() - self.decision_shown
        result = handle_key(self.event, replace(self.ui, on_screen=on_screen), name)
        self.ui = result.ui
        if result.quit:
            return False
        if result.fetch_sheet:
            self.fetch_sheet()
        if result.request is not None:
            answer = self.client.act(result.request)
            if answer.get("ok") and result.leave:
                return False  # we left the table: nothing more to show
            if answer.get("ok"):
                sent = self.ui.pending[0] if self.ui.pending else ""
                answered = (
                    decision_key(self.event or NO_EVENT) if result.final else self.ui.answered
                )
                selected = frozenset() if result.final else self.ui.selected
                self.ui = replace(
                    self.ui,
                    selected=selected,
                    pending=(),
                    answered=answered,
                    message=f"sent: {sent}",
                )
            else:
                self.ui = replace(
                    self.ui,
                    pending=(),
                    message=f"refused: {answer.get('error', 'no reason given')}",
                )
        return True


def _draw(window: Any, lines: list[str]) -> None:
    window.erase()
    height = window.getmaxyx()[0]
    for y, line in enumerate(lines[:height]):
        attr = curses.A_NORMAL
        if y == 0 or line.startswith("==="):
            attr = curses.A_BOLD
        elif line.startswith(">") or line.startswith("! "):
            attr = curses.A_REVERSE
        # the last cell of the screen cannot be written; the text is already fitted
        with contextlib.suppress(curses.error):
            window.addstr(y, 0, line, attr)
    window.refresh()


def _loop(window: Any, screen: TableScreen) -> int:
    with contextlib.suppress(curses.error):
        curses.curs_set(0)
    window.keypad(True)
    window.timeout(int(TICK * 1000))
    screen.poll(0.0)
    while True:
        height, width = window.getmaxyx()
        _draw(window, screen.lines(width, height))
        try:
            key: int | str = window.get_wch()
        except curses.error:
            screen.poll(0.0)
            continue
        name = key_name(key)
        if name == "RESIZE":
            curses.update_lines_cols()
            continue
        if name is not None and not screen.press(name):
            return 0
        screen.poll(0.0)


def run(client: TableClient, *, ascii_only: bool = False) -> int:
    """Open the table in the terminal until the player quits; returns an exit status.
    Without a UTF-8 locale the tiles are drawn as codes, as with ``ascii_only``."""
    set_locale(os.environ)
    ascii_only = ascii_only or not utf8_terminal()
    screen = TableScreen(client, ascii_only)
    result: int = curses.wrapper(_loop, screen)
    return result
