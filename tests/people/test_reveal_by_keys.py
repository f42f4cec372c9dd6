"""At a hand's end the terminal shows every seat's tiles (issue 22, "beyond the defects").

One person ("Pat") plays a whole MCR hand by keys in `fourwinds play` (tmux) against three
bot seats on the fair, masked deck: once the deck audit is over, the end-of-hand screen shows
under each player that seat's concealed tiles, as the daemon's view reveals them, our own
rack among them, the other three as many tiles as each holds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from testkit.machines import Machine, one_player
from testkit.screen import TMUX, Person, is_result, play_until
from tests.people.test_play_by_keys import HAND_TIMEOUT, OVER, _hand_over, _open

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

WINDS = ("East", "South", "West", "North")
CODE = re.compile(r"(?<![\w-])([1-9][mpsf]|[1-7]z|F|J)(?![\w-])")


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def shown_hands(screen: str) -> list[list[str]] | None:
    """By wind, the codes the screen shows under "Every seat's tiles:" (None: not shown)."""
    if "Every seat's tiles:" not in screen:
        return None
    block = screen.split("Every seat's tiles:", 1)[1].split("Payments:", 1)[0].splitlines()
    hands: list[list[str]] = [[], [], [], []]
    seat = None
    for line in block[1:]:
        head = re.match(r"\s+(East|South|West|North) \([^)]*\):", line)
        if head is not None:
            seat = WINDS.index(head.group(1))
            line = line[head.end() :]
        if seat is not None:
            hands[seat].extend(CODE.findall(line))
    return hands


def test_the_end_of_hand_screen_shows_every_seats_tiles(pat: Machine) -> None:
    started = time.monotonic()
    term = _open(pat, "fourwinds play --rules mcr --hands 1 --fair", 100, 40)
    play_until([Person(term, pat.login)], _hand_over(pat, 1), HAND_TIMEOUT, "the hand's end")
    term.wait_for(is_result, 10, "the end-of-hand screen")
    screen = term.wait_for("Every seat's tiles:", 20, "every seat's tiles after the audit")
    view: dict[str, Any] = pat.view()
    assert view.get("phase") in OVER, view.get("phase")
    result = view.get("result") or {}
    hands = result.get("hands")
    assert hands is not None, result.get("hands_detail")
    assert shown_hands(term.screen()) == hands, screen
    me = int(view["seat"])
    winner = result.get("winner")  # the winner's as the result lays it out
    own = result["concealed"] if me == winner else view.get("hand") or ()
    assert hands[me] == list(own), (hands, own)
    players = view.get("players") or []
    for wind in range(4):
        if wind == winner:
            assert hands[wind] == result["concealed"], (hands, result["concealed"])
        elif wind != me:  # the others' tiles, which the table hid until now
            assert len(hands[wind]) == players[wind]["concealed_count"] > 0, (wind, players)
    print(f"every seat's tiles shown after {time.monotonic() - started:.1f} s")
    term.keys("Q")
