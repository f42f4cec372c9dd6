"""Big frames are refused before they are queued (issue 21 item 3): every peer-facing ZeroMQ
socket has a maximum message size and bounded queues, sized from the largest frame of a real
match (testkit/frame_sizes.py; docs/SECURITY.md "Socket bounds"), and so has the local API.

The daemon tests here failed before those bounds: a seated member's frames of 200 KB (within
the 256 KiB limit of then) were each read and decoded, and frames at the limit waited in a
receive queue of 10,000 a connection, hundreds of MB (issue 21: 420-520 MB in the bench).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import zmq

from fourwinds.daemon.local_api.server import API_RCVHWM, API_SNDHWM, MAX_REQUEST, ApiServer
from fourwinds.daemon.paths import Paths
from fourwinds.daemon.peers.refusals import Refusal
from fourwinds.daemon.peers.transport import (
    BEACON_HWM,
    DEALER_MAX_IN,
    LINK_SNDHWM,
    PEER_RCVHWM,
)
from fourwinds.daemon.peers.wire import MAX_FRAME, MAX_PAYLOAD, TableMessage
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.protocol.errors import LocalProtocolError
from testkit.adversary import OVERSIZED, Gauge, Stranger, flood, nested_frame
from testkit.frame_sizes import measure
from testkit.procs import DaemonProcess, request, start_all
from testkit.waiting import within
from tests.daemon.helpers import time_limit, wait_for
from tests.daemon.test_transport import LOOPBACK, Pair

CARDS = Path(__file__).resolve().parents[2] / "cards"


# -- what a real match sends -------------------------------------------------------------


def test_the_largest_frames_of_real_matches_are_far_under_the_bound() -> None:
    """A fair-deck MCR match and an American match with the house card (format 2): every
    message (a catch-up answer carries the same messages, one frame each) and the Open are
    under a quarter of MAX_FRAME; every view is far under what the local API holds.
    (``scripts/bench frames`` measures a whole 16-hand match: 12.8 KB.)"""
    mcr = measure("mcr", 2)
    american = measure("american", 1, (CARDS / "house.card").read_text(encoding="utf-8"))
    for sizes in (mcr, american):
        assert sizes.completed, sizes
        assert sizes.messages > 400, sizes
        assert 4 * sizes.largest_frame <= MAX_FRAME, sizes
        assert 0 < sizes.largest_view <= 8 * 1024, sizes
    assert american.open_frame > 9000, american  # the card travels in the Open


def test_a_card_too_big_for_the_peers_sockets_is_refused_when_the_table_is_made() -> None:
    """An Open over MAX_PAYLOAD would close the connection of every joiner that it is sent
    to (and be sent again at every catch-up): the create is refused with the reason."""
    card = (CARDS / "house.card").read_text(encoding="utf-8")
    made = real_session.new_table(
        bytes(range(32)), "t", "american", "me", {"card_text": card}, bytes(32), 0.0
    )
    assert made.outgoing and len(made.outgoing[0].payload) <= MAX_PAYLOAD
    padded = card + "\n".join("# " + "x" * 70 for _ in range(MAX_PAYLOAD // 72 + 1))
    with pytest.raises(LocalProtocolError, match=r"Open would be .* bytes, over"):
        real_session.new_table(
            bytes(range(32)), "t", "american", "me", {"card_text": padded}, bytes(32), 0.0
        )


# -- the options on every socket -----------------------------------------------------------


def test_every_peer_facing_socket_has_a_size_limit_and_bounded_queues() -> None:
    async def body() -> None:
        async with Pair() as pair:
            pair.a.connect(pair.b_id.public_key, LOOPBACK, pair.b.port)
            assert await wait_for(lambda: pair.b_id.public_key in pair.a.connected())
            router, beacon = pair.b._router, pair.b._beacon
            assert router is not None and beacon is not None
            assert router.maxmsgsize == MAX_FRAME
            assert (router.rcvhwm, router.sndhwm) == (PEER_RCVHWM, PEER_RCVHWM)
            assert beacon.maxmsgsize == 64
            assert (beacon.rcvhwm, beacon.sndhwm) == (BEACON_HWM, BEACON_HWM)
            dealer = pair.a._links[pair.b_id.public_key].dealer
            assert (dealer.maxmsgsize, dealer.rcvhwm, dealer.sndhwm) == (
                DEALER_MAX_IN,
                1,
                LINK_SNDHWM,
            )
            # and no socket keeps libzmq's defaults (no size limit, 1,000 a queue)
            for sock in (router, beacon, dealer):
                size, rcv, snd = (
                    sock.getsockopt(o) for o in (zmq.MAXMSGSIZE, zmq.RCVHWM, zmq.SNDHWM)
                )
                assert isinstance(size, int) and isinstance(rcv, int) and isinstance(snd, int)
                assert size > 0 and rcv < 1000 and snd < 10000

    asyncio.run(asyncio.wait_for(body(), time_limit(20)))


def test_the_local_api_socket_has_its_own_bounds(tmp_path: Path) -> None:
    async def handler(request: dict[str, object]) -> dict[str, object]:
        return {"ok": True}

    async def body() -> None:
        server = ApiServer(Paths(tmp_path / "data", tmp_path / "run"), handler)
        await server.start()
        try:
            sock = server._socket
            assert sock is not None
            assert (sock.maxmsgsize, sock.rcvhwm, sock.sndhwm) == (
                MAX_REQUEST,
                API_RCVHWM,
                API_SNDHWM,
            )
        finally:
            await server.close()

    asyncio.run(body())


def test_a_frame_over_the_limit_is_never_sent_to_a_peer() -> None:
    """The peer would close our connection for it (and a queued one would do it again after
    every reconnect): ``send_raw`` refuses it, and the link still works."""

    async def body() -> None:
        async with Pair() as pair:
            pair.a.connect(pair.b_id.public_key, LOOPBACK, pair.b.port)
            assert not pair.a.send_raw(pair.b_id.public_key, b"\x00" * (MAX_FRAME + 1))
            pair.a.send(pair.b_id.public_key, TableMessage(b"t" * 16, b"x" * MAX_PAYLOAD))
            assert await wait_for(
                lambda: any(
                    isinstance(f, TableMessage) and len(f.payload) == MAX_PAYLOAD
                    for _, f in pair.got
                ),
                timeout=8,
            )
            assert not any(k.startswith("socket:") for k in pair.b.refused), pair.b.refused

    asyncio.run(asyncio.wait_for(body(), time_limit(20)))


# -- a real daemon under big frames --------------------------------------------------------


@pytest.fixture
def host(
    tmp_path: Path,
) -> Iterator[tuple[DaemonProcess, bytes, str, Stranger, zmq.Context[zmq.Socket[bytes]]]]:
    daemon = DaemonProcess(tmp_path / "host", "host")
    ctx: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    start_all([daemon])
    api = daemon.client(subscribe=False)
    try:
        key = bytes.fromhex(request(api, type="whoami")["public_key"])
        table = str(request(api, type="create", name="bait", rules="mcr")["table"])
        member = Stranger(ctx, key, daemon.port)
        member.hello()
        member.take_seat(bytes.fromhex(table))
        yield daemon, key, table, member, ctx
    finally:
        api.close()
        ctx.destroy(0)
        daemon.stop()


def _refused(daemon: DaemonProcess) -> dict[str, int]:
    api = daemon.client(subscribe=False)
    try:
        return dict(request(api, type="status")["refused"])
    finally:
        api.close()


def _seated(daemon: DaemonProcess, table: str) -> int:
    api = daemon.client(subscribe=False)
    try:
        tables = request(api, type="status")["tables"]
        return next(int(t["seated"]) for t in tables if t["table"] == table)
    finally:
        api.close()


def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    return within(predicate, timeout, step=0.1)


@pytest.mark.slow
def test_frames_over_the_limit_close_the_connection_and_are_never_read(
    host: tuple[DaemonProcess, bytes, str, Stranger, zmq.Context[zmq.Socket[bytes]]],
) -> None:
    """A seated member's 240 KB frames (within the limit of issue 15, 256 KiB): libzmq
    closes its connection at each one's header; none is read, decoded or counted as a frame,
    and the daemon's memory does not hold them."""
    daemon, _key, table, member, _ctx = host
    assert _until(lambda: _seated(daemon, table) == 2, 10)
    assert daemon.proc is not None
    gauge = Gauge(daemon.proc.pid, daemon.data_dir)
    sampler = gauge.sampling().start()
    oversized = nested_frame(OVERSIZED)
    assert len(oversized) > MAX_FRAME
    flood([member], [oversized] * 300, pause_every=50, pause_s=0.05)
    assert _until(lambda: _refused(daemon).get(Refusal.SOCKET_CLOSED.value, 0) > 0, 15)
    peak = sampler.stop()
    refused = _refused(daemon)
    decoded = {k: v for k, v in refused.items() if k.startswith("frame:")}
    assert not decoded, refused
    assert peak - sampler.samples[0] < 20, sampler.samples


@pytest.mark.slow
def test_frames_at_the_limit_wait_in_a_bounded_queue(
    host: tuple[DaemonProcess, bytes, str, Stranger, zmq.Context[zmq.Socket[bytes]]],
) -> None:
    """2,000 nested frames just under MAX_FRAME from a seated member and a guest, each costly
    to decode: what waits for the daemon is at most PEER_RCVHWM frames a connection, so its
    resident memory stays within 20 MB of where it was all along (it grew by hundreds of MB
    with the old queue of 10,000)."""
    daemon, key, table, member, ctx = host
    assert _until(lambda: _seated(daemon, table) == 2, 10)
    assert daemon.proc is not None
    gauge = Gauge(daemon.proc.pid, daemon.data_dir)
    guest = Stranger(ctx, key, daemon.port)
    guest.hello()
    frames = [nested_frame(), nested_frame(in_field=True)]
    assert all(MAX_FRAME - 4096 < len(f) <= MAX_FRAME for f in frames)
    sampler = gauge.sampling().start()
    sent = flood([member], frames * 500, pause_every=0)
    sent += flood([guest], frames * 500, pause_every=0)
    assert sent >= 1500

    def counted() -> int:
        return sum(
            v
            for k, v in _refused(daemon).items()
            if k.startswith("frame:") or k == Refusal.GUEST_RATE.value
        )

    assert _until(lambda: counted() >= 1000, time_limit(60)), _refused(daemon)
    peak = sampler.stop()
    guest.close()
    assert peak - sampler.samples[0] < 20, (sampler.samples[0], peak)
