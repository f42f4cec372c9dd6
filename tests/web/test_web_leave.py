"""The lobby's Leave button in a real browser (issue 22, item 8): Pat has joined Ann's table
(its match not started), opens it in `fourwinds web`, clicks Leave, and is back in the lobby
at no table, while Ann's daemon shows the place free again. Before, the page offered Leave
only after the match's end."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from testkit.browser import URL, body_text, chromium, click_id, page_errors, unavailable, wait_for
from testkit.dirs import short_dir
from testkit.machines import Machine
from testkit.procs import free_port_pair
from testkit.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]


ESCAPE = "\ue00c"  # WebDriver's Escape key (selenium's Keys.ESCAPE)


@pytest.fixture
def friends() -> Iterator[tuple[Machine, Machine]]:
    base = short_dir()
    ann, pat = Machine("Ann", base / "Ann"), Machine("Pat", base / "Pat")
    try:
        yield ann, pat
    finally:
        pat.stop()
        ann.stop()
        shutil.rmtree(base, ignore_errors=True)


def _until(test: Callable[[], bool], timeout: float, what: str) -> None:
    until(test, timeout, what, step=0.2)


def _address(machine: Machine, log: str, timeout: float = 30.0) -> str:
    found = until(
        lambda: URL.search((machine.home / log).read_text(errors="replace")),
        timeout,
        "`fourwinds web` printing its address",
        step=0.2,
    )
    return found.group(1)


def _seated(machine: Machine) -> int:
    try:
        client = machine.client()
    except ConnectionError:
        return -1
    try:
        tables = client.request({"type": "tables"}, timeout=5).get("tables") or []
        return int(tables[0]["seated"]) if tables else 0
    finally:
        client.close()


def test_the_lobbys_leave_button_frees_the_place(
    friends: tuple[Machine, Machine], tmp_path: Path
) -> None:
    ann, pat = friends
    port = free_port_pair()
    ann.start(f"fourwinds daemon --port {port} --interface 127.0.0.1 --no-mdns", "daemon.out")
    pat.start(
        f"fourwinds daemon --port {free_port_pair()} --interface 127.0.0.1 --no-mdns", "daemon.out"
    )
    _until(lambda: _seated(ann) == 0 and _seated(pat) == 0, 30, "the two daemons")
    hosted = ann.run("fourwinds host kitchen --rules mcr --practice --json")
    assert hosted.returncode == 0, hosted.stderr
    table = json.loads(hosted.stdout)["table"]
    client = ann.client()
    try:
        key = client.request({"type": "whoami"}, timeout=5)["public_key"]
    finally:
        client.close()
    joined = pat.run(f"fourwinds join {table} --host 127.0.0.1 --port {port} --key {key}")
    assert joined.returncode == 0, joined.stderr
    _until(lambda: _seated(ann) == 2, 15, "Pat seated at Ann's table")
    pat.start("fourwinds web --no-browser", "web.out")
    with chromium() as driver:
        driver.get(_address(pat, "web.out"))
        wait_for(driver, lambda p: p["screen"] == "waiting", 20, "the table's lobby")
        wait_for(driver, lambda p: "Ann" in body_text(driver), 10, "Ann in the lobby")
        driver.save_screenshot(str(tmp_path / "web-lobby-leave.png"))
        # the page's help is the terminal's key table (frontends/terminal/table_help.py)
        driver.find_element("css selector", "body").send_keys("?")
        wait_for(
            driver,
            lambda p: "leave the table for good" in body_text(driver),
            10,
            "the lobby's L in the page's help",
        )
        assert "back to the lobby (your daemon keeps your seat)" in body_text(driver)
        driver.find_element("css selector", "body").send_keys(ESCAPE)
        wait_for(
            driver,
            lambda p: "leave the table for good" not in body_text(driver),
            10,
            "the help closed",
        )
        click_id(driver, "lobby-leave-button")
        wait_for(driver, lambda p: p["screen"] == "lobby", 15, "the lobby after Leave")
        wait_for(
            driver,
            lambda p: "You sit at no table." in body_text(driver),
            10,
            "no table of ours listed",
        )
        assert "you left the table" in body_text(driver)
        _until(lambda: _seated(ann) == 1, 10, "Pat's place free again at Ann's")
        assert _seated(pat) == 0
        assert not page_errors(driver), page_errors(driver)
