"""The daemon: four daemon processes on 127.0.0.1 playing real hands (table session, MCR and
American), each seat a bot driven through the local API by one driver loop.

Every figure is measured twice in the same run, on fresh daemons each time: with the fair
(masked) deck, the default at a table with guests and so the figure players get, and with the
practice deck (open wall, no mental poker). Each figure gives one line per deck; a line's
``deck`` is the deck the daemons actually played (every seat's view says whether its table is
a practice table; the bench stops if any view disagrees with the deck it asked for). The masked
line carries ``practice`` (the practice line's value) and ``ratio_to_practice``.

* ``daemon_hand_start``: from the fourth "ready" until all four daemons are in the hand's play
  phase (commit-reveal dice, seating; with the masked deck the wall's shuffle and lock passes
  too): ms, median over the MCR tables opened. Beside it the in-memory fair deck figure
  (benchmarks/bench_deck.py's shuffle, lock and deal of four seats, American wall) and the
  ratio. Target <= 500 ms (issue 6).
* ``daemon_action_latency``: a discard, from the act request until all three other daemons
  have applied it (each view event says when its daemon applied the state it shows, on the
  monotonic clock every process of the machine shares): p50 and p99 in ms, MCR tables. Target
  p50 <= 5 ms (issue 6). Beside it ``view_p50_ms`` and ``view_p99_ms``: the same until the
  driver holds the three peers' views (the frontends' side; no target of its own).
* ``daemon_full_hand``: from the fourth "ready" to the end of the hand: s, median of the MCR
  tables. Target <= 3 s (issue 6). ``daemon_full_hand_american``: the same for one American
  hand (house card, Charleston included). The hand ends when every seat's view shows the match
  over or offers "next" (the table then waits for its players; that wait is not hand time).
* ``daemon_rss``: the largest resident set (VmHWM) of the four daemons after the hands: MB.
  Target <= 80 MB (issue 6).
Issue 6 names its targets for the daemon's figures without naming a deck (its hand start is
"dice, shuffle, lock, deal", which only the masked deck does), so both decks' lines carry them.
Every comparison is with a figure measured in the same run (the practice deck, the in-memory
deck); the figures of the daemon before the daemon-perf work are data in docs/DAEMON.md
("Before the daemon-perf work"), not re-measured. FOURWINDS_BENCH_ROUNDS rounds (default 2),
the decks' order reversed every other round; each line gives the median over the rounds and
every round's value. The driver polls all four clients at once. Quick (``scripts/bench
--quick``): one round, one MCR table and the American table a deck, the in-memory deck once.
* ``daemon_fuzz``: 100,000 fuzzed frames to a daemon's peer socket and 100,000 to its local
  API (testkit/fuzz.py, which the tests run with 2,000): every one refused with a reason,
  nothing crashed, no state changed; the target is judged on those counts. Quick: 200 each.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import zmq

from benchmarks.timing import result
from fourwinds.daemon.table_runtimes.session_port import load_session_module
from fourwinds.frontends.client.client import Client
from testkit import fuzz
from testkit.procs import DaemonProcess, request, start_all

REAL = "fourwinds.daemon.table_runtimes.real_session"
TABLES = 3
ROUNDS = int(os.environ.get("FOURWINDS_BENCH_ROUNDS", "2"))
HAND_START_TARGET_MS = 500.0
LATENCY_TARGET_MS = 5.0
HAND_TARGET_S = 3.0
RSS_TARGET_MB = 80.0
FUZZ_FRAMES = 100_000
QUICK_FUZZ_FRAMES = 200
DECKS = ("masked", "practice")  # the table option's values; the masked deck first
NEXT_WINDOW_S = 0.5  # the table's wait for "next" at a hand's end (the driver answers at once)


class Driver:
    """Four clients, one per daemon; acts for every seat from the events it receives."""

    def __init__(self, daemons: list[DaemonProcess]) -> None:
        self.daemons = daemons
        self.clients: list[Client] = [d.client() for d in daemons]
        self.views: list[dict[str, Any]] = [{} for _ in daemons]
        self.latencies: list[float] = []  # until the three peers applied it
        self.view_latencies: list[float] = []  # until their frontends had the view
        self.ended: list[float | None] = [None] * len(daemons)  # see hand_ended

    def begin_hand(self) -> None:
        """Forget the previous table's hand ends."""
        self.ended = [None] * len(self.daemons)

    def drain(self, i: int, table: str, wait: float = 0.0) -> bool:
        """Take the events queued for client ``i``, keeping the newest view (its
        ``steps_applied`` says when each recent step was applied, so skipping older views
        loses no timing)."""
        got = False
        for _ in range(10_000):
            event = self.clients[i].next_event(wait if not got else 0.0)
            if event is None:
                return got
            if event.get("type") == "view" and event.get("table") == table:
                self.views[i] = event
                got = True
                if self.ended[i] is None and self.hand_ended(i):
                    self.ended[i] = time.perf_counter()
        return got

    def hand_ended(self, i: int) -> bool:
        """Seat ``i``'s view shows the match over, or offers "next": from then on the table
        waits for its players, which is not the hand's time (noted when the view arrives)."""
        if self.phase(i) in ("over", "halted"):
            return True
        return any(a.get("type") == "next" for a in self.views[i].get("legal_actions") or [])

    def hand_end(self) -> float:
        """When the last seat's view showed the hand ended (perf_counter)."""
        if any(t is None for t in self.ended):
            raise RuntimeError("a seat never saw its hand end")
        return max(t for t in self.ended if t is not None)

    def deck(self, i: int) -> str:
        """The deck seat ``i``'s table plays, as its view says (never what we asked for):
        the table view's ``practice`` flag."""
        practice = self.views[i].get("view", {}).get("practice")
        if isinstance(practice, bool):
            return "practice" if practice else "masked"
        raise RuntimeError(f"seat {i}'s view does not say which deck its table plays")

    def phase(self, i: int) -> str:
        """The session's phase (lobby, play, over...; the view's own phase is the game's)."""
        view = self.views[i].get("view", {})
        return str(view.get("session", {}).get("phase", view.get("phase", "")))

    def step(self, i: int) -> int:
        return int(self.views[i].get("view", {}).get("step", -1))

    def play(self, table: str, until: Callable[[], bool], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        poller = zmq.Poller()
        for client in self.clients:
            poller.register(client.socket, zmq.POLLIN)
        while not until():
            if time.monotonic() > deadline:
                raise RuntimeError(f"no progress: {[self.phase(i) for i in range(4)]}")
            acted = False
            for i in range(4):
                self.drain(i, table)
                legal = self.views[i].get("legal_actions") or []
                if not legal:
                    continue
                if not self.act(i, table, next((a for a in legal if a.get("default")), legal[0])):
                    continue
                acted = True
                self.views[i] = {**self.views[i], "legal_actions": []}
            if not acted and not any(c.pending() for c in self.clients):
                poller.poll(20)  # all four at once: an event for any seat wakes us

    def act(self, i: int, table: str, action: dict[str, Any]) -> bool:
        """Seat ``i`` takes ``action`` through the local API, a discard timed until the three
        peers have it (``_await_peers``); False when the daemon refused it."""
        # ``expected``: a view the table already moved past (a second copy of a call window
        # we passed in) is refused, rather than its action id being taken as whatever that
        # id offers now (a pass read as a discard)
        request = {"type": "act", "table": table, "action": action["id"], "expected": action}
        if "choose" in action:
            request["tiles"] = list(action.get("tiles") or [])[: int(action["choose"])]
        before = self.step(i)
        start = time.perf_counter()
        started = time.monotonic()  # the clock the daemons' applied_at reads
        if not self.clients[i].request(request).get("ok"):
            return False
        if action["type"] == "discard":
            self._await_peers(i, table, before, start, started)
        return True

    def _await_peers(
        self, actor: int, table: str, before: int, start: float, started: float
    ) -> None:
        """Block (no spinning: this machine has two cores) until the three peers' view
        events show a later step than ``before``. Two figures: when the last peer *applied*
        the discard (its view's ``applied_at``, the daemon's monotonic clock, which every
        process on this machine shares) and when the last view reached the driver."""
        deadline = time.monotonic() + 5
        waiting = [p for p in range(4) if p != actor and self.step(p) <= before]
        applied: list[float] = []
        poller = zmq.Poller()
        for p in waiting:
            poller.register(self.clients[p].socket, zmq.POLLIN)
        while waiting and time.monotonic() < deadline:
            if not any(self.clients[p].pending() for p in waiting):
                poller.poll(50)
            for p in list(waiting):
                self.drain(p, table)
                if self.step(p) > before:
                    waiting.remove(p)
                    poller.unregister(self.clients[p].socket)
                    applied.append(self._applied(p, before))
        if not waiting and applied:  # (none to wait for: the driver saw the actor's view late)
            self.view_latencies.append(time.perf_counter() - start)
            if all(applied):  # (a view that does not say when it was applied: not counted)
                self.latencies.append(max(applied) - started)

    def _applied(self, p: int, before: int) -> float:
        """When peer ``p``'s daemon first applied a step after ``before``: from the view's
        ``steps_applied`` (exact even when one view shows several steps), else its
        ``applied_at`` (a view without it; can only be later); 0.0 when it says neither."""
        view = self.views[p]
        later = [float(t) for n, t in view.get("steps_applied") or [] if int(n) > before]
        return min(later) if later else float(view.get("applied_at", 0.0))

    def close(self) -> None:
        for client in self.clients:
            client.close()


def _open_table(daemons: list[DaemonProcess], driver: Driver, n: int, rules: str, deck: str) -> str:
    """A one-hand table on ``deck``, the four daemons seated."""
    host = driver.clients[0]
    options: dict[str, object] = {
        "hands": 1,
        "call_window": 1.0,
        "deck": deck,
        "next_window": NEXT_WINDOW_S,
    }
    made = host.request({"type": "create", "name": f"bench{n}", "rules": rules, "options": options})
    if not made.get("ok"):
        raise RuntimeError(f"create refused: {made.get('error')}")
    key = request(host, type="whoami")["public_key"]
    for i in (1, 2, 3):
        request(
            driver.clients[i],
            type="join",
            table=made["table"],
            host="127.0.0.1",
            port=daemons[0].port,
            public_key=key,
        )
    return str(made["table"])


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _deck_in_memory_ms(hands: int) -> float:
    from benchmarks import bench_deck

    bench_deck._one_hand(-1)
    return statistics.median(bench_deck._one_hand(r)[0] for r in range(hands)) * 1000


@dataclass(frozen=True)
class Run:
    """One deck's figures over one set of four daemons, and the deck its tables played
    (every seat's view of every table agreed on it)."""

    figures: dict[str, float]
    deck: str


def _hands(base: Path, deck: str, tables: int) -> Run:
    """Open ``tables`` MCR tables and one American table on ``deck`` over four fresh
    daemons."""
    daemons = [DaemonProcess(base / f"d{i}", f"bench{i}", session_module=REAL) for i in range(4)]
    starts: list[float] = []
    hands: list[float] = []
    american: list[float] = []
    decks: set[str] = set()
    try:
        start_all(daemons)
        driver = Driver(daemons)
        try:
            for n, rules in enumerate(["mcr"] * tables + ["american"]):
                table = _open_table(daemons, driver, n, rules, deck)
                for i in range(4):
                    driver.drain(i, table, 0.2)
                deadline = time.monotonic() + 10
                while not all(driver.phase(i) == "ready" for i in range(4)):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the lobby never filled")
                    for i in range(4):
                        driver.drain(i, table, 0.01)
                decks.update(driver.deck(i) for i in range(4))
                driver.begin_hand()
                for i in range(4):
                    request(driver.clients[i], type="ready", table=table)
                began = time.perf_counter()
                driver.play(table, lambda: all(driver.phase(i) == "play" for i in range(4)), 30)
                mark, view_mark = len(driver.latencies), len(driver.view_latencies)
                if rules == "mcr":
                    starts.append(time.perf_counter() - began)
                driver.play(
                    table, lambda: all(driver.phase(i) in ("over", "halted") for i in range(4)), 120
                )
                (hands if rules == "mcr" else american).append(driver.hand_end() - began)
                if rules != "mcr":  # latency figures are MCR's, like the targets
                    del driver.latencies[mark:]
                    del driver.view_latencies[view_mark:]
                states = {driver.views[i]["view"]["state"] for i in range(4)}
                if len(states) != 1:
                    raise RuntimeError("the daemons disagree")
                decks.update(driver.deck(i) for i in range(4))
            rss = max(_rss_mb(d.proc.pid) for d in daemons if d.proc is not None)
            latencies = sorted(driver.latencies)
            seen = sorted(driver.view_latencies)
        finally:
            driver.close()
    finally:
        for d in daemons:
            d.stop()
    if decks != {deck}:
        raise RuntimeError(f"asked for the {deck} deck, the views say {sorted(decks)}")

    def p99(values: list[float]) -> float:
        return values[min(len(values) - 1, int(len(values) * 0.99))] * 1000 if values else 0.0

    return Run(
        {
            "start_ms": statistics.median(starts) * 1000,
            "p50_ms": statistics.median(latencies) * 1000 if latencies else 0.0,
            "p99_ms": p99(latencies),
            "samples": len(seen),
            "view_p50_ms": statistics.median(seen) * 1000,
            "view_p99_ms": p99(seen),
            "hand_s": statistics.median(hands),
            "american_s": american[0],
            "rss_mb": rss,
        },
        decks.pop(),
    )


def bench_hands(quick: bool) -> list[dict[str, object]]:
    """ROUNDS rounds of the two decks (the order reversed every other round: the machine's
    load drifts); each figure one line per deck, medians over the rounds."""
    base = Path(tempfile.mkdtemp(prefix="fw-bench-"))
    rounds, tables = (1, 1) if quick else (ROUNDS, TABLES)
    runs: dict[str, list[Run]] = {deck: [] for deck in DECKS}
    try:
        for r in range(rounds):
            for deck in DECKS if r % 2 == 0 else DECKS[::-1]:
                runs[deck].append(_hands(base / f"{deck}{r}", deck, tables))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    deck_ms = _deck_in_memory_ms(1 if quick else 3)

    def med(variant: str, figure: str) -> float:
        return round(statistics.median(run.figures[figure] for run in runs[variant]), 3)

    def each(variant: str, figure: str) -> list[float]:
        return [round(run.figures[figure], 3) for run in runs[variant]]

    def played(variant: str) -> str:
        decks = {run.deck for run in runs[variant]}
        if len(decks) != 1:
            raise RuntimeError(f"{variant}: the rounds played different decks {sorted(decks)}")
        return decks.pop()

    def beside(variant: str, figure: str, prefix: str = "") -> dict[str, object]:
        """The masked line: the practice figure measured in the same run, and the ratio."""
        if variant != "masked":
            return {}
        value, other = med(variant, figure), med("practice", figure)
        return {f"{prefix}practice": other, f"{prefix}ratio_to_practice": _ratio(value, other)}

    lines: list[dict[str, object]] = []
    for variant in ("masked", "practice"):
        # the in-memory fair deck's shuffle-lock-deal (no daemon, no I/O) on every line: this
        # machine's speed in the same run, to read the absolute targets against
        common: dict[str, object] = {
            "deck": played(variant),
            "rounds": rounds,
            "machine_in_memory_deck_ms": round(deck_ms, 3),
        }
        start_ms, p50 = med(variant, "start_ms"), med(variant, "p50_ms")
        hand_s, american_s = med(variant, "hand_s"), med(variant, "american_s")
        rss = med(variant, "rss_mb")
        lines += [
            result(
                "daemon_hand_start",
                start_ms,
                "ms",
                target=f"<= {HAND_START_TARGET_MS} ms",
                met=start_ms <= HAND_START_TARGET_MS,
                ratio=_ratio(start_ms, deck_ms),
                tables=tables,
                rules="mcr",
                runs=each(variant, "start_ms"),
                **beside(variant, "start_ms"),
                **common,
            ),
            result(
                "daemon_action_latency",
                p50,
                "ms",
                target=f"p50 <= {LATENCY_TARGET_MS} ms",
                met=p50 <= LATENCY_TARGET_MS,
                p99_ms=med(variant, "p99_ms"),
                measure="act request until the last of the three peers applied the "
                "discard (its view's applied_at, on the machine's shared "
                "monotonic clock)",
                samples=int(med(variant, "samples")),
                runs=each(variant, "p50_ms"),
                **beside(variant, "p50_ms"),
                view_p50_ms=med(variant, "view_p50_ms"),
                view_p99_ms=med(variant, "view_p99_ms"),
                view_measure="act request until the driver holds all three peers' new "
                "views (the frontends' side; no target of its own)",
                view_runs=each(variant, "view_p50_ms"),
                **beside(variant, "view_p50_ms", "view_"),
                **common,
            ),
            result(
                "daemon_full_hand",
                hand_s,
                "s",
                target=f"<= {HAND_TARGET_S} s",
                met=hand_s <= HAND_TARGET_S,
                hands=tables,
                rules="mcr",
                runs=each(variant, "hand_s"),
                **beside(variant, "hand_s"),
                **common,
            ),
            result(
                "daemon_full_hand_american",
                american_s,
                "s",
                target=f"<= {HAND_TARGET_S} s",
                met=american_s <= HAND_TARGET_S,
                hands=1,
                rules="american",
                runs=each(variant, "american_s"),
                **beside(variant, "american_s"),
                **common,
            ),
            result(
                "daemon_rss",
                rss,
                "MB",
                target=f"<= {RSS_TARGET_MB} MB",
                met=rss <= RSS_TARGET_MB,
                measure="VmHWM, largest of four daemons",
                runs=each(variant, "rss_mb"),
                **beside(variant, "rss_mb"),
                **common,
            ),
        ]
    return lines


def _ratio(value: float, other: float) -> float | None:
    return round(value / other, 3) if other else None


class _CountRefusals(logging.Handler):
    """Counts the daemon's logged refusals instead of printing 200,000 lines."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def bench_fuzz(quick: bool) -> list[dict[str, object]]:
    """testkit.fuzz's two runs at FUZZ_FRAMES frames each (QUICK_FUZZ_FRAMES quick), the
    real table session behind the local API; the daemon's refusal warnings are counted
    instead of printed."""
    frames = QUICK_FUZZ_FRAMES if quick else FUZZ_FRAMES
    logger = logging.getLogger("fourwinds")
    counter = _CountRefusals()
    logger.addHandler(counter)
    logger.propagate = False
    base = Path(tempfile.mkdtemp(prefix="fw-fuzz-"))
    try:
        peer = asyncio.run(asyncio.wait_for(fuzz.peer_socket(frames), 60 + fuzz.settle_s(frames)))
        api = asyncio.run(
            asyncio.wait_for(
                fuzz.local_api(base, load_session_module(REAL), frames), 60 + fuzz.settle_s(frames)
            )
        )
    finally:
        logger.removeHandler(counter)
        logger.propagate = True
        shutil.rmtree(base, ignore_errors=True)
    peer_ok = (
        peer.all_accounted
        and peer.delivered == peer.decodable
        and peer.only_table_messages
        and peer.oversized_refused
        and peer.link_after
    )
    api_ok = api.refused_replies == api.sent and api.view_unchanged and api.tables_unchanged
    return [
        result(
            "daemon_fuzz",
            peer.sent + api.sent,
            "frames",
            target="every frame refused with a reason (or, decodable, delivered as a "
            "table message), the oversized one refused at the socket, the link "
            "still working, no state changed",
            met=peer_ok and api_ok,
            peer_refused=peer.refused,
            peer_delivered=peer.delivered,
            peer_decodable=peer.decodable,
            peer_oversized_refused=peer.oversized_refused,
            peer_link_after=peer.link_after,
            api_refused=api.refused_replies,
            api_state_unchanged=api.view_unchanged and api.tables_unchanged,
            peer_frames_per_s=round(peer.sent / peer.seconds),
            api_frames_per_s=round(api.sent / api.seconds),
            logged_refusals=counter.count,
        )
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "daemon_hands": bench_hands,
    "daemon_fuzz": bench_fuzz,
}
