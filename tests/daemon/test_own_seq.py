"""A resumed seat's question to the others about its last number (table_runtimes/own_seq.py) and the
frames that carry it."""

from __future__ import annotations

import pytest

from fourwinds.daemon.peers.wire import AskHeads, FrameError, Heads, Kind, decode, encode
from fourwinds.daemon.table_runtimes.own_seq import OwnSeqCheck

A, B, C = b"a" * 32, b"b" * 32, b"c" * 32


def test_a_resumed_seat_waits_for_every_member_until_its_deadline() -> None:
    check = OwnSeqCheck(place=2, until=10.0, waiting={A, B, C})
    assert "asking the other seats" in check.holds(own_last=40, now=1.0)
    check.heard(A, (5, 6, 40, 7))
    check.heard(B, (5, 6, 39, 7))
    assert "asking the other seats" in check.holds(own_last=40, now=1.0)
    assert check.holds(own_last=40, now=10.0) == ""  # C unreachable: the deadline ends it
    check.heard(C, (5, 6, 40, 7))
    assert check.holds(own_last=40, now=1.0) == ""


def test_a_member_holding_more_of_ours_holds_our_seat_past_the_deadline() -> None:
    check = OwnSeqCheck(place=1, until=10.0, waiting={A})
    check.heard(A, (3, 52, 9, 9))
    why = check.holds(own_last=40, now=99.0)
    assert "up to number 52" in why and "end at 40" in why
    assert check.holds(own_last=52, now=99.0) == ""


def test_ask_heads_and_heads_frames_round_trip_and_are_checked() -> None:
    table = b"t" * 16
    assert decode(encode(AskHeads(table))) == AskHeads(table)
    assert decode(encode(Heads(table, (1, -1, 3, 4)))) == Heads(table, (1, -1, 3, 4))
    with pytest.raises(FrameError, match="ASK_HEADS frame has 2 fields"):
        decode(
            encode(Heads(table, (1, 2, 3, 4))).replace(
                bytes([Kind.HEADS]), bytes([Kind.ASK_HEADS]), 1
            )
        )
    with pytest.raises(FrameError, match="table id"):
        decode(encode(AskHeads(b"short")))
