"""Addresses that work after a restart, and a daemon that always answers (issue 14).

The rules for the addresses a seat keeps (tests of daemon/peers/reach.py and the table metadata),
then real daemons on loopback: ``status`` answers within 100 ms while a seated peer's daemon is
gone, while another daemon answers at its old address (every handshake fails: this once
deadlocked the event loop), and while a long resume runs; SIGTERM stops the daemon within 2 s
in each case; the view names the unreachable seat with its last address.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fourwinds.daemon.peers.identity import Identity
from fourwinds.daemon.peers.reach import MAX_ADDRESSES, Address, Source, from_plain, plain, remember
from fourwinds.daemon.peers.reach import usable as reach_usable
from fourwinds.daemon.peers.wire import FrameError, Reach, decode, encode
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.frontends.client.client import Client
from testkit.procs import DaemonProcess, request, start_all
from tests.daemon.toy_driver import ToyTable

STATUS_S = 1.0
"""A loop that is not blocked answers `status` within this even on a machine shared with the
rest of the suite (a blocked one takes seconds: a dial's or a resume's whole length). The
100 ms the issue asks for is a figure for the benchmarks, not a timing assert in a test."""
STOP_S = 4.0
"""SIGTERM stops the daemon within 2 s (main.py's forced exit at 1.8 s); the test allows for
process start-up and reaping on a loaded machine."""


# -- which addresses are kept ----------------------------------------------------------------


def test_a_wildcard_is_never_kept_and_loopback_only_first_hand() -> None:
    for source in Source:
        assert not reach_usable("0.0.0.0", 7420, source)
        assert not reach_usable("::", 7420, source)
        assert not reach_usable("169.254.1.2", 0, source)
        assert not reach_usable("224.0.0.251", 7420, source)
        assert reach_usable("169.254.1.2", 7420, source)
    assert reach_usable("127.0.0.1", 7420, Source.HEARD)
    assert reach_usable("127.0.0.1", 7420, Source.DIALLED)
    # told by a seat on another machine, loopback would be ourselves; on ours it is right
    assert not reach_usable("127.0.0.1", 7420, Source.TOLD, via="169.254.1.1")
    assert reach_usable("127.0.0.1", 7420, Source.TOLD, via="127.0.0.1")
    assert not reach_usable("127.0.0.1", 7420, Source.MDNS, via="127.0.0.1")


def test_the_list_is_bounded_and_hints_never_push_out_the_proven_addresses() -> None:
    known: tuple[Address, ...] = ()
    for i in range(6):
        known = remember(known, Address(f"169.254.1.{i}", 7420, verified=True))
    for i in range(50):  # a flood of announcements for that key
        known = remember(known, Address(f"10.9.{i}.1", 7420))
    assert len(known) == MAX_ADDRESSES
    assert sum(a.verified for a in known) >= 5  # at most one proven one lost
    assert known[0] == Address("10.9.49.1", 7420)  # the newest first
    proven = remember(known, Address("169.254.1.3", 7420, verified=True))
    assert proven[0] == Address("169.254.1.3", 7420, True) and len(proven) == MAX_ADDRESSES
    hinted = remember(proven, Address("169.254.1.3", 7420))
    assert hinted == proven  # a hint about a proven address changes nothing
    assert from_plain(plain(proven)) == proven
    assert from_plain([["0.0.0.0", 7420, True], ["x", "y"], 5]) == ()


def test_an_old_table_whose_roster_lists_a_wildcard_keeps_no_address_for_it() -> None:
    host, joiner, other = (Identity.generate(bytes([n]) * 32).public_key for n in (1, 2, 3))
    meta = {
        "table_id": b"t" * 16,
        "name": "kitchen",
        "rules": "mcr",
        "host_key": host,
        "private": False,
        "code": None,
        "place": 1,
        "listed": True,
        "members": [
            [host, "0.0.0.0", 7420],
            [joiner, "0.0.0.0", 7420],
            [other, "169.254.1.4", 7420],
        ],
    }
    rt = TableRuntime.from_meta(meta)
    assert host not in rt.addresses and rt.addresses[other] == (Address("169.254.1.4", 7420),)
    assert rt.learn(host, Address("169.254.1.1", 7420, True))
    assert rt.members[host] == ("169.254.1.1", 7420)
    again = TableRuntime.from_meta(rt.meta())
    assert again.addresses[host] == (Address("169.254.1.1", 7420, True),)
    assert not rt.learn(b"x" * 32, Address("169.254.1.9", 7420))  # not a member


def test_the_reach_frame_round_trips_and_bad_ones_are_refused() -> None:
    frame = Reach((("169.254.1.2", 7420), ("127.0.0.1", 7420)))
    assert decode(encode(frame)) == frame
    import msgpack

    for bad in ([[1, 2]], [["h", 0]], [["h"] * 3], "x", [["h", 7420]] * 17):
        with pytest.raises(FrameError):
            decode(msgpack.packb([1, 11, bad], use_bin_type=True))


# -- real daemons on loopback ----------------------------------------------------------------


def _status_times(client: Client, seconds: float) -> list[float]:
    """How long each ``status`` took, asked every 20 ms for ``seconds``."""
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        answer = client.request({"type": "status"}, timeout=5)
        times.append(time.monotonic() - start)
        assert answer["ok"], answer
        # sleep-ok: the sampling interval of the status latency measured
        time.sleep(0.02)
    return times


def _stops_within(d: DaemonProcess, seconds: float) -> float:
    assert d.proc is not None
    start = time.monotonic()
    d.signal(signal.SIGTERM)
    try:
        d.proc.wait(seconds + 3)
    except subprocess.TimeoutExpired:
        d.proc.kill()
        d.proc.wait(5)
        raise AssertionError(f"SIGTERM did not stop the daemon within {seconds + 3} s") from None
    return time.monotonic() - start


@pytest.fixture
def four(tmp_path: Path) -> Iterator[tuple[list[DaemonProcess], ToyTable]]:
    daemons = [DaemonProcess(tmp_path / f"d{i}", f"p{i}") for i in range(4)]
    table = ToyTable(daemons)
    try:
        start_all(daemons)
        table.seat_everyone("127.0.0.1", daemons[0].port)
        yield daemons, table
    finally:
        table.close()
        for d in daemons:
            d.stop()


@pytest.mark.slow
def test_status_answers_and_sigterm_stops_while_a_peer_is_unreachable(
    four: tuple[list[DaemonProcess], ToyTable], tmp_path: Path
) -> None:
    daemons, table = four
    table.until_turn_of(1, timeout=20)
    daemons[1].kill9()
    table.forget(1)
    host = daemons[0].client(subscribe=False)
    try:
        times = _status_times(host, 4.0)
        assert max(times) < STATUS_S, f"status took {max(times) * 1000:.0f} ms"
        where = f"127.0.0.1:{daemons[1].port}"
        event = request(host, type="view", table=table.table)["event"]
        away = event["view"]["unreachable"]
        assert [(u["seat"], u["last_address"]) for u in away] == [(1, where)]
        assert away[0]["for_s"] >= 3
        assert event["view"]["phase_detail"].startswith("Waiting for seat 1: unreachable for ")
        assert event["view"]["phase_detail"].endswith(f" s, last address {where}")
        assert [o["last_address"] for o in event["offline"]] == [where]
        # another daemon (another key) now answers at that address: every handshake fails
        impostor = DaemonProcess(tmp_path / "impostor", "impostor", port=daemons[1].port)
        impostor.start()
        try:
            times = _status_times(host, 4.0)
            assert max(times) < STATUS_S, f"status took {max(times) * 1000:.0f} ms"
        finally:
            impostor.stop()
    finally:
        host.close()
    assert _stops_within(daemons[0], STOP_S) < STOP_S


@pytest.mark.slow
def test_status_answers_during_a_long_resume_and_sigterm_stops_it(tmp_path: Path) -> None:
    d = DaemonProcess(tmp_path / "slow", "slow", session_module="tests.daemon.slow_resume_session")
    d.start()
    client = d.client(subscribe=False)
    table = request(client, type="create", name="long", rules="mcr")["table"]
    client.close()
    assert _stops_within(d, STOP_S) < STOP_S
    d.start()  # its API answers while the table resumes
    client = d.client(subscribe=False)
    try:
        start = time.monotonic()
        times = _status_times(client, 1.5)
        assert max(times) < STATUS_S, f"status took {max(times) * 1000:.0f} ms"
        view = request(client, type="view", table=table)  # waits for the resume
        assert view["event"]["view"]["seated"] == 1
        assert time.monotonic() - start >= 2.0  # it did wait for the resume
    finally:
        client.close()
    assert _stops_within(d, STOP_S) < STOP_S
    d.start()
    # sleep-ok: the fault's moment: the stop must land mid-resume (mid-resume)
    time.sleep(0.5)
    assert _stops_within(d, STOP_S) < STOP_S
