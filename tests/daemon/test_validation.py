"""Validation at the edges (issue 15): every key, name, address and option from the network,
the local API or a file is checked where it enters, with a reason, before anything stores or
uses it. Each test here failed on the code before: a key libsodium cannot convert crashed
the transport (a stored one on every start), a hostile key beacon left a half-made table and
a dead ZAP handler, a join with a bad port was an "internal error", and a table whose Open
the joiner refused was joined "ok" and then refused every second."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, cast

import msgpack
import nacl.bindings
import pytest
import zmq
import zmq.asyncio
from zeroconf.asyncio import AsyncServiceInfo
from zmq.utils import z85

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.checks import (
    BadInput,
    checked_host,
    checked_port,
    local_name,
    parse_host_port,
    peer_name,
)
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.paths import Paths, PathsError, ensure_private_dir
from fourwinds.daemon.peers.discovery import SERVICE
from fourwinds.daemon.peers.identity import BadKey, checked_public_key, curve_public_from_ed25519
from fourwinds.daemon.peers.mdns import parse_info
from fourwinds.daemon.peers.reach import Source, usable
from fourwinds.daemon.peers.wire import (
    PROTOCOL_VERSION,
    EventPeers,
    FrameError,
    Hello,
    Roster,
    decode,
    encode,
)
from fourwinds.daemon.store.disk import Store
from fourwinds.daemon.table_runtimes import real_session
from fourwinds.daemon.table_runtimes.recovery import CannotResume, resume_table
from fourwinds.daemon.table_runtimes.runtime import BadMeta, TableRuntime
from fourwinds.daemon.table_runtimes.session_port import SessionModule
from fourwinds.frontends.cli.player_config import ConfigError, load_config, parse_config
from fourwinds.frontends.client.view_shapes import view_event
from fourwinds.frontends.terminal.table_view import UiState, _head_line
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.table.machine import session as table_session
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.views.view_types import SeatView
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.text import clean_text
from testkit.procs import ROOT
from tests.daemon.helpers import identity, wait_for
from tests.daemon.test_shell import PORT, call, join, run

P = 2**255 - 19
GOOD = identity(7).public_key
ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
BAD_KEYS = {
    "32 zero bytes": (bytes(32), "32 zero bytes"),
    "the neutral point": ((1).to_bytes(32, "little"), "small or mixed order"),
    "a point of order 2": ((P - 1).to_bytes(32, "little"), "small or mixed order"),
    "a point of order 8": (ORDER_8, "small or mixed order"),
    "a mixed-order point": (
        nacl.bindings.crypto_core_ed25519_add(GOOD, ORDER_8),
        "small or mixed order",
    ),
    "a non-canonical encoding": ((P + 1).to_bytes(32, "little"), "non-canonical"),
    "x = 0 with the sign bit": ((1 | 1 << 255).to_bytes(32, "little"), "not a point"),
}


# -- keys ------------------------------------------------------------------------------------


def _seat(view: dict[str, Any]) -> SeatView:
    """The daemon's seat view as a frontend reads it (its event checked: ``view_event``)."""
    return view_event({"type": "view", "table": "t", "view": view, "legal_actions": []})["view"]


@pytest.mark.parametrize("name", list(BAD_KEYS))
def test_a_key_libsodium_cannot_convert_is_refused_with_the_reason(name: str) -> None:
    raw, reason = BAD_KEYS[name]
    with pytest.raises(BadKey, match=reason):
        checked_public_key(raw)
    with pytest.raises(BadKey):  # never libsodium's "Unexpected library error"
        curve_public_from_ed25519(raw)


def test_real_keys_pass_and_wrong_sizes_do_not() -> None:
    for seed in range(50):
        key = identity(seed).public_key
        assert checked_public_key(key) == key
        assert len(curve_public_from_ed25519(key)) == 32
    for raw in (b"", GOOD[:31], GOOD + b"\0", "ab" * 16, None):
        with pytest.raises(BadKey, match="32 bytes"):
            checked_public_key(raw)


def test_hello_and_roster_frames_with_a_bad_key_are_refused() -> None:
    assert decode(encode(Hello(GOOD, "ann", 7420))) == Hello(GOOD, "ann", 7420)
    for raw, _ in BAD_KEYS.values():
        with pytest.raises(FrameError, match="public key"):
            decode(encode(Hello(raw, "mallory", 7420)))
        members = ((GOOD, "10.0.0.1", 7420), (raw, "10.0.0.2", 7420))
        with pytest.raises(FrameError, match="member key"):
            decode(encode(Roster(b"t" * 16, "kitchen", "mcr", members)))


def test_names_from_peers_lose_control_characters_and_are_bounded() -> None:
    hello = decode(encode(Hello(GOOD, "\x1b[2J\x1b]0;owned\x07ann\u202e\n" + "x" * 200, 1)))
    assert isinstance(hello, Hello)
    assert "\x1b" not in hello.name and "\u202e" not in hello.name and "\n" not in hello.name
    assert hello.name.startswith("[2J ]0;owned ann") and len(hello.name) == 32
    roster = decode(encode(Roster(b"t" * 16, "k\x00i\x7ftchen" * 20, "mcr\r\n", ())))
    assert isinstance(roster, Roster)
    assert roster.name.startswith("k i tchen") and len(roster.name) <= 60
    assert roster.rules == "mcr"


def _announcement(
    key: bytes,
    fp: str | None = None,
    port: int = 7420,
    table: str = "kitchen",
    player: str = "x",
    **more: str,
) -> AsyncServiceInfo:
    from fourwinds.daemon.peers.identity import fingerprint

    props = {
        "v": str(PROTOCOL_VERSION),
        "id": (b"t" * 16).hex(),
        "table": table,
        "rules": "mcr",
        "free": "3",
        "private": "0",
        "fp": fp or fingerprint(key),
        "key": z85.encode(key).decode(),
        "player": player,
        **more,
    }
    return AsyncServiceInfo(
        SERVICE, f"x.{SERVICE}", port=port, properties=props, addresses=[bytes([10, 0, 0, 9])]
    )


def test_an_announcement_with_a_bad_key_or_port_is_ignored() -> None:
    found = parse_info(_announcement(GOOD, table="kit\x1b[31mchen"))
    assert found is not None and found.public_key == GOOD and found.table == "kit [31mchen"
    for raw, _ in BAD_KEYS.values():
        assert parse_info(_announcement(raw)) is None
    assert parse_info(_announcement(GOOD, port=65535)) is None  # its beacon would be 65536


def test_an_announced_player_name_is_checked_like_every_name_from_peers() -> None:
    found = parse_info(_announcement(GOOD, player="ann\x1b]0;owned\x07" + "y" * 80))
    assert found is not None and "\x1b" not in found.player and len(found.player) == 32
    assert found.player.startswith("ann ]0;owned")


def test_an_announced_table_without_flowers_is_read_and_a_malformed_flowers_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``flowers=0``: an MCR table without flowers; absent (older daemons, or flowers on)
    reads as on; any other value is ignored with the reason logged (issue 24)."""
    from fourwinds.daemon.peers.discovery import Announcement, table_txt

    on = parse_info(_announcement(GOOD))
    off = parse_info(_announcement(GOOD, flowers="0"))
    assert on is not None and on.flowers and off is not None and not off.flowers
    assert (
        table_txt(Announcement(b"t" * 16, "kitchen", "mcr", 3, False, False), GOOD, "x")["flowers"]
        == "0"
    )
    assert "flowers" not in table_txt(
        Announcement(b"t" * 16, "kitchen", "mcr", 3, False), GOOD, "x"
    )
    caplog.set_level(logging.INFO, logger="fourwinds.daemon.peers.mdns")
    assert parse_info(_announcement(GOOD, flowers="no")) is None
    assert "flowers is 0 or 1, not 'no'" in caplog.text
    # a hint, not checked against the rules (a house rule set may have no flowers by
    # nature); the table's Open decides its wall
    bare = parse_info(_announcement(GOOD, flowers="0", rules="pungs"))
    assert bare is not None and not bare.flowers


def _meta(members: list[list[Any]], host_key: bytes | None = None) -> dict[str, Any]:
    return {
        "table_id": b"t" * 16,
        "name": "kitchen",
        "rules": "mcr",
        "host_key": host_key or members[0][0],
        "private": False,
        "code": None,
        "members": members,
        "place": 1,
        "listed": True,
    }


def test_stored_metadata_is_checked_as_a_strangers_and_sets_the_table_aside(tmp_path: Path) -> None:
    good = [[GOOD, "10.0.0.1", 7420], [identity(8).public_key, "10.0.0.2", 7420]]
    assert TableRuntime.from_meta(_meta(good)).members[GOOD] == ("10.0.0.1", 7420)
    bad = [*good, [bytes(32), "10.0.0.3", 7420]]
    with pytest.raises(BadMeta, match="32 zero bytes"):
        TableRuntime.from_meta(_meta(bad))
    with pytest.raises(BadMeta, match="small or mixed order"):
        TableRuntime.from_meta(_meta(good, host_key=ORDER_8))
    for broken in (
        {**_meta(good), "place": 9},
        {**_meta(good), "members": "x"},
        {**_meta(good), "table_id": b"short"},
        {"name": "kitchen"},
    ):
        with pytest.raises(BadMeta):
            TableRuntime.from_meta(broken)
    store = Store(tmp_path)
    store.write_meta(b"t" * 16, _meta(bad))
    with pytest.raises(CannotResume, match=r"meta\.msgpack: unusable public key .* 32 zero"):
        resume_table(store, PORT, b"k" * 32, b"t" * 16)


# -- names, addresses, options --------------------------------------------------------------


def test_names_and_addresses_are_checked_with_a_reason() -> None:
    assert clean_text(" a\tb\x1b[0m\u200bc ") == "a b [0m c"
    assert peer_name(5) == "" and peer_name("x" * 100) == "x" * 32
    assert local_name(" Ann\n", "name", 32) == "Ann"
    for bad in ("", " \x07 ", 3):
        with pytest.raises(BadInput):
            local_name(bad, "name", 32)
    with pytest.raises(BadInput, match="over 32"):
        local_name("x" * 33, "name", 32)
    assert checked_host("[::1]") == "::1" and checked_host("host.lan.") == "host.lan"
    for host in ("bad host", "", "a..b", "-x.lan", "0.0.0.0", "224.0.0.251", "x" * 300, 7):
        with pytest.raises(BadInput):
            checked_host(host)
    assert checked_port(65534) == 65534
    for port in (0, -1, 65535, 70000, True, "7420", 7420.0):
        with pytest.raises(BadInput, match="port number 1-65534"):
            checked_port(port)
    assert parse_host_port("10.0.4.17:7420") == ("10.0.4.17", 7420)
    # addresses peers tell us (Reach, rosters) are kept only when they parse
    assert usable("host.lan", 7420, Source.TOLD, via="10.0.0.1")
    assert not usable("bad host", 7420, Source.TOLD, via="10.0.0.1")
    assert not usable("a" * 64 + ".lan", 7420, Source.HEARD)
    with pytest.raises(BadInput, match=r"--peer .10\.0\.4\.17:70000."):
        parse_host_port("10.0.4.17:70000", "--peer")


@pytest.mark.parametrize(
    "options",
    [
        {"hands": 65},
        {"call_window": float("nan")},
        {"call_window": 1e9},
        {"turn_window": -1},
        {"stall_after": float("inf")},
        {"next_window": 3601},
        {"deck": 3},
        {"card_name": "x" * 201},
        {"card_text": 5},
    ],
)
def test_create_refuses_what_a_joiner_would_refuse(options: dict[str, Any]) -> None:
    with pytest.raises(LocalProtocolError):
        real_session.new_table(b"k" * 32, "t", "mcr", "p", options, b"e" * 32, 0.0)
    plain = {k: v for k, v in options.items() if not k.startswith("card")}
    if plain and not isinstance(plain.get("deck"), int):  # the joiner refuses it too
        wire = TableOptions(**plain).to_wire()  # (built unchecked)
        with pytest.raises(WireError, match=next(iter(plain))):
            TableOptions.from_wire(wire)


def test_the_fair_deck_is_the_default_and_practice_is_asked_for_by_name() -> None:
    assert TableOptions().deck is DeckKind.MASKED
    assert real_session.table_options({}).deck is DeckKind.MASKED
    assert real_session.table_options({"deck": "practice"}).deck is DeckKind.PRACTICE
    step = real_session.new_table(identity(1).private_key, "t", "mcr", "p", {}, b"e" * 32, 0.0)
    opened = step.session.open
    assert opened is not None and opened.options.deck is DeckKind.MASKED
    assert real_session.seat_view(step.session)["practice"] is False
    assert "practice" not in _head_line(_seat(real_session.seat_view(step.session)), UiState())
    step = real_session.new_table(
        identity(1).private_key, "t", "mcr", "p", {"deck": "practice"}, b"e" * 32, 0.0
    )
    practice = real_session.seat_view(step.session)
    assert practice["practice"] is True
    assert "(MCR) practice" in _head_line(_seat(practice), UiState())  # the curses header says so


# -- daemons ---------------------------------------------------------------------------------


def test_a_join_with_a_bad_key_port_or_host_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    async def body(ds: list[Daemon]) -> None:
        table = (await call(ds[0], type="create", name="kitchen", rules="mcr"))["table"]
        good = {
            "table": table,
            "host": "127.0.0.1",
            "port": ds[0].transport.port,
            "public_key": ds[0].identity.public_key.hex(),
        }
        for change, reason in (
            ({"public_key": bytes(32).hex()}, "32 zero bytes"),
            ({"public_key": ORDER_8.hex()}, "small or mixed order"),
            ({"port": -1}, "port number 1-65534"),
            ({"port": 70000}, "port number 1-65534"),
            ({"host": "bad host"}, "neither an IP address"),
            ({"host": 5}, "host name or address"),
        ):
            with pytest.raises(ApiError, match=reason) as error:
                await call(ds[1], type="join", **{**good, **change})
            assert "\n" not in str(error.value) and "internal error" not in str(error.value)
            assert ds[1].tables == {}
        assert (await call(ds[1], type="join", **good))["ok"]

    run(tmp_path, 2, body)


async def _hostile_beacon(port: int, key: bytes, stop: asyncio.Event) -> None:
    """A 'daemon' whose key beacon (port + 1) announces ``key`` and one open table."""
    ctx = zmq.asyncio.Context()
    sock = ctx.socket(zmq.ROUTER)
    sock.linger = 0
    sock.bind(f"tcp://127.0.0.1:{port + 1}")
    answer = msgpack.packb(
        [PROTOCOL_VERSION, key, "mallory\x1b[2J", [[b"e" * 16, 3, "evil", "mcr", False]]],
        use_bin_type=True,
    )
    try:
        while not stop.is_set():
            if await sock.poll(50):
                who, _ = await sock.recv_multipart()
                await sock.send_multipart([who, answer])
    finally:
        sock.close(0)
        ctx.term()


def test_a_hostile_beacons_bad_key_is_refused_and_the_daemon_serves_its_guests(
    tmp_path: Path,
) -> None:
    """Before: the --peer's table was listed with the zero key, `join evil` answered
    "internal error (RuntimeError)", left a half-made table, and the victim's ZAP handler
    died, so its own guests could no longer connect."""
    from testkit.procs import free_port_pair

    async def body(ds: list[Daemon]) -> None:
        victim, guest = ds
        port = free_port_pair()
        stop = asyncio.Event()
        beacon = asyncio.create_task(_hostile_beacon(port, bytes(32), stop))
        try:
            victim.whereabouts.add_peer("127.0.0.1", port)
            assert await wait_for(
                lambda: any(
                    "unusable public key" in str(p.get("error", ""))
                    for p in victim.whereabouts.manual_seen.values()
                ),
                timeout=5,
            )
            tables = await call(victim, type="tables")
            assert tables["seen"] == [] and tables["tables"] == []
            with pytest.raises(ApiError, match="no table 'evil' is visible"):
                await call(victim, type="join", table="evil")
            assert victim.tables == {}
            assert (await call(victim, type="status"))["ok"]
            mine = (await call(victim, type="create", name="kitchen", rules="mcr"))["table"]
            assert (await join(guest, victim, mine))["ok"]  # ZAP still answers
        finally:
            stop.set()
            await beacon

    run(tmp_path, 2, body)


def _lax_host_port() -> SessionModule:
    """The real session module, but for a host whose ``create`` skips the options check (an
    old or modified fourwinds): its table asks for 65 hands."""

    def new_table(
        identity_private_key: bytes,
        name: str,
        rules: str,
        player: str,
        options: Any,
        entropy: bytes,
        now: float,
    ) -> Any:
        return table_session.new_table(
            name,
            rules,
            identity_private_key,
            entropy,
            now,
            options=TableOptions(hands=65),
            player=player,
        )

    names = {n: getattr(real_session, n) for n in dir(real_session) if not n.startswith("_")}
    return cast(SessionModule, types.SimpleNamespace(**{**names, "new_table": new_table}))


def test_a_joiner_refusing_the_tables_open_gets_one_line_and_drops_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: `join` said ok, and the joiner logged "cannot join: open: ..." every second
    for ever, the half-joined table listed by `tables`."""

    async def main() -> None:
        real = cast(SessionModule, real_session)
        host = Daemon(
            identity(300),
            Paths(tmp_path / "h", tmp_path / "h" / "run"),
            _lax_host_port(),
            name="host",
            host="127.0.0.1",
            mdns=False,
        )
        joiner = Daemon(
            identity(301),
            Paths(tmp_path / "j", tmp_path / "j" / "run"),
            real,
            name="joiner",
            host="127.0.0.1",
            mdns=False,
        )
        try:
            await host.start()
            await joiner.start()
            table = (await call(host, type="create", name="long", rules="mcr"))["table"]
            with pytest.raises(
                ApiError, match="hands must be a whole number from 0 to 64"
            ) as error:
                await join(joiner, host, table)
            assert str(error.value).startswith("cannot join")
            assert "\n" not in str(error.value)
            assert joiner.tables == {}
            assert (await call(joiner, type="tables"))["tables"] == []
            # sleep-ok: a clock: the syncer would have asked twice by now
            await asyncio.sleep(2.5)
            assert joiner.tables == {}
        finally:
            await joiner.close()
            await host.close()

    with caplog.at_level("WARNING"):
        asyncio.run(asyncio.wait_for(main(), 60))
    said = [
        r.getMessage()
        for r in caplog.records
        if "hands must be" in r.getMessage()
        and r.name.startswith("fourwinds.daemon")
        and "joiner" not in r.getMessage()
    ]
    assert len([m for m in said if "not joined" in m]) == 1, said
    assert not [m for m in said if "refused a frame" in m], said


def test_a_stored_roster_with_a_bad_key_sets_the_table_aside_and_the_daemon_starts(
    tmp_path: Path,
) -> None:
    """Before: a joiner that had pinned the zero key from a host's roster exited with
    nacl.exceptions.RuntimeError on every start."""

    async def seat(ds: list[Daemon]) -> None:
        (await call(ds[0], type="create", name="kitchen", rules="mcr"))
        (await call(ds[0], type="create", name="porch", rules="mcr"))

    run(tmp_path, 1, seat)
    store = Store(tmp_path / "d0" / "tables")
    ids = list(store.table_ids())
    kitchen = next(t for t in ids if store.read_meta(t)["name"] == "kitchen")
    meta = store.read_meta(kitchen)
    meta["members"].append([bytes(32), "127.0.0.1", 7999])
    store.write_meta(kitchen, meta)

    async def again(ds: list[Daemon]) -> None:
        tables = await call(ds[0], type="tables")
        assert [t["name"] for t in tables["tables"]] == ["porch"]
        assert [t["name"] for t in tables["set_aside"]] == ["kitchen"]
        assert "32 zero bytes" in tables["set_aside"][0]["set_aside"]
        assert (await call(ds[0], type="status"))["ok"]

    run(tmp_path, 1, again)


def test_a_join_answers_once_the_tables_open_is_taken(tmp_path: Path) -> None:
    """The join now waits for the table's Open: a session module's join still answers
    ok at once when the Open comes (the toy module here)."""

    async def body(ds: list[Daemon]) -> None:
        table = (await call(ds[0], type="create", name="kitchen", rules="mcr"))["table"]
        answer = await join(ds[1], ds[0], table)
        assert answer["ok"] and ds[1].tables[bytes.fromhex(table)].session is not None

    run(tmp_path, 2, body)


# -- files -------------------------------------------------------------------------------------


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR" or env is None}
    return subprocess.run(
        [sys.executable, "-m", "fourwinds.frontends.cli", *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={**base, **(env or {})},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


def test_a_config_file_that_is_not_utf8_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b'rules = "mcr"\nname = "caf\xe9"\n')
    with pytest.raises(ConfigError, match=r"config\.toml: not UTF-8 text \(byte 26, line 2\)"):
        load_config(path)
    done = _cli("config", "show", env={"FOURWINDS_CONFIG": str(path)})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"fourwinds: config file {path}: not UTF-8 text (byte 26, line 2); TOML files are UTF-8"
    ]


def test_config_names_and_peers_are_checked_as_the_network_s_are() -> None:
    assert parse_config('name = "Ann\\u001b[31m"').name == "Ann [31m"
    for text in ('peers = ["10.0.4.17:65535"]', 'peers = ["bad host:7420"]', 'name = "\\u0007"'):
        with pytest.raises(ConfigError):
            parse_config(text)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make another user's folder")
def test_a_foreign_runtime_or_data_folder_is_one_line_at_start(tmp_path: Path) -> None:
    """Before: `fourwinds daemon` with XDG_RUNTIME_DIR unset and a /tmp/runtime-<uid> made by
    another user ended in a PermissionError traceback."""
    if Path(f"/run/user/{os.geteuid()}").exists():
        pytest.skip("platformdirs would use /run/user/<uid>, not the temporary folder")
    runtime = tmp_path / f"runtime-{os.geteuid()}"
    runtime.mkdir(mode=0o700)
    os.chown(runtime, 4242, -1)
    env = {
        "TMPDIR": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    done = _cli("daemon", "--port", "0", "--no-mdns", env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"fourwinds: cannot use the runtime folder {runtime} is owned by uid 4242, not 0; "
        "set XDG_RUNTIME_DIR instead"
    ]
    foreign = tmp_path / "theirs"
    foreign.mkdir()
    os.chown(foreign, 4242, -1)
    with pytest.raises(PathsError, match="belongs to another user"):
        ensure_private_dir(foreign)
    done = _cli("daemon", "--port", "0", "--no-mdns", "--data-dir", str(foreign))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "belongs to another user (uid 4242)" in done.stderr


def test_a_joiner_that_hears_another_seat_before_the_open_still_joins(tmp_path: Path) -> None:
    """CI, three joins at once: a seat's message reached a joiner before the host's Open
    (other links, other timing), and the joiner gave up with "the table's Open: not a
    table's Open message". It now keeps such messages and takes them in with the Open."""

    async def body(ds: list[Daemon]) -> None:
        host, late, early = ds
        table = (await call(host, type="create", name="kitchen", rules="mcr"))["table"]
        send = host.steps.send_payload
        loop = asyncio.get_running_loop()
        held: list[bytes] = []

        def slow_open(rt: TableRuntime, key: bytes, payload: bytes) -> None:
            if key == late.identity.public_key and PORT.opens_table(payload):
                held.append(payload)
                loop.call_later(1.0, send, rt, key, payload)
                return
            send(rt, key, payload)

        host.steps.send_payload = slow_open  # type: ignore[method-assign]
        joining = asyncio.create_task(join(late, host, table))
        await wait_for(lambda: bool(held), 10)
        assert (await join(early, host, table))["ok"]  # the host seats it: a message to all
        answer = await joining
        assert answer["ok"], answer
        rt = late.tables[bytes.fromhex(table)]
        assert rt.before_open == []
        assert await wait_for(lambda: len(rt.session.seats) == 3, 10), rt.session.seats

    run(tmp_path, 3, body)


def test_an_event_peers_frame_is_bounded_and_its_keys_checked() -> None:
    """The director's hints of where a table's seats are: at most 8, each a real key with
    a host and a port 0-65535; anything else is refused with the reason."""
    good = identity(3).public_key
    frame = EventPeers(b"e" * 32, ((good, "10.0.0.2", 7420),))
    assert decode(encode(frame)) == frame
    with pytest.raises(FrameError, match="members must be a list of at most 8"):
        decode(encode(EventPeers(b"e" * 32, ((good, "h", 1),) * 9)))
    with pytest.raises(FrameError, match="member port"):
        decode(encode(EventPeers(b"e" * 32, ((good, "h", 70000),))))
    with pytest.raises(FrameError):
        decode(encode(EventPeers(b"e" * 32, ((b"\x00" * 32, "h", 1),))))
