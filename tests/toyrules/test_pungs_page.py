"""The page and the toy rule set, in a real browser at a real daemon (`fourwinds web` at a
daemon on loopback, both started with ``FOURWINDS_RULESETS`` naming the toy): "Host a table"
offers it among the built-in rule sets, its Card shows its one fan in the sheet's own words,
and a table of it shows its title, all from what the daemon says (the page names no rule
set)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import (
    chromium,
    click_css,
    click_id,
    open_lobby,
    page_errors,
    unavailable,
    wait_for,
)
from testkit.machines import one_player
from testkit.procs import ROOT

from .conftest import MODULE

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.xdist_group("pages"),  # with the other Chromium tests (tests/conftest.py)
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

WITH_TOY = f"FOURWINDS_RULESETS={MODULE} PYTHONPATH={ROOT}"
TEXT = "return document.getElementById({!r}).innerText"


def _text(driver: Any, element: str, want: str) -> str:
    """The text of ``element`` once it holds ``want`` (else, after 10 s, as it is)."""
    end = time.monotonic() + 10
    text = ""
    while time.monotonic() < end:
        text = str(driver.execute_script(TEXT.format(element)))
        if want in text:
            return text
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)
    return text


def test_the_page_offers_shows_and_scores_the_toy_rules_by_the_daemons_words(
    tmp_path: Path,
) -> None:
    with one_player("Pat") as pat, chromium() as driver:
        open_lobby(pat, driver, WITH_TOY)
        offered = driver.execute_script(
            "return [...document.querySelectorAll('#host-rules option')]"
            ".map((o) => [o.value, o.textContent])"
        )
        assert offered == [
            ["american", "American"],
            ["mcr", "Chinese Official (MCR)"],
            ["pungs", "Pungs and a pair"],
        ]
        click_css(driver, '#host-rules option[value="pungs"]')
        click_css(driver, '#tools button[data-key="C"]')
        sheet = _text(driver, "overlay-body", "All Pungs")
        assert "Pungs and a pair: the one fan" in sheet and "8 pts" in sheet, sheet
        click_css(driver, "#overlay-close")
        driver.find_element("id", "host-name").send_keys("toys")
        from selenium.webdriver.support.ui import Select

        Select(driver.find_element("id", "host-bots")).select_by_visible_text("0")
        click_id(driver, "host-button")
        wait_for(driver, lambda p: p["screen"] == "waiting", 30, "the table's lobby")
        info = _text(driver, "info", "Pungs and a pair")
        assert "Pungs and a pair" in info and "without flowers" in info, info
        driver.save_screenshot(str(tmp_path / "web-toy-rules-1280x800.png"))
        assert not page_errors(driver), page_errors(driver)
