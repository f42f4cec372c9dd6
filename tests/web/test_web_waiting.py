"""The page while the table waits (issue 22 items 4 and 5), in a real browser: `fourwinds
play --web` with three bot seats.

- The bots' daemons stopped (SIGSTOP): before, the clock counted their window down to
  "time 0 s" and stayed there; now it reads the view's ``waiting.text``, "Waiting for Bot 1
  (unreachable for N s)", N growing, never "time 0 s".
- Our daemon killed (-9) while a bot's daemon is stopped, then started again as `play`
  would: before, the page showed the table our records left, its buttons live; now the
  waiting screen says "Reconnecting: asking the other seats…", with no table and no action,
  and the table comes back by itself.
"""

from __future__ import annotations

import os
import re
import signal
import time

import pytest

from testkit.browser import (
    Clicker,
    WebSeat,
    body_text,
    chromium,
    page_errors,
    read_page,
    unavailable,
    wait_for,
)
from testkit.machines import Machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

CALL_WINDOW = 10
CLOCK = "return document.getElementById('clock').textContent;"
WAITING = re.compile(r"Waiting for .+ \(unreachable for (\d+) s\)")


def test_the_clock_says_whom_the_table_waits_for_not_time_0(pat: Machine) -> None:
    seat = WebSeat(pat, f"--rules mcr --hands 1 --practice --call-window {CALL_WINDOW}")
    with chromium() as driver:
        driver.get(seat.url)
        clicker = Clicker(driver)
        end = time.monotonic() + 60
        while pat.view().get("phase") not in ("play", "claim") and time.monotonic() < end:
            clicker.step()
            # sleep-ok: pace of the clicking loop (bounded by its deadline)
            time.sleep(0.1)
        bots = pat.bot_daemons()
        assert len(bots) == 3, bots
        for bot in bots:
            os.kill(bot, signal.SIGSTOP)
        try:
            seen: list[int] = []
            end = time.monotonic() + 60
            while time.monotonic() < end and (not seen or seen[-1] < CALL_WINDOW + 5):
                clicker.step()  # our own answers: then the table waits for the bots
                clock = str(driver.execute_script(CLOCK))
                assert clock != "time 0 s", body_text(driver)[:2000]
                found = WAITING.fullmatch(clock)
                if found:
                    seen.append(int(found.group(1)))
                # sleep-ok: the sampling interval of the clock read
                time.sleep(0.3)
            assert seen and seen[-1] >= CALL_WINDOW + 5 and seen == sorted(seen), (
                seen,
                body_text(driver)[:2000],
            )
            print(f"the clock's seconds: {seen[0]}..{seen[-1]} ({len(seen)} reads)")
        finally:
            for bot in bots:
                os.kill(bot, signal.SIGCONT)
        assert not page_errors(driver), page_errors(driver)


RECONNECTING = "Reconnecting: asking the other seats"
SOLO_DAEMON = "fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns"  # as `play` runs it


def test_the_page_says_reconnecting_while_a_restarted_daemon_catches_up(pat: Machine) -> None:
    seat = WebSeat(pat, f"--rules mcr --hands 1 --practice --call-window {CALL_WINDOW}")
    with chromium() as driver:
        driver.get(seat.url)
        clicker = Clicker(driver)
        end = time.monotonic() + 60
        while not read_page(driver)["rack"] and time.monotonic() < end:
            clicker.step()
            # sleep-ok: pace of the clicking loop (bounded by its deadline)
            time.sleep(0.1)
        bots = pat.bot_daemons()
        pid = pat.daemon_pid()
        assert len(bots) == 3 and pid is not None, (bots, pid)
        os.kill(bots[0], signal.SIGSTOP)  # it cannot say what it holds of ours
        try:
            os.kill(pid, signal.SIGKILL)
            # sleep-ok: the fault: the killed daemon stays down a moment
            time.sleep(1.0)
            pat.start(SOLO_DAEMON, "daemon-again.out")
            # the page read (p) and the text read after it must both show it: the text
            # alone could be newer than a page read still showing the table before the kill
            page = wait_for(
                driver,
                lambda p: p["screen"] == "waiting" and RECONNECTING in body_text(driver),
                60,
                "the reconnecting screen",
            )
            assert page["screen"] == "waiting" and not page["actions"], page
            assert driver.execute_script("return document.body.dataset.reconnecting;") == "yes"
            assert not driver.find_element("id", "table").is_displayed()
            assert "time " not in str(driver.execute_script(CLOCK)), body_text(driver)[:2000]
        finally:
            os.kill(bots[0], signal.SIGCONT)
        wait_for(
            driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 60, "the table again"
        )
        assert driver.execute_script("return document.body.dataset.reconnecting;") != "yes"
