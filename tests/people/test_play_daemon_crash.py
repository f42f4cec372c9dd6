"""The daemon under an open `fourwinds play` dies (kill -9): the screen says so and comes back.

One person ("Pat", a fresh HOME) plays alone against three bots in a terminal (tmux). Their
daemon is killed with SIGKILL in the middle of the hand, as a crash would end it. Before, the
screen froze for about 11 s and `play` exited with "the daemon did not answer 'view' within
10 s". Now, within 2 s, the screen says the daemon stopped and is being started again; `play`
starts it the way it starts it when none runs, and the same table and seat are on the screen
again by themselves, with the hand going on.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from testkit.machines import Machine, one_player
from testkit.screen import TMUX, Person, Terminal, entry, play_until, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

SAID_WITHIN_S = 5.0  # a bound, not the target: the screen checks its daemon once a second
# and says it stopped ~1 s after a kill -9 (the 2 s target of issue 22 item 3, docs/DAEMON.md)
BACK_WITHIN_S = 60.0  # a bound, not a target: a daemon and its table resumed from disk
STOPPED = "Your daemon stopped"


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def _dealt(term: Terminal) -> None:
    """Wait for our rack (saying ready in the lobby when asked)."""

    def dealt(screen: str) -> bool:
        ready = entry(screen, "Ready")
        if ready is not None and not rack(screen):
            term.keys(ready.key)
            # sleep-ok: a person's pace: ready is not pressed twice before the redraw
            time.sleep(0.3)
        return bool(rack(screen))

    term.wait_for(dealt, 60, "our rack")


def test_a_daemon_killed_under_the_screen_is_started_again_and_the_seat_comes_back(
    pat: Machine,
) -> None:
    term = pat.terminal("fourwinds play --rules mcr --hands 2 --ascii", 100, 40)
    _dealt(term)
    person = Person(term, pat.login)
    play_until(
        [person], lambda: sum("discard" in m for m in person.log) >= 1, 60, "a discard of ours"
    )
    before = pat.view()
    pid = pat.daemon_pid()
    assert pid is not None and before.get("table"), before

    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    term.wait_for(STOPPED, SAID_WITHIN_S, "the screen saying the daemon stopped")
    said = time.monotonic() - killed
    print(f"the screen said the daemon stopped {said:.2f} s after kill -9")
    assert (
        "started again" in " ".join(term.screen().split()) or "starting it again" in term.screen()
    ), term.screen()

    screen = term.wait_for(
        lambda s: STOPPED not in s and bool(rack(s)), BACK_WITHIN_S, "the table back on the screen"
    )
    print(f"the table was back {time.monotonic() - killed:.1f} s after kill -9")
    assert "[exited " not in screen, screen
    again = pat.daemon_pid()
    assert again is not None and again != pid, (pid, again)
    after = pat.view()
    assert (after.get("table"), after.get("seat")) == (before.get("table"), before.get("seat")), (
        before,
        after,
    )
    assert after.get("hand_number") == before.get("hand_number"), (before, after)
    # the hand goes on at the restarted daemon: a discard of ours by keys is taken (a key
    # pressed while the resumed seat still asks the others where it stood is refused with
    # "not yet", and pressed again)
    ours = _discards(after)
    play_until(
        [person],
        lambda: (
            _discards(pat.view()) > ours or pat.view().get("phase") in ("hand_over", "match_over")
        ),
        90,
        "a discard of ours after the restart",
    )


def _discards(view: dict[str, object]) -> int:
    """How many tiles our seat has discarded in this hand (the daemon's view)."""
    players = view.get("players")
    for player in players if isinstance(players, list) else ():
        if player.get("seat") == view.get("seat"):
            return len(player.get("discards") or ())
    return 0


def test_a_daemon_that_cannot_be_started_again_ends_play_with_one_line(pat: Machine) -> None:
    term = pat.terminal("fourwinds play --rules mcr --ascii", 100, 40)
    _dealt(term)
    pid = pat.daemon_pid()
    assert pid is not None
    # a broken config file: the daemon `play` starts again refuses to run
    config = pat.home / ".config" / "fourwinds" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("this is = = not toml\n", encoding="utf-8")
    os.kill(pid, signal.SIGKILL)
    term.wait_for(STOPPED, SAID_WITHIN_S, "the screen saying the daemon stopped")
    screen = term.wait_for("[exited ", BACK_WITHIN_S, "`play` to end")
    words = " ".join(screen.split())
    assert "[exited 2]" in screen, screen
    assert "your daemon stopped and could not be started again" in words, screen
    assert "config.toml" in words, screen  # why, in its one line
    assert "Traceback" not in screen, screen
