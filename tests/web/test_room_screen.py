"""The room screen in a real browser at 1920x1080 (issue 38: what a club's director puts on
the wall). Pat directs a timed event that three players entered from daemons of their own;
`fourwinds tournament screen` serves the room screen and prints its address, which opens
it: the round's clock large, counting down; the seating by name (alphabetical, table and
wind) and by table; the standings of every entrant, labelled provisional until the round's
table ends; no control of any kind. As the results come in it follows by itself, and a
list longer than its panel pages by itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from testkit.browser import chromium, page_errors, unavailable
from testkit.machines import Machine
from testkit.procs import DaemonProcess, enter_event, request, start_all
from testkit.waiting import until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

REAL = "fourwinds.daemon.table_runtimes.real_session"
ROOM_URL = re.compile(r"(http://127\.0\.0\.1:\d+/\?token=[\w-]+&room=\S+)")
CONTROLS = "return document.querySelectorAll('button, input, select, textarea, a').length;"


@pytest.fixture
def players(tmp_path: Path) -> Iterator[list[DaemonProcess]]:
    daemons = [
        DaemonProcess(tmp_path / name, name, session_module=REAL) for name in ("Cy", "Ann", "Bob")
    ]
    start_all(daemons)
    try:
        yield daemons
    finally:
        for d in daemons:
            d.stop()


def _text(driver: object, element: str) -> str:
    return str(driver.find_element("id", element).text)  # type: ignore[attr-defined]


def test_the_room_screen_shows_clock_seating_and_standings_and_follows_the_event(
    pat: Machine, players: list[DaemonProcess], tmp_path: Path
) -> None:
    pat.start("fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns", "daemon.out")
    made = pat.run(
        "fourwinds tournament create 'club night' --rounds 2 --minutes 90 --json", timeout=60
    )
    assert made.returncode == 0, made.stderr
    port = json.loads(made.stdout)["port"]
    enter_event(players, "club night", port)
    clients = [d.client(subscribe=False) for d in players]
    try:
        started = pat.run("fourwinds tournament start 'club night' --json", timeout=60)
        assert started.returncode == 0, started.stderr
        pat.start("fourwinds tournament screen 'club night' --no-browser", "screen.out")
        printed = until(
            lambda: ROOM_URL.search((pat.home / "screen.out").read_text(errors="replace")),
            30,
            "the room screen's address",
        )
        with chromium(1920, 1080) as driver:
            driver.get(printed.group(1))
            until(
                lambda: "table 1" in _text(driver, "room-seating"),
                15,
                "the seating by name",
            )
            assert _text(driver, "room-event") == "club night"
            assert re.fullmatch(r"(89|90):[0-5]\d", _text(driver, "room-clock")), _text(
                driver, "room-clock"
            )
            assert _text(driver, "room-round") == "round 1 of 2"
            names = [line.split()[0] for line in _text(driver, "room-seating").splitlines() if line]
            assert names == ["Ann", "Bob", "Cy"], names
            tables = _text(driver, "room-tables")
            assert tables.startswith("1") and "(bot)" in tables
            assert all(n in tables for n in ("Ann", "Bob", "Cy"))
            assert _text(driver, "room-standings-state") == "provisional: round 1, 0 of 1 table in"
            assert len(_text(driver, "room-standings").splitlines()) == 3
            assert driver.execute_script(CONTROLS) == 0  # a room screen has no controls
            driver.save_screenshot(str(tmp_path / "room-screen.png"))
            for c in clients:
                request(
                    c,
                    type="tournament_result",
                    name="club night",
                    table=1,
                    scores=[60, 0, -20, -40],
                    wait=0,
                )
            until(
                lambda: _text(driver, "room-standings-state") == "after round 1 of 2",
                20,
                "the standings after round 1, by itself",
            )
            assert _text(driver, "room-round") == (
                "round 1 of 2 is over; round 2: when the director starts it"
            )
            assert "60" in _text(driver, "room-tables")
            # rows too tall for all to fit: the list pages by itself
            driver.execute_script(  # through the CSSOM: the page's CSP allows no inline style
                "const sheet = document.styleSheets[0];"
                "sheet.insertRule('.room-panel td { padding: 14vh 1vw; }', sheet.cssRules.length);"
            )
            until(
                lambda: _text(driver, "room-by-name-page").startswith("page "),
                20,
                "the seating paging by itself",
            )
            first = _text(driver, "room-seating")
            until(
                lambda: _text(driver, "room-seating") != first,
                20,
                "the next page of the seating",
            )
            assert page_errors(driver) == []
    finally:
        for c in clients:
            c.close()
