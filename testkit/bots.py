"""Bot seats driven only through the local API: each reads view events and answers with one
of the legal actions the event lists (it knows no rules). Threads, each with its own client;
every loop is bounded in time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fourwinds.frontends.client.client import Client, connect

Event = dict[str, Any]


def choose(event: Event) -> dict[str, Any] | None:
    """The bot's pick as the fields of an act request: the default action if one is marked
    (ready, the timeout's answer), else the first; a "choose" action takes the first tiles."""
    legal = event.get("legal_actions") or []
    if not legal:
        return None
    action = next((a for a in legal if a.get("default")), legal[0])
    request: dict[str, Any] = {"action": action["id"]}
    if "choose" in action:
        request["tiles"] = list(action.get("tiles") or [])[: int(action["choose"])]
    return request


class BotSeat(threading.Thread):
    """One seat's bot over the local API of the daemon at ``data_dir``."""

    def __init__(
        self,
        data_dir: Path,
        table: str,
        deadline: float,
        done: Callable[[Event], bool],
        think: float = 0.0,
        pause_after: int | None = None,
    ) -> None:
        super().__init__(daemon=True)
        self.think = think  # seconds before each action (a player's pace; 0: at once)
        # pause by itself once this many actions are done: the table then waits for this
        # seat, so a test can act on it mid-hand however fast the others play
        self.pause_after = pause_after
        self.data_dir = data_dir
        self.table = table
        self.deadline = deadline
        self.done = done
        self.paused = threading.Event()
        self.stop = threading.Event()
        self.last: Event | None = None
        self.actions = 0
        self.latencies: list[float] = []
        self.error: BaseException | None = None
        self.finished = False

    def _turn(self, client: Client) -> None:
        event = client.next_event(0.2)
        if event is None:
            answer = client.request({"type": "view", "table": self.table}, timeout=3)
            event = answer.get("event") if answer.get("ok") else None
        if not event or event.get("type") != "view" or event["table"] != self.table:
            return
        self.last = event
        if self.done(event):
            self.finished = True
            return
        action = choose(event)
        if action is not None:
            if self.think:
                # sleep-ok: the bot's think time: a player's pace, the test's input
                time.sleep(self.think)
            start = time.perf_counter()
            answer = client.request({"type": "act", "table": self.table, **action}, timeout=3)
            if answer.get("ok"):
                self.actions += 1
                self.latencies.append(time.perf_counter() - start)
                if self.pause_after is not None and self.actions >= self.pause_after:
                    self.pause_after = None
                    self.paused.set()

    def run(self) -> None:
        client: Client | None = None
        try:
            while time.monotonic() < self.deadline and not self.stop.is_set():
                if self.paused.is_set():
                    if client is not None:
                        client.close()
                        client = None
                    # sleep-ok: poll interval while the bot is paused
                    time.sleep(0.05)
                    continue
                if client is None:
                    try:
                        client = connect(str(self.data_dir))
                    except ConnectionError:
                        # sleep-ok: retry interval while the daemon is not answering yet
                        time.sleep(0.1)
                        continue
                try:
                    self._turn(client)
                except TimeoutError:  # the daemon went away mid-request: reconnect
                    client.close()
                    client = None
                if self.finished:
                    return
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            if client is not None:
                client.close()


def over(event: Event) -> bool:
    view = event.get("view", {})
    phase = view.get("session", {}).get("phase", view.get("phase"))
    return phase in ("over", "halted", "match_over")
