"""The lobby in a real browser: `fourwinds web` finds the running daemon, a table is hosted
from the page with bots in the three free seats, and the lobby lists it to open again.

The daemon is started first on loopback only (no mDNS, any free port), as a person's daemon
that `fourwinds play` started for solo play would be; the web server uses it as it is.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import (
    URL,
    body_text,
    chromium,
    click_css,
    click_id,
    page_errors,
    unavailable,
    wait_for,
)
from testkit.machines import Machine
from testkit.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]


def _address(pat: Machine, log: str, timeout: float = 30.0) -> str:
    def printed() -> str:
        return (pat.home / log).read_text(errors="replace")

    found = until(
        lambda: URL.search(printed()), timeout, "`fourwinds web` printing its address", 0.2, printed
    )
    return found.group(1)


@contextlib.contextmanager
def _lobby(pat: Machine) -> Iterator[Any]:
    """Pat's daemon and `fourwinds web`, and a browser at the page's lobby (no table)."""
    pat.start("fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns", "daemon.out")
    pat.start("fourwinds web --no-browser", "web.out")
    url = _address(pat, "web.out")
    with chromium() as driver:
        driver.get(url)
        wait_for(
            driver,
            lambda p: p["screen"] == "lobby" and "You sit at no table." in body_text(driver),
            15,
            "the lobby",
        )
        yield driver


def test_host_a_table_with_three_bots_from_the_lobby(pat: Machine, tmp_path: Path) -> None:
    with _lobby(pat) as driver:
        driver.save_screenshot(str(tmp_path / "web-lobby-1280x800.png"))
        driver.find_element("id", "host-name").send_keys("garden")
        click_css(driver, '#host-rules option[value="mcr"]')
        # the exchange's window, labelled by what the rule sets call theirs
        label = driver.find_element("id", "host-exchange-label").text
        assert label == "Charleston window", label
        driver.find_element("id", "host-exchange").send_keys("45")
        click_id(driver, "host-button")
        page = wait_for(
            driver,
            lambda p: p["screen"] == "table" and bool(p["rack"]),
            60,
            "our rack at the hosted table",
        )
        assert len(page["rack"]) in (13, 14), page["rack"]
        view = pat.view()
        assert view.get("rules") == "mcr"
        assert (view.get("windows") or {}).get("charleston") == 45.0, view.get("windows")
        names = sorted(str(p.get("name")) for p in view.get("players") or ())
        assert names == ["Bot 1", "Bot 2", "Bot 3", "Pat"], names
        assert "Chinese Official" in body_text(driver)
        # back to the lobby (Q): the table is listed and opens again
        driver.find_element("css selector", "body").send_keys("Q")
        wait_for(driver, lambda p: p["screen"] == "lobby", 10, "the lobby after Q")
        wait_for(driver, lambda p: "garden" in body_text(driver), 10, "our table listed")
        assert re.search(r"garden . MCR . 4/4 seated", body_text(driver)), body_text(driver)
        click_css(driver, "#mine button.open")
        wait_for(driver, lambda p: p["screen"] in ("table", "result"), 15, "the table again")
        assert not page_errors(driver), page_errors(driver)


def test_host_an_mcr_table_without_flowers_from_the_lobby(pat: Machine) -> None:
    """The host form's "Flowers and seasons" box: unticked, an American table is refused
    with the reason (nothing is hosted), an MCR one is hosted without flowers and says so."""
    with _lobby(pat) as driver:
        click_id(driver, "host-flowers")
        click_id(driver, "host-button")  # American, the first choice
        wait_for(
            driver,
            lambda p: "cannot host: the flowers option is for MCR tables" in body_text(driver),
            15,
            "the refusal",
        )
        click_css(driver, '#host-rules option[value="mcr"]')
        click_id(driver, "host-button")
        page = wait_for(
            driver,
            lambda p: p["screen"] == "table" and bool(p["rack"]),
            60,
            "our rack at the hosted table",
        )
        assert len(page["rack"]) in (13, 14), page["rack"]
        view = pat.view()
        assert view.get("rules") == "mcr" and view.get("flowers") is False, view
        assert re.search(
            r"Chinese Official \(MCR\)( practice)? without flowers", body_text(driver)
        ), body_text(driver)
        assert not page_errors(driver), page_errors(driver)
