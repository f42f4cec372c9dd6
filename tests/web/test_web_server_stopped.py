"""A page whose web server stopped says so and offers nothing (issue 22, 16c): it kept a
clickable Next and counted "Next hand in 0 s" after `fourwinds web` was stopped, and said
only "connection to fourwinds lost; reconnecting...".

`fourwinds play --web --rules mcr --hands 2` with three bots: Pat plays the first hand by
clicks; at its end (Next offered, the next hand's countdown running) the `play --web` is
stopped as Ctrl-C in its terminal stops it (SIGINT to its process group; the daemon keeps the
seat). The page then says the web server stopped, every action is disabled, and no countdown
is left, also after its attempts to reconnect; a click on Next sends nothing.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import Clicker, WebSeat, body_text, chromium, unavailable, wait_for
from testkit.machines import Machine
from tests.web.test_web_table import play_hand, shoot

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

BUTTONS = """
return [...document.querySelectorAll('button.action')].filter((b) => b.offsetParent !== null)
  .map((b) => ({type: b.dataset.type, disabled: b.disabled}));
"""


def _dead(driver: Any) -> list[str]:
    """What still looks alive on the page (empty when it shows a stopped server rightly)."""
    out = []
    text = body_text(driver)
    if "web server stopped" not in text:
        out.append("the page does not say the web server stopped")
    if "Next hand in" in text:
        out.append("a countdown to the next hand is still shown")
    if driver.find_element("id", "clock").text.strip():
        out.append(f"the clock still shows {driver.find_element('id', 'clock').text!r}")
    live = [b for b in driver.execute_script(BUTTONS) if not b["disabled"]]
    if live:
        out.append(f"actions still clickable: {live}")
    return out


def test_a_page_whose_web_server_stopped_offers_nothing(pat: Machine, tmp_path: Path) -> None:
    seat = WebSeat(pat, "--rules mcr --hands 2 --next-window 40")
    with chromium() as driver:
        driver.get(seat.url)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        play_hand(driver, Clicker(driver), pat)
        wait_for(
            driver,
            lambda p: (
                any(a["type"] == "next" for a in p["actions"])
                and "Next hand in" in body_text(driver)
            ),
            20,
            "Next and its countdown",
        )
        os.killpg(seat.process.pid, signal.SIGINT)  # Ctrl-C in the terminal of `play --web`
        seat.process.wait(15)
        end = time.monotonic() + 5
        while (problems := _dead(driver)) and time.monotonic() < end:
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        assert not problems, "\n".join(problems) + "\n" + body_text(driver)[-2000:]
        shoot(driver, tmp_path, "web-server-stopped")
        # sleep-ok: a negative: reconnects fail a while, the page stays
        time.sleep(3.0)  # its reconnect attempts fail meanwhile: the page stays as it is
        assert not _dead(driver), "\n".join(_dead(driver)) + "\n" + body_text(driver)[-2000:]
        driver.execute_script("document.querySelector('button.action[data-type=\"next\"]').click()")
        # sleep-ok: a negative: time passes to show no 'sending' shows
        time.sleep(0.5)
        assert "sending" not in driver.find_element("id", "message").text
        assert pat.view().get("phase") == "hand_over", "our Next reached the daemon"
