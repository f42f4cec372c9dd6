"""The American pooling option (docs/RULES.md A4.5) at the table: PoolIn/PoolTake travel as actions,
pooled tiles are opened through the deck, and every seat ends the hand in the same state."""

from __future__ import annotations

import pytest

from fourwinds.protocol.american import actions as A
from fourwinds.protocol.american import events as E
from fourwinds.protocol.american.state import CharlestonStep
from fourwinds.protocol.american.table_rules import AmericanRules, engine_options
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.harness import play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import EngineEvent, Phase
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript
from fourwinds.protocol.tiles import Kind

POOLING = (("pooling", True),)


def test_a4_5_pooling_option_reaches_the_engine() -> None:
    assert engine_options(POOLING).pooling
    assert not engine_options(()).pooling  # default off


@pytest.mark.slow
@pytest.mark.parametrize("deck", [DeckKind.MASKED, DeckKind.PRACTICE])
def test_a4_5_pooling_hand_at_the_table(deck: DeckKind) -> None:
    h = play_match("american", b"pool-1", options=TableOptions(hands=1, deck=deck, rules=POOLING))
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert len({s.step_hash for s in h.sessions}) == 1
    assert all(not p for p in h.problems), h.problems
    pooled = [
        e.event for e in h.events[0] if isinstance(e, EngineEvent) and isinstance(e.event, E.Pooled)
    ]
    assert len(pooled) == 4
    put = {slot: face for p in pooled for slot, face in zip(p.slots, p.faces, strict=True)}
    assert put, "the bots pooled nothing: pick another seed"
    for s in h.sessions:  # every seat's engine knows every pooled face
        assert s.hand is not None
        for slot, face in put.items():
            assert s.hand.engine.faces[slot] == face
    verdict = check_transcript(export_transcript(h.sessions[0]))
    assert verdict.ok, verdict.problems


def test_pooling_actions_travel_and_default() -> None:
    rules = AmericanRules()
    action = A.PoolIn(Seat.SOUTH, (3, 9), (Kind.P1, Kind.M9))
    assert rules.decode_action(rules.encode_action(action)) == action
    take = A.PoolTake(Seat.WEST, (3,))
    assert rules.decode_action(rules.encode_action(take)) == take
    assert rules.claimed_faces(None, action) == {3: Kind.P1, 9: Kind.M9}
    ops = rules.deck_ops((E.Pooled(Seat.SOUTH, (3, 9), (Kind.P1, Kind.M9)),))
    assert [(op.kind.value, op.slots) for op in ops] == [("reveal", (3, 9))]


def test_pooling_defaults_put_nothing_in_and_take_what_is_owed() -> None:
    from dataclasses import replace

    from fourwinds.protocol.american import engine

    rules = AmericanRules()
    state = engine.new_hand(rules.card, (Kind.HIDDEN,) * 152, (3, 4), engine_options(POOLING))[0]
    pool_step = replace(state, step=CharlestonStep.POOL)
    assert rules.default_action(pool_step, Seat.EAST) == A.PoolIn(Seat.EAST, (), ())
    take_step = replace(state, step=CharlestonStep.POOL_TAKE)
    assert rules.default_action(take_step, Seat.NORTH) == A.PoolTake(Seat.NORTH, ())
