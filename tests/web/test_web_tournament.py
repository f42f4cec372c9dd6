"""The room's screen for a tournament in a real browser (issue 23): Pat directs an event
that three players entered from daemons of their own; `fourwinds web` lists it in the lobby,
and its screen (the one a venue puts on a projector) shows the round's clock (a timed event), its
tables by the players' names, then each table's scores and the standings as the results come
in."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from testkit.browser import body_text, chromium, click_id, page_errors, unavailable, wait_for
from testkit.machines import Machine
from testkit.procs import DaemonProcess, request, start_all
from tests.web.test_web_lobby import _address

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(unavailable() is not None, reason=str(unavailable())),
]

REAL = "fourwinds.daemon.table_runtimes.real_session"


@pytest.fixture
def players(tmp_path: Path) -> Iterator[list[DaemonProcess]]:
    daemons = [
        DaemonProcess(tmp_path / name, name, session_module=REAL) for name in ("Ann", "Bob", "Cy")
    ]
    start_all(daemons)
    try:
        yield daemons
    finally:
        for d in daemons:
            d.stop()


def test_the_tournament_screen_shows_the_round_and_the_standings(
    pat: Machine, players: list[DaemonProcess], tmp_path: Path
) -> None:
    pat.start("fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns", "daemon.out")
    made = pat.run(
        "fourwinds tournament create 'club night' --rounds 2 --minutes 90 --json", timeout=60
    )
    assert made.returncode == 0, made.stderr
    port = json.loads(made.stdout)["port"]
    clients = [d.client(subscribe=False) for d in players]
    try:
        for c in clients:
            request(c, type="tournament_join", name="club night", host="127.0.0.1", port=port)
        started = pat.run("fourwinds tournament start 'club night' --json", timeout=60)
        assert started.returncode == 0, started.stderr
        pat.start("fourwinds web --no-browser", "web.out")
        with chromium() as driver:
            driver.get(_address(pat, "web.out"))
            wait_for(driver, lambda p: p["screen"] == "lobby", 15, "the lobby")
            wait_for(
                driver,
                lambda p: "club night" in driver.find_element("id", "events").text,
                10,
                "the event in the lobby",
            )
            driver.find_element("css selector", '#events button[data-event="club night"]').click()
            wait_for(
                driver,
                lambda p: p["screen"] == "tournament" and "Table 1: East" in body_text(driver),
                10,
                "the round's table",
            )
            text = body_text(driver)
            assert "Round 1" in text and "You direct this event." in text
            assert "round 1 of 2 \u00b7 90 minutes a round" in text
            # the round clock, in the daemon's words (the director's daemon keeps it)
            clock = driver.find_element("css selector", "#event-round .event-clock").text
            assert re.fullmatch(
                r"Clock, round 1: about 89:[0-5]\d left of 90 minutes "
                r"\(the director's clock calls time\)",
                clock,
            ), clock
            for name in ("Ann", "Bob", "Cy"):
                assert name in driver.find_element("id", "event-round").text
            assert "bot" in driver.find_element("id", "event-round").text  # 3 players
            state = driver.find_element("id", "event-standings-state")
            assert state.text == "provisional: round 1, 0 of 1 table in", state.text
            for c in clients:
                request(
                    c,
                    type="tournament_result",
                    name="club night",
                    table=1,
                    scores=[60, 0, -20, -40],
                    wait=0,
                )
            wait_for(
                driver,
                lambda p: "(playing)" not in driver.find_element("id", "event-round").text,
                15,
                "the table's result",
            )
            rows = [r.text for r in driver.find_elements("css selector", "tr.standing")]
            assert len(rows) == 3 and rows[0].startswith("1 "), rows
            wait_for(
                driver,
                lambda p: state.text == "after round 1 of 2",
                10,
                "the standings labelled after round 1",
            )
            driver.save_screenshot(str(tmp_path / "web-tournament.png"))
            assert page_errors(driver) == []
    finally:
        for c in clients:
            c.close()


def test_the_page_takes_a_player_to_their_table_and_back_to_the_event(
    pat: Machine, players: list[DaemonProcess], tmp_path: Path
) -> None:
    """Pat entered an event that Ann directs, with Bob and Cy (the table's fourth seat a bot
    seat, played by Ann's daemon): Pat waits on the event's screen; when Ann starts the round
    the page takes Pat to the table Pat's daemon joined (the daemon says which:
    `my_table_open`), Q goes back to the event's screen, and Go to my table goes there
    again."""
    director = players[0]  # Ann directs; Bob and Cy enter, as Pat does
    pat.start("fourwinds daemon --port 0 --interface 127.0.0.1 --no-mdns", "daemon.out")
    clients = [d.client(subscribe=False) for d in players]
    try:
        request(
            clients[0],
            type="tournament_create",
            name="club night",
            rounds=1,
            hands=1,
            deck="practice",
            fill="bots",
        )
        for c in clients[1:]:
            request(
                c, type="tournament_join", name="club night", host="127.0.0.1", port=director.port
            )
        entered = pat.run(
            f"fourwinds tournament join 'club night' --peer 127.0.0.1:{director.port}", timeout=60
        )
        assert entered.returncode == 0, entered.stderr
        pat.start("fourwinds web --no-browser", "web.out")
        with chromium() as driver:
            driver.get(_address(pat, "web.out"))
            wait_for(
                driver,
                lambda p: "club night" in driver.find_element("id", "events").text,
                15,
                "the event in the lobby",
            )
            driver.find_element("css selector", '#events button[data-event="club night"]').click()
            wait_for(driver, lambda p: p["screen"] == "tournament", 10, "the event's screen")
            request(clients[0], type="tournament_start", name="club night", wait=30)
            wait_for(
                driver,
                lambda p: p["screen"] == "table" and bool(p["rack"]),
                60,
                "our table of round 1, taken there by the page",
            )
            shown = str(driver.execute_script("return location.hash")).removeprefix("#table=")
            status = json.loads(
                pat.run("fourwinds tournament status 'club night' --json", timeout=30).stdout
            )
            assert shown and status["round"]["my_table_id"].startswith(shown), (shown, status)
            assert status["my_table_open"] == status["round"]["my_table_id"]
            driver.find_element("css selector", "body").send_keys("Q")
            wait_for(
                driver,
                lambda p: p["screen"] == "tournament" and "Go to my table" in body_text(driver),
                10,
                "the event's screen after Q, offering the table",
            )
            assert "Round 1: you are" in body_text(driver)
            click_id(driver, "event-go-table")
            wait_for(
                driver, lambda p: p["screen"] == "table" and bool(p["rack"]), 15, "the table again"
            )
            assert page_errors(driver) == []
    finally:
        for c in clients:
            c.close()
