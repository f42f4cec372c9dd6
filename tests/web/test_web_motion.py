"""The page's motion (issue 22, "a table people choose"), in a real browser at a real table:
`fourwinds play --web --rules mcr` with three bot seats, played by clicks, calls taken.

- the four seats sit around the table: ours at the bottom, the right-hand seat to the right,
  across at the top, the left-hand seat to the left;
- a new discard lands in its pond with a short animation (class ``fresh``), added once: a
  tile already in a pond is never drawn again, so a later view replays nothing;
- a call lays its meld down with a short animation (class ``called``);
- a call offered to us is shot for the docs (``web-call``, docs/web-call.png);
- on our turn the cursor starts on the tile marked as the default discard.

The deal is fixed (testkit.machines.fixed_deal): with it a call is offered to us in the first
hand, where a deal of chance may offer none.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import (
    Clicker,
    WebSeat,
    chromium,
    page_errors,
    read_page,
    unavailable,
    wait_for,
)
from testkit.machines import Machine
from tests.web.test_web_table import shoot

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

CALL_DEAL = "calls-1"

MOTION = """
const out = {seats: {}};
for (const id of ['seat-me', 'seat-right', 'seat-across', 'seat-left']) {
  const seat = document.getElementById(id);
  const box = seat.getBoundingClientRect();
  const pond = [...seat.querySelectorAll('.discards svg.tile')];
  out.seats[id] = {x: box.left + box.width / 2, y: box.top + box.height / 2,
    discards: pond.length, fresh: pond.filter((t) => t.classList.contains('fresh')).length,
    lastFresh: pond.length > 0 && pond[pond.length - 1].classList.contains('fresh'),
    called: seat.querySelectorAll('.meld.called').length,
    probed: pond.length > 0 && pond[0].dataset.probe === 'kept',
    animation: pond.length ? getComputedStyle(pond[pond.length - 1]).animationName : ''};
}
return out;
"""

PROBE = """
const tile = document.querySelector('#seat-' + arguments[0] + ' .discards svg.tile');
if (tile) tile.dataset.probe = 'kept';
return !!tile;
"""


def test_discards_land_and_calls_are_laid_down_once(pat: Machine, tmp_path: Path) -> None:
    seat = WebSeat(pat, "--rules mcr --hands 1", deal=CALL_DEAL)
    with chromium() as driver:
        driver.get(seat.url)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        first = driver.execute_script(MOTION)["seats"]
        me, right, across, left = (first[f"seat-{w}"] for w in ("me", "right", "across", "left"))
        assert me["y"] > across["y"] and right["x"] > left["x"], first  # around the table
        assert left["x"] < me["x"] < right["x"] and across["y"] < left["y"] < me["y"], first
        clicker = Clicker(driver, calls=True)
        probe: str | None = None
        probe_views = 0
        landed = 0
        called = 0
        shot = False
        turns_checked = False
        end = time.monotonic() + 120
        while not (landed >= 3 and called and shot and probe_views >= 5 and turns_checked):
            assert time.monotonic() < end, (
                landed,
                called,
                shot,
                probe_views,
                turns_checked,
                clicker.log[-8:],
            )
            page = read_page(driver)
            if page["screen"] == "result":
                pytest.fail(
                    f"the hand ended first: landed {landed}, called {called}, call shot "
                    f"{shot}, probe kept over {probe_views} views; {clicker.log}"
                )
            if not shot and any(a["type"] == "call" for a in page["actions"]):
                shoot(driver, tmp_path, "web-call")  # a call offered to us, before we answer
                shot = True
            if any(t["discardable"] for t in page["rack"]) and not turns_checked:
                # our turn: the cursor starts on the tile the page marks as the default
                # discard, so Enter at once discards it (not the leftmost tile)
                marked = [t for t in page["rack"] if t["dflt"]]
                at = [t for t in page["rack"] if t["cursor"]]
                assert marked and at == marked[-1:], page["rack"]
                turns_checked = True
            motion: dict[str, Any] = driver.execute_script(MOTION)["seats"]
            for info in motion.values():
                if info["lastFresh"]:
                    assert info["animation"] == "tile-land", info
                    landed += 1
            called = max(called, sum(info["called"] for info in motion.values()))
            if probe is None:
                probe = next(
                    (w.removeprefix("seat-") for w, i in motion.items() if i["discards"] >= 2), None
                )
                if probe is not None:
                    assert driver.execute_script(PROBE, probe)
            elif motion[f"seat-{probe}"]["discards"]:
                # the tile we marked is the same element view after view: never drawn again
                assert motion[f"seat-{probe}"]["probed"], (probe, motion)
                probe_views += 1
            clicker.step()
            # sleep-ok: pace of the clicking loop (bounded by its deadline)
            time.sleep(0.15)
        assert not page_errors(driver), page_errors(driver)
    assert {p.name for p in tmp_path.glob("web-call-*.png")} == {
        "web-call-1280x800.png",
        "web-call-800x600.png",
    }
    print(f"landed {landed}, called {called}, moves {clicker.log}")
