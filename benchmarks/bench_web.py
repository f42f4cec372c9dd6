"""The browser table (issue 17): from a click to the discard shown at the three other seats'
pages, beside the same through the local API alone, measured in the same run.

Four real daemons on 127.0.0.1 (testkit/procs.py) play one-hand MCR tables on the
practice deck (no mental poker: this measures the way to the pages, not the deck; each line's
``deck`` is the deck the four views say their tables played). Three tables, one after the
other, on the same daemons:

1. a hand through the local API alone, played by bench_daemon's ``Driver`` and measured by
   its latency code (an act request until the driver holds the three other seats' new views;
   also until the last of them applied it);
2. a hand in the browser: each daemon gets its own `fourwinds web --no-browser` (a
   subprocess: 127.0.0.1, a free port, its own token) and its own headless Chromium
   (Selenium, as tests/web drives it) showing the table. At every other discard the bench
   double-clicks, in the page of the seat whose turn it is, the rack tile the page marks as
   the default discard, as a player discards; the discards between go through the local API
   and are measured as in the API hands, while the four pages are open and draw them (the
   same machine's load without the browser path: ``api_beside_pages``); every other
   decision (a call window's pass, Mahjong, next) goes through the local API as the driver
   makes it, after the discard was seen at the pages;
3. the first again, with the web servers and browsers stopped (the API figure is both API
   hands' samples: before and after the web hand, against drift).

Every seat waits THINK_S before each discard, in all three hands (a player's moment to
choose; ``WebDriver.drain``): the pages finish drawing the moves before, and every process has
gone idle as it does between a person's moves (which makes the API figure larger than
bench_daemon's back-to-back one: a process woken from idle takes a little longer).

The web figure, for each discard: from the ``dblclick`` event in the acting page (a capture
listener the bench installs) until the discard is shown in the DOM of the last of the three
other pages (a MutationObserver the bench installs before the click: the centre's "last
discard by" that seat with that tile while the others may call it, or the tile at its new
place in that seat's discard row). Both ends are ``Date.now()`` read in the pages: every
Chromium process reads the machine's one wall clock at 1 ms resolution, so a sample is good to
+-1 ms. The bench reads the pages only afterwards (``execute_async_script``: an observer
answers when it saw the tile), after SETTLE_S without driver traffic. Also: the first page to
show it, and where the time went (``parts_p50_ms``, each part's own p50): the acting page to
its send on the WebSocket, on to the last other daemon applying the discard (its view's
``steps_applied``, the shared monotonic clock, turned to the wall clock), on to the message
reaching the page that showed it last (a wrapper of the page's WebSocket, installed before
the page's scripts load), and the page drawing it. Nothing in the page was added for the
bench: the tiles already carry their ``data-code``. A discard that ends the hand (the pages
show the end instead) is counted, not timed.

One line, ``web_discard_latency``: p50 and p99 in ms beside the API's (``api_p50_ms``,
``api_p99_ms``, and until the last peer applied it ``api_applied_p50_ms``), ``ratio`` web/API
of the p50s; target <= 2x; and ``ratio_beside_pages``: web over the API measured in the web
hand. Where Chromium, its driver or Selenium is missing the line has value null, met false and
``skipped``: the reason.

A second line, ``idle_views_per_minute`` (``bench_idle_views``): the views a daemon sends to
a subscriber per minute while nothing at its table changes; target 0 (the daemon republished
every table each second). It needs no browser.

A third line, ``call_prompts_two_jokers`` (``benchmarks/call_prompts.py``): the call prompts
per American hand for a seat dealt two jokers, bots at the table on seeded deals, after the
rule that offers only calls bringing the hand nearer to a card line, with ``before`` (the
old rule: any legal call, counted in the same hands); target <= 5 per hand (issue 22 item
11 saw 38). Pure: no daemons, no browser.

Quick (``scripts/bench --quick``): a player's pause of 20 ms instead of THINK_S, three
double-clicks in the web hand (the discards between through the local API, beside the pages;
then the pages close and the hand ends through the local API), and one API hand, before it
(the line's ``think_s``, ``samples`` and ``api_hands`` say so).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from benchmarks.bench_daemon import REAL, Driver, _open_table, _ratio
from benchmarks.call_prompts import NAME as CALL_PROMPTS
from benchmarks.call_prompts import bench_call_prompts
from benchmarks.timing import result
from testkit.browser import URL, chromium, unavailable
from testkit.procs import ROOT, DaemonProcess, request, start_all

NAME = "web_discard_latency"
IDLE_NAME = "idle_views_per_minute"
IDLE_S = 60.0  # how long an idle table is watched (one minute)
QUICK_IDLE_S = 2.0
SUBSCRIBED_S = 1.5  # the views that subscribing sends, let through before counting
RULES = "mcr"
DECK = "practice"
RATIO_TARGET = 2.0
HAND_TIMEOUT_S = 120.0
SEEN_TIMEOUT_S = 5.0
THINK_S = 0.2
SETTLE_S = 0.15
QUICK_THINK_S = 0.02
QUICK_CLICKS = 3
PARTS = ("click_to_send", "send_to_peers_applied", "peers_applied_to_page", "page_to_dom")
WINDS = ("East", "South", "West", "North")  # how the page names a seat
PLACES = {1: "right", 2: "across", 3: "left"}  # (actor - observer) % 4 -> the page's place
CLOCK = (
    "Date.now() inside the pages (the machine's one wall clock, 1 ms resolution): "
    "the acting page's dblclick event to the last of the three other pages' DOM"
)

# In an observer page: note when the discard is shown, as the table's last discard in the
# centre (while the other seats may call it: the view's ``last_discard``) or, once no one
# called it, in the discarder's row (the seat at ``place``) at position ``count``; or when the
# page shows the end of the hand instead (0). Armed before the click.
ARM_SEEN = """
const [place, count, code, wind] = arguments;
const shown = () => {
  const last = document.querySelector('#center .last-discard');
  if (last && last.textContent.startsWith(`Last discard by ${wind}`)
      && last.querySelector(`svg.tile[data-code="${code}"]`)) return true;
  const row = document.querySelectorAll(`#seat-${place} .discards > svg.tile`);
  return row.length > count && row[count].getAttribute('data-code') === code;
};
if (window.__fwObserver) window.__fwObserver.disconnect();
window.__fwSeen = null;
window.__fwNotify = null;
if (shown()) return 'already shown';
const observer = new MutationObserver(() => {
  if (window.__fwSeen !== null) return;
  if (shown()) { window.__fwSeen = Date.now(); window.__fwSeenArrived = window.__fwArrived; }
  else if (document.body.dataset.screen === 'result') window.__fwSeen = 0;   // the hand ended
  else return;
  observer.disconnect();
  if (window.__fwNotify) window.__fwNotify();
});
observer.observe(document.body, {childList: true, subtree: true, attributes: true,
  attributeFilter: ['data-screen']});
window.__fwObserver = observer;
return 'armed';
"""

# In an observer page: answer with the time the tile was seen (at once, or when it is).
WAIT_SEEN = """
const done = arguments[arguments.length - 1];
const answer = () => done([window.__fwSeen, window.__fwSeenArrived]);
if (window.__fwSeen !== null) answer(); else window.__fwNotify = answer;
"""

# In the acting page: note when the next dblclick happens (capture: before the page's own).
ARM_CLICK = """
window.__fwClick = null;
window.__fwSent = null;
if (!window.__fwClickHook) {
  window.__fwClickHook = true;
  window.addEventListener('dblclick', () => { window.__fwClick = Date.now(); }, true);
}
"""

# Before the page's own scripts (CDP): note when the page last sent on its WebSocket and when
# the last message reached it (a listener added before the page's own, so it runs first).
WIRE_HOOK = """
(() => {
  const Native = window.WebSocket;
  window.__fwSent = null;
  window.__fwArrived = null;
  class Noted extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => { window.__fwArrived = Date.now(); });
    }
    send(data) { window.__fwSent = Date.now(); return super.send(data); }
  }
  window.WebSocket = Noted;
})();
"""

# For a clear error: a page's message line and state, the discard row of the seat at a place.
MESSAGE = "return document.getElementById('message').textContent"
PAGE_STATE = """
const b = document.body.dataset;
const rack = [...document.querySelectorAll('#rack .rack-tile')].map((t) => t.dataset.code
  + (t.classList.contains('discardable') ? '*' : ''));
return `screen ${b.screen}, connected ${b.connected}, answered ${b.answered}, phase ` +
  `${b.phase}, rack ${rack.join(' ')} (* discardable), message ` +
  `"${document.getElementById('message').textContent}"`;
"""
SHOWN_ROW = """
return [...document.querySelectorAll(`#seat-${arguments[0]} .discards > svg.tile`)]
  .map((t) => t.getAttribute('data-code'));
"""

# In the acting page: is the tile ``code`` offered as a discard (and not answered yet)?
DISCARDABLE = """
const code = arguments[0];
if (document.body.dataset.answered === 'yes') return -1;
const tiles = [...document.querySelectorAll('#rack .rack-tile.discardable')]
  .filter((t) => t.dataset.code === code);
return tiles.length ? Number(tiles[tiles.length - 1].dataset.index) : -1;
"""


class WebServer:
    """`fourwinds web --no-browser` for one daemon's data directory, showing ``table``."""

    def __init__(self, data_dir: Path, table: str) -> None:
        self.out = data_dir / "web.out"
        cmd = [
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "web",
            "--data-dir",
            str(data_dir),
            "--table",
            table,
            "--no-browser",
        ]
        with open(self.out, "wb") as out:
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        self.url = ""
        self.port = 0

    def wait_url(self, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while not self.url:
            found = URL.search(self.out.read_text(errors="replace"))
            if found:
                self.url, self.port = found.group(1), int(found.group(2))
            elif self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(
                    f"`fourwinds web` printed no address: "
                    f"{self.out.read_text(errors='replace')[-2000:]}"
                )
            else:
                time.sleep(0.05)
        return self.url

    def output(self) -> str:
        """What the server printed (for a clear error)."""
        return self.out.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class WebDriver(Driver):
    """bench_daemon's driver at a player's pace: before each discard it waits ``think_s``
    (also when ``Driver.play`` drives the hand alone: see ``drain``). ``play_web`` makes every
    other discard a double-click in that seat's page, at most ``clicks`` of them (None: no
    limit)."""

    def __init__(
        self, daemons: list[DaemonProcess], think_s: float = THINK_S, clicks: int | None = None
    ) -> None:
        super().__init__(daemons)
        self.think_s = think_s
        self.clicks_left = clicks
        self.thought = [-1] * len(daemons)  # the step each seat last thought at
        self.measuring = False  # within Driver._await_peers
        self.web_latencies: list[float] = []  # s: dblclick until the last other page
        self.web_first: list[float] = []  # s: dblclick until the first other page
        self.web_parts: list[tuple[float, ...]] = []  # s, each of PARTS
        self.ending_discards = 0  # discards that ended the hand (shown as its end instead)
        self.discards = 0  # discards made in play_web
        self.pages: list[Any] = []  # the four pages, while play_web runs
        self.clicked = [-1] * len(daemons)  # the step each seat last discarded at there
        self.server_logs: list[Callable[[], str]] = []  # what each web server printed
        self.daemon_logs = [d.log for d in daemons]  # what each daemon logged
        self.beside_pages: list[float] = []  # s: API discards in the web hand (as view_...)
        self.beside_pages_applied: list[float] = []  # s: ... until the last peer applied

    def drain(self, i: int, table: str, wait: float = 0.0) -> bool:
        """``Driver.drain``, then a player's moment to choose when seat ``i``'s view newly
        offers a discard: ``Driver.play`` acts (and starts its clock) right after a drain,
        so the API hands and the web hand are paced alike. (The other seats' daemons and
        pages settle meanwhile; a process that slept a moment also takes a little longer to
        wake than one kept busy, which is the players' case.)"""
        got = super().drain(i, table, wait)
        if self.measuring:
            return got  # (a discard seen while timing another is thought over afterwards)
        legal = self.views[i].get("legal_actions") or []
        default = next((a for a in legal if a.get("default")), legal[0] if legal else None)
        if default is not None and _one_tile_discard(default) and self.thought[i] != self.step(i):
            self.thought[i] = self.step(i)
            time.sleep(self.think_s)
        return got

    def _await_peers(
        self, actor: int, table: str, before: int, start: float, started: float
    ) -> None:
        self.measuring = True
        try:
            super()._await_peers(actor, table, before, start, started)
        finally:
            self.measuring = False

    def play_web(
        self, table: str, pages: list[Any], until: Callable[[], bool], timeout: float
    ) -> None:
        """``Driver.play`` with the pages open: see ``act``."""
        self.pages = pages
        try:
            self.play(table, until, timeout)
        finally:
            self.pages = []

    def act(self, i: int, table: str, action: dict[str, Any]) -> bool:
        """With the pages open, a discard of one tile is a double-click in that seat's page
        (measured) at every other discard, and through the local API between (measured as
        in the API hands, into ``beside_pages``); anything else, and everything without the
        pages, as ``Driver.act`` does it."""
        if not self.pages or not _one_tile_discard(action):
            return super().act(i, table, action)
        if self.clicked[i] == self.step(i):
            return False  # (a later copy of the view we discarded from)
        self.clicked[i] = self.step(i)
        self.discards += 1
        if self.discards % 2 == 1 and self.clicks_left != 0:
            if self.clicks_left is not None:
                self.clicks_left -= 1
            self._click_discard(i, table, self.pages, str(action["tiles"][0]))
            return True
        marks = len(self.view_latencies), len(self.latencies)
        acted = super().act(i, table, action)
        self.beside_pages.extend(self.view_latencies[marks[0] :])
        self.beside_pages_applied.extend(self.latencies[marks[1] :])
        return acted

    def _click_discard(self, actor: int, table: str, pages: list[Any], code: str) -> None:
        """Double-click ``code`` in the actor's page; the time until the three other pages
        show it (see ARM_SEEN), and where that time went (PARTS)."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        seat = int(self.views[actor]["view"]["seat"])
        before = self.step(actor)
        count = len(_player(self.views[actor]["view"], seat).get("discards") or ())
        page = pages[actor]
        end = time.monotonic() + SEEN_TIMEOUT_S
        while (index := int(page.execute_script(DISCARDABLE, code))) < 0:
            if time.monotonic() > end:
                raise RuntimeError(
                    f"seat {seat}'s page never offered {code} as a discard "
                    f"(its daemon offers {_offers(self.views[actor])}): "
                    f"{page.execute_script(PAGE_STATE)}; its console: "
                    f"{[e.get('message') for e in page.get_log('browser')][-5:]}"
                    f"; its web server: {self.server_logs[actor]()[-1500:]}"
                    f"; its daemon: {_tail(self.daemon_logs[actor])}"
                )
            time.sleep(0.005)
        others = [o for o in range(4) if o != actor]
        places = {o: PLACES[(seat - int(self.views[o]["view"]["seat"])) % 4] for o in others}
        for o in others:
            armed = pages[o].execute_script(ARM_SEEN, places[o], count, code, WINDS[seat])
            if armed != "armed":
                raise RuntimeError(f"page {o}: {armed} before the click ({code} at {count})")
        page.execute_script(ARM_CLICK)
        tile = page.find_element(By.CSS_SELECTOR, f'#rack .rack-tile[data-index="{index}"]')
        ActionChains(page).double_click(tile).perform()
        time.sleep(SETTLE_S)  # no driver traffic while the discard travels
        try:
            seen = [pages[o].execute_async_script(WAIT_SEEN) for o in others]
        except TimeoutException:
            rows = [pages[o].execute_script(SHOWN_ROW, places[o]) for o in others]
            raise RuntimeError(
                f"seat {seat} double-clicked {code} (the page says "
                f"{page.execute_script(MESSAGE)!r}); after {SEEN_TIMEOUT_S:.0f} s the other "
                f"pages show neither it as the last discard nor its row as {code} at "
                f"{count}: {rows}"
            ) from None
        clicked_at = page.execute_script("return window.__fwClick")
        sent_at = page.execute_script("return window.__fwSent")
        if clicked_at is None or sent_at is None:
            raise RuntimeError(f"seat {seat}'s page saw no double-click or sent nothing")
        if min(shown for shown, _arrived in seen) == 0:
            self.ending_discards += 1  # it ended the hand: the pages show the end instead
            return
        last, arrived = max(seen)
        peers = self._applied_at(others, table, before)
        self.web_latencies.append((last - clicked_at) / 1000)
        self.web_first.append((min(seen)[0] - clicked_at) / 1000)
        self.web_parts.append(
            (
                (sent_at - clicked_at) / 1000,
                peers - sent_at / 1000,
                arrived / 1000 - peers,
                (last - arrived) / 1000,
            )
        )

    def _applied_at(self, seats: list[int], table: str, before: int) -> float:
        """When the last of ``seats``' daemons applied the step after ``before`` (their views'
        ``steps_applied``, on the monotonic clock every process here shares), on the wall
        clock the pages read (s)."""
        end = time.monotonic() + SEEN_TIMEOUT_S
        applied = []
        for p in seats:
            while self.step(p) <= before:
                if time.monotonic() > end:
                    raise RuntimeError(f"seat {p}'s daemon never showed step {before + 1}")
                self.drain(p, table, 0.05)
            applied.append(self._applied(p, before))
        return max(applied) + time.time() - time.monotonic()


def _tail(path: Path, size: int = 1500) -> str:
    try:
        return path.read_text(errors="replace")[-size:]
    except OSError as error:
        return f"({error})"


def _one_tile_discard(action: dict[str, Any]) -> bool:
    """An action the page binds to a rack tile (a double-click does it)."""
    return (
        action.get("type") == "discard"
        and "choose" not in action
        and len(action.get("tiles") or ()) == 1
    )


def _offers(event: dict[str, Any]) -> list[str]:
    return [
        f"{a.get('type')} {' '.join(map(str, a.get('tiles') or ()))}".strip()
        + (" (default)" if a.get("default") else "")
        for a in event.get("legal_actions") or ()
    ]


def _player(view: dict[str, Any], seat: int) -> dict[str, Any]:
    for player in view.get("players") or ():
        if player.get("seat") == seat:
            return dict(player)
    raise RuntimeError(f"the view has no player at seat {seat}")


def _seat_table(daemons: list[DaemonProcess], driver: Driver, n: int) -> str:
    """A one-hand MCR table on DECK with the four daemons seated (not ready yet)."""
    table = _open_table(daemons, driver, n, RULES, DECK)
    deadline = time.monotonic() + 10
    while not all(driver.phase(i) == "ready" for i in range(4)):
        if time.monotonic() > deadline:
            raise RuntimeError("the lobby never filled")
        for i in range(4):
            driver.drain(i, table, 0.01)
    return table


def _ready(driver: Driver, table: str) -> None:
    driver.begin_hand()
    for i in range(4):
        request(driver.clients[i], type="ready", table=table)


def _over(driver: Driver) -> Callable[[], bool]:
    return lambda: all(driver.phase(i) in ("over", "halted") for i in range(4))


def _decks(driver: Driver) -> set[str]:
    return {driver.deck(i) for i in range(4)}


def _api_hand(
    daemons: list[DaemonProcess], driver: Driver, n: int
) -> tuple[list[float], list[float], set[str]]:
    """One hand through the local API alone: (until the driver held the three views, until
    the last peer applied it) for each discard, and the decks the views named."""
    table = _seat_table(daemons, driver, n)
    marks = len(driver.view_latencies), len(driver.latencies)
    _ready(driver, table)
    driver.play(table, _over(driver), HAND_TIMEOUT_S)
    return (driver.view_latencies[marks[0] :], driver.latencies[marks[1] :], _decks(driver))


@contextlib.contextmanager
def _pages(
    daemons: list[DaemonProcess], table: str
) -> Iterator[tuple[list[Any], list[Callable[[], str]]]]:
    """Each daemon's own `fourwinds web` and headless Chromium, showing ``table``; and
    what each server printed."""
    servers = [WebServer(d.data_dir, table) for d in daemons]
    try:
        with contextlib.ExitStack() as stack:
            pages = []
            for server in servers:
                page = stack.enter_context(chromium())
                page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WIRE_HOOK})
                page.set_script_timeout(SEEN_TIMEOUT_S)
                page.get(server.wait_url())  # the token becomes a cookie
                pages.append(page)
            for page in pages:
                _wait_page(
                    page,
                    lambda p: p.execute_script("return document.body.dataset.screen") == "waiting",
                    "the table's lobby",
                )
            yield pages, [s.output for s in servers]
    finally:
        for server in servers:
            server.stop()


def _wait_page(page: Any, test: Callable[[Any], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not test(page):
        if time.monotonic() > end:
            raise RuntimeError(
                f"the page never showed {what}: "
                f"{page.execute_script('return document.body.innerText')[:500]}"
            )
        time.sleep(0.05)


def _web_hand(daemons: list[DaemonProcess], driver: WebDriver, n: int) -> set[str]:
    """One hand in the four pages (the figures land in ``driver``); the decks the views
    named. With a limit on the clicks the pages close once it is reached and the hand ends
    through the local API."""
    table = _seat_table(daemons, driver, n)
    over = _over(driver)
    with _pages(daemons, table) as (pages, logs):
        driver.server_logs = logs
        _ready(driver, table)
        for page in pages:
            _wait_page(
                page,
                lambda p: p.execute_script("return document.body.dataset.screen") == "table",
                "the table",
                20.0,
            )
        driver.play_web(table, pages, lambda: driver.clicks_left == 0 or over(), HAND_TIMEOUT_S)
        errors = [
            str(e.get("message"))
            for page in pages
            for e in page.get_log("browser")
            if e.get("level") == "SEVERE" and "favicon" not in str(e.get("message"))
        ]
    if errors:
        raise RuntimeError(f"the pages logged errors: {errors[:3]}")
    driver.play(table, over, HAND_TIMEOUT_S)  # (at once when the hand is over)
    return _decks(driver)


def _ms(values: list[float]) -> tuple[float, float]:
    """p50 and p99 in ms (the p99 of fewer than 100 samples is their largest)."""
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return round(statistics.median(ordered) * 1000, 3), round(p99 * 1000, 3)


def bench_web(quick: bool) -> list[dict[str, object]]:
    target = f"p50 <= {RATIO_TARGET}x the local API's"
    why = unavailable()
    if why is not None:
        return [
            {
                "bench": NAME,
                "value": None,
                "unit": "ms",
                "target": target,
                "met": False,
                "skipped": why,
            }
        ]
    think = QUICK_THINK_S if quick else THINK_S
    base = Path(tempfile.mkdtemp(prefix="fw-bweb-"))
    daemons = [DaemonProcess(base / f"d{i}", f"web{i}", session_module=REAL) for i in range(4)]
    started = time.monotonic()
    try:
        start_all(daemons)
        driver = WebDriver(daemons, think, QUICK_CLICKS if quick else None)
        try:
            view_a, applied_a, decks = _api_hand(daemons, driver, 0)
            decks |= _web_hand(daemons, driver, 1)
            view_b, applied_b, decks_b = ([], [], set()) if quick else _api_hand(daemons, driver, 2)
        finally:
            driver.close()
    finally:
        for d in daemons:
            d.stop()
        shutil.rmtree(base, ignore_errors=True)
    played = decks | decks_b
    if played != {DECK}:
        raise RuntimeError(f"asked for the {DECK} deck, the views say {sorted(played)}")
    api, applied, web = view_a + view_b, applied_a + applied_b, driver.web_latencies
    if not web or not api or not driver.beside_pages:
        raise RuntimeError("no discard was measured")
    beside_p50 = _ms(driver.beside_pages)[0]
    (api_p50, api_p99), (web_p50, web_p99) = _ms(api), _ms(web)
    ratio = _ratio(web_p50, api_p50)
    return [
        result(
            NAME,
            web_p50,
            "ms",
            p99_ms=web_p99,
            api_p50_ms=api_p50,
            api_p99_ms=api_p99,
            api_measure="act request until the driver holds the three other seats' new "
            "views (bench_daemon's Driver, time.perf_counter), a discard after "
            "a player's pause, the web servers and browsers stopped",
            api_applied_p50_ms=_ms(applied)[0],
            api_applied_p99_ms=_ms(applied)[1],
            api_samples=len(api),
            api_hands=1 if quick else 2,
            ratio=ratio,
            ratio_p99=_ratio(web_p99, api_p99),
            target=target,
            met=ratio is not None and ratio <= RATIO_TARGET,
            first_page_p50_ms=_ms(driver.web_first)[0],
            api_beside_pages_p50_ms=beside_p50,
            api_beside_pages_applied_p50_ms=_ms(driver.beside_pages_applied)[0],
            ratio_beside_pages=_ratio(web_p50, beside_p50),
            api_beside_pages_samples=len(driver.beside_pages),
            parts_p50_ms={
                name: _ms([p[k] for p in driver.web_parts])[0] for k, name in enumerate(PARTS)
            },
            samples=len(web),
            not_shown_ended_hand=driver.ending_discards,
            hands=1,
            pages=4,
            clock=CLOCK,
            bench_s=round(time.monotonic() - started, 1),
            deck=played.pop(),
            rules=RULES,
            think_s=think,
        ),
    ]


def _view_of(client: Any, table: str) -> dict[str, Any]:
    """The seat's current view event (the ``view`` request: no subscription needed)."""
    event = request(client, type="view", table=table).get("event") or {}
    return event if isinstance(event, dict) else {}


def _wait_views(
    clients: list[Any],
    table: str,
    test: Callable[[dict[str, Any]], bool],
    what: str,
    timeout: float = 30.0,
) -> list[dict[str, Any]]:
    """Every seat's view once ``test`` holds for all four (RuntimeError naming ``what``)."""
    deadline = time.monotonic() + timeout
    while True:
        views = [_view_of(c, table).get("view") or {} for c in clients]
        if all(test(v) for v in views):
            return views
        if time.monotonic() > deadline:
            raise RuntimeError(f"the table never reached {what}: {[v.get('phase') for v in views]}")
        time.sleep(0.1)


def _idle_table(daemons: list[DaemonProcess], clients: list[Any]) -> str:
    """A one-hand MCR table on DECK, the four daemons seated and ready, its hand dealt: a
    player's first move is awaited (laying out flowers, or the dealer's first discard), with
    no turn window (nothing times out)."""
    host = clients[0]
    made = request(
        host,
        type="create",
        name="idle",
        rules=RULES,
        options={"hands": 1, "deck": DECK, "turn_window": 0},
    )
    table = str(made["table"])
    key = request(host, type="whoami")["public_key"]
    for client in clients[1:]:
        request(
            client, type="join", table=table, host="127.0.0.1", port=daemons[0].port, public_key=key
        )
    _wait_views(
        clients, table, lambda v: (v.get("session") or {}).get("phase") == "ready", "a full lobby"
    )
    for client in clients:
        request(client, type="ready", table=table)
    _wait_views(
        clients,
        table,
        lambda v: (v.get("session") or {}).get("phase") == "play" and bool(v.get("waiting_for")),
        "a player's first move",
    )
    return table


def _views_received(clients: list[Any], table: str, window: float) -> list[int]:
    """How many view events of ``table`` each subscribed client receives in ``window``
    seconds (the clients are read in turn, each for a short while)."""
    counts = [0] * len(clients)
    end = time.monotonic() + window
    while time.monotonic() < end:
        for i, client in enumerate(clients):
            event = client.next_event(0.05)
            while event is not None:
                if event.get("type") == "view" and event.get("table") == table:
                    counts[i] += 1
                event = client.next_event(0.0)
    return counts


def bench_idle_views(quick: bool) -> list[dict[str, object]]:
    """Views a daemon sends to a subscriber while nothing at its table changes (issue 22,
    item 15: the daemon republished every table to every subscriber each second, and each
    view reset what a player in the browser was choosing). Four real daemons deal a one-hand
    MCR table on the practice deck and wait for a player's first move, with no turn window;
    then every seat's frontend subscribes, the views that subscribing sends (one per table)
    are let through for SUBSCRIBED_S, and the views each subscriber receives in the next
    IDLE_S seconds (QUICK_IDLE_S with ``--quick``) are counted. The value is the most any
    subscriber received, per minute; target 0. Needs no browser: it is the daemon's side."""
    window = QUICK_IDLE_S if quick else IDLE_S
    base = Path(tempfile.mkdtemp(prefix="fw-bidle-"))
    daemons = [DaemonProcess(base / f"d{i}", f"idle{i}", session_module=REAL) for i in range(4)]
    started = time.monotonic()
    try:
        start_all(daemons)
        clients = [d.client(subscribe=False) for d in daemons]
        try:
            table = _idle_table(daemons, clients)
            for client in clients:
                request(client, type="subscribe")
            first = _views_received(clients, table, SUBSCRIBED_S)
            counts = _views_received(clients, table, window)
        finally:
            for client in clients:
                client.close()
    finally:
        for d in daemons:
            d.stop()
        shutil.rmtree(base, ignore_errors=True)
    per_minute = [round(n * 60.0 / window, 1) for n in counts]
    value = max(per_minute)
    return [
        result(
            IDLE_NAME,
            value,
            "views/min",
            target="0 while nothing changes",
            met=value == 0,
            per_subscriber=per_minute,
            views=counts,
            on_subscribing=first,
            window_s=window,
            phase="a player's first move awaited, no turn window",
            subscribers=len(counts),
            rules=RULES,
            deck=DECK,
            bench_s=round(time.monotonic() - started, 1),
        )
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "web_discard_latency": bench_web,
    IDLE_NAME: bench_idle_views,
    CALL_PROMPTS: bench_call_prompts,
}
