"""`fourwinds play --rules american` for real, under tmux, through a whole hand: the Charleston
(choosing three tiles with the rack letters, then the pass action), the stop vote and courtesy
pass, discards, and the calls the table offers, reading the screen back at every step.

Every key goes through the same curses table a person uses; only legal actions are offered.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.frontends.test_curses_tmux import TMUX, Tmux
from tests.frontends.test_play_tmux_e2e import _stop_daemon, _view

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


def test_play_american_against_three_bots_through_charleston_and_a_hand(tmp_path: Path) -> None:
    me = tmp_path / "me"
    command = (f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
               f"fourwinds.frontends.cli play --rules american --bots 3 --practice --ascii "
               f"--hands 1 --no-fallback --data-dir {me}; sleep 60")
    tmux = Tmux(command, 120, 45)
    try:
        screen = tmux.wait_for("Charleston: first right", timeout=90)  # dealt, passing
        assert "American" in screen and "Your hand (" in screen
        seen: set[str] = set()
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            view = _view(me)
            if int(view.get("hands_played") or 0) >= 1 or view.get("phase") == "match_over":
                break
            screen = tmux.screen()
            if not view and ("Match over" in screen or "Phase:" not in screen):
                break   # the one-hand match ended and `play` left the table
            for word in ("Charleston: first right", "Charleston: first across",
                         "Pass 3 tiles", "sent: Pass 3 tiles", "Discard", "sent: Discard"):
                if word in screen:
                    seen.add(word)
            if "(select 3 tiles, then this)" in screen and "sent:" not in screen.splitlines()[-3]:
                tmux.keys("a", "b", "c", "1")   # three tiles of the rack, then the pass
            else:
                tmux.keys("Enter")              # the highlighted action, or discard tile a
            time.sleep(0.3)
        else:
            raise AssertionError(f"the hand did not end; screen:\n{tmux.screen()}")
        assert {"Charleston: first right", "sent: Pass 3 tiles"} <= seen, seen
        assert "Discard" in seen, seen
        tmux.keys("Q")
    finally:
        tmux.close()
        _stop_daemon(me)
