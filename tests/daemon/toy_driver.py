"""Drives a table of the toy session (tests/daemon/toy_session.py) through four daemons' local
APIs: each seat plays when its view offers it. Works with any daemon handle that has
``client(subscribe=...)`` (testkit/procs.py, testkit/netns.py)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from fourwinds.frontends.client.client import Client
from testkit.procs import request


class Seat(Protocol):
    def client(self, subscribe: bool = ...) -> Client: ...


class ToyTable:
    """The four seats' clients (re-made after a daemon restarts) and the table's id."""

    def __init__(self, daemons: Sequence[Seat]) -> None:
        self.daemons = list(daemons)
        self.clients: list[Client | None] = [None] * len(daemons)
        self.table = ""

    def client(self, i: int) -> Client:
        client = self.clients[i]
        if client is None:
            client = self.clients[i] = self.daemons[i].client(subscribe=False)
        return client

    def forget(self, i: int) -> None:
        """Seat ``i``'s daemon went away: its client is closed and made anew when needed."""
        client = self.clients[i]
        if client is not None:
            client.close()
        self.clients[i] = None

    def seat_everyone(self, host_address: str, host_port: int) -> None:
        host = self.client(0)
        self.table = request(host, type="create", name="kitchen", rules="mcr")["table"]
        key = request(host, type="whoami")["public_key"]
        for i in range(1, len(self.daemons)):
            request(
                self.client(i),
                type="join",
                table=self.table,
                host=host_address,
                port=host_port,
                public_key=key,
            )

    def event(self, i: int) -> dict[str, Any]:
        answer: dict[str, Any] = request(self.client(i), type="view", table=self.table)
        event: dict[str, Any] = answer["event"]
        return event

    def plays(self, i: int) -> int:
        return int(self.event(i)["view"].get("plays", 0))

    def play_until(self, done: int, timeout: float, skip: frozenset[int] = frozenset()) -> None:
        """Every running seat plays when it may, until each has seen ``done`` plays."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seats = [i for i in range(len(self.daemons)) if i not in skip]
            events = {i: self.event(i) for i in seats}
            if all(e["view"].get("plays", 0) >= done for e in events.values()):
                return
            for i, event in events.items():
                if event["legal_actions"]:
                    self.client(i).request({"type": "act", "table": self.table, "action": "play"})
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.02)
        state = [
            (self.event(i)["view"].get("plays"), self.event(i)["offline"])
            for i in range(len(self.daemons))
            if i not in skip
        ]
        raise AssertionError(f"the table did not reach {done} plays within {timeout} s: {state}")

    def until_turn_of(self, seat: int, timeout: float) -> None:
        """Play until the toy table waits for ``seat``."""
        deadline = time.monotonic() + timeout
        while self.event(0)["view"]["waiting_for"] != [seat]:
            assert time.monotonic() < deadline, f"the turn never came to seat {seat}"
            for i in range(len(self.daemons)):
                if i != seat and self.event(i)["legal_actions"]:
                    self.client(i).request({"type": "act", "table": self.table, "action": "play"})
            # sleep-ok: pace of the bots' loop (bounded by its deadline)
            time.sleep(0.02)

    def transcripts(self) -> list[list[int]]:
        return [list(self.event(i)["view"]["transcript"]) for i in range(len(self.daemons))]

    def close(self) -> None:
        for i in range(len(self.daemons)):
            self.forget(i)
