"""The tile just drawn, set apart at the right end of the rack (issue 22, "a table people
choose"), at a real table: `fourwinds play --rules mcr` with three bots in a terminal (tmux),
played by keys. On each of our turns after a draw the screen shows the drawn tile last, after
a wider gap than between the other tiles (testkit/screen.py reads it as ``drawn``), and it is
the tile the daemon's view names as ``drawn``; the rest of the rack is the view's, in order.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from testkit.machines import Machine, one_player
from testkit.screen import TMUX, Person, Terminal, entry, is_result, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

TURNS = 3  # our turns after a draw to check
TIMEOUT = 120.0


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def _open(pat: Machine, command: str, width: int, height: int, **env: str) -> Terminal:
    """`play` in a terminal once the table shows our rack (ready said when asked)."""
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


@pytest.mark.parametrize(
    ("width", "height", "flags", "lang"),
    [
        (100, 40, "", "C.UTF-8"),
        (80, 24, "--ascii", "C"),
    ],
    ids=["100x40-glyphs", "80x24-ascii"],
)
def test_the_drawn_tile_stands_apart_at_the_right_end_on_our_turns(
    pat: Machine, width: int, height: int, flags: str, lang: str
) -> None:
    env = {"LANG": lang, "LC_ALL": "" if lang == "C" else lang}
    term = _open(pat, f"fourwinds play --rules mcr --hands 1 {flags}".strip(), width, height, **env)
    person = Person(term, pat.login)
    checked: list[str] = []
    steps: set[object] = set()
    end = time.monotonic() + TIMEOUT
    while len(checked) < TURNS:
        assert time.monotonic() < end, (
            f"only {len(checked)} turns after a draw seen: "
            f"{checked}; last moves {person.log[-6:]}\n"
            f"{term.screen()}"
        )
        screen = term.screen()
        view = pat.view()
        if view.get("phase") in ("hand_over", "match_over") or is_result(screen):
            pytest.skip(f"the hand ended after {len(checked)} checked turns")  # rare: MCR
        again = term.screen()
        drawn = view.get("drawn")
        shown = rack(again)
        ours = view.get("turn") == view.get("seat") and drawn and "Discard:" in again
        if (
            ours
            and view.get("step") not in steps
            and again == screen
            and shown
            and f"drew {drawn}" in again
            and pat.view().get("step") == view.get("step")
        ):
            # the screen and the view are of one moment (read before and after the view)
            assert shown[-1].drawn, f"the drawn tile {drawn} is not set apart:\n{again}"
            assert shown[-1].same(str(drawn)), (drawn, shown[-1], again)
            assert not any(t.drawn for t in shown[:-1]), again
            order = view.get("rack") or []
            assert order and order[-1] == drawn, order
            assert len(shown) == len(order) and all(
                t.same(code) for t, code in zip(shown, order, strict=True)
            ), (order, again)
            checked.append(str(drawn))
            steps.add(view.get("step"))
        person.step()
        # sleep-ok: a person's pace: the screen redraws before the next look
        time.sleep(0.15)
    print(f"drawn tiles checked: {checked}")
