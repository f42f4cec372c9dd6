"""At a hand's start the page shows our seat rightly from its first drawing (issue 22, 16b):
it showed "East, dealer, 0 tiles" for a second or two, then West. While the dice seat the
players the daemon's view had no wind for us and gave our place (0 for the host) as if it
were one, and the page drew a table from it. The view now has no seat until the hand is
dealt (docs/LOCAL-API.md), and the page draws a table only from a view with our seat: it says
the hand is being dealt until then.

`fourwinds play --web --rules mcr --hands 2` with three bots: from the moment the page loads,
everything it shows is recorded in the page itself (a MutationObserver: the screen, the top
line's "you: WIND", the rack's title, our seat's wind and count); Pat plays the first hand by
clicks, says Next, and once the second hand is on the table every recorded table of either
hand shows the wind the daemon's view gives Pat in that hand, and a dealt rack.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from testkit.browser import (
    Clicker,
    WebSeat,
    body_text,
    chromium,
    page_errors,
    unavailable,
    wait_for,
)
from testkit.machines import Machine
from tests.web.test_web_table import play_hand

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

WINDS = ("East", "South", "West", "North")
RECORD = """
window.__shown = [];
const snap = () => {
  const text = (sel) => { const n = document.querySelector(sel); return n ? n.textContent : ''; };
  const s = {screen: document.body.dataset.screen || '', info: text('#info'),
    rack: text('#rack-title'), wind: text('#seat-me .seat-head .wind'),
    count: text('#seat-me .seat-head .count'),
    tiles: document.querySelectorAll('#rack .rack-tile').length};
  const last = window.__shown[window.__shown.length - 1];
  if (!last || JSON.stringify(last) !== JSON.stringify(s)) window.__shown.push(s);
};
snap();
new MutationObserver(snap).observe(document.body, {subtree: true, childList: true,
  characterData: true, attributes: true, attributeFilter: ['data-screen']});
"""


def _problems(shown: list[dict[str, Any]], winds: dict[int, str]) -> list[str]:
    """What the records show wrongly: a wind for us other than the hand's, or a table with
    no tiles in our rack."""
    out = []
    for s in shown:
        hand = re.search(r"hand (\d+)/", s["info"])
        if hand is None or int(hand.group(1)) not in winds:
            continue
        wind = winds[int(hand.group(1))]
        said = re.search(r"you: (\w+)", s["info"])
        if said and said.group(1) != wind:
            out.append(
                f"hand {hand.group(1)}: the top line says you: {said.group(1)}, not {wind}: {s}"
            )
        if s["screen"] != "table":
            continue
        if not s["rack"].startswith(f"Your hand ({wind})") or s["wind"] != wind:
            out.append(
                f"hand {hand.group(1)}: the table shows us as {s['wind']!r}, not {wind}: {s}"
            )
        if s["tiles"] == 0 or s["rack"].startswith(f"Your hand ({wind}): 0 tiles"):
            out.append(f"hand {hand.group(1)}: a table with no tiles in our rack: {s}")
    return out


def test_the_page_never_shows_a_wrong_seat_at_a_hands_start(pat: Machine) -> None:
    seat = WebSeat(pat, "--rules mcr --hands 2")
    winds: dict[int, str] = {}
    with chromium() as driver:
        driver.get(seat.url)
        driver.execute_script(RECORD)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        view = pat.view()
        winds[int(view["hand_number"])] = WINDS[int(view["seat"])]
        play_hand(driver, Clicker(driver), pat)
        wait_for(
            driver,
            lambda p: any(a["type"] == "next" for a in p["actions"]),
            20,
            "Next at the end of the first hand",
        )
        button = driver.find_element("css selector", 'button.action[data-type="next"]')
        # as a person does: scroll the button to the middle of the window, then click it
        # (at the window's bottom edge the fixed message line is over it)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", button)
        button.click()
        end = time.monotonic() + 60
        while True:
            view = pat.view()
            if view.get("hand_number") == 2 and view.get("phase") in ("deal", "play", "claim"):
                break
            assert time.monotonic() < end, (view.get("phase"), body_text(driver)[:2000])
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
        winds[2] = WINDS[int(view["seat"])]
        wait_for(
            driver,
            lambda p: p["screen"] == "table" and bool(p["rack"]) and "hand 2/" in body_text(driver),
            20,
            "the second hand's table",
        )
        # sleep-ok: a negative: the page must not flash a wrong frame meanwhile
        time.sleep(1.0)
        shown: list[dict[str, Any]] = driver.execute_script("return window.__shown")
        assert any("hand 2/" in s["info"] and s["screen"] == "table" for s in shown), shown
        problems = _problems(shown, winds)
        assert not problems, "\n".join(problems[:10])
        assert not page_errors(driver), page_errors(driver)
    print(f"winds {winds}, {len(shown)} drawings recorded")
