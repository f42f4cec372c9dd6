"""The page's clock while the table waits for a seat that cannot answer (issue 22 item 5), in
a real browser: `fourwinds play --web` with three bot seats, their daemons then stopped
(SIGSTOP). Before, the clock counted the bots' window down to "time 0 s" and stayed there;
now it reads the view's ``waiting.text``, "Waiting for Bot 1 (unreachable for N s)", N
growing, never "time 0 s"."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator

import pytest

from testkit.browser import Clicker, WebSeat, body_text, chromium, page_errors, unavailable
from testkit.machines import Machine, one_player

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

CALL_WINDOW = 10
CLOCK = "return document.getElementById('clock').textContent;"
WAITING = re.compile(r"Waiting for .+ \(unreachable for (\d+) s\)")


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        yield machine


def test_the_clock_says_whom_the_table_waits_for_not_time_0(pat: Machine) -> None:
    seat = WebSeat(pat, f"--rules mcr --hands 1 --practice --call-window {CALL_WINDOW}")
    with chromium() as driver:
        driver.get(seat.url)
        clicker = Clicker(driver)
        end = time.monotonic() + 60
        while pat.view().get("phase") not in ("play", "claim") and time.monotonic() < end:
            clicker.step()
            time.sleep(0.1)
        bots = pat.bot_daemons()
        assert len(bots) == 3, bots
        for bot in bots:
            os.kill(bot, signal.SIGSTOP)
        try:
            seen: list[int] = []
            end = time.monotonic() + 60
            while time.monotonic() < end and (not seen or seen[-1] < CALL_WINDOW + 5):
                clicker.step()       # our own answers: then the table waits for the bots
                clock = str(driver.execute_script(CLOCK))
                assert clock != "time 0 s", body_text(driver)[:2000]
                found = WAITING.fullmatch(clock)
                if found:
                    seen.append(int(found.group(1)))
                time.sleep(0.3)
            assert seen and seen[-1] >= CALL_WINDOW + 5 and seen == sorted(seen), (
                seen, body_text(driver)[:2000])
            print(f"the clock's seconds: {seen[0]}..{seen[-1]} ({len(seen)} reads)")
        finally:
            for bot in bots:
                os.kill(bot, signal.SIGCONT)
        assert not page_errors(driver), page_errors(driver)
