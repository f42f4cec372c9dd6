"""The tournament's time call at a table: the seat whose daemon holds it says so in its
HandEnd, and the hand that HandEnd confirms is the match's last, at all four seats alike
whatever order the messages arrive in (protocol/table/machine/steps.py ``_end_hand``)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from fourwinds.protocol.american.tournament_hand import HandEnd as HandEnd_
from fourwinds.protocol.american.tournament_hand import tournament_hand
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    drive,
    open_harness,
    run,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import call_time, tick
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.machine.steps import UNFINISHED
from fourwinds.protocol.table.views.contract_view import build_seat_view
from fourwinds.protocol.table.wire.messages import Act, HandEnd, MsgKind, decode_body, encode_body
from fourwinds.protocol.table.wire.strict import WireError

PRACTICE = TableOptions(deck=DeckKind.PRACTICE, hands=4)


def _until(h: Harness, rng: random.Random, done: Callable[[Harness], bool]) -> None:
    """Play (random delivery order, bots at random moments) until ``done``."""
    for _ in range(200_000):
        if done(h) or h.done():
            return
        if (rng.randrange(3) == 0 or not h.queue) and any(bot_moves(h, p) for p in SEATS):
            continue
        if h.queue:
            deliver_one(h, rng.randrange(len(h.queue)))
            continue
        h.now += 1.0
        for place in SEATS:
            h.take(place, tick(h.sessions[place], h.now))


def _in_hand(h: Harness, seat: Seat, hand_no: int) -> bool:
    s = h.sessions[seat]
    return s.phase is Phase.PLAY and s.hand is not None and s.hand.hand_no == hand_no


def _timed_match(rules: str, seed: int, caller: Seat, hand_no: int) -> list[TableSession]:
    rng = random.Random(seed)
    h = open_harness(rules, b"clock-%d" % seed, options=PRACTICE)
    _until(h, rng, lambda h: _in_hand(h, caller, hand_no))
    assert _in_hand(h, caller, hand_no)
    h.sessions[caller] = call_time(h.sessions[caller], h.now).session
    run(h, rng)
    return h.sessions


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["mcr", "american"])
def test_the_hand_in_progress_at_the_call_is_the_last(rules: str) -> None:
    sessions = _timed_match(rules, 1, Seat(2), 1)
    for s in sessions:
        assert s.phase is Phase.OVER
        assert s.time_called and s.hands_played == 2 < s.match_hands
    assert len({s.step_hash for s in sessions}) == 1
    assert len({s.scores for s in sessions}) == 1


@pytest.mark.slow
def test_any_order_and_any_seat_gives_one_transcript() -> None:
    """Whichever seat holds the call, whatever the delivery order: the four seats agree."""
    for seed in range(6):
        sessions = _timed_match("mcr", seed, Seat(seed % 4), 0)
        assert all(s.phase is Phase.OVER and s.hands_played == 1 for s in sessions)
        assert len({s.step_hash for s in sessions}) == 1


@pytest.mark.slow
def test_without_a_call_the_match_plays_its_hands() -> None:
    h = run(open_harness("mcr", b"clock-none", options=PRACTICE), random.Random(3))
    assert all(s.hands_played == 4 and not s.time_called for s in h.sessions)


def test_hand_end_on_the_wire() -> None:
    digest = bytes(32)
    assert decode_body(MsgKind.HAND_END, encode_body(HandEnd(digest))) == HandEnd(digest)
    assert decode_body(MsgKind.HAND_END, encode_body(HandEnd(digest, True))) == HandEnd(
        digest, True
    )
    with pytest.raises(WireError):
        decode_body(
            MsgKind.HAND_END, encode_body(HandEnd(digest)).replace(b"\x91", b"\x92") + b"\xc2"
        )


def _stopped_match(seed: int, caller: Seat, steps: int) -> list[TableSession]:
    """American, the time call that stops the hand at once, told to ``caller`` ``steps``
    play steps into the first hand."""
    rng = random.Random(seed)
    h = open_harness("american", b"stop-%d" % seed, options=PRACTICE)
    _until(h, rng, lambda h: _in_hand(h, caller, 0) and h.sessions[caller].step >= steps)
    assert _in_hand(h, caller, 0)
    h.sessions[caller] = call_time(h.sessions[caller], h.now, stop_now=True).session
    _until(h, rng, lambda h: any(s.phase is Phase.HAND_END for s in h.sessions))
    for s in h.sessions:
        view = build_seat_view(s)["view"]  # the hand-over screen of a hand stopped by time
        if s.phase is Phase.HAND_END:
            assert view["result"] is not None and view["result"]["kind"] == "unfinished", view
    run(h, rng)
    return h.sessions


@pytest.mark.parametrize("seed", range(4))
def test_american_unfinished_at_the_call_scores_zero_for_everyone(seed: int) -> None:
    sessions = _stopped_match(seed, Seat(seed % 4), 8 + 5 * seed)
    for s in sessions:
        assert s.phase is Phase.OVER and s.time_called and s.hands_played == 1
        ((_, outcome, _),) = s.outcomes
        assert outcome.summary == UNFINISHED and outcome.payments == (0, 0, 0, 0)
        assert s.scores == (0, 0, 0, 0)
        assert tournament_hand(s.finals[0], s.outcomes[0][2]).end is HandEnd_.UNFINISHED
        build_seat_view(s)  # the views of a hand stopped by time still build
    assert len({s.step_hash for s in sessions}) == 1


def test_act_on_the_wire() -> None:
    assert decode_body(MsgKind.ACT, encode_body(Act([1, 2], False, True))) == Act(
        [1, 2], False, True
    )
    assert encode_body(Act([1], True)) == encode_body(Act([1], True, False))


@pytest.mark.slow
def test_a_call_heard_after_saying_next_lets_one_more_hand_be_played() -> None:
    """A seat told of the call while the table waits for "next" after its own HandEnd went
    unmarked: its mark goes with the next hand's end (docs/TOURNAMENT.md)."""

    def waiting_after_next(h: Harness) -> bool:
        s = h.sessions[Seat(1)]
        return (
            s.phase is Phase.HAND_END
            and s.hand is not None
            and s.hand.hand_no == 0
            and s.me in s.inputs
        )

    for seed in range(10):
        rng = random.Random(seed)
        h = open_harness("mcr", b"after-next-%d" % seed, options=PRACTICE)
        _until(h, rng, waiting_after_next)
        if not waiting_after_next(h):
            continue  # this order resolved the hand at once: try another
        h.sessions[Seat(1)] = call_time(h.sessions[Seat(1)], h.now).session
        run(h, rng)
        assert all(s.phase is Phase.OVER and s.hands_played == 2 for s in h.sessions)
        assert len({s.step_hash for s in h.sessions}) == 1
        return
    pytest.fail("no delivery order left seat 1 waiting after its own next")


def test_a_hand_stopped_by_time_on_the_masked_deck_is_audited_and_agreed() -> None:
    """The fair (masked) deck: the stopped hand's deck audit runs as at any hand's end."""
    h = open_harness(
        "american", b"masked-stop", options=TableOptions(deck=DeckKind.MASKED, hands=4)
    )
    called = False

    def moves(h: Harness) -> bool:
        nonlocal called
        s = h.sessions[Seat(2)]
        if not called and s.phase is Phase.PLAY and s.step >= 40:
            h.sessions[Seat(2)] = call_time(s, h.now, stop_now=True).session
            called = True
        return any(bot_moves(h, p) for p in SEATS)

    drive(h, moves)
    assert called
    for s in h.sessions:
        assert s.phase is Phase.OVER and s.time_called and s.hands_played == 1
        assert s.scores == (0, 0, 0, 0) and not s.problems
    assert len({s.step_hash for s in h.sessions}) == 1
