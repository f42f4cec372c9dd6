"""Tables seen nearby name their host by player name, in a real browser and at the command line
(issue 22, item 7): Ann hosts a table; Pat's daemon reaches hers by address (`--peer`, on
loopback) and Pat opens `fourwinds web`. The lobby's "seen nearby" row, like `fourwinds
tables`, says "host Ann at ADDRESS"; before, both showed Ann's key fingerprint, which belongs
only where trust is decided (pairing, `fourwinds whoami`)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator

import pytest

from testkit.browser import URL, body_text, chromium, page_errors, unavailable, wait_for
from testkit.dirs import short_dir
from testkit.machines import Machine
from testkit.procs import free_port_pair
from testkit.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]


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


def _answers(machine: Machine) -> bool:
    try:
        machine.client().close()
    except ConnectionError:
        return False
    return True


def _address(machine: Machine, log: str, timeout: float = 30.0) -> str:
    found = until(
        lambda: URL.search((machine.home / log).read_text(errors="replace")),
        timeout,
        "`fourwinds web` printing its address",
        step=0.2,
    )
    return found.group(1)


def test_the_seen_tables_name_their_host_by_player_name(friends: tuple[Machine, Machine]) -> None:
    ann, pat = friends
    port = free_port_pair()
    ann.start(f"fourwinds daemon --port {port} --interface 127.0.0.1 --no-mdns", "daemon.out")
    _until(lambda: _answers(ann), 30, "Ann's daemon")
    hosted = ann.run("fourwinds host kitchen --rules mcr --practice --json")
    assert hosted.returncode == 0, hosted.stderr
    assert json.loads(hosted.stdout)["table"]
    who = ann.run("fourwinds whoami")
    assert who.returncode == 0, who.stderr
    ann_fingerprint = who.stdout.splitlines()[0].strip()
    pat.start(
        f"fourwinds daemon --port {free_port_pair()} --interface 127.0.0.1 --no-mdns "
        f"--peer 127.0.0.1:{port}",
        "daemon.out",
    )
    _until(lambda: _answers(pat), 30, "Pat's daemon")
    where = f"host Ann at 127.0.0.1:{port}"

    listed = pat.run("fourwinds tables --wait 15")
    assert listed.returncode == 0, listed.stderr
    assert "kitchen" in listed.stdout and where in listed.stdout, listed.stdout
    assert ann_fingerprint not in listed.stdout, listed.stdout

    pat.start("fourwinds web --no-browser", "web.out")
    with chromium() as driver:
        driver.get(_address(pat, "web.out"))
        wait_for(driver, lambda p: p["screen"] == "lobby", 20, "the page's lobby")
        wait_for(
            driver,
            lambda p: "kitchen" in body_text(driver),
            20,
            "Ann's table among the tables seen nearby",
        )
        text = body_text(driver)
        row = next((line for line in text.splitlines() if "kitchen" in line), "")
        assert where in row, f"the row does not name Ann: {row!r}\n{text}"
        assert ann_fingerprint not in text, text
        assert not page_errors(driver), page_errors(driver)
