"""The Charleston's news in a real browser (issue 22, item 13): after a pass the page says
which tiles came and from whom, and marks them in the rack; after the stop vote it says who
stopped the Charleston (or that no one did). `fourwinds play --web` with three bot seats,
played by clicks; the daemon's own view (``news``, ``received``) is the reference.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from testkit.browser import Clicker, WebSeat, body_text, chromium, page_errors, unavailable
from testkit.machines import Machine

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

NEWS = """
return {news: [...document.querySelectorAll('#news li')].map((li) => li.textContent),
  hidden: document.getElementById('news').hidden,
  received: [...document.querySelectorAll('#rack .rack-tile.received')]
    .map((t) => t.dataset.code)};
"""


def _news(driver: Any) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(NEWS)
    return found


def _until(
    driver: Any, clicker: Clicker, pat: Machine, test: Any, what: str, timeout: float = 60.0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Click what the page offers until ``test(page news, daemon view)`` holds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        news, view = _news(driver), pat.view()
        if test(news, view):
            return news, view
        clicker.step()
        # sleep-ok: pace of the clicking loop (bounded by its deadline)
        time.sleep(0.1)
    raise AssertionError(
        f"{what} never showed; news {_news(driver)}, view news "
        f"{pat.view().get('news')}\n{body_text(driver)[:3000]}"
    )


def test_the_page_tells_the_tiles_a_pass_brought_and_who_stopped_the_charleston(
    pat: Machine,
) -> None:
    seat = WebSeat(pat, "--rules american --hands 1")
    with chromium() as driver:
        driver.get(seat.url)
        clicker = Clicker(driver)

        def received(news: dict[str, Any], view: dict[str, Any]) -> bool:
            # the page shows what the daemon's view says now (both read at once)
            return (
                bool(view.get("received"))
                and news["news"] == view.get("news")
                and Counter(news["received"]) == Counter(view["received"])
                and any(n.startswith("Received") for n in news["news"])
            )

        news, view = _until(driver, clicker, pat, received, "the tiles of the first pass")
        assert clicker.charleston >= 1, clicker.log
        assert not news["hidden"]
        line = next(n for n in news["news"] if n.startswith("Received"))
        assert line in view["news"], (line, view["news"])
        assert " from " in line and line.endswith(
            ("(first right)", "(first across)", "(first left)")
        ), line
        # the tiles received are marked in the rack: the view's, one mark each
        assert Counter(news["received"]) == Counter(view["received"]), (news, view)
        assert len(news["received"]) == 3, news

        def voted(news: dict[str, Any], view: dict[str, Any]) -> bool:
            return news["news"] == view.get("news") and any(
                n.startswith(("The Charleston stopped", "No one voted to stop"))
                for n in news["news"]
            )

        news, view = _until(driver, clicker, pat, voted, "the stop vote's outcome")
        told = next(n for n in news["news"] if n.startswith(("The Charleston", "No one")))
        if told.startswith("The Charleston stopped"):
            assert told.endswith("voted to stop") and ":" in told, told
        assert not page_errors(driver), page_errors(driver)
