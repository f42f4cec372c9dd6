"""At a hand's end the page shows every seat's tiles (issue 22, "beyond the defects").

One person ("Pat") plays a whole MCR hand by clicks in a real Chromium (`fourwinds play
--web`, three bot seats, the fair masked deck): once the deck audit is over, the end-of-hand
screen shows under each player that seat's concealed tiles, as the daemon's view reveals
them, our own rack among them, the other three as many tiles as each holds.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import Clicker, WebSeat, chromium, page_errors, unavailable, wait_for
from testkit.machines import Machine
from tests.web.test_web_table import check_result_screen, play_hand, shoot

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

# By seat (data-seat), the codes of the tiles each row of the every-hand section shows.
READ_HANDS = """
const rows = document.querySelectorAll("#every-hand .seat-hand");
if (!rows.length) return null;
const out = [[], [], [], []];
rows.forEach((row) => {
  out[Number(row.dataset.seat)] = Array.from(row.querySelectorAll("svg.tile"))
    .map((t) => t.getAttribute("data-code"));
});
return out;
"""


def test_the_pages_end_of_hand_shows_every_seats_tiles(pat: Machine, tmp_path: Path) -> None:
    started = time.monotonic()
    seat = WebSeat(pat, "--rules mcr --hands 1 --fair")
    with chromium() as driver:
        driver.get(seat.url)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        view = play_hand(driver, Clicker(driver), pat)
        check_result_screen(driver, view)
        end = time.monotonic() + 20
        shown: list[list[str]] | None = None
        while time.monotonic() < end:
            shown = driver.execute_script(READ_HANDS)
            if shown is not None:
                break
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        view = pat.view()
        result: dict[str, Any] = view.get("result") or {}
        assert shown is not None, f"no seat's tiles on the page: {result.get('hands_detail')}"
        assert shown == result["hands"], (shown, result["hands"])
        me = int(view["seat"])
        winner = result.get("winner")  # the winner's as the result lays it out
        own = result["concealed"] if me == winner else view.get("hand") or ()
        assert shown[me] == list(own), (shown, own)
        players = view.get("players") or []
        for wind in range(4):
            if wind == winner:
                assert shown[wind] == result["concealed"], (shown, result["concealed"])
            elif wind != me:  # the others' tiles, which the table hid until now
                assert len(shown[wind]) == players[wind]["concealed_count"] > 0, (wind, players)
        shoot(driver, tmp_path, "web-every-hand")
        assert not page_errors(driver), page_errors(driver)
    print(f"every seat's tiles on the page after {time.monotonic() - started:.1f} s")
