"""`fourwinds play` with three bots, played by keys the way a person plays it (scripts/play).

Each test gives one person (login "Pat") a fresh HOME and XDG directories, opens `fourwinds
play ...` in a terminal (tmux) and plays by keys only, reading the screen back; the daemon's
view (its local API, as `fourwinds status --json` shows it) is the reference for what the
screen must show. Every process the test ran (the daemon `play` starts, the bot seats) carries
that HOME and is stopped by pid at the end.

- a whole American hand and a whole MCR hand: the end-of-hand screen shows the headline, the
  winner, the card hand or the fans and every payment the view reports, and the next hand does
  not start until the person presses ``n`` (also at 80x24 under LANG=C: codes, no glyphs);
- ``Q`` in the middle of a hand, then `fourwinds play` with no arguments: back at the same
  table and seat, in the same hand, with the same rack;
- a call made by keys 5 s after the discard stands with the default call window.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from testkit.machines import Machine, one_player
from testkit.screen import (
    TMUX,
    Person,
    Terminal,
    entry,
    is_result,
    menu,
    play_until,
    rack,
)
from testkit.views import our_exposures
from tests.frontends.tmux_play import exposure_text
from tests.people.table_checks import result_of, result_problems, summary

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

HAND_TIMEOUT = 90.0
STILL = 3.0  # how long the end-of-hand screen must stay put without our "next"
OVER = ("hand_over", "match_over")


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def _open(pat: Machine, command: str, width: int = 100, height: int = 40, **env: str) -> Terminal:
    """`play` in a terminal, once the table shows our rack (or fails with the screen); in
    the lobby the person says ready when the screen asks (Enter on "Ready to start")."""
    term = pat.terminal(command, width, height, **env)

    def dealt(screen: str) -> bool:
        ready = entry(screen, "Ready")
        if ready is not None and not rack(screen):
            term.keys(ready.key)
            # sleep-ok: a person's pace: ready is not pressed twice before the redraw
            time.sleep(0.3)
        return bool(rack(screen))

    term.wait_for(dealt, 60, f"our rack after `{command}`")
    return term


def _hand_over(pat: Machine, hand: int) -> Callable[[], bool]:
    """A test for play_until: the daemon's view says hand ``hand`` is over."""
    checked = [0.0]

    def over() -> bool:
        if time.monotonic() - checked[0] < 0.5:
            return False
        checked[0] = time.monotonic()
        view = pat.view()
        return view.get("phase") in OVER or int(view.get("hands_played") or 0) >= hand

    return over


def _first_hand_to_its_end(pat: Machine, term: Terminal) -> dict[str, Any]:
    person = Person(term, pat.login)
    play_until([person], _hand_over(pat, 1), HAND_TIMEOUT, "the end of hand 1")
    view = pat.view()
    assert view.get("phase") in OVER, (
        f"the table left the end of hand 1 without our 'next': phase {view.get('phase')!r}, "
        f"hand {view.get('hand_number')}; screen:\n{term.screen()}"
    )
    return view


@pytest.mark.parametrize(
    ("rules", "width", "height", "lang"),
    [
        ("american", 100, 40, "C.UTF-8"),
        ("mcr", 100, 40, "C.UTF-8"),
        ("american", 80, 24, "C"),
        ("mcr", 80, 24, "C"),
    ],
    ids=["american", "mcr", "american-80x24-LANG=C", "mcr-80x24-LANG=C"],
)
def test_a_whole_hand_by_keys_ends_on_a_result_screen_that_waits_for_next(
    pat: Machine, rules: str, width: int, height: int, lang: str
) -> None:
    started = time.monotonic()
    env = {"LANG": lang, "LC_ALL": "" if lang == "C" else lang}
    term = _open(pat, f"fourwinds play --rules {rules} --hands 2", width, height, **env)
    # a LANG=C terminal cannot show glyphs: codes only (checked last, after the rest)
    glyphs = [] if lang != "C" or term.screen().isascii() else [term.screen()]
    view = _first_hand_to_its_end(pat, term)
    print(f"hand 1 over after {time.monotonic() - started:.1f} s")
    result = result_of(view)
    screen = term.wait_for(is_result, 10, "the end-of-hand screen")
    problems = result_problems(screen, result)
    assert not problems, "\n".join(problems) + "\n" + screen
    event = pat.status_json()  # what a script sees agrees with the screen's source
    assert summary(result_of(event.get("view") or {})) == summary(result)
    lines = screen.splitlines()
    assert all(len(line) <= width for line in lines), screen
    if lang == "C" and not screen.isascii():
        glyphs.append(screen)

    # sleep-ok: a negative: time passes to show the table waits for us
    time.sleep(STILL)  # the bots said next at once; the table waits for us
    still = pat.view()
    assert still.get("phase") in OVER and still.get("hand_number") == view.get("hand_number"), (
        f"the next hand started without our 'next': {still.get('phase')!r} hand "
        f"{still.get('hand_number')}"
    )
    assert is_result(term.screen()), term.screen()
    if still.get("phase") == "hand_over":
        nxt = still.get("next") or {}
        assert still.get("seat") in (nxt.get("waiting") or ()), nxt
        assert re.search(r"\bn\b|Enter", screen), f"no key for the next hand shown:\n{screen}"
        term.keys("n")
        term.wait_for(lambda s: not is_result(s), 20, "the next hand after pressing n")
        end = time.monotonic() + 20
        while pat.view().get("hand_number") == view.get("hand_number"):
            assert time.monotonic() < end, "the next hand did not start after n"
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
    term.keys("Q")
    term.wait_for(lambda s: not rack(s) and not is_result(s), 20, "the table closed")
    print(f"done after {time.monotonic() - started:.1f} s")
    assert not glyphs, "glyphs on a LANG=C terminal (codes only, please):\n" + glyphs[0]


def test_quit_mid_hand_then_play_with_no_arguments_returns_to_the_same_seat(pat: Machine) -> None:
    started = time.monotonic()
    term = _open(pat, "fourwinds play --rules mcr --hands 2 --ascii")
    person = Person(term, pat.login)

    def two_discards_made() -> bool:
        if sum("discard" in move for move in person.log) < 2:
            return False
        view = pat.view()
        return view.get("turn") != view.get("seat") and not menu(term.screen())

    play_until([person], two_discards_made, HAND_TIMEOUT, "two discards of ours")
    before = pat.view()
    assert before.get("phase") not in OVER, "the hand ended before we could quit mid-hand"
    tiles_before = Counter(str(t) for t in before.get("hand") or ())
    term.keys("Q")
    term.wait_for(lambda s: not rack(s), 20, "the table closed after Q")
    print(f"quit mid-hand after {time.monotonic() - started:.1f} s")

    again = _open(pat, "fourwinds play --ascii")
    after = pat.view()
    assert (after.get("table"), after.get("seat"), after.get("hand_number")) == (
        before.get("table"),
        before.get("seat"),
        before.get("hand_number"),
    ), (before, after)
    assert after.get("phase") not in OVER, f"the hand did not go on: {after.get('phase')}"
    tiles_after = Counter(str(t) for t in after.get("hand") or ())
    if after.get("drawn"):
        tiles_after[str(after["drawn"])] += 1
    # our turn may have come meanwhile (a tile drawn); nothing of ours went anywhere
    assert tiles_before <= tiles_after, (tiles_before, tiles_after)
    shown = Counter(t.token for t in rack(again.screen()))
    assert tiles_before <= shown, (tiles_before, shown, again.screen())
    print(f"back at the table after {time.monotonic() - started:.1f} s")


def test_a_call_made_five_seconds_after_the_discard_stands(pat: Machine) -> None:
    started = time.monotonic()
    term = _open(pat, "fourwinds play --rules mcr --hands 4 --ascii")
    person = Person(term, pat.login, calls="hold")
    end = time.monotonic() + 150
    tried: list[str] = []
    while time.monotonic() < end:
        screen = term.screen()
        if is_result(screen):
            term.keys("n")
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.5)
            continue
        offer = entry(screen, "Call ")
        if offer is None:
            person.step()
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.1)
            continue
        seen = time.monotonic()
        view = pat.view()
        discard = view.get("last_discard")
        before = len(our_exposures(view))
        # sleep-ok: a clock: the call is made 5 s into the 8 s window
        time.sleep(max(0.0, 5.0 - (time.monotonic() - seen)))
        screen = term.screen()
        offer = entry(screen, "Call ")
        assert offer is not None, f"the call window closed within 5 s of the discard:\n{screen}"
        tried.append(offer.label)
        term.keys(offer.key)
        answer = time.monotonic() + 6
        while time.monotonic() < answer:
            view = pat.view()
            if len(our_exposures(view)) > before:
                meld = our_exposures(view)[-1]
                text = exposure_text(meld)
                term.wait_for(text, 5, f"our exposure {text}")
                assert "refused" not in term.screen()
                print(f"{offer.label} stood after {time.monotonic() - started:.1f} s")
                windows = view.get("windows") or {}
                assert windows.get("call") == 8, f"the call window is not 8 s: {windows}"
                return
            if view.get("last_discard") != discard:
                break  # outranked by another seat's claim: wait for the next chance
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)
        screen = term.screen()
        assert "window closed" not in screen and "too late" not in screen, screen
    raise AssertionError(f"no call stood (offers taken at 5 s: {tried}); screen:\n{term.screen()}")
