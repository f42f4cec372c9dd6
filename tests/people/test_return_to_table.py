"""A player comes back to the table (issue 22 items 4 and 5), in a terminal (tmux).

One person ("Pat", a fresh HOME) plays alone against three bots, every bot a real seat with
its own daemon, every discard asked (``--no-auto-pass``) and a 20 s call window.

- Pat closes the screen (Q) with 3-4 s left to call a discard, and runs `fourwinds play`
  again (which starts the bot seats again, as Q stopped them): the first table on the
  screen is the current one, the same discard in front of Pat, with a fresh window (before:
  "time 1s", and the pass taken by the timer).
- Pat's daemon is killed (kill -9) while a bot's daemon cannot answer (SIGSTOP): the
  restarted daemon says "Reconnecting: asking the other seats…" with no action, instead of
  the table as its records left it (before: the stale table, its keys live).
- A bot's daemon stops answering while the table waits for it: Pat's header says
  "Waiting for <bot> (unreachable for N s)" with N growing, never "time 0s".
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator

import pytest

from testkit.machines import Machine, one_player
from testkit.screen import TMUX, Person, Terminal, entry, menu, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

CALL_WINDOW = 20
PLAY = (
    f"fourwinds play --rules mcr --hands 1 --ascii --practice --no-auto-pass "
    f"--call-window {CALL_WINDOW}"
)
_TIME_LEFT = re.compile(r"\btime (\d+)s\b")
RECONNECTING = "Reconnecting: asking the other seats"


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def _time_left(screen: str) -> int | None:
    found = _TIME_LEFT.search(screen)
    return None if found is None else int(found.group(1))


def _asked_to_call(screen: str) -> bool:
    """A discard of another seat in front of us: Pass in the menu, and our rack."""
    return entry(screen, "Pass") is not None and bool(rack(screen))


def _dealt(term: Terminal) -> None:
    def dealt(screen: str) -> bool:
        ready = entry(screen, "Ready")
        if ready is not None and not rack(screen):
            term.keys(ready.key)
            # sleep-ok: a person's pace: ready is not pressed twice before the redraw
            time.sleep(0.3)
        return bool(rack(screen))

    term.wait_for(dealt, 60, "our rack")


def _play_until_asked(term: Terminal, person: Person, timeout: float = 90) -> str:
    """Play our turns by keys until a discard we could call is in front of us."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = term.screen()
        if _asked_to_call(screen):
            return screen
        assert "[exited " not in screen, screen
        person.step()
        # sleep-ok: a person's pace: the screen redraws before the next look
        time.sleep(0.1)
    raise AssertionError(f"never asked about a discard; screen:\n{term.screen()}")


def test_q_with_seconds_left_and_back_gives_the_current_table_and_a_fresh_window(
    pat: Machine,
) -> None:
    term = pat.terminal(PLAY, 100, 40)
    _dealt(term)
    person = Person(term, pat.login)
    _play_until_asked(term, person)
    screen = term.wait_for(
        lambda s: not _asked_to_call(s) or (_time_left(s) or 99) <= 4,
        CALL_WINDOW + 5,
        "4 s left to call",
    )
    assert _asked_to_call(screen), screen  # (our own side would pass at 0)
    before = pat.view()
    term.keys("Q")
    term.wait_for("[exited 0]", 10, "the screen closed")
    closed = time.monotonic()

    back = pat.terminal("fourwinds play --ascii", 100, 40)
    first = back.wait_for(lambda s: bool(rack(s)), 30, "the table again")
    elapsed = time.monotonic() - closed
    print(f"the table was back {elapsed:.1f} s after Q; time there: {_time_left(first)}")
    after = pat.view()
    assert after.get("hand_number") == before.get("hand_number"), (before, after)
    assert after.get("step") == before.get("step"), "the same discard is in front of us"
    # the current table at once: the discard we were asked about, its prompt and its time
    assert _asked_to_call(first), first
    # a window started again after Q (the old one had at most 4 s left then): what is left
    # is a whole window less the time since Q at most, however slow the screen came back
    left = _time_left(first)
    assert left is not None and left > 4 and left >= CALL_WINDOW - elapsed - 2, (elapsed, first)
    # and it is ours to answer: a pass by its key is taken
    passing = entry(first, "Pass")
    assert passing is not None
    back.keys(passing.key)
    back.wait_for(
        lambda s: not _asked_to_call(s) or pat.view().get("step") != before.get("step"),
        10,
        "our pass taken",
    )


def test_a_daemon_restarted_while_a_seat_is_unreachable_says_reconnecting(pat: Machine) -> None:
    term = pat.terminal(PLAY, 100, 40)
    _dealt(term)
    person = Person(term, pat.login)
    _play_until_asked(term, person)
    bots = pat.bot_daemons()
    assert len(bots) == 3, bots
    pid = pat.daemon_pid()
    assert pid is not None
    os.kill(bots[0], signal.SIGSTOP)  # it cannot say what it holds of ours
    try:
        os.kill(pid, signal.SIGKILL)
        screen = term.wait_for(RECONNECTING, 60, "the reconnecting screen")
        assert not rack(screen) and not menu(screen), screen  # no stale table, no keys
        assert "time " not in screen, screen
        print(screen)
    finally:
        os.kill(bots[0], signal.SIGCONT)
    term.wait_for(lambda s: RECONNECTING not in s and bool(rack(s)), 30, "the table again")


def test_an_unreachable_seat_shows_whom_the_table_waits_for_never_time_0s(pat: Machine) -> None:
    term = pat.terminal(PLAY, 100, 40)
    _dealt(term)
    person = Person(term, pat.login)
    _play_until_asked(term, person)
    bots = pat.bot_daemons()
    assert len(bots) == 3, bots
    for bot in bots:  # every other seat: whoever the table waits for next is one of them
        os.kill(bot, signal.SIGSTOP)
    try:
        seen: list[int] = []
        end = time.monotonic() + 60
        # past the call window (the countdown before stopped at "time 0s" there)
        while time.monotonic() < end and (not seen or seen[-1] < CALL_WINDOW + 5):
            person.step()  # our answers (a pass, our discard): then the table waits for them
            screen = term.screen()
            head = " ".join(screen.splitlines()[:2])
            assert "time 0s" not in head, screen
            found = re.search(r"Waiting for .+? \(unreachable for (\d+) s\)", head)
            if found:
                seen.append(int(found.group(1)))
            # sleep-ok: the sampling interval of the countdown read
            time.sleep(0.5)
        assert seen and seen[-1] >= CALL_WINDOW + 5 and seen[-1] - seen[0] >= 5, (
            seen,
            term.screen(),
        )
        assert seen == sorted(seen), seen
        print(f"seconds shown: {seen}")
    finally:
        for bot in bots:
            os.kill(bot, signal.SIGCONT)
