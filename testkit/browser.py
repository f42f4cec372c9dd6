"""A real Chromium driven by Selenium, for the web table's tests, and a person playing by clicks.

Chromium and its driver come from the distribution's packages (``/usr/bin/chromium``,
``/usr/bin/chromedriver``: `.ci/run` installs them). Both paths are given to Selenium
explicitly and Selenium Manager is told to stay offline, so nothing is ever downloaded.
``unavailable()`` says why the browser tests cannot run here (for ``pytest.skip``).

``WebSeat`` starts `fourwinds play --web ...` on a ``Machine`` (its own HOME: a fresh
computer) and reads the address it prints; ``Clicker`` plays whatever the page offers by
clicking it, as a person would, reading only the page.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from testkit.machines import Machine, fixed_deal

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
URL = re.compile(r"(http://127\.0\.0\.1:(\d+)/\?token=([\w-]+))")


def unavailable() -> str | None:
    """Why a browser cannot be driven here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            return f"{path} is missing (apt-get install -y {package})"
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 800) -> Iterator[Any]:
    """A headless Chromium showing a ``width`` x ``height`` page; quit afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a browser
    profile = tempfile.mkdtemp(prefix="fw-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        resize(driver, width, height)
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def resize(driver: Any, width: int, height: int) -> None:
    """Make the page itself (not the window around it) ``width`` x ``height``."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


def page_errors(driver: Any) -> list[str]:
    """The page's console errors (a CSP violation or a script error shows up here)."""
    return [
        str(e.get("message"))
        for e in driver.get_log("browser")
        if e.get("level") == "SEVERE" and "favicon" not in str(e.get("message"))
    ]


class WebSeat:
    """`fourwinds play --web ARGS` on ``machine``; ``url`` is the address it printed."""

    def __init__(
        self, machine: Machine, args: str, timeout: float = 60.0, deal: str | None = None
    ) -> None:
        """``deal``: the same deal on every run (testkit.machines.fixed_deal)."""
        self.machine = machine
        self.log = f"web-{int(time.monotonic() * 1000)}.out"
        self.process = machine.start(f"{fixed_deal(deal)}fourwinds play --web {args}", self.log)
        end = time.monotonic() + timeout
        while True:
            text = self.output()
            found = URL.search(text)
            if found:
                self.url, self.port, self.token = (
                    found.group(1),
                    int(found.group(2)),
                    found.group(3),
                )
                return
            if self.process.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"`play --web {args}` printed no address:\n{text}")
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)

    def output(self) -> str:
        path = self.machine.home / self.log
        return path.read_text(errors="replace") if path.exists() else ""


# -- reading and clicking the page ------------------------------------------------------------

READ_PAGE = """
const body = document.body;
const rack = [...document.querySelectorAll('#rack .rack-tile')].map((t) => ({
  code: t.dataset.code, index: Number(t.dataset.index),
  discardable: t.classList.contains('discardable'), dflt: t.classList.contains('default'),
  dim: t.classList.contains('dim'), selected: t.classList.contains('selected'),
  cursor: t.classList.contains('cursor')}));
const visible = (b) => b.offsetParent !== null;
const actions = [...document.querySelectorAll('button.action')].filter(visible).map((b) => ({
  id: b.dataset.id, type: b.dataset.type, label: b.textContent,
  dflt: b.dataset.default === 'yes'}));
return {screen: body.dataset.screen, phase: body.dataset.phase || '', rack, actions,
  answered: body.dataset.answered || 'no',
  message: document.getElementById('message').textContent};
"""


def open_lobby(machine: Machine, driver: Any, env: str = "") -> None:
    """`fourwinds web` at ``machine``'s daemon (started first, on loopback; ``env``: shell
    assignments before both commands, e.g. ``"FOURWINDS_RULESETS=..."``), its lobby in
    ``driver``."""
    machine.start(
        f"{env} fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns".strip(), "daemon.out"
    )
    machine.start(f"{env} fourwinds web --no-browser".strip(), "web.out")
    log = machine.home / "web.out"
    end = time.monotonic() + 30
    while not (found := URL.search(log.read_text(errors="replace"))):
        assert time.monotonic() < end, log.read_text(errors="replace")
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.2)
    driver.get(found.group(1))
    wait_for(driver, lambda p: p["screen"] == "lobby", 15, "the lobby")


def read_page(driver: Any) -> dict[str, Any]:
    page: dict[str, Any] = driver.execute_script(READ_PAGE)
    return page


def wait_for(
    driver: Any, test: Callable[[dict[str, Any]], bool], timeout: float, what: str
) -> dict[str, Any]:
    end = time.monotonic() + timeout
    page: dict[str, Any] = {}
    while time.monotonic() < end:
        page = read_page(driver)
        if test(page):
            return page
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)
    raise AssertionError(
        f"{what} did not show within {timeout:.0f} s; the page: {page}\n{body_text(driver)[:3000]}"
    )


def rack_tile(driver: Any, index: int) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f'#rack .rack-tile[data-index="{index}"]')


def click_found(find: Callable[[], Any], what: str) -> None:
    """Click the element ``find()`` gives, finding it again if the page redrew it between
    the finding and the click (its screens are redrawn on every view the daemon sends)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _ in range(5):
        try:
            find().click()
            return
        except StaleElementReferenceException:
            # sleep-ok: retry interval after the page redrew under a click (bounded: 5 tries)
            time.sleep(0.05)
    raise AssertionError(f"{what} kept changing under the click")


def click_tile(driver: Any, index: int) -> None:
    """Click the rack's tile ``index`` (found again if the page redrew it meanwhile)."""
    click_found(lambda: rack_tile(driver, index), f"rack tile {index}")


def click_id(driver: Any, element_id: str) -> None:
    """Click the element of this id (found again if the page redrew it meanwhile)."""
    click_found(lambda: driver.find_element("id", element_id), f"#{element_id}")


def click_css(driver: Any, selector: str) -> None:
    """Click the element this CSS selector finds (found again if the page redrew it)."""
    click_found(lambda: driver.find_element("css selector", selector), selector)


def body_text(driver: Any) -> str:
    text: str = driver.execute_script("return document.body.innerText")
    return text


class Clicker:
    """A person at the page: takes Mahjong when offered, passes three tiles in a Charleston
    pass, discards by double-clicking a tile, makes calls when ``calls`` says so (and
    records them), and otherwise clicks the action the page marks as the default."""

    def __init__(self, driver: Any, calls: bool = False, keyboard: int = 0) -> None:
        self.driver = driver
        self.calls = calls
        self.keyboard = keyboard  # how many discards to make by keys (letter, then Enter)
        self.log: list[str] = []
        self.charleston = 0

    def _click_action(self, action_id: str) -> None:
        from selenium.webdriver.common.by import By

        button = self.driver.find_element(By.CSS_SELECTOR, f'button.action[data-id="{action_id}"]')
        button.click()

    def _rack_tile(self, index: int) -> Any:
        return rack_tile(self.driver, index)

    def step(self) -> str | None:
        """Do one thing the page offers; what was done, or None (nothing to do)."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.action_chains import ActionChains

        page = read_page(self.driver)
        if page["screen"] != "table" or page["answered"] == "yes":
            return None
        actions = page["actions"]
        try:
            mahjong = next((a for a in actions if a["type"] == "mahjong"), None)
            if mahjong is not None:
                self._click_action(mahjong["id"])
                return self._did(f"mahjong: {mahjong['label']}")
            chooser = next((a for a in actions if "(select" in a["label"]), None)
            if chooser is not None:
                want = int(re.search(r"\(select (\d+)\)", chooser["label"]).group(1))  # type: ignore[union-attr]
                for tile in page["rack"]:
                    if tile["selected"]:
                        self._rack_tile(tile["index"]).click()
                picks = [t for t in page["rack"] if not t["dim"]][:want]
                for tile in picks:
                    self._rack_tile(tile["index"]).click()
                self._click_action(chooser["id"])
                self.charleston += 1
                return self._did(f"{chooser['label']}: {' '.join(t['code'] for t in picks)}")
            discardable = [t for t in page["rack"] if t["discardable"]]
            if discardable:
                tile = next((t for t in discardable if t["dflt"]), discardable[-1])
                if self.keyboard > 0 and tile["index"] < 14:
                    self.keyboard -= 1
                    letter = "abcdefghijklmn"[tile["index"]]
                    ActionChains(self.driver).send_keys(letter).pause(0.1).send_keys(
                        "\ue007"
                    ).perform()  # Enter
                    return self._did(f"discard {tile['code']} (keys {letter} Enter)")
                ActionChains(self.driver).double_click(self._rack_tile(tile["index"])).perform()
                return self._did(f"discard {tile['code']} (double-click)")
            call = next((a for a in actions if a["type"] == "call"), None) if self.calls else None
            if call is not None:
                self._click_action(call["id"])
                return self._did(f"call: {call['label']}")
            chosen = next((a for a in actions if a["dflt"]), None) or next(
                (a for a in actions if a["type"] != "more_time"), None
            )
            if chosen is None:
                return None
            self._click_action(chosen["id"])
            return self._did(f"{chosen['type']}: {chosen['label']}")
        except WebDriverException:  # the page changed under the click: look again
            return None

    def _did(self, what: str) -> str:
        self.log.append(what)
        return what
