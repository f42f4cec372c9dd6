"""Signing, verification and strict decoding of wire messages."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.wire.codec import ActionCodec, encode
from fourwinds.protocol.table.wire.envelope import (
    MAX_CARRIED,
    ZERO_HASH,
    BadSignature,
    bundle,
    decode,
    is_bundle,
    private_key_from_bytes,
    public_key_bytes,
    public_key_from_bytes,
    seal,
    unbundle,
    verify,
)
from fourwinds.protocol.table.wire.messages import (
    Act,
    MsgKind,
    Open,
    decode_body,
    encode_body,
)
from fourwinds.protocol.table.wire.strict import WireError, pack, unpack
from fourwinds.protocol.tiles import Kind

from .toy_rules import Discard, Take

KEY = private_key_from_bytes(hashlib.sha256(b"k").digest())
PUB = public_key_from_bytes(public_key_bytes(KEY))
TABLE = bytes(range(16))


def sample(body: bytes = b"\x91\xc0", to: Seat | None = None) -> bytes:
    return seal(
        KEY,
        version=1,
        table=TABLE,
        seat=Seat.WEST,
        seq=3,
        prev=ZERO_HASH,
        step=7,
        state=bytes(32),
        to=to,
        kind=MsgKind.ACT,
        body=body,
    ).encode()


def test_signed_message_round_trips_and_verifies() -> None:
    env = decode(sample())
    verify(env, PUB)
    assert (env.seat, env.seq, env.step, env.kind) == (Seat.WEST, 3, 7, MsgKind.ACT)


def test_identity_key_comes_from_passed_in_bytes_only() -> None:
    assert public_key_bytes(private_key_from_bytes(bytes(32))) == public_key_bytes(
        private_key_from_bytes(bytes(32))
    )
    with pytest.raises(ValueError):
        private_key_from_bytes(b"short")


def test_every_changed_byte_is_caught() -> None:
    payload = sample()
    caught = 0
    for i in range(len(payload)):
        changed = bytearray(payload)
        changed[i] ^= 0x01
        try:
            verify(decode(bytes(changed)), PUB)
        except WireError:
            caught += 1
    assert caught == len(payload)


def test_changed_body_names_the_alteration() -> None:
    env = decode(sample())
    forged = decode(pack([*unpack(env.encode())[:11], b"\x91\xc3"]))
    with pytest.raises(BadSignature, match="altered"):
        verify(forged, PUB)


def test_redacted_private_message_still_verifies_and_keeps_its_hash() -> None:
    env = decode(sample(to=Seat.EAST))
    red = decode(env.redacted().encode())
    verify(red, PUB)
    assert red.body is None and red.msg_hash == env.msg_hash


@given(st.binary(max_size=300))
@settings(max_examples=200)
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    try:
        decode(data)
    except WireError as error:
        assert error.problem


def test_oversized_message_is_refused_by_size() -> None:
    with pytest.raises(WireError, match="over the limit"):
        decode(b"\x00" * (300 * 1024))


def test_unknown_version_is_refused() -> None:
    items = unpack(sample())
    items[0] = 99
    with pytest.raises(WireError, match="version 99"):
        decode(pack(items))


def test_bad_field_type_names_the_field() -> None:
    items = unpack(sample())
    items[3] = "three"
    with pytest.raises(WireError, match="seq"):
        decode(pack(items))


def test_open_body_round_trips_with_options() -> None:
    body = Open(
        "t",
        "mcr",
        "",
        "",
        TableOptions(call_window=5.0, hands=8, rules=(("hot_wall", True),)),
        (1, 1),
        bytes(32),
        "me",
    )
    assert decode_body(MsgKind.OPEN, encode_body(body)) == body


def test_malformed_body_names_the_problem() -> None:
    with pytest.raises(WireError, match="act"):
        decode_body(MsgKind.ACT, pack(["x"]))
    with pytest.raises(WireError, match="options"):
        decode_body(MsgKind.OPEN, pack(["t", "mcr", "", "", [1], [1, 1], bytes(32), ""]))
    assert decode_body(MsgKind.ACT, encode_body(Act([1], False))) == Act([1], False)


def test_action_codec_is_strict() -> None:
    codec = ActionCodec((Discard, Take))
    action = Take(Seat.SOUTH, (3, 4), (Kind.P5, Kind.P5))
    assert codec.decode(encode(action)) == action
    with pytest.raises(WireError, match="unknown action type"):
        codec.decode(["Explode", 1])
    with pytest.raises(WireError, match=r"Discard\.face"):
        codec.decode(["Discard", 0, 5, 99])
    with pytest.raises(WireError, match=r"Discard\.slot"):
        codec.decode(["Discard", 0, "five", 4])
    with pytest.raises(WireError, match="fields"):
        codec.decode(["Discard", 0, 5])


def test_a_bundle_carries_redacted_messages_and_unbundles_strictly() -> None:
    main = sample()
    carried = [decode(sample(to=Seat.EAST)).redacted().encode()]
    payload = bundle(main, carried)
    assert is_bundle(payload) and not is_bundle(main)
    assert unbundle(payload) == (main, tuple(carried))
    for bad, reason in (
        (pack([main]), "expected 2 items"),
        (pack([main, [1]]), "carried message"),
        (pack([main, [b"x"] * (MAX_CARRIED + 1)]), "over the limit"),
    ):
        with pytest.raises(WireError, match=reason):
            unbundle(bad)


@pytest.mark.slow
def test_the_direct_deck_decoders_agree_with_the_general_one() -> None:
    # deck_wire decodes key deliveries and signed reveals directly; on every message of a
    # masked hand, and on altered copies, it must give what the strict general path gives
    # (or leave the message to it).
    from fourwinds.protocol.table.machine.harness import play_match
    from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
    from fourwinds.protocol.table.wire import deck_wire
    from fourwinds.protocol.table.wire.messages import DeckMsg, MsgKind, decode_body

    h = play_match("mcr", b"deck-wire", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    plains = []
    for chain in h.sessions[0].chains:
        for env in chain.accepted:
            if env.kind is MsgKind.DECK and env.body is not None:
                body = decode_body(MsgKind.DECK, env.body)
                assert isinstance(body, DeckMsg)
                plains.append(body.message)
    direct = [p for p in plains if deck_wire._common(p) is not None]
    assert len(direct) > 20
    for plain in plains:
        fast = deck_wire._common(plain)
        assert fast is None or fast == deck_wire._general(plain)
    odd: list[object] = []
    replacements: tuple[object, ...] = (True, None, "x", -1, 7, b"", [], 2**70)
    for plain in direct:
        inner: list[Any] = plain[1] if plain[0] == "Signed" else plain
        for i in range(1, len(inner)):
            for value in replacements:
                changed = list(inner)
                changed[i] = value
                odd.append(["Signed", changed, plain[2]] if plain[0] == "Signed" else changed)
        proofs = inner[-1]
        for j in range(4):
            for value in replacements:
                proof = list(proofs[0])
                proof[j] = value
                changed = [*inner[:-1], [proof, *proofs[1:]]]
                odd.append(["Signed", changed, plain[2]] if plain[0] == "Signed" else changed)
    for plain in odd:
        fast = deck_wire._common(plain)
        try:
            general = deck_wire._general(plain)
        except WireError:
            assert fast is None
            continue
        assert fast is None or fast == general
