"""The event session's tables: who may send which frame, what a submitted record is, and
what taken records lead to (protocol/tournament/session/admission.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fourwinds.protocol.tournament.records import (
    Admit,
    Body,
    Entry,
    NewDirector,
    RoundStart,
    SeedCommit,
    SeedReveal,
    Withdraw,
    WithdrawnBy,
)
from fourwinds.protocol.tournament.session.admission import (
    FRAME_SENDERS,
    GUEST_FRAMES,
    TAKEN_LEADS,
    Follows,
    FrameRefused,
    Sender,
    SubmitRefused,
    Submitted,
    TakenSteps,
    admit_frame,
    after_taken,
    route_submitted,
)

EVENT = b"e" * 32
DIRECTOR = b"d" * 32
ENTRANT = b"a" * 32
STRANGER = b"s" * 32


def test_a_guest_may_only_find_ask_and_enter() -> None:
    assert {"EventFind", "EventAsk", "EventEnter"} == GUEST_FRAMES
    for kind in FRAME_SENDERS:
        if kind in GUEST_FRAMES:
            assert admit_frame(kind, STRANGER, True, DIRECTOR, ()) is Sender.ANYONE
        else:
            with pytest.raises(FrameRefused) as refused:
                admit_frame(kind, STRANGER, True, DIRECTOR, (ENTRANT,))
            assert refused.value.guest


def test_only_the_director_calls_a_round_or_tells_peers() -> None:
    for kind in ("EventCall", "EventPeers"):
        assert admit_frame(kind, DIRECTOR, False, DIRECTOR, (ENTRANT,)) is Sender.DIRECTOR
        for key in (ENTRANT, STRANGER):
            with pytest.raises(FrameRefused) as refused:
                admit_frame(kind, key, False, DIRECTOR, (ENTRANT,))
            assert not refused.value.guest


def test_only_members_submit_and_unknown_frames_are_refused() -> None:
    assert admit_frame("EventSubmit", ENTRANT, False, DIRECTOR, (ENTRANT,)) is Sender.MEMBER
    with pytest.raises(FrameRefused):
        admit_frame("EventSubmit", STRANGER, False, DIRECTOR, (ENTRANT,))
    with pytest.raises(FrameRefused):
        admit_frame("EventSubmit", ENTRANT, False, None, ())  # an event not held
    with pytest.raises(FrameRefused):
        admit_frame("Hello", ENTRANT, False, DIRECTOR, (ENTRANT,))


def test_the_director_takes_only_an_entrants_own_steps() -> None:
    own = SeedCommit(EVENT, 0, ENTRANT, b"c" * 32)
    assert route_submitted(own, ENTRANT, directs=True) is Submitted.OWN_STEP
    with pytest.raises(SubmitRefused):
        route_submitted(own, STRANGER, directs=True)  # another's step
    quit_ = Withdraw(EVENT, ENTRANT, WithdrawnBy.PLAYER, "")
    assert route_submitted(quit_, ENTRANT, directs=True) is Submitted.OWN_STEP
    with pytest.raises(SubmitRefused):  # only the director withdraws another
        route_submitted(Withdraw(EVENT, ENTRANT, WithdrawnBy.DIRECTOR, "late"), ENTRANT, True)
    with pytest.raises(SubmitRefused):
        route_submitted(Entry(EVENT, ENTRANT, "ann"), ENTRANT, directs=True)
    with pytest.raises(FrameRefused):  # we do not direct the event
        route_submitted(own, ENTRANT, directs=False)


def test_what_taken_records_lead_to() -> None:
    entry = Entry(EVENT, ENTRANT, "ann")
    assert after_taken([entry], DIRECTOR, DIRECTOR) == TakenSteps(spread=True)
    assert after_taken([entry], ENTRANT, DIRECTOR) == TakenSteps()  # an entrant relays none
    assert after_taken([entry, START], ENTRANT, DIRECTOR) == TakenSteps(open_tables=True)
    assert after_taken([START], DIRECTOR, DIRECTOR) == TakenSteps(True, True, True)
    assert Follows.SPREAD_BY_TAKER in TAKEN_LEADS[NewDirector]


START = RoundStart(EVENT, 0, (), (), b"s" * 32, b"\0" * 32)
BODIES: list[Body] = [
    Entry(EVENT, ENTRANT, "ann"),
    Admit(EVENT, ENTRANT),
    SeedCommit(EVENT, 0, ENTRANT, b"c" * 32),
    SeedReveal(EVENT, 0, ENTRANT, b"n" * 16),
    Withdraw(EVENT, ENTRANT, WithdrawnBy.PLAYER, ""),
    START,
]


@given(st.lists(st.sampled_from(BODIES), max_size=8), st.randoms(use_true_random=False))
def test_the_order_records_are_taken_in_never_changes_what_follows(
    taken: list[Body], shuffle: random.Random
) -> None:
    reordered = list(taken)
    shuffle.shuffle(reordered)
    for me in (DIRECTOR, ENTRANT):
        assert after_taken(taken, me, DIRECTOR) == after_taken(reordered, me, DIRECTOR)
