"""The curses table in a real terminal: tmux runs it against the scripted table, we send keys
and read the screen back (capture-pane)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.skipif(
        TMUX is None,
        reason="tmux is not installed (apt-get install -y tmux) - curses table untested",
    ),
    pytest.mark.screen,  # a real terminal with waits of its own (tests/conftest.py)
]


class Tmux:
    """One private tmux server (its own socket) running one command in a fixed-size window."""

    def __init__(self, command: str, width: int, height: int, lang: str = "C.UTF-8") -> None:
        self.socket = f"fourwinds-test-{os.getpid()}-{time.monotonic_ns()}"
        env = dict(os.environ, LANG=lang, LC_ALL=lang, TERM="xterm-256color")
        # an xdist worker exports COLUMNS and LINES, which curses takes over the window's
        # size (testkit/screen.py says the same)
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.run(
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
            env=env,
        )

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=10,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", "-t", "t", key)

    def wait_for(self, text: str, *more: str, timeout: float = 20.0) -> str:
        """The screen once ``text`` and every one of ``more`` show on it at once (curses
        draws a screen in parts: a capture between two parts shows only some of them)."""
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if all(t in screen for t in (text, *more)):
                return screen
            if time.monotonic() > end:
                missing = [t for t in (text, *more) if t not in screen]
                raise AssertionError(f"{missing!r} never appeared; screen:\n{screen}")
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run(
            [TMUX or "tmux", "-L", self.socket, "kill-server"],
            capture_output=True,
            timeout=10,
            check=False,
        )


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "requests.jsonl"


def _start(log: Path, width: int, height: int, *flags: str, lang: str = "C.UTF-8") -> Tmux:
    command = (
        f"cd {ROOT} && {sys.executable} -m tests.frontends.scripted_table "
        f"{' '.join(flags)} {log}; sleep 60"
    )
    return Tmux(command, width, height, lang)


@pytest.fixture
def ascii_table(log: Path) -> Iterator[Tmux]:
    tmux = _start(log, 100, 40, "--ascii")
    yield tmux
    tmux.close()


def _requests(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_tmux_charleston_discard_call_and_end_of_hand(ascii_table: Tmux, log: Path) -> None:
    ascii_table.wait_for(
        "Pass right (select 3 tiles, then this)", "1m 2m 3m 4p 4p 6s 7s 8s 1z 1z 5z F  J"
    )
    ascii_table.keys("a", "c", "1")  # only two selected: refused on screen, nothing sent
    ascii_table.wait_for("select 3 tile(s), you selected 2")
    assert _requests(log) == []
    ascii_table.keys("f", "1")
    ascii_table.wait_for("Your turn: discard a tile", "[5p 5p J pung<E]", "discards: 1m 2m 7z F")
    assert _requests(log)[0]["tiles"] == ["1m", "3m", "6s"]
    ascii_table.keys("h", "Enter")  # discard 8s
    ascii_table.wait_for("South discarded 4p: call or pass", "3 Pass [default]", "Pung 4p")
    ascii_table.keys("1")  # pung
    ascii_table.wait_for(
        "Q quit (leave the table)",  # the match-over keys, drawn last
        "=== Scoreboard",
        "Mahjong by South (Bob)",
        "Audit: ok",
    )
    requests = _requests(log)
    assert [r["seq"] for r in requests] == [1, 2, 3]
    assert requests[2]["action"] == 0


def test_tmux_help_screen_and_back(ascii_table: Tmux) -> None:
    ascii_table.wait_for("Pass right")
    ascii_table.keys("?")
    ascii_table.wait_for(
        "=== fourwinds: help ===",
        "space               select / unselect",
        "T or t              more time",
    )
    ascii_table.keys("x")
    ascii_table.wait_for("Pass right")


def test_tmux_resize_switches_to_the_compact_layout(ascii_table: Tmux) -> None:
    ascii_table.wait_for("Pass right", "    discards: -")
    ascii_table.run("resize-window", "-t", "t", "-x", "60", "-y", "16")
    screen = ascii_table.wait_for("S Bob       -10 10t", "Actions: >1 Pass right")
    assert all(len(line) <= 60 for line in screen.splitlines())


def test_tmux_unicode_rack_and_quit(log: Path) -> None:
    tmux = _start(log, 100, 40)
    try:
        tmux.wait_for("Pass right", "\U0001f007")  # the 1 Crak glyph on the rack
        tmux.keys("Q")
        end = time.monotonic() + 10
        while "Pass right" in tmux.screen() and time.monotonic() < end:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
        assert "Pass right" not in tmux.screen()  # the table closed; the shell's sleep remains
    finally:
        tmux.close()


def test_tmux_end_of_hand_at_80x24_without_utf8_falls_back_to_codes(log: Path) -> None:
    """LANG=C and no --ascii: the tiles are drawn as codes (no glyph curses cannot write),
    the countdown runs, n says next, H shows the hands and the match ends on the standings."""
    tmux = _start(log, 80, 24, "--end", lang="C")
    try:
        screen = tmux.wait_for(
            "=== Hand 2 over: Mahjong by South (Bob) ===",
            "Winning tile: 8m (8 Crak), discarded by East (Ada)",
            "  2m 2m 2m 4m 4m 4m 4m 6m 6m 6m 8m    8m 8m J",
            "Flowers: F",
            "Card hand: 2468-1  222 4444 666 8888  value 25",
            "South (Bob) +100",
            "Scores:   East (Ada) -25",
        )
        assert screen.isascii()
        assert all(len(line) <= 80 for line in screen.splitlines())
        assert "Next hand in 1" in screen
        screen = tmux.wait_for("Next hand in 12s", timeout=6)  # 15 s, counted down locally
        assert screen.startswith("time 12s | ")
        tmux.keys("n")
        screen = tmux.wait_for("sent: Next hand")
        assert _requests(log)[0]["expected"]["type"] == "next"  # type: ignore[index]
        tmux.wait_for("Waiting for West (Cy), North (Di)")
        tmux.keys("h")
        tmux.wait_for(
            "=== Hands of this match: 2 finished of 4 ===",
            "Hand 2: Mahjong by Bob, off Ada's discard - 2468-1, 25",
        )
        tmux.keys("x")
        tmux.wait_for("=== Hand 2 over")
    finally:
        tmux.close()
