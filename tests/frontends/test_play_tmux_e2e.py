"""`fourwinds play` for real, under tmux: it starts the player's daemon (or uses the one the
test started when the default port is taken, see tmux_play.daemon_for_play), hosts an MCR table,
fills three seats with bot seats (each its own daemon on 127.0.0.1) and opens the curses table;
we press keys until a whole hand has been played and we have made a call, reading the screen
back.

Only legal actions are offered and taken: the highlighted entry of the action menu (Enter),
except that a call the menu offers is picked by its number. With the table option
``auto_pass`` (on by default) we are asked about a discard only when we can call it, so a call
chance shows as a "Call chow/pung/kong" entry; the call is then checked on the screen (the
"sent:" echo, the exposure in our seat's row) and in the daemon's view (our exposures). The
screen shows our rack and every seat from the daemon's contract seat view.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

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


def test_play_alone_against_three_bots_through_a_hand_with_a_call(tmp_path: Path) -> None:
    me = tmp_path / "me"
    command = (
        f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
        f"fourwinds.frontends.cli play --rules mcr --bots 3 --practice --ascii "
        f"--bot-pause {TEST_BOT_PAUSE:g} "
        f"--data-dir {me}; sleep 60"
    )
    with PlayTable(me, command, 110, 45) as table:
        started = time.monotonic()
        tmux, screen = table.start("Your hand")  # dealt: our rack is on screen
        assert "Chinese Official (MCR)" in screen
        print(f"table up and playing after {time.monotonic() - started:.1f} s")
        seen: set[str] = set()
        refusals = 0

        def look(screen: str) -> None:
            nonlocal refusals
            seen.update(word for word in ("Discard", "Pass", "sent:") if word in screen)
            if "refused:" in screen:  # only a race with the table moving on is acceptable
                assert any(
                    race in screen
                    for race in ("moved on", "nothing for this seat to do", "no action")
                ), screen
                refusals += 1

        def press(screen: str) -> None:
            tmux.keys("Enter")
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.1)

        call = play_until_a_call_stood(tmux, me, started, look=look, press=press)
        assert call is not None
        assert {"Discard", "sent:"} <= seen
        assert refusals <= 5
        assert f"sent: {call.offer.label}" in call.screen  # the action echo
        tmux.keys("Q")
        end = time.monotonic() + 20
        while "Phase:" in tmux.screen() and time.monotonic() < end:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        assert "Phase:" not in tmux.screen()
