"""MCR engine basics: the deal, turn order, illegal actions, views and hidden information."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.actions import (
    ClaimKong,
    ClaimPung,
    DeclareWin,
    Discard,
    FlowersDone,
    Pass,
)
from fourwinds.protocol.mcr.bots import choose
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.engine import (
    apply,
    learn,
    legal_actions,
    new_hand,
    public_digest,
    seats_to_act,
    view,
)
from fourwinds.protocol.mcr.events import DiscardDead, TileDrawn, TilesSeen
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.tileset import MCR_TILES, mcr_plan
from fourwinds.protocol.mcr.wins import reveal_of
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.walls import LiveWall

from .rig import discard, hand_kinds, pass_others, rig, tiles

E, S, W, N = SEATS


def shuffled(seed: int) -> list[Kind]:
    faces = list(MCR_TILES)
    random.Random(seed).shuffle(faces)
    return faces


def test_b3_deal_east_14_others_13_from_the_four_dice_break() -> None:
    dice = (3, 4, 2, 5)
    state, events = new_hand(TableOptions(), shuffled(1), dice)
    plan = mcr_plan(dice)
    assert [len(state.seats[s].hand) for s in SEATS] == [14, 13, 13, 13]
    assert all(state.seats[s].hand == plan.deal[s] for s in SEATS)
    assert state.wall.remaining == 91
    assert state.phase is Phase.FLOWERS and state.turn is E
    private = [e for e in events if isinstance(e, TilesSeen)]
    assert {e.audience for e in private} == set(SEATS)


def test_b1_a_hand_needs_the_144_mcr_tiles() -> None:
    faces = shuffled(2)
    faces[0] = faces[1] = Kind.FLOWER_1
    with pytest.raises(ValueError, match="MCR"):
        new_hand(TableOptions(), faces, (1, 1, 1, 1))
    with pytest.raises(ValueError, match="144"):
        new_hand(TableOptions(), faces[:100], (1, 1, 1, 1))


def test_illegal_action_raises_with_reason_and_leaves_state_unchanged() -> None:
    state = rig({E: "123m456p789s1122z5z", S: "123m456p789s1122z"})
    before = state
    digest = public_digest(state)
    slot = state.seats[S].hand[0]
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Discard(S, slot, state.faces[slot]))
    east_slot = state.seats[E].hand[0]
    with pytest.raises(IllegalAction, match="does not hold"):
        apply(state, Discard(E, east_slot, Kind.RED))
    with pytest.raises(IllegalAction, match="nothing to answer"):
        apply(state, Pass(S))
    assert state == before and public_digest(state) == digest


def test_b4_turn_passes_to_the_right_after_an_unclaimed_discard() -> None:
    state = rig({E: "123m456p789s1122z5z"}, front="7z")
    state = discard(state, E, "5z")
    assert state.phase is Phase.CLAIMS
    state, _ = apply(state, Pass(S))
    assert state.phase is Phase.CLAIMS  # still waiting for West and North
    state = pass_others(state)
    assert state.phase is Phase.TURN and state.turn is S
    assert tiles("7z")[0] in hand_kinds(state, S)
    assert state.seats[E].discards == (state.seats[E].discards[-1],)


def test_b4_unclaimed_discard_is_dead() -> None:
    state = rig({E: "123m456p789s1122z5z"})
    state = discard(state, E, "5z")
    state, _ = apply(state, Pass(S))
    state, _ = apply(state, Pass(W))
    state, events = apply(state, Pass(N))
    dead = [e for e in events if isinstance(e, DiscardDead)]
    assert len(dead) == 1 and state.faces[dead[0].slot] == Kind.WHITE
    assert dead[0].slot in state.seats[E].discards
    assert not any(isinstance(a, Pass) for a in legal_actions(state, W))


def test_view_hides_other_seats_concealed_tiles() -> None:
    state = rig({E: "123m456p789s1122z5z"})
    state = discard(state, E, "5z")
    seen = view(state, S)
    for slot in state.seats[S].hand:
        assert seen.faces[slot] == state.faces[slot]
    for other in (E, W, N):
        assert all(seen.faces[s] == Kind.HIDDEN for s in state.seats[other].hand)
    assert seen.faces[state.pending or 0] == Kind.WHITE  # the discard is public
    undrawn = state.wall.live[state.wall.front]
    assert seen.faces[undrawn] == Kind.HIDDEN


def test_learn_adds_private_faces_and_refuses_a_conflict() -> None:
    state = rig({E: "123m456p789s1122z5z"})
    masked = view(state, S)
    slot = state.seats[E].hand[0]
    learned = learn(masked, {slot: state.faces[slot]})
    assert learned.faces[slot] == state.faces[slot]
    assert public_digest(learned) == public_digest(masked)
    with pytest.raises(IllegalAction, match="already known"):
        learn(learned, {slot: Kind.RED})


def _seat_engines(state: HandState) -> dict[Seat, HandState]:
    return {seat: view(state, seat) for seat in SEATS}


@pytest.mark.parametrize("seed", [3, 4])
def test_four_hidden_information_engines_agree_with_the_full_one(seed: int) -> None:
    """Each seat's engine sees only its own tiles, learns its draws, applies every action and
    ends with the same public digest as the full-information engine at every step."""
    state, _ = new_hand(TableOptions(), shuffled(seed), (2, 5, 6, 1))
    engines = _seat_engines(state)
    steps = 0
    while state.phase is not Phase.ENDED and steps < 3000:
        actor = seats_to_act(state)[0]
        action = choose(engines[actor], actor, random.Random(steps))
        assert action is not None
        state, events = apply(state, action)
        for seat in SEATS:
            engines[seat], _ = apply(engines[seat], action)
            for event in events:
                if (
                    isinstance(event, (TilesSeen, TileDrawn))
                    and getattr(event, "audience", None) in (None, seat)
                    and event.seat == seat
                ):
                    slots = event.slots if isinstance(event, TilesSeen) else (event.slot,)
                    engines[seat] = learn(engines[seat], {s: state.faces[s] for s in slots})
        digest = public_digest(state)
        assert all(public_digest(engines[s]) == digest for s in SEATS)
        steps += 1
    assert state.phase is Phase.ENDED
    assert all(engines[s].result == state.result for s in SEATS)


def test_legal_actions_in_the_flower_phase_is_only_the_seat_on_turn() -> None:
    state, _ = new_hand(TableOptions(), shuffled(5), (1, 2, 3, 4))
    assert legal_actions(state, S) == ()
    actions = legal_actions(state, E)
    assert actions and all(a.seat == E for a in actions)
    if actions == (FlowersDone(E),):
        state, _ = apply(state, FlowersDone(E))
        assert state.turn is S


def _one_tile_left(state: HandState) -> HandState:
    """The same hand with every live tile but the next one already gone."""
    live = state.wall.live
    return replace(state, wall=LiveWall(live, 0, len(live) - 1))


def test_b3_hand_is_a_draw_when_the_wall_is_exhausted() -> None:
    state = _one_tile_left(rig({E: "123m456p789s1122z5z"}, front="7z"))
    state = pass_others(discard(state, E, "5z"))
    assert state.wall.remaining == 0 and state.turn is S
    state = pass_others(discard(state, S, "7z"))
    assert state.phase is Phase.ENDED and state.result is not None
    assert state.result.winner is None and state.result.payments == (0, 0, 0, 0)


def test_b5_last_tile_draw_is_scored_on_the_last_wall_tile() -> None:
    state = rig({E: "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z", S: "123456789m567p5s"}, front="5s")
    state = pass_others(discard(_one_tile_left(state), E, "5p"))
    assert state.wall.remaining == 0
    state, _ = apply(state, DeclareWin(S, reveal_of(state, S)))
    assert state.result is not None
    assert "Last Tile Draw" in [name for name, _, _ in state.result.fans]


def test_b4_no_kong_without_a_tile_left_for_its_replacement() -> None:
    state = rig(
        {
            E: "123m678p789s1122z5z",
            S: "5p 1m9m 1p9p 1s9s 1z2z3z4z 6z7z",
            W: "5p5p5p 2p2p 3p3p 7p7p 8p8p 3m 4s",
        }
    )
    state = pass_others(discard(_one_tile_left(state), E, "5z"))
    assert state.wall.remaining == 0 and state.turn is S
    state = discard(state, S, "5p")
    options = legal_actions(state, W)
    assert any(isinstance(a, ClaimPung) for a in options)
    assert not any(isinstance(a, ClaimKong) for a in options)
    three = tuple(s for s in state.seats[W].hand if state.faces[s] == Kind.P5)
    with pytest.raises(IllegalAction, match="no tile is left"):
        apply(state, ClaimKong(W, (three[0], three[1], three[2]), (Kind.P5,) * 3))


def test_seats_to_act_names_the_seats_the_hand_waits_for() -> None:
    state = rig({E: "123m456p789s1122z5z"})
    assert seats_to_act(state) == (E,)
    state = discard(state, E, "5z")
    assert seats_to_act(state) == (S, W, N)
    state, _ = apply(state, Pass(W))
    assert seats_to_act(state) == (S, N)
    assert seats_to_act(view(state, N)) == seats_to_act(state)


def test_legal_actions_need_the_seats_own_tiles() -> None:
    state = rig({E: "123m456p789s1122z5z"})
    assert legal_actions(view(state, S), E) == ()  # South's engine cannot see East's hand
    assert legal_actions(view(state, E), E) == legal_actions(state, E)
