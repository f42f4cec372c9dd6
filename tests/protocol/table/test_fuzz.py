"""Hostile but validly signed input never crashes a seat running a real engine."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    open_harness,
    seat_key,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.session import handle_message
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.wire.envelope import bundle, private_key_from_bytes, seal
from fourwinds.protocol.table.wire.messages import Act, MsgKind, encode_body

NAMES = [
    "Discard",
    "ClaimPung",
    "ClaimWin",
    "Pass",
    "ExposeFlower",
    "ConcealedKong",
    "AddedKong",
    "DeclareWin",
    "FlowersDone",
    "ClaimChow",
    "Explode",
]
plain = st.recursive(
    st.one_of(
        st.integers(-5, 200), st.booleans(), st.none(), st.binary(max_size=4), st.text(max_size=4)
    ),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=12,
)


def _at_play() -> Harness:
    h = open_harness("mcr", b"fuzz", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    while h.sessions[0].phase is not Phase.PLAY:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    while h.queue:
        deliver_one(h)
    return h


HARNESS = _at_play()
_REAL = [env.encode() for chain in HARNESS.sessions[1].chains for env in chain.accepted[-6:]]
"""Real messages of all four seats (most already held by seat 0: duplicates)."""


@pytest.mark.slow
@given(st.sampled_from(NAMES), st.lists(plain, max_size=4))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_signed_nonsense_action_is_refused_with_a_reason(name: str, fields: list[object]) -> None:
    s = HARNESS.sessions[0]
    sender = next(p for p in SEATS if p in s.awaiting)
    chain = s.chains[sender]
    action = [name, int(s.hand.seating.index(sender)) if s.hand and s.hand.seating else 0, *fields]
    env = seal(
        private_key_from_bytes(seat_key(HARNESS.seed, sender)),
        version=1,
        table=s.table,
        seat=Seat(sender),
        seq=chain.next_seq,
        prev=chain.head,
        step=s.step,
        state=s.step_hash,
        to=None,
        kind=MsgKind.ACT,
        body=encode_body(Act(action, False)),
    )
    step = handle_message(s, env.encode(), 1.0)
    kinds = {p.kind for p in step.problems}  # type: ignore[attr-defined]
    accepted = step.session.step != s.step or sender in step.session.inputs
    if not accepted:
        assert kinds <= {ProblemKind.MALFORMED, ProblemKind.ILLEGAL_ACTION, ProblemKind.FALSE_FACE}
        assert kinds


@given(
    st.lists(st.one_of(st.binary(max_size=40), st.sampled_from(_REAL)), max_size=5),
    st.sampled_from(_REAL),
    st.booleans(),
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_bundle_of_odd_parts_is_refused_or_taken_never_a_crash(
    carried: list[bytes], message: bytes, shuffle: bool
) -> None:
    # Bundles (docs/PROTOCOL.md): whatever a bundle carries, a seat either takes what is
    # valid or reports what is not; it never crashes and never halts on it.
    s = HARNESS.sessions[0]
    parts = carried[::-1] if shuffle else carried
    step = handle_message(s, bundle(message, parts), 1.0)
    assert step.session.halted is None
    kinds = {p.kind for p in step.problems}  # type: ignore[attr-defined]
    assert kinds <= {
        ProblemKind.MALFORMED,
        ProblemKind.BAD_SIGNATURE,
        ProblemKind.WRONG_TABLE,
        ProblemKind.OUT_OF_TURN,
        ProblemKind.DIVERGENCE,
        ProblemKind.MISSING,
    }
