"""A person plays a two-round tournament by keys (issue 23): `fourwinds tournament join`,
then `fourwinds play --tournament club` in a terminal, at a table of three bot entrants
(`fourwinds bot --tournament`, each on a daemon of its own) with a director's daemon.

The person's daemon opens or joins each round's table by itself; the screen takes the person
there, shows the table's name (round and table) and their seat and the hand's result. In
round 1 the person leaves that last result with Q (issue 38: that dropped them out of the
event): the standings follow at once and the wait for round 2, and round 2's table as soon as
the director starts it; round 2 is left by n, then Q on the match's end: the standings again
and the event's end.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from fourwinds.frontends.terminal.table_keys import RESULT_GUARD_S
from testkit.dirs import short_dir
from testkit.machines import Machine, one_player
from testkit.procs import DaemonProcess, request, start_all
from testkit.screen import TMUX, Person, Terminal, is_result, play_until, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

REAL = "fourwinds.daemon.table_runtimes.real_session"
HAND_TIMEOUT = 120.0


@pytest.fixture
def pat() -> Iterator[Machine]:
    with one_player("Pat") as machine:
        # a peer port of its own choosing: other tests may hold 7420 on this loopback
        with machine.config_file.open("a", encoding="utf-8") as config:
            config.write("port = 0\n")
        yield machine


@pytest.fixture
def venue() -> Iterator[list[DaemonProcess]]:
    """The director's daemon and three bot entrants' daemons, entered in "club"."""
    base = short_dir()
    daemons = [
        DaemonProcess(base / f"d{i}", name, session_module=REAL)
        for i, name in enumerate(("Director", "Ann", "Bob", "Cy"))
    ]
    bots: list[subprocess.Popen[bytes]] = []
    try:
        start_all(daemons)
        director = daemons[0].client(subscribe=False)
        request(director, type="tournament_create", name="club", rounds=2, hands=1, deck="practice")
        for d in daemons[1:]:
            request(
                d.client(subscribe=False),
                type="tournament_join",
                name="club",
                host="127.0.0.1",
                port=daemons[0].port,
            )
            with open(d.data_dir / "bot.log", "ab") as err:
                bots.append(
                    subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "fourwinds.frontends.cli",
                            "bot",
                            "--rules",
                            "mcr",
                            "--tournament",
                            "club",
                            "--data-dir",
                            str(d.data_dir),
                        ],
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=err,
                    )
                )
        yield daemons
    finally:
        for bot in bots:
            bot.kill()
            bot.wait(10)
        for d in daemons:
            d.stop()
        shutil.rmtree(base, ignore_errors=True)


def _status(pat: Machine) -> dict[str, Any]:
    client = pat.client()
    try:
        return request(client, type="tournament_status", name="club")
    finally:
        client.close()


def _hand_over(pat: Machine) -> Callable[[], bool]:
    """A test for play_until: the daemon's view says the hand is over (asked at most
    twice a second: the person's keys are what the loop is for)."""
    asked = [0.0]

    def over() -> bool:
        if time.monotonic() - asked[0] < 0.5:
            return False
        asked[0] = time.monotonic()
        return pat.view().get("phase") in ("hand_over", "match_over")

    return over


def _play_round(
    pat: Machine, term: Terminal, director: DaemonProcess, round_no: int, *, q_on_result: bool
) -> None:
    """The director starts the round; the screen opens the person's table, named for its
    round and table, at the seat the seating gave; played by keys to the match's end, left
    with Q on the last hand's result (``q_on_result``: that is leaving the finished match,
    not the event) or with n, then Q on the match's end."""
    began = time.monotonic()
    request(director.client(subscribe=False), type="tournament_start", name="club", wait=30)
    print(f"round {round_no} started after {time.monotonic() - began:.1f} s")
    term.wait_for(lambda s: bool(rack(s)), 60, f"round {round_no}'s table")
    print(f"round {round_no}'s table on the screen after {time.monotonic() - began:.1f} s")
    status = _status(pat)["round"]
    assert status["round"] == round_no and status["my_table_id"]
    screen = term.screen()
    assert f"club R{round_no} T{status['my_table']}" in screen, screen
    assert status["my_wind"] in screen, screen
    person = Person(term, "Pat")
    play_until([person], _hand_over(pat), HAND_TIMEOUT, f"the end of round {round_no}'s hand")
    term.wait_for(is_result, 20, "the hand's result on the screen")
    # sleep-ok: a rule about time: keys within RESULT_GUARD_S are not 'next'
    time.sleep(RESULT_GUARD_S + 0.2)  # a person reads the result, then says next
    if q_on_result:
        term.keys("Q")
        return
    term.keys("n")
    term.wait_for(lambda s: "The match is over" in s, 20, "the match's end on the screen")
    print(f"round {round_no}'s match over after {time.monotonic() - began:.1f} s")
    term.keys("Q")


def test_a_person_plays_a_two_round_tournament_by_keys_at_a_table_of_bot_entrants(
    pat: Machine, venue: list[DaemonProcess]
) -> None:
    director = venue[0]
    joined = pat.run(f"fourwinds tournament join club --peer 127.0.0.1:{director.port}")
    assert joined.returncode == 0, joined.stderr
    term = pat.terminal("fourwinds play --tournament club", 100, 40)
    term.wait_for(lambda s: "waiting for round 1 of 2" in s, 30, "the wait for round 1")
    _play_round(pat, term, director, 1, q_on_result=True)
    between = term.wait_for(
        lambda s: "rank  player" in s and "waiting for round 2" in s,
        30,
        "the standings and the wait for round 2",
    )
    assert all(name in between for name in ("Pat", "Ann", "Bob", "Cy")), between
    assert "(after round 1 of 2)" in between, between  # the one table's result counts
    _play_round(pat, term, director, 2, q_on_result=False)
    end = term.wait_for(lambda s: "club is over" in s, 30, "the event's end")
    assert "[exited 0]" in term.wait_for(lambda s: "[exited" in s, 10, "play's exit"), end
    rows = [
        line
        for line in end[end.rindex("rank  player") :].splitlines()[1:]
        if any(name in line for name in ("Pat", "Ann", "Bob", "Cy"))
    ]
    assert len(rows) == 4 and all(row.split()[-2] == "2" for row in rows), end  # 2 played
