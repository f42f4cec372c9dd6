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
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install -y tmux) - curses table untested"
)


class Tmux:
    """One private tmux server (its own socket) running one command in a fixed-size window."""

    def __init__(self, command: str, width: int, height: int) -> None:
        self.socket = f"fourwinds-test-{os.getpid()}-{time.monotonic_ns()}"
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TERM="xterm-256color")
        self.run("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", str(width),
                 "-y", str(height), command, env=env)

    def run(self, *args: str, env: dict[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-u", "-L", self.socket, *args], capture_output=True,
                              text=True, env=env, timeout=10, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", "-t", "t", key)

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never appeared; screen:\n{screen}")
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=10, check=False)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "requests.jsonl"


def _start(log: Path, width: int, height: int, *flags: str) -> Tmux:
    command = (f"cd {ROOT} && {sys.executable} -m tests.frontends.scripted_table "
               f"{' '.join(flags)} {log}; sleep 60")
    return Tmux(command, width, height)


@pytest.fixture
def ascii_table(log: Path) -> Iterator[Tmux]:
    tmux = _start(log, 100, 40, "--ascii")
    yield tmux
    tmux.close()


def _requests(log: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_tmux_charleston_discard_call_and_end_of_hand(ascii_table: Tmux, log: Path) -> None:
    screen = ascii_table.wait_for("Pass right (select 3 tiles, then this)")
    assert "1m 2m 3m 4p 4p 6s 7s 8s 1z 1z 5z F  J" in screen
    ascii_table.keys("a", "c", "1")  # only two selected: refused on screen, nothing sent
    ascii_table.wait_for("select 3 tile(s), you selected 2")
    assert _requests(log) == []
    ascii_table.keys("f", "1")
    screen = ascii_table.wait_for("Your turn: discard a tile")
    assert "[5p 5p J pung<E]" in screen and "discards: 1m 2m 7z F" in screen
    assert _requests(log)[0]["tiles"] == ["1m", "3m", "6s"]
    ascii_table.keys("h", "Enter")  # discard 8s
    screen = ascii_table.wait_for("South discarded 4p: call or pass")
    assert "3 Pass [default]" in screen and "Pung 4p" in screen
    ascii_table.keys("1")  # pung
    screen = ascii_table.wait_for("=== Scoreboard")
    assert "Mahjong by South (Bob)" in screen and "Audit: ok" in screen
    requests = _requests(log)
    assert [r["seq"] for r in requests] == [1, 2, 3]
    assert requests[2]["action"] == 0


def test_tmux_help_screen_and_back(ascii_table: Tmux) -> None:
    ascii_table.wait_for("Pass right")
    ascii_table.keys("?")
    screen = ascii_table.wait_for("=== fourwinds: help ===")
    assert "space              select / unselect" in screen
    ascii_table.keys("x")
    ascii_table.wait_for("Pass right")


def test_tmux_resize_switches_to_the_compact_layout(ascii_table: Tmux) -> None:
    screen = ascii_table.wait_for("Pass right")
    assert "    discards: -" in screen
    ascii_table.run("resize-window", "-t", "t", "-x", "60", "-y", "16")
    screen = ascii_table.wait_for("S Bob       -10 10t")
    assert all(len(line) <= 60 for line in screen.splitlines())
    assert "Actions: >1 Pass right" in screen


def test_tmux_unicode_rack_and_quit(log: Path) -> None:
    tmux = _start(log, 100, 40)
    try:
        screen = tmux.wait_for("Pass right")
        assert "\U0001f007" in screen  # the 1 Crak glyph on the rack
        tmux.keys("Q")
        end = time.monotonic() + 10
        while "Pass right" in tmux.screen() and time.monotonic() < end:
            time.sleep(0.1)
        assert "Pass right" not in tmux.screen()  # the table closed; the shell's sleep remains
    finally:
        tmux.close()
