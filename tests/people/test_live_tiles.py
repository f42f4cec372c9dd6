"""The count of live tiles that win for you (issue 22, "a table people choose"), at a real
table: `fourwinds play` with three bots in a terminal (tmux), played by keys.

- MCR: once our hand is ready the view's ``live_wins`` counts the tiles that win and how
  many of them are still live; the table's header says it ("5 live tiles win for you: 6p
  9p"), the same as the view at that moment;
- American: the hints say how many of the tiles each nearest card hand needs are still unseen
  ("needs 2m 4m; unseen: 2m 3, 4m 2"), as the view's hints do.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from testkit.machines import Machine, fixed_deal, one_player
from testkit.screen import TMUX, Person, Terminal, entry, is_result, one_line, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

TIMEOUT = 240.0
MCR_DEAL = "live-wins-1"
"""A fixed deal (the same identities, table id and so wall every run) in which our MCR hand
becomes ready: with a deal of chance one hand in several does, and the test once played 8
hands without one."""


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def _open(pat: Machine, command: str, deal: str | None = None) -> Terminal:
    """`play` in a 100x45 terminal (the hints under the rack) once the table shows our rack;
    ``deal``: the same deal every run (testkit.machines.fixed_deal)."""
    term = pat.terminal(fixed_deal(deal) + command, 100, 45)

    def dealt(screen: str) -> bool:
        ready = entry(screen, "Ready")
        if ready is not None and not rack(screen):
            term.keys(ready.key)
            # sleep-ok: a person's pace: ready is not pressed twice before the redraw
            time.sleep(0.3)
        return bool(rack(screen))

    term.wait_for(dealt, 60, f"our rack after `{command}`")
    return term


def live_wins_text(wins: dict[str, Any]) -> str:
    left = int(wins["left"])
    return (
        f"{left} live tile{'' if left == 1 else 's'} win{'s' if left == 1 else ''} for "
        f"you: {' '.join(wins['tiles'])}"
    )


def _play_until_shown(
    pat: Machine, term: Terminal, wanted: Callable[[dict[str, Any]], str | None]
) -> str:
    """Play by keys (saying next at each hand's end) until the view has something
    ``wanted`` turns into a text, and the screen shows that text while the view still has
    it; that text."""
    person = Person(term, pat.login)
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        screen = term.screen()
        if is_result(screen):
            term.keys("n")
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.5)
            continue
        view = pat.view()
        if view.get("phase") == "match_over":
            break
        text = wanted(view)
        if text is not None:
            for _ in range(20):  # the screen draws the view it was sent: a moment later
                if text in one_line(term.screen()):
                    return text
                if wanted(pat.view()) != text:
                    break  # the table moved on meanwhile: look again
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.1)
            else:
                raise AssertionError(
                    f"{text!r} is in the view, not on the screen:\n{term.screen()}"
                )
        person.step()
        # sleep-ok: a person's pace: the screen redraws before the next look
        time.sleep(0.1)
    pytest.fail(
        f"the view never gave it within {TIMEOUT:.0f} s; last moves "
        f"{person.log[-6:]}\n{term.screen()}"
    )


def test_mcr_says_how_many_live_tiles_win_once_the_hand_is_ready(pat: Machine) -> None:
    # --no-auto-pass: every discard waits for our pass, so the view that says our hand is
    # ready (13 tiles, the others' turns) stays until we answer; with auto-pass it lasted
    # a moment between the bots' discards, and a poll missed it in CI
    term = _open(pat, "fourwinds play --rules mcr --hands 4 --ascii --no-auto-pass", MCR_DEAL)

    def wins(view: dict[str, Any]) -> str | None:
        found = view.get("live_wins")
        return live_wins_text(found) if found and found.get("tiles") else None

    print("shown:", _play_until_shown(pat, term, wins))


def test_american_hints_say_how_many_needed_tiles_are_unseen(pat: Machine) -> None:
    term = _open(pat, "fourwinds play --rules american --hands 1 --ascii")

    def unseen(view: dict[str, Any]) -> str | None:
        hints = [str(h) for h in view.get("hints") or () if "; unseen: " in str(h)]
        if view.get("phase") != "play" or not hints:
            return None
        return hints[0].split("): needs ", 1)[1]  # what it needs and how many are unseen

    print("shown:", _play_until_shown(pat, term, unseen))
