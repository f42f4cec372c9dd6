"""The pages on demand in the lobby, and the flower tile (issue 22, 16d-f), in a real browser
at a real daemon (`fourwinds web` at a daemon on loopback, as in test_web_lobby.py):

- d: the Card button in the lobby hung on "Asking the daemon...": with no table open the page
  never asked. It now asks the daemon for the sheet of the rules chosen under "Host a table"
  (the local API's ``sheet`` with ``rules``), and in a table's lobby for that table's.
- e: History and Scores said "?" in the lobby (no hand number, no hands in the match): they
  now say that no table is open, or, in a table's lobby, that the match has not started yet.
- f: the flower's number overlapped its petals: the number's box (getBBox in the browser) is
  clear of the petals' box on every flower tile.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from fourwinds.protocol.american.table_rules import card_from_text
from fourwinds.protocol.american.table_view import sheet as american_sheet
from fourwinds.protocol.mcr.table_view import sheet as mcr_sheet
from testkit.browser import (
    chromium,
    click_css,
    click_id,
    open_lobby,
    page_errors,
    unavailable,
    wait_for,
)
from testkit.machines import Machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

OVERLAY = "return document.getElementById('overlay-body').innerText"
SHEET_ROWS = """
return [...document.querySelectorAll('#overlay-body table.sheet tr')]
  .filter((r) => !r.classList.contains('section'))
  .map((r) => [...r.children].map((c) => c.textContent));
"""
FLOWERS = """
const box = document.createElement('div');
box.id = 'flower-check';
box.style.cssText = 'position:fixed;top:40px;left:40px;z-index:99;background:#24433d;padding:8px';
document.body.append(box);
const out = [];
for (let n = 1; n <= 8; n += 1) {
  const tile = Tiles.svg(`${n}f`, 'big');
  tile.style.width = '96px';
  box.append(tile);
  const number = [...tile.querySelectorAll('text')].filter((t) => t.textContent === String(n));
  const circles = [...tile.querySelectorAll('circle')].map((c) => c.getBBox());
  const petals = {x: Math.min(...circles.map((b) => b.x)), y: Math.min(...circles.map((b) => b.y)),
    right: Math.max(...circles.map((b) => b.x + b.width)),
    bottom: Math.max(...circles.map((b) => b.y + b.height))};
  const b = number.length === 1 ? number[0].getBBox() : null;
  out.push({code: `${n}f`, numbers: number.length, petals,
    number: b && {x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height}});
}
return out;
"""


def _lobby(pat: Machine, driver: Any) -> None:
    """`fourwinds web` at Pat's daemon (started first, on loopback), its lobby in ``driver``."""
    open_lobby(pat, driver)


def _choose(driver: Any, select: str, text: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", select)).select_by_visible_text(text)


def _open(driver: Any, key: str) -> str:
    """Press the tool button of ``key`` (C, H, S); the page it opens, once it is filled."""
    if driver.execute_script("return !document.getElementById('overlay').hidden"):
        click_css(driver, "#overlay-close")
    click_css(driver, f'#tools button[data-key="{key}"]')
    end = time.monotonic() + 10
    text = ""
    while time.monotonic() < end:
        text = str(driver.execute_script(OVERLAY))
        if "Asking" not in text:
            return text
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)
    return text


def _sheet_shown(driver: Any, rules: str) -> list[str]:
    """How the sheet on the page differs from the daemon's for ``rules`` (the house card)."""
    want = american_sheet(card_from_text("")) if rules == "american" else mcr_sheet()
    rows = driver.execute_script(SHEET_ROWS)
    text = str(driver.execute_script(OVERLAY))
    out = []
    if want["title"] not in text:
        out.append(f"no title {want['title']!r}")
    if [r[0] for r in rows] != [e["id"] for e in want["entries"]]:
        out.append(f"{len(rows)} lines, not the {len(want['entries'])} of the {rules} sheet")
    return out


def test_the_card_in_the_lobby_comes_from_the_daemon(pat: Machine, tmp_path: Path) -> None:
    with chromium() as driver:
        _lobby(pat, driver)
        text = _open(driver, "C")
        assert "Asking the daemon" not in text, text
        problems = _sheet_shown(driver, "american")
        assert not problems, "\n".join(problems) + "\n" + text[:1500]
        assert "No table is open" in text and "American" in text, text[:600]
        driver.save_screenshot(str(tmp_path / "web-lobby-card-1280x800.png"))
        click_css(driver, "#overlay-close")
        click_css(driver, '#host-rules option[value="mcr"]')
        text = _open(driver, "C")
        problems = _sheet_shown(driver, "mcr")
        assert not problems, "\n".join(problems) + "\n" + text[:1500]
        assert "Pure Straight" in text and "Chinese Official" in text, text[:600]
        # in a table's lobby (hosted here, no bots: it waits for players): the table's sheet
        click_css(driver, "#overlay-close")
        driver.find_element("id", "host-name").send_keys("porch")
        _choose(driver, "host-bots", "0")
        click_id(driver, "host-button")
        wait_for(driver, lambda p: p["screen"] == "waiting", 30, "the table's lobby")
        text = _open(driver, "C")
        assert not _sheet_shown(driver, "mcr"), text[:1500]
        assert "No table is open" not in text, text[:600]
        assert not page_errors(driver), page_errors(driver)


def test_history_and_scores_say_what_is_true_before_a_match(pat: Machine, tmp_path: Path) -> None:
    with chromium() as driver:
        _lobby(pat, driver)
        for key, title in (("H", "Hands of this match"), ("S", "Scores")):
            text = _open(driver, key)
            assert "?" not in text, text
            assert title in text and "No table is open" in text, text
        click_css(driver, "#overlay-close")
        driver.find_element("id", "host-name").send_keys("porch")
        click_css(driver, '#host-rules option[value="mcr"]')
        _choose(driver, "host-bots", "0")
        driver.find_element("id", "host-hands").clear()
        driver.find_element("id", "host-hands").send_keys("2")
        click_id(driver, "host-button")
        wait_for(driver, lambda p: p["screen"] == "waiting", 30, "the table's lobby")
        for key in ("H", "S"):
            text = _open(driver, key)
            assert "?" not in text, text
            assert "The match has not started yet: 2 hands" in text, text
        driver.save_screenshot(str(tmp_path / "web-table-lobby-scores-1280x800.png"))
        assert "Timers:" in text, text
        assert not re.search(r"hand \d+ of", text), text
        assert not page_errors(driver), page_errors(driver)


def test_the_flowers_number_is_clear_of_its_petals(pat: Machine, tmp_path: Path) -> None:
    with chromium() as driver:
        _lobby(pat, driver)
        tiles = driver.execute_script(FLOWERS)
        driver.save_screenshot(str(tmp_path / "web-flowers-1280x800.png"))
        for tile in tiles:
            assert tile["numbers"] == 1, tile  # the number is drawn, once
            n, p = tile["number"], tile["petals"]
            apart = (
                n["right"] <= p["x"]
                or p["right"] <= n["x"]
                or n["bottom"] <= p["y"]
                or p["bottom"] <= n["y"]
            )
            assert apart, f"{tile['code']}: the number's box {n} meets the petals' {p}"
            assert n["x"] >= 0 and n["right"] <= 48 and n["y"] >= 0 and n["bottom"] <= 64, tile
        assert not page_errors(driver), page_errors(driver)
