"""`fourwinds play --rules american` under tmux (issue 22, item 13): the Charleston gives
news. After a pass the table says which tiles came and from whom ("News: Received 3p 5s N
from West (first right)") and marks them in the rack (+ above each); after the stop vote it
says who stopped the Charleston, or that no one did. The daemon's view (``news``,
``received``) is the reference; keys as a person presses them.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.terminal.tile_text import TILE_CELL
from testkit.machines import TEST_BOT_PAUSE
from tests.frontends.test_curses_tmux import TMUX
from tests.frontends.tmux_play import PlayTable, view_of

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


def _marked(screen: str) -> list[str]:
    """The rack tiles marked + (received), read off the rack's marks and codes rows."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Your hand (") and i + 2 < len(lines):
            marks, codes = lines[i + 1], lines[i + 2]
            return [codes[p : p + TILE_CELL].strip() for p, c in enumerate(marks) if c == "+"]
    return []


def _step(tmux: Any, screen: str) -> None:
    if "(select 3 tiles, then this)" in screen and "sent:" not in screen.splitlines()[-3]:
        tmux.keys("a", "b", "c", "1")  # three tiles of the rack, then the pass
    else:
        tmux.keys("Enter")
    # sleep-ok: a person's pace: the screen redraws before the next look
    time.sleep(0.4)


def test_the_terminal_tells_the_tiles_a_pass_brought_and_who_stopped_the_charleston(
    tmp_path: Path,
) -> None:
    me = tmp_path / "me"
    command = (
        f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
        f"fourwinds.frontends.cli play --rules american --bots 3 --practice --ascii "
        f"--bot-pause {TEST_BOT_PAUSE:g} "
        f"--hands 1 --data-dir {me}; sleep 60"
    )
    with PlayTable(me, command, 140, 50) as table:
        tmux, screen = table.start("Charleston: first right")
        got: dict[str, Any] = {}
        end = time.monotonic() + 90
        while time.monotonic() < end and not ("received" in got and "vote" in got):
            screen = tmux.screen()
            view = view_of(me)
            news = [str(n) for n in view.get("news") or ()]
            if (
                "received" not in got
                and view.get("received")
                and all(f"News: {n}" in screen for n in news)
            ):
                marked = _marked(screen)
                if Counter(marked) == Counter(view["received"]):
                    got["received"] = (news, marked)
            told = [n for n in news if n.startswith(("The Charleston stopped", "No one"))]
            if "vote" not in got and told and f"News: {told[0]}" in screen:
                got["vote"] = told[0]
            _step(tmux, screen)
        assert "received" in got, f"no received tiles shown: {got}\n{tmux.screen()}"
        news, marked = got["received"]
        assert len(marked) == 3, marked
        assert any(n.startswith("Received ") and " from " in n for n in news), news
        assert "vote" in got, f"the stop vote was not told: {got}\n{tmux.screen()}"
        tmux.keys("Q")
