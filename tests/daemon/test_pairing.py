"""Private-table pairing with SPAKE2: the right code admits, a wrong one is refused."""

from __future__ import annotations

import pytest

from fourwinds.daemon.pairing import (
    MAX_FAILURES,
    HostPairing,
    JoinerPairing,
    PairingError,
    new_code,
    normalize_code,
)

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
    assert not host.locked(now=100.0)


def test_codes_are_short_and_unambiguous() -> None:
    code = new_code()
    assert len(code) == 6 and normalize_code(code) == code.encode()
    assert not set(code) & set("0O1IL")
