"""`fourwinds play --rules american` for real, under tmux, through a whole hand: the Charleston
(choosing three tiles with the rack letters, then the pass action), the stop vote and courtesy
pass, discards, and a call, reading the screen back at every step.

Every key goes through the same curses table a person uses; only legal actions are offered.
With ``auto_pass`` (on by default) we are asked about a discard only when a call of it brings
our hand nearer to a card line (issue 22), so a "Call pung/kong/..." menu entry is a real call
chance: the test picks it by its number and checks the "sent:" echo, our exposure on the screen
and in the daemon's view (see tmux_play.make_call). When the first hand brings no call that
stands, play goes on into the next hands of the match (eight hands: a call chance comes in
most hands, and one that stands in nearly every hand or two).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from testkit.machines import TEST_BOT_PAUSE
from tests.frontends.test_curses_tmux import TMUX
from tests.frontends.tmux_play import PlayTable, play_until_a_call_stood

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


def test_play_american_against_three_bots_through_charleston_a_hand_and_a_call(
    tmp_path: Path,
) -> None:
    me = tmp_path / "me"
    command = (
        f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
        f"fourwinds.frontends.cli play --rules american --bots 3 --practice --ascii "
        f"--bot-pause {TEST_BOT_PAUSE:g} "
        f"--hands 8 --data-dir {me}; sleep 60"
    )
    with PlayTable(me, command, 120, 45) as table:
        started = time.monotonic()
        tmux, screen = table.start("Charleston: first right")  # dealt, passing
        end = time.monotonic() + 5  # the header may be read before the rest is drawn
        while "Your hand (" not in screen and time.monotonic() < end:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
            screen = tmux.screen()
        assert "American" in screen and "Your hand (" in screen, screen
        print(f"table up and passing after {time.monotonic() - started:.1f} s")
        seen: set[str] = set()

        def look(screen: str) -> None:
            for word in (
                "Charleston: first right",
                "Charleston: first across",
                "Pass 3 tiles",
                "sent: Pass 3 tiles",
                "Discard",
                "sent: Discard",
            ):
                if word in screen:
                    seen.add(word)

        def press(screen: str) -> None:
            if "(select 3 tiles, then this)" in screen and "sent:" not in screen.splitlines()[-3]:
                tmux.keys("a", "b", "c", "1")  # three tiles of the rack, then the pass
            else:
                tmux.keys("Enter")  # the highlighted action, or discard tile a
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.3)

        def over(view: dict[str, Any], screen: str) -> bool:
            # the match ended and `play` left the table
            return not view and ("Match over" in screen or "Phase:" not in screen)

        call = play_until_a_call_stood(tmux, me, started, look=look, press=press, over=over)
        assert call is not None, f"no call stood in the whole match; screen:\n{tmux.screen()}"
        assert {"Charleston: first right", "sent: Pass 3 tiles"} <= seen, seen
        assert "Discard" in seen, seen
        assert f"sent: {call.offer.label}" in call.screen  # the action echo
        tmux.keys("Q")
