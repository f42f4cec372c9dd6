"""The table in a real browser: `fourwinds play --web` with three bot seats, played by clicks.

Each test gives one person ("Pat") a fresh HOME (tests/people/machines.py), runs `fourwinds
play --web ...` there (its daemon, three bot seats each with its own daemon, and the web
server), opens the printed address in a headless Chromium and plays by clicking what the
page offers; the daemon's own view (its local API) is the reference for what the page must
show. Screenshots of the table, the Charleston and the end of a hand at 1280x800 and 800x600
are saved in the test's folder (tmp_path).

- a whole American hand, Charleston included: the end-of-hand screen shows what the view's
  result says (winner, card line and value, every payment), the table waits for our Next,
  and after it the final standings are those of the view;
- a whole MCR hand with a call made by a click (and standing), two discards made by keys
  (the tile's letter, then Enter, as on the curses table), and a reload of the page in the
  middle of the hand that comes back to the same seat, hand and rack.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testkit.browser import (
    Clicker,
    WebSeat,
    body_text,
    chromium,
    click_tile,
    page_errors,
    read_page,
    resize,
    unavailable,
    wait_for,
)
from testkit.machines import Machine
from testkit.views import our_exposures
from tests.people.table_checks import result_of, result_problems

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

HAND_TIMEOUT = 75.0
OVER = ("hand_over", "match_over")
SIZES = ((1280, 800), (800, 600))


def shoot(driver: Any, folder: Path, name: str) -> list[Path]:
    """Screenshots of the page as it is now at both sizes (back to 1280x800 after)."""
    saved = []
    for width, height in SIZES:
        resize(driver, width, height)
        # sleep-ok: settle: the page lays out again after a resize
        time.sleep(0.3)
        path = folder / f"{name}-{width}x{height}.png"
        driver.save_screenshot(str(path))
        assert path.stat().st_size > 10_000, path
        saved.append(path)
    resize(driver, *SIZES[0])
    return saved


def play_hand(
    driver: Any, clicker: Clicker, pat: Machine, on_step: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Click until the page shows the end of the hand; the daemon's view then."""
    end = time.monotonic() + HAND_TIMEOUT
    steps = 0
    while time.monotonic() < end:
        page = read_page(driver)
        if page["screen"] == "result":
            break
        done = clicker.step()
        if done is not None:
            steps += 1
            if on_step is not None:
                on_step(steps)
        # sleep-ok: pace of the clicking loop (bounded by its deadline)
        time.sleep(0.05)
    else:
        raise AssertionError(
            f"the hand did not end within {HAND_TIMEOUT:.0f} s; moves "
            f"{clicker.log[-10:]}\n{body_text(driver)[:3000]}"
        )
    view = pat.view()
    assert view.get("phase") in OVER, view.get("phase")
    return view


def check_result_screen(driver: Any, view: dict[str, Any]) -> str:
    result = result_of(view)
    text = body_text(driver)
    problems = result_problems(text, result)
    assert not problems, "\n".join(problems) + "\n" + text
    return text


def test_a_whole_american_hand_with_the_charleston_by_clicks(pat: Machine, tmp_path: Path) -> None:
    started = time.monotonic()
    seat = WebSeat(pat, "--rules american --hands 1")
    with chromium() as driver:
        driver.get(seat.url)
        page = wait_for(
            driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack"
        )
        assert "token" not in driver.current_url  # the token became a cookie
        # the first Charleston pass: choose three, screenshot, pass
        wait_for(
            driver,
            lambda p: any("(select 3)" in a["label"] for a in p["actions"]),
            20,
            "the first Charleston pass",
        )
        page = read_page(driver)
        picks = [t for t in page["rack"] if not t["dim"]][:3]
        for tile in picks:
            click_tile(driver, tile["index"])
        wait_for(
            driver, lambda p: sum(t["selected"] for t in p["rack"]) == 3, 5, "three tiles selected"
        )
        assert "Charleston" in body_text(driver)
        shoot(driver, tmp_path, "web-charleston")
        clicker = Clicker(driver)
        shots: list[int] = []

        def table_shot(steps: int) -> None:
            # the table in play: at the first discard (a hand may end after a few: one ended
            # after 19 moves, Charleston included), then again once the ponds are full (28
            # discards), the later shot replacing the first
            view = pat.view()
            mine = sum(len(p.get("discards") or ()) for p in view.get("players") or ())
            wanted = 28 if shots else 1
            if len(shots) < 2 and view.get("phase") == "play" and mine >= wanted:
                shots.append(steps)
                shoot(driver, tmp_path, "web-table")

        view = play_hand(driver, clicker, pat, table_shot)
        print(
            f"American hand over after {time.monotonic() - started:.1f} s, {len(clicker.log)} moves"
        )
        assert clicker.charleston >= 2, clicker.log  # our passes, chosen by clicks
        assert any(m.startswith("discard") for m in clicker.log), clicker.log
        check_result_screen(driver, view)
        shoot(driver, tmp_path, "web-hand-end")
        # the table waits for our Next; then the final standings are the view's
        # sleep-ok: a negative: time passes to show the table waits for Next
        time.sleep(1.0)
        assert pat.view().get("phase") == "hand_over"
        next_button = driver.find_element("css selector", 'button.action[data-type="next"]')
        next_button.click()
        wait_for(driver, lambda p: p["phase"] == "match_over", 20, "the end of the match")
        final = pat.view()
        text = body_text(driver)
        assert "Final standings" in text, text
        for entry in final.get("standings") or ():
            assert entry["name"] in text and str(entry["score"]) in text, (entry, text)
        assert not page_errors(driver), page_errors(driver)
    assert {p.name for p in tmp_path.glob("*.png")} >= {
        f"{name}-{w}x{h}.png"
        for name in ("web-charleston", "web-table", "web-hand-end")
        for w, h in SIZES
    }
    print(f"done after {time.monotonic() - started:.1f} s")


def test_a_whole_mcr_hand_with_a_call_and_a_reload(pat: Machine, tmp_path: Path) -> None:
    started = time.monotonic()
    # a fixed deal that offers us a call in the first hand (a deal of chance may offer none)
    seat = WebSeat(pat, "--rules mcr --hands 2", deal="calls-1")
    with chromium() as driver:
        driver.get(seat.url)
        wait_for(driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 30, "our rack")
        clicker = Clicker(driver, calls=True, keyboard=2)
        reloaded: list[dict[str, Any]] = []
        stood: list[str] = []

        def after_move(steps: int) -> None:
            if clicker.log[-1].startswith("call"):
                call_stood(clicker.log[-1])
            reload_once()

        def call_stood(call: str) -> None:
            before = len(our_exposures(called_at[0])) if called_at else 0
            end = time.monotonic() + 3.0
            while time.monotonic() < end:
                view = pat.view()
                if len(our_exposures(view)) > before:
                    stood.append(call)
                    called_at[:] = [view]
                    return
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.1)

        called_at: list[dict[str, Any]] = []

        def reload_once() -> None:
            discards = sum(m.startswith("discard") for m in clicker.log)
            if reloaded or discards < 2:
                return
            before = pat.view()
            if before.get("phase") in OVER:
                return
            driver.refresh()
            page = wait_for(
                driver,
                lambda p: p["screen"] == "table" and bool(p["rack"]),
                15,
                "the table after a reload",
            )
            after = pat.view()
            assert (after.get("table"), after.get("seat"), after.get("hand_number")) == (
                before.get("table"),
                before.get("seat"),
                before.get("hand_number"),
            )
            # the page's rack against the daemon's hand, read again while the table moves
            # between the two reads (a tile drawn just after the page was read: CI)
            end = time.monotonic() + 5.0
            while True:
                shown = Counter(t["code"] for t in read_page(driver)["rack"])
                held = Counter(str(t) for t in pat.view().get("hand") or ())
                if shown == held or time.monotonic() > end:
                    break
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.2)
            assert shown == held, (shown, held)
            reloaded.append(page)

        view = play_hand(driver, clicker, pat, after_move)
        print(f"MCR hand over after {time.monotonic() - started:.1f} s: {clicker.log}")
        assert reloaded, "the hand ended before the reload"
        assert sum("(keys" in m for m in clicker.log) == 2, clicker.log
        calls = [m for m in clicker.log if m.startswith("call")]
        assert calls, f"no call was offered in the hand: {clicker.log}"
        assert stood, f"no call of ours stood (outranked each time?): {calls}"
        check_result_screen(driver, view)
        shoot(driver, tmp_path, "web-mcr-hand-end")
        assert not page_errors(driver), page_errors(driver)
