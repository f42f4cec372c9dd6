"""The page outlines the discard being claimed, and only it (issue 22, 16a): during an MCR
claim the page outlined the discarder's previous discard, because the MCR view left the
claimable tile out of the discarder's row until the claims closed and the page marked the
row's last tile. The seat view now says which tile is claimable (``last_discard``: seat,
tile, and ``index``, its place in that seat's ``discards``) and the page outlines exactly it.

`fourwinds play --web --rules mcr --no-auto-pass` with three bots, so that every bot discard
asks Pat (Pass, or a call) with a long call window; at each such prompt where the discarder
already has an earlier discard in front of it, the one outlined tile of the seats is the
view's claimable tile, at its place in the discarder's row; then Pat passes.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from testkit.browser import (
    Clicker,
    WebSeat,
    body_text,
    chromium,
    page_errors,
    read_page,
    unavailable,
)
from testkit.machines import Machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

WINDS = ("East", "South", "West", "North")
ROWS = """
return [...document.querySelectorAll('#table .seat')].map((s) => {
  const wind = s.querySelector('.seat-head .wind');
  const tiles = [...s.querySelectorAll('.discards svg.tile')];
  return {wind: wind ? wind.textContent : '', codes: tiles.map((t) => t.dataset.code),
    outlined: tiles.map((t, i) => (t.classList.contains('last') ? i : -1)).filter((i) => i >= 0)};
});
"""
PROMPTS = 3  # claim prompts checked


def _claim_prompt(page: dict[str, Any]) -> bool:
    types = [a["type"] for a in page["actions"]]
    return page["screen"] == "table" and "pass" in types and page["answered"] == "no"


def _row(view: dict[str, Any], seat: int) -> list[str]:
    for player in view.get("players") or ():
        if player.get("seat") == seat:
            return [str(t) for t in player.get("discards") or ()]
    return []


def test_the_page_outlines_the_discard_being_claimed(pat: Machine) -> None:
    seat = WebSeat(pat, "--rules mcr --no-auto-pass --call-window 30 --hands 1")
    checked: list[str] = []
    with chromium() as driver:
        driver.get(seat.url)
        clicker = Clicker(driver)
        end = time.monotonic() + 90
        while len(checked) < PROMPTS:
            assert time.monotonic() < end, (checked, body_text(driver)[:3000])
            page = read_page(driver)
            if page["screen"] == "result":
                break
            view = pat.view()
            last = view.get("last_discard")
            if not (_claim_prompt(page) and last and last["seat"] != view.get("seat")):
                clicker.step()
                # sleep-ok: pace of the clicking loop (bounded by its deadline)
                time.sleep(0.1)
                continue
            # sleep-ok: settle: the page gives no signal it drew this view
            time.sleep(0.3)  # the page has drawn this view
            rows = driver.execute_script(ROWS)
            if pat.view().get("step") != view.get("step"):
                continue  # the table moved on meanwhile: look again
            discarder = WINDS[int(last["seat"])]
            outlined = [(r["wind"], r["codes"][i]) for r in rows for i in r["outlined"]]
            row = next(r for r in rows if r["wind"] == discarder)
            if len(_row(view, int(last["seat"]))) >= 2:  # an earlier discard to mistake it for
                assert outlined == [(discarder, last["tile"])], (last, rows)
                assert row["outlined"] == [last["index"]], (last, rows)
                assert row["codes"] == _row(view, int(last["seat"])), (row, view)
                assert row["codes"][last["index"]] == last["tile"]
                checked.append(f"{discarder} {last['tile']} at {last['index']}")
            pass_button = next(a for a in page["actions"] if a["type"] == "pass")
            driver.find_element(
                "css selector", f'button.action[data-id="{pass_button["id"]}"]'
            ).click()
            # sleep-ok: pace of the clicking loop (bounded by its deadline)
            time.sleep(0.2)
        assert len(checked) >= 1, "no claim prompt after a seat's second discard"
        assert not page_errors(driver), page_errors(driver)
    print("checked", checked)
