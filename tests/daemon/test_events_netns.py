"""A tournament's record over machines (issue 23): a director and sixteen entrants, each a
daemon in a network namespace of its own, on link-local addresses only.

The players enter by the director's address, three rounds are seeded by every entrant and
seated, each round's tables are opened, played by a bot entrant at every seat and scored by
the seats' daemons, and the director's daemon is killed with SIGKILL while round 1's tables
play and started again on the same data folder: nothing is lost, every daemon ends with the
same record and the same standings, and the export verifies to them. Fifteen entrants with
``--fill bots`` play a round on the fair deck whose bot seat the director's daemon plays.
Where namespaces cannot be made, the test is skipped with the reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.protocol.tournament.export import check_export
from testkit import waiting
from testkit.dirs import short_dir
from testkit.netns import Lan, LanDaemon, Unavailable, start_all
from testkit.procs import request

pytestmark = [pytest.mark.netns, pytest.mark.slow]

REAL = "fourwinds.daemon.table_runtimes.real_session"
ENTRANTS = 16
ROUNDS = 3
ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def lan_of(entrants: int, subnet: int) -> Iterator[list[LanDaemon]]:
    """A director and ``entrants`` players, each a daemon in a namespace of its own (skipped
    with the reason where namespaces cannot be made)."""
    base = short_dir()
    try:
        try:
            lan = Lan(1 + entrants, subnet)
        except Unavailable as why:
            pytest.skip(str(why))
        daemons = [
            LanDaemon(
                lan, i, base / f"d{i}", "director" if i == 0 else f"player{i}", session_module=REAL
            )
            for i in range(1 + entrants)
        ]
        try:
            start_all(daemons)
            yield daemons
        finally:
            for d in daemons:
                d.stop()
            lan.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def venue() -> Iterator[list[LanDaemon]]:
    with lan_of(ENTRANTS, 93) as daemons:
        yield daemons


@pytest.fixture
def venue15() -> Iterator[list[LanDaemon]]:
    with lan_of(15, 99) as daemons:
        yield daemons


def ask(d: LanDaemon, **message: Any) -> dict[str, Any]:
    client = d.client()
    try:
        return request(client, **message)
    finally:
        client.close()


def start(director: LanDaemon) -> dict[str, Any]:
    """`tournament start`, waiting up to 30 s for the round's seed (the client's own wait
    is as long: on a loaded machine fifteen entrants' seed takes over 10 s)."""
    client = director.client()
    try:
        answer = client.request(
            {"type": "tournament_start", "name": "club", "wait": 30}, timeout=40
        )
    finally:
        client.close()
    assert answer.get("ok"), answer
    return answer


def until(
    what: str, test: Any, timeout: float = 20.0, shown: Callable[[], object] | None = None
) -> None:
    """Wait for ``test``; else fail naming ``what`` (and what ``shown`` says then)."""
    waiting.until(test, timeout, what, step=0.2, shown=shown)


def records(d: LanDaemon) -> int:
    return int(ask(d, type="tournament_status", name="club")["records"])


def bot_entrant(d: LanDaemon) -> subprocess.Popen[bytes]:
    """`fourwinds bot --tournament club` at ``d``: plays its table of every round."""
    with open(d.data_dir / "bot.log", "ab") as err:
        return subprocess.Popen(
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
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )


def stop_bots(bots: list[subprocess.Popen[bytes]]) -> None:
    """End the bot entrants still running (a failed test's)."""
    for bot in bots:
        if bot.poll() is None:
            bot.kill()
            bot.wait(10)


def all_hold_the_record(director: LanDaemon, players: list[LanDaemon]) -> None:
    """Wait until every player's daemon holds as many records as the director's."""
    final = records(director)
    until(
        "every daemon holding the whole record", lambda: all(records(d) == final for d in players)
    )


def test_a_director_and_sixteen_entrants_on_their_own_machines_play_three_rounds(
    venue: list[LanDaemon],
) -> None:
    """Each entrant's table is opened, played (a bot entrant at every seat) and scored by
    the seats' daemons; the director is killed with -9 as round 1's tables open and play,
    and started again: the results sent meanwhile reach it, and every round completes."""
    director, *players = venue
    ask(director, type="tournament_create", name="club", rounds=ROUNDS, hands=1, deck="practice")
    for d in players:
        entered = ask(d, type="tournament_join", name="club", host=director.address, port=7420)
        assert entered["me"] is not None
    bots = [bot_entrant(d) for d in players]
    try:
        for round_no in range(1, ROUNDS + 1):
            started = ask(director, type="tournament_start", name="club", wait=30)
            assert started["rounds_started"] == round_no, started
            tables = started["round"]["tables"]
            assert len(tables) == ENTRANTS // 4
            if round_no == 1:
                director.kill9()  # mid-round, as the tables open and play
                director.spawn()
                director.wait_ready()
            wanted = len(tables) * round_no
            until(
                f"round {round_no}'s results at the director",
                lambda n=wanted: (
                    ask(director, type="tournament_status", name="club")["results"] == n
                ),
                120,
            )
        for bot in bots:
            assert bot.wait(30) == 0  # each played its table of every round
    finally:
        stop_bots(bots)
    all_hold_the_record(director, players)
    standings = [ask(d, type="tournament_standings", name="club")["standings"] for d in venue]
    assert all(s == standings[0] for s in standings) and len(standings[0]) == ENTRANTS
    assert {s["played"] for s in standings[0]} == {ROUNDS}
    data = ask(players[5], type="tournament_export", name="club")["data"]
    verdict = check_export(data)
    assert verdict.ok and verdict.results == ROUNDS * len(tables)
    assert [(r.rank, r.player, str(r.points), r.score) for r in verdict.standings] == [
        (s["rank"], s["player"], s["points"], s["score"]) for s in standings[0]
    ]


def test_fifteen_entrants_with_bot_seats_play_every_table(venue15: list[LanDaemon]) -> None:
    """``--fill bots`` with fifteen entrants, on the fair deck (the issue's one round on it
    over machines): four tables, one of them with a bot seat, which the director's daemon
    takes and plays; every table completes, every daemon computes the same standings (the
    bot has no row), equal to verify's recomputation of the export."""
    director, *players = venue15
    ask(
        director, type="tournament_create", name="club", rounds=1, hands=1, deck="fair", fill="bots"
    )
    for d in players:
        assert (
            ask(d, type="tournament_join", name="club", host=director.address, port=7420)["me"]
            is not None
        )
    bots = [bot_entrant(d) for d in players]
    try:
        started = start(director)
        tables = started["round"]["tables"]
        assert len(tables) == 4 and sum(seat is None for t in tables for seat in t) == 1
        until(
            "the round's four results at the director",
            lambda: ask(director, type="tournament_status", name="club")["results"] == 4,
            60,
            shown=lambda: ask(director, type="tournament_status", name="club"),
        )
        for bot in bots:
            assert bot.wait(30) == 0
    finally:
        stop_bots(bots)
    all_hold_the_record(director, players)
    standings = [ask(d, type="tournament_standings", name="club")["standings"] for d in venue15]
    assert all(s == standings[0] for s in standings) and len(standings[0]) == 15
    verdict = check_export(ask(players[3], type="tournament_export", name="club")["data"])
    assert verdict.ok and verdict.results == 4
    assert [(r.rank, r.player, str(r.points), r.score) for r in verdict.standings] == [
        (s["rank"], s["player"], s["points"], s["score"]) for s in standings[0]
    ]


def test_an_event_is_announced_once_and_players_enter_it_by_name() -> None:
    """With mDNS, as at a venue whose network lets it through: the director's event is one
    announcement, listed by `tournament list` at the players' daemons, entered by name
    alone; once its last round has started it is no longer announced."""
    base = short_dir()
    try:
        try:
            lan = Lan(4, 94)
        except Unavailable as why:
            pytest.skip(str(why))
        daemons = [
            LanDaemon(lan, i, base / f"d{i}", name, session_module=REAL, mdns=True)
            for i, name in enumerate(("director", "ann", "bob", "cy"))
        ]
        try:
            start_all(daemons)
            director, ann, bob, cy = daemons  # cy only watches the announcements
            ask(director, type="tournament_create", name="club", rounds=1)
            for d in (ann, bob):
                until(
                    "the event announced",
                    lambda d=d: (
                        [e["name"] for e in ask(d, type="tournament_list")["seen"]] == ["club"]
                    ),
                )
                assert ask(d, type="tournament_join", name="club")["me"] is not None
            listed = ask(ann, type="tournament_list")
            assert listed["seen"] == [] and [e["name"] for e in listed["events"]] == ["club"]
            until(
                "the event announced to cy",
                lambda: [e["name"] for e in ask(cy, type="tournament_list")["seen"]] == ["club"],
            )
            ask(director, type="tournament_start", name="club")
            until(
                "the announcement withdrawn",
                lambda: ask(cy, type="tournament_list")["seen"] == [],
                30,
            )
        finally:
            for d in daemons:
                d.stop()
            lan.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)
