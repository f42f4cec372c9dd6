"""Answers kept with the value they are about (protocol/memo.py), and a copy made with
``values.evolve`` starting without them (issue 25: caches held by their values, not by id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from fourwinds.protocol.deck.masked_wall import WallState
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.masked import _all_opened
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.values import evolve


def test_an_evolved_deck_state_starts_with_an_empty_memo() -> None:
    state = WallState()
    state.memo.table("answers")["asked"] = 1
    copy = evolve(state, audited=True)
    assert copy.audited and copy.memo is not state.memo
    assert copy.memo.table("answers") == {}
    assert state.memo.table("answers") == {"asked": 1}


def test_a_value_without_a_memo_is_copied_as_before() -> None:
    @dataclass(frozen=True)
    class Plain:
        a: int
        b: tuple[int, ...]

    value = Plain(1, (2,))
    assert evolve(value, a=3) == Plain(3, (2,))


def test_whether_a_seat_sees_all_it_holds_is_kept_with_each_deck_state() -> None:
    proof = cast(Any, b"proof")
    me = Seat(0)
    state = WallState(
        holder=(me, None),
        faces={0: next(iter(Kind))},
        proofs={0: {Seat(1): proof, Seat(2): proof, Seat(3): proof}},
    )
    assert _all_opened(state, me)
    assert state.memo.table("all opened") == {me: True}
    hidden = evolve(state, faces={})  # the copy's answer is its own, not the original's
    assert not _all_opened(hidden, me)
    assert _all_opened(state, me)
