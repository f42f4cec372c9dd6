"""The fault harness (issue 14): one match of four real daemons in four network namespaces,
each seat a bot driven through its local API, and the faults a table must survive.

``FaultMatch`` builds the machines (``testkit/netns.py``: namespaces on one bridge,
link-local addresses, real-session daemons listening on every interface,
no mDNS: the joiners reach the host by address), seats the four daemons at a one-hand MCR
table on the practice deck with short windows, starts the bots (``testkit/bots.py``) and
injects one of the ``Fault`` kinds:

* ``KILL9``: ``kill -9`` of a daemon, then the same daemon started again on its data folder;
* ``SIGSTOP``: the daemon stopped for a while, then continued;
* ``LINK_CUT``: the machine's link down (``ip link set down`` on its veth), then up;
* ``MOVE``: a joiner's address changed mid-hand (a new DHCP lease), its daemon running on;
* ``BAD_LINK``: for the whole match, one seat reaches the others only through a delaying,
  stalling, resetting relay (``testkit/relay.py``; ``tc netem`` too where the kernel has
  it), which it dials as the host's address (``--peer`` and the join);
* ``TORN_TAIL``: ``kill -9``, the record log left ending mid-record (the first half of a
  record appended, as a write cut short leaves it), restart: the tail is cut, the table goes on;
* ``FLIPPED_BYTE``: ``kill -9``, one byte flipped in a record mid-log, restart: the damaged
  folder is kept aside with the reason and the seat is rebuilt from the other seats' copies;
* ``DELETED_DATA``: ``kill -9``, the seat's whole ``tables`` folder deleted (its identity key
  kept, as on a new machine with the key restored), restart, its player tells it one other
  seat's address (the ``peer`` request): that seat offers the table back and the seat is
  rebuilt from the others;
* ``DISK_FULL``: the seat's data folder on a small loop-mounted disk that is filled mid-hand:
  the hand pauses with the reason, and goes on once the filler is removed.

``finish`` waits for the match's end and checks what every fault run must end with: the match
complete at all four seats, the four transcripts (local API ``transcript``) identical, and
``fourwinds verify`` OK on each. A monitor thread notes when the table moves (the highest
``step`` the bots' views show), which gives the longest stall and each fault's recovery: from
the fault's end until the faulted seat's view is past where the table stood then. Every
process and namespace made here is removed by ``close``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from fourwinds.daemon.store.disk import HEADER, RECORDS, TableLog
from testkit.bots import BotSeat, over
from testkit.damage import flip_middle_record
from testkit.netns import Lan, LanDaemon, Unavailable, start_all
from testkit.procs import ROOT, request
from testkit.relay import LinkSpec

REAL = "fourwinds.daemon.table_runtimes.real_session"
PORT = 7420
JOIN_TRIES = 3  # a join that met the bad link is tried again (``_join``)
OPTIONS: dict[str, object] = {
    "hands": 1,
    "call_window": 0.5,
    "next_window": 0.5,
    "deck": "practice",
}
RELAY_BASE = 200  # the relay's addresses on the bridge: 169.254.<subnet>.201...


class Fault(Enum):
    KILL9 = "kill9"
    SIGSTOP = "sigstop"
    LINK_CUT = "link_cut"
    MOVE = "move"
    BAD_LINK = "bad_link"
    TORN_TAIL = "torn_tail"
    FLIPPED_BYTE = "flipped_byte"
    DELETED_DATA = "deleted_data"
    DISK_FULL = "disk_full"


@dataclass
class Injected:
    """One fault as it happened: whom, when (s since the bots started), how long it was held,
    how long the table took to move on after it (None: it never had to, or never did), and
    what the other seats' screens said meanwhile (``phase_detail``, digits as they were)."""

    fault: Fault
    seat: int
    at_s: float
    held_s: float = 0.0
    recovery_s: float | None = None
    seen: str = ""
    own: str = ""  # what the faulted seat's own screen said (when it could say)
    note: str = ""
    began: float = 0.0  # monotonic
    stall_s: float | None = None  # the longest the table stood still from the fault on


@dataclass(frozen=True)
class Outcome:
    """How a match ended: complete at all four seats, transcripts identical, ``verify`` on
    each (its first line), the longest time the table did not move, the match's length."""

    completed: bool
    identical: bool
    verified: tuple[str, ...]
    longest_stall_s: float
    match_s: float
    diagnosis: str = ""  # when it did not complete: each seat's view and log's last lines
    steps: int = 0  # the table's steps (hands differ in length: a per-step measure)

    @property
    def verified_ok(self) -> bool:
        return bool(self.verified) and all(v == "OK" for v in self.verified)


class Monitor(threading.Thread):
    """Samples the bots' latest views every 50 ms: when the table's highest step moved, and
    the ``phase_detail`` lines the seats showed."""

    def __init__(self, bots: list[BotSeat]) -> None:
        super().__init__(daemon=True)
        self.bots = bots
        self.stop = threading.Event()
        self.top = -1
        self.moves: list[float] = []
        self.details: list[tuple[float, int, str]] = []

    def step_of(self, i: int) -> int:
        last = self.bots[i].last
        return int(last["view"].get("step", -1)) if last else -1

    def run(self) -> None:
        shown: dict[int, str] = {}
        while not self.stop.is_set():
            now = time.monotonic()
            top = max(self.step_of(i) for i in range(len(self.bots)))
            if top > self.top:
                self.top = top
                self.moves.append(now)
            for i, bot in enumerate(self.bots):
                detail = str((bot.last or {}).get("view", {}).get("phase_detail") or "")
                if detail and shown.get(i) != detail:
                    self.details.append((now, i, detail))
                shown[i] = detail
            # sleep-ok: the stall monitor's sampling interval
            time.sleep(0.05)

    def longest_stall(self, since: float, until: float) -> float:
        marks = [since, *[m for m in self.moves if since <= m <= until], until]
        return max(b - a for a, b in itertools.pairwise(marks))

    def seen(self, since: float, until: float, seats: set[int]) -> str:
        """The most telling line a seat in ``seats`` showed between the two times: the last
        one (it says how long the seat has been away)."""
        lines = [d for t, i, d in self.details if since <= t <= until and i in seats]
        return lines[-1] if lines else ""


class FaultMatch:
    """Four machines, four daemons, one table, four bots; see the module's docstring."""

    def __init__(
        self,
        base: Path,
        subnet: int,
        *,
        seed: int = 1,
        think: float = 0.05,
        bad_seat: int | None = None,
        link: LinkSpec | None = None,
        relay: bool = True,
        small_disk_seat: int | None = None,
    ) -> None:
        base.mkdir(parents=True, exist_ok=True)
        self.base = base
        self.random = random.Random(seed)
        self.seed = seed
        self.think = think
        self.bad_seat = bad_seat
        self.link = link or LinkSpec()
        self.use_relay = relay  # False: the bad link is tc netem's alone (Unavailable
        # where the kernel has no sch_netem)
        self.small_disk_seat = small_disk_seat
        self.lan = Lan(4, subnet)
        self.relay: subprocess.Popen[bytes] | None = None
        self.relay_stats = base / "relay.json"
        self.netem = ""
        self.mounted: Path | None = None
        self.daemons: list[LanDaemon] = []
        self.bots: list[BotSeat] = []
        self.monitor: Monitor | None = None
        self.table = ""
        self.started = 0.0
        self.injected: list[Injected] = []

    # -- machines ---------------------------------------------------------------------------

    def relay_address(self, j: int) -> str:
        """Where the relay listens for the way to seat ``j``."""
        return f"169.254.{self.lan.subnet}.{RELAY_BASE + 1 + j}"

    def host_address_for(self, i: int) -> str:
        relayed = i == self.bad_seat and self.use_relay
        return self.relay_address(0) if relayed else self.lan.addresses[0]

    def open(self) -> None:
        """The machines, the relay, the daemons and the table with four seated players."""
        data = [self.base / f"d{i}" for i in range(4)]
        logs: list[Path | None] = [None] * 4
        if self.small_disk_seat is not None:
            self.mounted = small_disk(self.base)
            data[self.small_disk_seat] = self.mounted / "d"
            logs[self.small_disk_seat] = self.base / f"d{self.small_disk_seat}.log"
        if self.bad_seat is not None and self.use_relay:
            self._start_relay(self.bad_seat)
        elif self.bad_seat is not None:
            why_not = self.lan.netem(
                self.bad_seat, int(self.link.delay_s * 1000), int(self.link.jitter_s * 1000)
            )
            if why_not is not None:
                raise Unavailable(why_not)
            self.netem = "applied"
        self.daemons = [
            LanDaemon(
                self.lan,
                i,
                data[i],
                f"p{i}",
                session_module=REAL,
                log=logs[i],
                peers=(f"{self.host_address_for(i)}:{PORT}",) if i else (),
            )
            for i in range(4)
        ]
        start_all(self.daemons)
        host = self.daemons[0].client()
        try:
            self.table = request(host, type="create", name="faults", rules="mcr", options=OPTIONS)[
                "table"
            ]
            key = request(host, type="whoami")["public_key"]
        finally:
            host.close()
        for i in (1, 2, 3):
            self._join(i, key)

    def _join(self, i: int, key: str) -> None:
        """Seat ``i`` joins, again as a person would when its join met the bad link's stall
        or reset ("no fourwinds daemon answered"; at most JOIN_TRIES times): the faults
        under test are the match's, not the join's."""
        for attempt in range(1, JOIN_TRIES + 1):
            client = self.daemons[i].client()
            try:
                request(
                    client,
                    type="join",
                    table=self.table,
                    host=self.host_address_for(i),
                    port=PORT,
                    public_key=key,
                )
                return
            except AssertionError as refused:
                if "no fourwinds daemon answered" not in str(refused) or attempt == JOIN_TRIES:
                    raise
                # sleep-ok: pause between join attempts (bounded: JOIN_TRIES)
                time.sleep(1.0)
            finally:
                client.close()

    def _start_relay(self, bad: int) -> None:
        """Seat ``bad`` reaches the others only through the relay: the direct routes are
        cut, the relay listens on the bridge at one address per seat (ports 7420 and 7421)
        and dials each seat from the address that leads back to the dialler."""
        self.lan.isolate(bad)
        routes = []
        for j in range(4):
            self.lan.bridge_address(self.relay_address(j))
            if j == bad:
                source = {
                    self.lan.addresses[k]: self.relay_address(k) for k in range(4) if k != bad
                }
            else:
                source = {"*": self.relay_address(bad)}
            for port in (PORT, PORT + 1):
                routes.append(
                    {
                        "listen": [self.relay_address(j), port],
                        "target": [self.lan.addresses[j], port],
                        "source": source,
                    }
                )
        spec = self.link
        self.relay_stats.unlink(missing_ok=True)
        config = self.base / "relay-config.json"
        config.write_text(
            json.dumps(
                {
                    "seed": self.seed,
                    "delay_s": spec.delay_s,
                    "jitter_s": spec.jitter_s,
                    "stall_every_s": spec.stall_every_s,
                    "stall_s": spec.stall_s,
                    "reset_every_s": spec.reset_every_s,
                    "first_stall_s": spec.first_stall_s,
                    "first_reset_s": spec.first_reset_s,
                    "stats": str(self.relay_stats),
                    "routes": routes,
                }
            )
        )
        self.relay = self.lan.in_bridge(  # its own process: the bots never slow it
            [sys.executable, "-m", "testkit.relay", str(config)], self.base / "relay.log"
        )
        deadline = time.monotonic() + 20
        while not self.relay_stats.exists():
            if self.relay.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"the relay did not start: {(self.base / 'relay.log').read_text()[-2000:]}"
                )
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.05)
        why_not = self.lan.netem(bad, int(spec.delay_s * 1000), int(spec.jitter_s * 1000))
        self.netem = "applied" if why_not is None else f"not applied ({why_not})"

    def relay_counts(self) -> dict[str, int]:
        """The relay's counts (it writes them when it stops)."""
        if self.relay is None:
            return {}
        if self.relay.poll() is None:
            self.relay.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.relay.wait(10)
        try:
            counts: dict[str, int] = json.loads(self.relay_stats.read_text())
        except (OSError, ValueError):
            return {}
        counts.pop("ready", None)
        return counts

    # -- play -------------------------------------------------------------------------------

    def start_bots(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        self.bots = [
            BotSeat(d.data_dir, self.table, deadline, over, think=self.think) for d in self.daemons
        ]
        self.monitor = Monitor(self.bots)
        self.started = time.monotonic()
        for bot in self.bots:
            bot.start()
        self.monitor.start()

    def since(self) -> float:
        return time.monotonic() - self.started

    def wait_for_play(self, steps: int, timeout: float = 60.0) -> None:
        """Until the hand is under way: every seat's view in play, past ``steps`` steps."""
        assert self.monitor is not None
        deadline = time.monotonic() + timeout
        while True:
            views = [(b.last or {}).get("view", {}) for b in self.bots]
            if all(
                v.get("session", {}).get("phase") == "play" and int(v.get("step", -1)) >= steps
                for v in views
            ):
                return
            if time.monotonic() > deadline:
                where = [(v.get("session", {}).get("phase"), v.get("step")) for v in views]
                raise AssertionError(f"the hand never got going: {where}")
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.05)

    def random_moment(self, spread: float) -> None:
        """Wait a random time (seeded) of up to ``spread`` seconds: the fault's moment."""
        # sleep-ok: the fault's random moment: when it strikes is the test's input
        time.sleep(self.random.uniform(0.0, spread))

    def _recovered(self, fault: Injected, seat: int, ended: float, timeout: float) -> None:
        """Wait until seat ``seat``'s view is past the highest step any seat had at
        ``ended``; note the time it took (None if not within ``timeout``)."""
        assert self.monitor is not None
        mark = self.monitor.top
        deadline = ended + timeout
        while time.monotonic() < deadline:
            if self.monitor.step_of(seat) > mark or self.bots[seat].finished:
                fault.recovery_s = round(time.monotonic() - ended, 2)
                return
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.02)

    def _note(self, fault: Fault, seat: int) -> Injected:
        entry = Injected(fault, seat, round(self.since(), 2), began=time.monotonic())
        self.injected.append(entry)
        return entry

    def _seen(self, entry: Injected, since: float, seats: set[int]) -> None:
        assert self.monitor is not None
        now = time.monotonic()
        entry.seen = self.monitor.seen(since, now, seats)
        entry.own = self.monitor.seen(since, now, {entry.seat})

    # -- faults -----------------------------------------------------------------------------

    def kill9(self, i: int, down: float = 1.0, damage: Fault | None = None) -> Injected:
        """``kill -9`` of seat ``i``'s daemon, ``damage`` done to its log, then a restart on
        the same data folder after ``down`` seconds."""
        entry = self._note(damage or Fault.KILL9, i)
        began = time.monotonic()
        self.bots[i].paused.set()
        self.daemons[i].kill9()
        if damage is Fault.TORN_TAIL:
            entry.note = self.tear_tail(i)
        elif damage is Fault.FLIPPED_BYTE:
            entry.note = self.flip_byte(i)
        elif damage is Fault.DELETED_DATA:
            entry.note = self.delete_data(i)
        # sleep-ok: how long the daemon stays down is the fault under test
        time.sleep(down)
        self.daemons[i].spawn()
        self.daemons[i].wait_ready()
        if damage is Fault.DELETED_DATA:
            self.tell_peer(i)
        entry.held_s = round(time.monotonic() - began, 2)
        ended = time.monotonic()
        self.bots[i].paused.clear()
        self._recovered(entry, i, ended, 60)
        self._seen(entry, began, {j for j in range(4) if j != i})
        return entry

    def records(self, i: int) -> Path:
        return self.daemons[i].data_dir / "tables" / self.table / RECORDS

    def tear_tail(self, i: int) -> str:
        """The log ends mid-record: the first half of a copy of its last record appended
        (what a write cut short by a crash or a power cut leaves)."""
        path = self.records(i)
        log = TableLog.open(path)
        last = len(log.records) - 1
        at = log.offset_of(last)
        log.close()
        assert at is not None
        data = path.read_bytes()
        record = data[at:]
        torn = record[: HEADER.size + max(1, (len(record) - HEADER.size) // 2)]
        with open(path, "ab") as out:
            out.write(torn)
        return f"{len(torn)} bytes of a {len(record)}-byte record appended at byte {len(data):,}"

    def flip_byte(self, i: int) -> str:
        """One byte flipped inside a record in the middle of the log."""
        flipped = flip_middle_record(self.records(i))
        return f"record {flipped.record} at byte {flipped.offset:,}"

    def delete_data(self, i: int) -> str:
        """Seat ``i``'s ``tables`` folder deleted, every table's records and metadata (its
        identity key stays: the same player on a new machine restores only that)."""
        folder = self.daemons[i].data_dir / "tables"
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        shutil.rmtree(folder)
        return f"tables folder deleted ({size:,} bytes); identity.key kept"

    def tell_peer(self, i: int) -> None:
        """Seat ``i``'s player tells its daemon where another seat is (``peer``): the host's
        address for a joiner, seat 1's for the host."""
        other = 1 if i == 0 else 0
        client = self.daemons[i].client()
        try:
            request(client, type="peer", host=self.lan.addresses[other], port=PORT)
        finally:
            client.close()

    def sigstop(self, i: int, seconds: float) -> Injected:
        """Seat ``i``'s daemon stopped (SIGSTOP) for ``seconds``, then continued."""
        entry = self._note(Fault.SIGSTOP, i)
        self.bots[i].paused.set()
        began = time.monotonic()
        self.daemons[i].signal(signal.SIGSTOP)
        try:
            # sleep-ok: how long the daemon stays stopped is the fault under test
            time.sleep(seconds)
        finally:
            self.daemons[i].signal(signal.SIGCONT)
        ended = time.monotonic()
        entry.held_s = round(ended - began, 2)
        self._seen(entry, began, {j for j in range(4) if j != i})
        self.bots[i].paused.clear()
        self._recovered(entry, i, ended, 60)
        return entry

    def cut(self, i: int, seconds: float) -> Injected:
        """Seat ``i``'s link down for ``seconds``, then up again."""
        entry = self._note(Fault.LINK_CUT, i)
        began = time.monotonic()
        self.lan.cut(i)
        try:
            # sleep-ok: how long the link stays cut is the fault under test
            time.sleep(seconds)
        finally:
            self.lan.restore(i)
        ended = time.monotonic()
        entry.held_s = round(ended - began, 2)
        self._seen(entry, began, {j for j in range(4) if j != i})
        self._recovered(entry, i, ended, 60)
        return entry

    def move(self, i: int) -> Injected:
        """Seat ``i``'s machine gets a new address mid-hand (its daemon runs on)."""
        entry = self._note(Fault.MOVE, i)
        new = f"169.254.{self.lan.subnet}.{60 + i}"
        entry.note = f"{self.lan.addresses[i]} -> {new}"
        began = time.monotonic()
        self.lan.move(i, new)
        self._recovered(entry, i, began, 60)
        self._seen(entry, began, {j for j in range(4) if j != i})
        return entry

    def fill_disk(self, i: int, paused_within: float = 30.0, hold: float = 2.0) -> Injected:
        """Seat ``i``'s (small) data disk filled mid-hand; once its view says the hand is
        paused, ``hold`` seconds more, then the filler is removed."""
        assert self.mounted is not None and i == self.small_disk_seat
        entry = self._note(Fault.DISK_FULL, i)
        filler = self.mounted / "filler"
        began = time.monotonic()
        with open(filler, "wb", buffering=0) as out, contextlib.suppress(OSError):
            while True:
                out.write(b"x" * 1024)
        deadline = time.monotonic() + paused_within
        detail = ""
        while not detail.startswith("Paused") and time.monotonic() < deadline:
            detail = str((self.bots[i].last or {}).get("view", {}).get("phase_detail") or "")
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.05)
        entry.own = detail
        if detail.startswith("Paused"):
            # sleep-ok: how long the disk stays full is the fault under test
            time.sleep(hold)
        else:
            entry.note = f"not paused within {paused_within:.0f} s"
        filler.unlink()
        ended = time.monotonic()
        entry.held_s = round(ended - began, 2)
        assert self.monitor is not None
        entry.seen = self.monitor.seen(began, ended, {j for j in range(4) if j != i})
        self._recovered(entry, i, ended, 60)
        return entry

    # -- the end ----------------------------------------------------------------------------

    def transcript(self, i: int) -> bytes:
        client = self.daemons[i].client()
        try:
            data = request(client, type="transcript", table=self.table)["transcript"]
        finally:
            client.close()
        return bytes(data)

    def view(self, i: int) -> dict[str, Any]:
        client = self.daemons[i].client()
        try:
            event: dict[str, Any] = request(client, type="view", table=self.table)["event"]
        finally:
            client.close()
        return event

    def verify(self, transcripts: list[bytes], partial: bool = False) -> tuple[str, ...]:
        """``fourwinds verify`` on each transcript (in parallel): "OK" for each that says OK
        and exits 0, else its exit status and what it said."""
        procs = []
        for n, data in enumerate(transcripts):
            path = self.base / f"t{n}.fwt"
            path.write_bytes(data)
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "fourwinds.frontends.cli",
                        "verify",
                        str(path),
                        *(["--partial"] if partial else []),
                    ],
                    cwd=ROOT,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            )
        lines = []
        for proc in procs:
            out, _ = proc.communicate(timeout=120)
            said = out.strip().splitlines()
            good = proc.returncode == 0 and said and said[-1] == "OK"
            lines.append("OK" if good else f"exit {proc.returncode}: {out.strip()}")
        return tuple(lines)

    def finish(self, timeout: float) -> Outcome:
        """Wait for the match's end at every seat and check it (see the module docstring)."""
        assert self.monitor is not None
        for bot in self.bots:
            bot.join(max(0.1, timeout - self.since()))
        ended = time.monotonic()
        self.monitor.stop.set()
        errors = [b.error for b in self.bots if b.error is not None]
        if errors:
            raise errors[0]
        completed = all(b.finished for b in self.bots)
        if completed:
            phases = [self.view(i)["view"]["session"]["phase"] for i in range(4)]
            completed = phases == ["over"] * 4
        transcripts = [self.transcript(i) for i in range(4)]
        identical = all(t == transcripts[0] for t in transcripts)
        verified = self.verify(transcripts) if completed else ()
        last = max(self.monitor.moves[-1] if self.monitor.moves else ended, self.started)
        for entry in self.injected:
            entry.stall_s = round(self.monitor.longest_stall(entry.began, last), 2)
        return Outcome(
            completed,
            identical,
            verified,
            round(self.monitor.longest_stall(self.started, last), 2),
            round((last if completed else ended) - self.started, 2),
            "" if completed else self.diagnose(),
            self.monitor.top,
        )

    def diagnose(self) -> str:
        """Each seat's view (phase, step, whom it waits for, what it may do, problems) and
        its daemon log's last lines: what a stuck match needs looked at."""
        lines = []
        for i, d in enumerate(self.daemons):
            try:
                event = self.view(i)
                view = event["view"]
                lines.append(
                    f"seat {i}: {view.get('session')} step {view.get('step')} "
                    f"detail {view.get('phase_detail')!r} legal "
                    f"{[a.get('type') for a in event.get('legal_actions') or []]} "
                    f"problems {event.get('problems')} offline {event.get('offline')}"
                )
            except (AssertionError, OSError, TimeoutError, KeyError) as error:
                lines.append(f"seat {i}: no view ({error})")
            with contextlib.suppress(OSError):
                lines += ["    " + line for line in d.log.read_text().splitlines()[-8:]]
        return "\n".join(lines)

    def set_aside(self, i: int, timeout: float = 15.0) -> list[dict[str, Any]]:
        """The tables seat ``i``'s daemon lists as set aside (``status``), once it lists one
        (its resumes run off the event loop), or none within ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            client = self.daemons[i].client()
            try:
                aside: list[dict[str, Any]] = request(client, type="status")["set_aside"]
            finally:
                client.close()
            if aside or time.monotonic() > deadline:
                return aside
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)

    def others_agree(self, away: int, timeout: float = 20.0) -> tuple[bool, tuple[str, ...]]:
        """Whether the seats other than ``away`` hold identical transcripts (waiting up to
        ``timeout`` for what is on its way), and ``verify --partial`` on each."""
        deadline = time.monotonic() + timeout
        others = [i for i in range(4) if i != away]
        while True:
            transcripts = [self.transcript(i) for i in others]
            same = all(t == transcripts[0] for t in transcripts)
            if same or time.monotonic() > deadline:
                return same, self.verify(transcripts, partial=True)
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.5)

    def close(self) -> None:
        for bot in self.bots:
            bot.stop.set()
        if self.monitor is not None:
            self.monitor.stop.set()
        for bot in self.bots:
            bot.join(5)
        for d in self.daemons:
            d.stop()
        self.relay_counts()
        self.lan.close()
        if self.mounted is not None:
            subprocess.run(["umount", "-l", str(self.mounted)], check=False, capture_output=True)


def small_disk(base: Path, size_mib: int = 8) -> Path:
    """A small ext2 file system (1 KiB blocks) loop-mounted under ``base``; ``Unavailable``
    with the reason where it cannot be made (a tmpfs counts whole 4 KiB pages)."""
    image, mount = base / "disk.img", base / "small"
    mount.mkdir()
    with open(image, "wb") as out:
        out.truncate(size_mib * 1024 * 1024)
    for cmd in (
        ["mkfs.ext2", "-q", "-F", "-b", "1024", "-m", "0", str(image)],
        ["mount", "-o", "loop", str(image), str(mount)],
    ):
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise Unavailable(f"cannot make a small disk ({cmd[0]}): {error}") from None
        if done.returncode != 0:
            raise Unavailable(f"cannot make a small disk ({cmd[0]}): {done.stderr.strip()}")
    return mount


def digits_masked(line: str) -> str:
    """A screen line with its changing numbers as N (for a table of what players see)."""
    return re.sub(r"\d+", "N", line)


@dataclass
class Tally:
    """What a series of fault runs adds up to (the bench's lines)."""

    matches: int = 0
    completed: int = 0
    identical: int = 0
    verified: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    longest_stall_s: float = 0.0
