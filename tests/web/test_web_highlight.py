"""The page keeps the player's highlight while the table stands still (issue 22, 15): up/down
picked an action, and a second later the default was highlighted again, because the daemon
republished every table each second and the page put the highlight back on each view.

`fourwinds play --web --no-auto-pass` with three bots, so that every discard asks Pat (Pass,
the default, and More time) with a long call window; Pat plays by clicking the defaults until
such a prompt shows, moves the highlight with the down arrow and waits past several of the
daemon's once-a-second rounds: the highlight stays where Pat put it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from testkit.browser import Clicker, WebSeat, body_text, chromium, read_page, unavailable, wait_for
from testkit.machines import Machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

HIGHLIGHT = """
const b = [...document.querySelectorAll('button.action.highlight')]
  .filter((x) => x.offsetParent !== null)[0];
return b ? b.dataset.type : null;
"""
STILL_S = 3.5  # more than three rounds of the daemon's once-a-second syncer


def _call_prompt(page: dict[str, Any]) -> bool:
    types = [a["type"] for a in page["actions"]]
    return page["screen"] == "table" and "pass" in types and "more_time" in types


def test_the_highlight_stays_where_the_player_moved_it(pat: Machine) -> None:
    seat = WebSeat(pat, "--rules mcr --no-auto-pass --call-window 30")
    with chromium() as driver:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        driver.get(seat.url)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        clicker = Clicker(driver)
        end = time.monotonic() + 60
        while not _call_prompt(read_page(driver)):
            assert time.monotonic() < end, body_text(driver)[:3000]
            clicker.step()
            # sleep-ok: pace of the clicking loop (bounded by its deadline)
            time.sleep(0.1)
        page = read_page(driver)
        default = next(a["type"] for a in page["actions"] if a["dflt"])
        assert driver.execute_script(HIGHLIGHT) == default == "pass"
        ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
        moved = driver.execute_script(HIGHLIGHT)
        assert moved is not None and moved != "pass", read_page(driver)
        view_step = pat.view().get("step")
        # sleep-ok: a negative: time passes to show the highlight stays
        time.sleep(STILL_S)
        assert pat.view().get("step") == view_step, "the table moved on: not the same question"
        assert _call_prompt(read_page(driver))
        assert driver.execute_script(HIGHLIGHT) == moved
