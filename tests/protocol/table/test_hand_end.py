"""The end of a hand: the table waits for every seat's "next" (docs/PROTOCOL.md, "Timers and
silent seats"), or for the next window to run out; bots answer at once; a table opened
before the next window (8-item options) still confirms at once."""

from __future__ import annotations

import pytest

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    bot_moves,
    deliver_one,
    open_harness,
    play_match,
    seat_key,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.session import HandNext, local_action, tick
from fourwinds.protocol.table.machine.state import Phase, Step
from fourwinds.protocol.table.machine.transcript import resume
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.wire.envelope import decode
from fourwinds.protocol.table.wire.messages import MsgKind
from testkit.payloads import unbundled

from .hand_end_helpers import (
    AMERICAN_WALL_GAME,
    MCR_DISCARD_WIN,
    all_at_hand_end,
    deliver_all,
    play_until,
    say_next,
    to_hand_end,
)


def _sent_kinds(step: Step) -> list[MsgKind]:
    kinds = []
    for out in step.outgoing:
        kinds.append(decode(unbundled(out.payload)).kind)
    return kinds


@pytest.mark.parametrize("order", [(3, 1, 0, 2), (0, 1, 2, 3)])
def test_the_table_waits_at_the_hand_end_until_every_seat_said_next(order: tuple[int, ...]) -> None:
    h = to_hand_end("mcr", MCR_DISCARD_WIN, TableOptions(deck=DeckKind.PRACTICE, hands=2))
    first = h.sessions[0].step_hash
    for place in SEATS:  # no seat has answered by itself, and time passing short of the
        step = tick(h.sessions[place], h.now + 59.0)  # window changes nothing
        assert step.outgoing == () and step.problems == ()
        view = build_seat_view(h.sessions[place], now=h.now + 1.0)
        assert view["view"]["phase"] == "hand_over" and view["view"]["next"] is not None
        assert view["view"]["next"]["waiting"] == [0, 1, 2, 3]
        assert view["view"]["next"]["deadline"] == pytest.approx(59.0)
        assert [a["type"] for a in view["legal_actions"]] == ["next"]
        assert view["legal_actions"][0]["label"] == "Next hand"
    said: list[int] = []
    for index in order:
        say_next(h, Seat(index))
        deliver_all(h)
        said.append(index)
        if len(said) < 4:
            assert all(s.phase is Phase.HAND_END for s in h.sessions)
            winds = sorted(
                int(h.sessions[0].hand.seating.index(Seat(p)))  # type: ignore
                for p in SEATS
                if p not in said
            )
            countdown = build_seat_view(h.sessions[0])["view"]["next"]
            assert countdown is not None and countdown["waiting"] == winds
            assert build_seat_view(h.sessions[said[-1]])["legal_actions"] == []
    # the next hand's dice are rolled at once (automatic messages), then its deal
    assert all(s.phase is Phase.PLAY and s.hands_played == 1 for s in h.sessions)
    assert all(s.hand is not None and s.hand.hand_no == 1 for s in h.sessions)
    assert len({s.step_hash for s in h.sessions}) == 1 and first != h.sessions[0].step_hash


def test_arrival_order_of_the_four_next_does_not_change_the_state() -> None:
    hashes = []
    for order in ((0, 1, 2, 3), (2, 3, 1, 0)):
        h = to_hand_end("mcr", MCR_DISCARD_WIN, TableOptions(deck=DeckKind.PRACTICE, hands=2))
        for place in order:
            say_next(h, Seat(place))
        for _ in range(len(h.queue)):
            deliver_one(h, len(h.queue) - 1)  # newest first
        deliver_all(h)
        hashes.append(tuple(s.step_hash for s in h.sessions))
    assert hashes[0] == hashes[1] and len(set(hashes[0])) == 1


def test_the_next_window_expires_and_each_seat_answers_by_itself() -> None:
    h = to_hand_end(
        "american",
        AMERICAN_WALL_GAME,
        TableOptions(deck=DeckKind.PRACTICE, hands=1, next_window=20),
    )
    for place in SEATS:
        assert tick(h.sessions[place], h.now + 19.9).outgoing == ()
    for place in SEATS:
        step = tick(h.sessions[place], h.now + 20.0)
        assert _sent_kinds(step) == [MsgKind.HAND_END] and step.problems == ()
        h.take(place, step)
    deliver_all(h)
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert not any(h.problems)  # answering at the window's end is no stall


def test_a_next_window_of_zero_waits_for_ever() -> None:
    h = to_hand_end(
        "mcr", MCR_DISCARD_WIN, TableOptions(deck=DeckKind.PRACTICE, hands=1, next_window=0)
    )
    for place in SEATS:
        step = tick(h.sessions[place], h.now + 100_000.0)
        assert step.outgoing == () and step.problems == ()  # no answer, no stall report
        assert step.session.phase is Phase.HAND_END
        view = build_seat_view(step.session, now=h.now + 100_000.0)["view"]
        assert view["next"] is not None
        assert view["deadline"] is None and view["next"]["deadline"] is None
        assert view["windows"]["next"] == 0
    for place in SEATS:
        say_next(h, place)
    deliver_all(h)
    assert all(s.phase is Phase.OVER for s in h.sessions)


def test_a_silent_seat_is_reported_stalled_only_past_the_next_window() -> None:
    h = to_hand_end(
        "mcr",
        MCR_DISCARD_WIN,
        TableOptions(deck=DeckKind.PRACTICE, hands=1, next_window=20, stall_after=10),
    )
    for place in (0, 1, 2):
        say_next(h, Seat(place))
    deliver_all(h)
    assert tick(h.sessions[0], h.now + 29.0).problems == ()
    late = tick(h.sessions[0], h.now + 30.0).problems
    assert [(p.kind, p.seat) for p in late if isinstance(p, Problem)] == [
        (ProblemKind.STALLED, Seat(3))
    ]


def test_a_seat_resumed_at_the_hand_end_still_waits_for_next() -> None:
    h = to_hand_end(
        "mcr", MCR_DISCARD_WIN, TableOptions(deck=DeckKind.PRACTICE, hands=1, next_window=30)
    )
    say_next(h, Seat(1))
    deliver_all(h)
    for place, said in ((Seat(0), False), (Seat(1), True)):
        s = resume(h.records[place], seat_key(h.seed, place))
        assert s.phase is Phase.HAND_END and (place in s.inputs) == said
        step = tick(s, 1000.0)  # timers restart now
        assert step.outgoing == ()
        assert tick(step.session, 1029.0).outgoing == ()
        later = tick(step.session, 1030.0)
        assert _sent_kinds(later) == ([] if said else [MsgKind.HAND_END])
        view = build_seat_view(step.session, now=1010.0)
        assert [a["type"] for a in view["legal_actions"]] == ([] if said else ["next"])
        assert view["view"]["deadline"] == pytest.approx(20.0)


@pytest.mark.slow
def test_the_masked_deck_audit_runs_before_next_is_offered() -> None:
    h = open_harness("mcr", b"audit-first", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    play_until(h, lambda h: h.sessions[0].phase is Phase.HAND_END)
    s = h.sessions[0]
    assert s.hand is not None and s.hand.deck is not None and not s.hand.audited
    assert build_seat_view(s)["legal_actions"] == []
    with pytest.raises(LocalProtocolError, match="audit"):
        local_action(s, HandNext(), h.now)
    assert tick(s, h.now + 1000.0).session.inputs == {}  # the window waits for the audit
    play_until(h, all_at_hand_end)
    s = h.sessions[0]
    assert s.hand is not None and s.hand.audited
    actions = build_seat_view(s)["legal_actions"]
    assert [a["type"] for a in actions] == ["next"]
    assert actions[0]["label"] == "See the final standings"  # a one-hand match
    assert isinstance(resolve_action(s, 0), HandNext)
    for place in SEATS:
        say_next(h, place)
    deliver_all(h)
    assert all(s.phase is Phase.OVER for s in h.sessions) and not any(h.problems)


def test_next_is_refused_outside_a_hand_end() -> None:
    h = open_harness("mcr", b"not-yet", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    play_until(h, lambda h: h.sessions[0].phase is Phase.PLAY)
    with pytest.raises(LocalProtocolError):
        local_action(h.sessions[0], HandNext(), h.now)


@pytest.mark.slow
def test_bots_play_whole_matches_without_waiting_at_hand_ends() -> None:
    for rules in ("american", "mcr"):
        h = play_match(rules, b"bots-next", options=TableOptions(deck=DeckKind.PRACTICE, hands=2))
        assert h.now == 0.0  # no timer had to run
        assert all(s.phase is Phase.OVER and s.hands_played == 2 for s in h.sessions)


@pytest.mark.slow
def test_a_table_opened_before_the_next_window_confirms_at_once() -> None:
    """8-item options (no next window): every seat sends its HAND_END by itself as soon as
    the hand is over, as before; nobody is asked for "next"."""
    old = TableOptions(deck=DeckKind.PRACTICE, hands=2, next_window=None)
    assert len(old.to_wire()) == 8
    h = open_harness("mcr", b"old-table", options=old)
    for _ in range(200_000):
        if h.done():
            break
        s0 = h.sessions[0]
        assert not (s0.phase is Phase.HAND_END and build_seat_view(s0)["legal_actions"])
        if any(bot_moves(h, p) for p in SEATS if h.sessions[p].phase is not Phase.HAND_END):
            continue
        assert h.queue, "the table waits at the hand's end"
        deliver_one(h)
    assert all(s.phase is Phase.OVER and s.hands_played == 2 for s in h.sessions)
