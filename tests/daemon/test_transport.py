"""The peer transport on loopback: CURVE + ZAP pinning, version refusal, fuzzed frames."""

from __future__ import annotations

import asyncio

import msgpack
import pytest
import zmq
import zmq.asyncio
from zmq.utils import z85

from fourwinds.daemon.peers.identity import Identity, curve_public_from_ed25519
from fourwinds.daemon.peers.refusals import Refusal
from fourwinds.daemon.peers.transport import PINNED, BeaconInfo, Sender, Transport, TransportError
from fourwinds.daemon.peers.wire import (
    Frame,
    Hello,
    Reach,
    VersionMismatch,
    decode,
    encode,
)
from testkit import fuzz
from tests.daemon.helpers import fuzz_count, identity, time_limit, wait_for

LOOPBACK = "127.0.0.1"


class Pair:
    """Two transports, B pinning only A's key."""

    def __init__(self) -> None:
        self.a_id, self.b_id = identity(1), identity(2)
        self.got: list[tuple[Sender, Frame]] = []
        self.pinned = {curve_public_from_ed25519(self.a_id.public_key)}

        async def on_a(sender: Sender, frame: Frame) -> None:
            return None

        async def on_b(sender: Sender, frame: Frame) -> None:
            self.got.append((sender, frame))

        self.a = Transport(self.a_id, lambda key: PINNED, on_a, "A")
        self.b = Transport(self.b_id, lambda key: PINNED if key in self.pinned else None, on_b, "B")

    async def __aenter__(self) -> Pair:
        await self.a.start(LOOPBACK, 0)
        await self.b.start(LOOPBACK, 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.a.close()
        await self.b.close()


def run(coro: object) -> None:
    asyncio.run(asyncio.wait_for(coro, time_limit(20)))  # type: ignore[arg-type]


def test_pinned_key_is_admitted_and_hello_arrives() -> None:
    async def body() -> None:
        async with Pair() as pair:
            pair.a.connect(pair.b_id.public_key, LOOPBACK, pair.b.port)
            assert await wait_for(lambda: bool(pair.got))
            sender, frame = pair.got[0]
            assert isinstance(frame, Hello) and frame.public_key == pair.a_id.public_key
            assert sender.curve_key == curve_public_from_ed25519(pair.a_id.public_key)
            assert not sender.guest
            assert await wait_for(lambda: pair.b.alive(sender.curve_key))

    run(body())


def test_curve_zap_refuses_an_unknown_key() -> None:
    async def body() -> None:
        async with Pair() as pair:
            stranger = Transport(identity(3), lambda key: PINNED, pair.a._on_frame, "C")
            await stranger.start(LOOPBACK, 0)
            try:
                stranger.connect(pair.b_id.public_key, LOOPBACK, pair.b.port)
                assert await wait_for(lambda: pair.b.refused[Refusal.ZAP_UNKNOWN_KEY.value] >= 1)
                # sleep-ok: a negative: time passes to show no frame gets through
                await asyncio.sleep(0.3)
                assert pair.got == []
                assert pair.b.last_seen == {}
            finally:
                await stranger.close()

    run(body())


def test_plain_client_without_curve_is_refused() -> None:
    async def body() -> None:
        async with Pair() as pair:
            ctx = zmq.asyncio.Context()
            sock = ctx.socket(zmq.DEALER)
            sock.linger = 0
            sock.connect(f"tcp://{LOOPBACK}:{pair.b.port}")
            await sock.send(encode(Hello(b"x" * 32, "plain", 1)))
            # sleep-ok: a negative: time passes to show no frame gets through
            await asyncio.sleep(0.5)
            sock.close(0)
            ctx.destroy(0)
            assert pair.got == []

    run(body())


def test_old_protocol_version_is_refused() -> None:
    old = msgpack.packb([0, 1, b"k" * 32, "old", 1], use_bin_type=True)
    try:
        decode(old)
    except VersionMismatch as error:
        assert "version 0" in str(error)
    else:
        raise AssertionError("an old version was accepted")

    async def body() -> None:
        async with Pair() as pair:
            pair.a.connect(pair.b_id.public_key, LOOPBACK, pair.b.port)
            assert await wait_for(lambda: bool(pair.got))
            pair.a.send_raw(pair.b_id.public_key, old)
            assert await wait_for(lambda: pair.b.refused[Refusal.FRAME_VERSION.value] == 1)
            assert [type(f) for _, f in pair.got] == [Hello, Reach]  # the greeting only

    run(body())


def test_key_beacon_gives_key_and_unreachable_daemon_is_a_clear_error() -> None:
    async def body() -> None:
        async with Pair() as pair:
            info = await pair.a.fetch_key(LOOPBACK, pair.b.beacon_port - 1)
            assert info.public_key == pair.b_id.public_key and info.name == "B"
            try:
                await pair.a.fetch_key(LOOPBACK, 9, timeout=0.3)
            except TransportError as error:
                assert "no fourwinds daemon answered" in str(error)
            else:
                raise AssertionError("no error for a dead address")

    run(body())


def test_port_in_use_is_a_clear_error() -> None:
    async def body() -> None:
        async with Pair() as pair:
            other = Transport(identity(4), lambda key: None, pair.a._on_frame)
            try:
                await other.start(LOOPBACK, pair.b.port)
            except TransportError as error:
                assert "is in use" in str(error)
            else:
                raise AssertionError("bound a port in use")

    run(body())


def test_fuzzed_frames_never_crash_and_are_each_refused() -> None:
    n = fuzz_count()
    got = asyncio.run(asyncio.wait_for(fuzz.peer_socket(n), time_limit(40)))
    assert got.sent == n
    assert got.all_accounted  # each refused with a reason, or delivered
    assert got.delivered == got.decodable  # only frames that decode reach the handler
    assert got.only_table_messages
    assert got.oversized_refused  # dropped by MAXMSGSIZE at the socket, logged
    assert got.link_after  # and the link still works afterwards


def test_curve_server_key_is_derived_from_identity() -> None:
    ident: Identity = identity(9)
    assert z85.decode(ident.curve_public_z85) == curve_public_from_ed25519(ident.public_key)
    assert zmq.curve_public(ident.curve_secret_z85) == ident.curve_public_z85


def _ask_a_fake_beacon(reply: list[object]) -> BeaconInfo | TransportError:
    """What ``fetch_key`` makes of a key beacon that answers ``reply`` (packed): the info, or
    the error it raised."""

    async def body() -> BeaconInfo | TransportError:
        async with Pair() as pair:
            ctx = zmq.asyncio.Context()
            fake = ctx.socket(zmq.ROUTER)
            fake.linger = 0
            port = fake.bind_to_random_port(f"tcp://{LOOPBACK}")
            try:

                async def answer() -> None:
                    who, _ = await fake.recv_multipart()
                    await fake.send_multipart([who, msgpack.packb(reply, use_bin_type=True)])

                task = asyncio.create_task(answer())
                try:
                    return await pair.a.fetch_key(LOOPBACK, port - 1)
                except TransportError as error:
                    return error
                finally:
                    await task
            finally:
                fake.close(0)
                ctx.destroy(0)

    return asyncio.run(asyncio.wait_for(body(), time_limit(20)))


def test_a_daemon_with_another_protocol_version_is_refused_with_reason() -> None:
    found = _ask_a_fake_beacon([0, b"k" * 32, "old", []])  # an old daemon's key beacon
    assert isinstance(found, TransportError), "an old daemon was accepted"
    assert "protocol version 0" in str(found)


@pytest.mark.parametrize(
    ("entry", "wanted"),
    [
        ([b"t" * 16, 3, "old", "mcr", False], True),  # a daemon before the option
        ([b"t" * 16, 3, "bare", "mcr", False, False], False),
        ([b"t" * 16, 3, "odd", "mcr", False, "no"], "malformed beacon answer"),
        ([b"t" * 16, 3, "toy", "pungs", False, False], False),  # a hint: the Open decides
    ],
)
def test_a_beacons_flowers_are_read_or_refused_as_malformed(
    entry: list[object], wanted: bool | str
) -> None:
    """A table's flowers in a key beacon's answer: absent reads as with flowers; a value that
    is not a bool is a malformed answer."""
    from fourwinds.daemon.peers.wire import PROTOCOL_VERSION

    found = _ask_a_fake_beacon([PROTOCOL_VERSION, identity(7).public_key, "host", [entry]])
    if isinstance(wanted, str):
        assert isinstance(found, TransportError) and wanted in str(found), found
    else:
        assert not isinstance(found, TransportError), found
        assert found.details[b"t" * 16][3] is wanted


def test_an_unknown_frame_kind_is_named_without_repeating_a_peers_big_value() -> None:
    """A refused kind's text goes to the log: a peer's nested value must not be echoed."""
    import msgpack
    import pytest

    from fourwinds.daemon.peers.wire import PROTOCOL_VERSION, FrameError, decode

    for kind, said in (
        (99, "unknown frame kind 99"),
        (2**40, "unknown frame kind of type int"),
        ({"a": [1] * 50}, "unknown frame kind of type dict"),
    ):
        with pytest.raises(FrameError) as caught:
            decode(msgpack.packb([PROTOCOL_VERSION, kind]))
        assert str(caught.value) == said
