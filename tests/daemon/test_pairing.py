"""Private-table pairing with SPAKE2: the right code admits, a wrong one is refused."""

from __future__ import annotations

import pytest

from fourwinds.daemon.peers.pairing import (
    MAX_FAILURES,
    HostPairing,
    JoinerPairing,
    PairingError,
    new_code,
)
from fourwinds.protocol.codes import normalize_code

TABLE = b"T" * 16
J, H = b"j" * 32, b"h" * 32


def _pair(host_code: str | None, joiner_code: str | None) -> tuple[HostPairing, JoinerPairing]:
    return HostPairing(TABLE, H, host_code), JoinerPairing(TABLE, J, H, joiner_code)


def test_right_code_admits_and_both_sides_prove_it() -> None:
    host, joiner = _pair("K7QX3M", "k7q-x3m")
    reply = host.reply(J, joiner.start(), now=0.0)
    mac = joiner.confirm(reply)
    host_mac = host.check(J, mac, now=0.0)
    joiner.check_result(True, "", host_mac)


def test_wrong_table_code_is_refused() -> None:
    host, joiner = _pair("K7QX3M", "AAAAAA")
    mac = joiner.confirm(host.reply(J, joiner.start(), now=0.0))
    with pytest.raises(PairingError, match="wrong table code"):
        host.check(J, mac, now=0.0)


def test_code_never_crosses_the_wire() -> None:
    host, joiner = _pair("K7QX3M", "K7QX3M")
    start = joiner.start()
    reply = host.reply(J, start, now=0.0)
    mac = joiner.confirm(reply)
    for message in (start, reply, mac):
        assert b"K7QX3M" not in message


def test_impostor_host_is_detected_by_the_joiner() -> None:
    impostor, joiner = _pair("ZZZZZZ", "K7QX3M")
    mac = joiner.confirm(impostor.reply(J, joiner.start(), now=0.0))
    with pytest.raises(PairingError):
        impostor.check(J, mac, now=0.0)
    with pytest.raises(PairingError, match="could not prove"):
        joiner.check_result(True, "", b"\x00" * 32)


def test_private_table_without_code_is_refused_with_reason() -> None:
    host, joiner = _pair("K7QX3M", None)
    with pytest.raises(PairingError, match="private"):
        host.reply(J, joiner.start(), now=0.0)


def test_guessing_is_rate_limited() -> None:
    host = HostPairing(TABLE, H, "K7QX3M")
    for _ in range(MAX_FAILURES):
        joiner = JoinerPairing(TABLE, J, H, "AAAAAA")
        mac = joiner.confirm(host.reply(J, joiner.start(), now=1.0))
        with pytest.raises(PairingError):
            host.check(J, mac, now=1.0)
    with pytest.raises(PairingError, match="too many"):
        host.reply(J, JoinerPairing(TABLE, J, H, "K7QX3M").start(), now=2.0)
    assert not host.locked(100.0, J)


def _wrong(host: HostPairing, key: bytes, address: str, now: float) -> None:
    joiner = JoinerPairing(TABLE, key, H, "AAAAAA")
    mac = joiner.confirm(host.reply(key, joiner.start(), now, address))
    with pytest.raises(PairingError, match="wrong table code"):
        host.check(key, mac, now, address)


def test_throwaway_keys_never_lock_out_a_key_that_never_failed() -> None:
    """Issue 15, finding 5: 20 frames from 10 throwaway keys made the host refuse the friend
    with the right code for a minute (the limit was per table)."""
    host = HostPairing(TABLE, H, "K7QX3M")
    for n in range(10):
        _wrong(host, bytes([n]) * 32, "10.0.0.66", 1.0)
    friend = JoinerPairing(TABLE, J, H, "K7QX3M")  # the same address, too
    mac = friend.confirm(host.reply(J, friend.start(), 2.0, "10.0.0.66"))
    friend.check_result(True, "", host.check(J, mac, 2.0, "10.0.0.66"))
    # a throwaway key that failed is not heard from that address for the window
    with pytest.raises(PairingError, match="too many"):
        host.reply(
            bytes([3]) * 32, JoinerPairing(TABLE, bytes([3]) * 32, H, "B").start(), 3.0, "10.0.0.66"
        )
    # ...but is from elsewhere while it has few failures of its own
    host.reply(
        bytes([3]) * 32, JoinerPairing(TABLE, bytes([3]) * 32, H, "B").start(), 3.0, "10.0.0.7"
    )
    assert not host.locked(62.0, bytes([3]) * 32, "10.0.0.66")  # the window has passed


def test_codes_are_short_and_unambiguous() -> None:
    code = new_code()
    assert len(code) == 6 and normalize_code(code) == code.encode()
    assert not set(code) & set("0O1IL")
