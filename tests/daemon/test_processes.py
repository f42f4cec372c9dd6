"""Four daemons as separate processes on 127.0.0.1, bots driven through the local API.

The sessions here are the test double (tests/daemon/toy_session.py): the table session is
another helper's work; these tests exercise the daemon around any session with its interface.
The SIGSTOP pause is 3 s here (the issue's 20 s would slow the suite; the behaviour is the same).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.client.client import Client
from testkit.procs import DaemonProcess, request, start_all
from testkit.waiting import until
from tests.daemon.toy_session import PLAYS

pytestmark = pytest.mark.slow


class Table:
    def __init__(self, base: Path) -> None:
        self.daemons = [DaemonProcess(base / f"d{i}", f"bot{i}") for i in range(4)]
        self.clients: list[Client | None] = [None] * 4
        self.table = ""

    def client(self, i: int) -> Client:
        client = self.clients[i]
        if client is None:
            client = self.clients[i] = self.daemons[i].client()
        return client

    def reconnect(self, i: int) -> Client:
        old = self.clients[i]
        if old is not None:
            old.close()
        self.clients[i] = None
        return self.client(i)

    def seat_everyone(self) -> None:
        start_all(self.daemons)
        host = self.client(0)
        self.table = request(host, type="create", name="east-wind", rules="mcr")["table"]
        key = request(host, type="whoami")["public_key"]
        for i in (1, 2, 3):
            request(
                self.client(i),
                type="join",
                table=self.table,
                host="127.0.0.1",
                port=self.daemons[0].port,
                public_key=key,
            )

    def view(self, i: int) -> dict[str, Any]:
        event: dict[str, Any] = request(self.client(i), type="view", table=self.table)["event"]
        return event

    def bot_round(self, skip: frozenset[int] = frozenset()) -> None:
        """Each running bot acts on its current legal actions (the first one)."""
        for i in range(4):
            if i in skip:
                continue
            event = self.view(i)
            if event["legal_actions"]:
                self.client(i).request(
                    {
                        "type": "act",
                        "table": self.table,
                        "seq": event["seq"],
                        "action": event["legal_actions"][0]["id"],
                    }
                )

    def play_until(self, done: int, timeout: float, skip: frozenset[int] = frozenset()) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.view(i)["view"].get("plays", 0) >= done for i in range(4) if i not in skip):
                return
            self.bot_round(skip)
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.01)
        state = [
            (self.view(i)["view"].get("plays"), self.view(i)["offline"])
            for i in range(4)
            if i not in skip
        ]
        raise AssertionError(f"the table did not reach {done} plays within {timeout} s: {state}")

    def close(self) -> None:
        for client in self.clients:
            if client is not None:
                client.close()
        for d in self.daemons:
            d.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    try:
        t.seat_everyone()
        yield t
    finally:
        t.close()


def test_four_daemons_play_a_full_hand_with_bots(table: Table) -> None:
    table.play_until(PLAYS, timeout=30)
    transcripts = [table.view(i)["view"]["transcript"] for i in range(4)]
    assert transcripts[0] == [n % 4 for n in range(PLAYS)]
    assert all(t == transcripts[0] for t in transcripts)
    status = request(table.client(0), type="status")
    assert status["tables"][0]["seated"] == 4


def test_kill9_mid_hand_then_restart_completes_with_identical_transcripts(table: Table) -> None:
    table.play_until(PLAYS // 3, timeout=20)
    victim = table.daemons[2]
    victim.kill9()
    table.clients[2] = None
    table.play_until(PLAYS // 3 + 2, timeout=5, skip=frozenset({2}))
    victim.start()
    table.reconnect(2)
    assert table.view(2)["view"]["seat"] == 2  # resumed the table from disk
    table.play_until(PLAYS, timeout=30)
    transcripts = [table.view(i)["view"]["transcript"] for i in range(4)]
    assert all(t == transcripts[0] for t in transcripts)
    assert len(transcripts[0]) == PLAYS


def test_sigstop_table_waits_shows_who_and_resumes(table: Table) -> None:
    table.play_until(4, timeout=20)
    frozen = table.daemons[1]
    frozen_fp = request(table.client(1), type="whoami")["fingerprint"]
    deadline = time.monotonic() + 10
    while table.view(1)["view"]["waiting_for"] != [1]:
        assert time.monotonic() < deadline, "the turn never came to seat 1"
        table.bot_round(skip=frozenset({1}))
        # sleep-ok: pace of the bots' loop (bounded by its deadline)
        time.sleep(0.01)
    frozen.signal(signal.SIGSTOP)
    try:

        def seen_offline() -> dict[str, Any] | None:  # missed heartbeats mark it offline
            view = table.view(0)
            return view if frozen_fp in [p["fingerprint"] for p in view["offline"]] else None

        before = until(seen_offline, 20, "the stopped daemon shown offline")
        assert before["view"]["waiting_for"] == [1]  # the table waits for seat 1
        table.bot_round(skip=frozenset({1}))  # nobody else can move
        assert table.view(0)["view"]["plays"] == before["view"]["plays"]
    finally:
        frozen.signal(signal.SIGCONT)
    until(
        lambda: frozen_fp not in [p["fingerprint"] for p in table.view(0)["offline"]],
        5,
        "the resumed daemon coming back",
    )
    table.play_until(PLAYS, timeout=30)
    transcripts = [table.view(i)["view"]["transcript"] for i in range(4)]
    assert all(t == transcripts[0] for t in transcripts)
