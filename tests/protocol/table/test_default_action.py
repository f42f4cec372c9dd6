"""What a timeout does on a player's own turn (issue 22, 12): the built-in bot's discard,
never a joker and never a winning hand thrown away. The rules adapter's ``default_action``
is both what the seat's timer takes (``session.tick``) and what the view marks default."""

from __future__ import annotations

import random

from fourwinds.protocol.american import actions as AA
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.engine import apply as american_apply
from fourwinds.protocol.american.engine import legal_actions
from fourwinds.protocol.american.state import AmericanState
from fourwinds.protocol.american.table_rules import AmericanRules
from fourwinds.protocol.mcr import actions as MA
from fourwinds.protocol.mcr.state import Phase
from fourwinds.protocol.mcr.table_rules import MCRRules
from fourwinds.protocol.tiles import Kind

from ..american.engine_fixtures import E, S, W, answer_rest, discard, play_state, slot_of, slots_of
from ..mcr import rig as mcr

EAST_2468 = "222m444m6666m888m5p"  # 2468-1 but for 8m, holding a 5p


def _west_after_a_joker_exchange() -> AmericanState:
    """South calls East's 5p with 5p J J and discards; West draws, then exchanges its 5p for
    a joker of South's pung: the joker is the last tile in West's rack."""
    state = play_state(
        {E: EAST_2468, S: "5pJJ 2s3s4s6s7s8s9s 1z2z3z", W: "5p5p 1s2s3s4s6s7s8s9s 5z6z7z"}
    )
    state, _ = discard(state, E, "5p")
    call = AA.Call(
        S, (slot_of(state, S, "5p"), *slots_of(state, S, "J", 2)), (Kind.P5, Kind.JOKER, Kind.JOKER)
    )
    state, _ = answer_rest(state, {S: call})
    state, _ = discard(state, S, "1z")
    state, _ = answer_rest(state)
    assert state.turn == W
    joker = next(x for e in state.exposures[S] for x in e.slots if state.faces[x] == Kind.JOKER)
    state, _ = american_apply(state, AA.ExchangeJoker(W, slot_of(state, W, "5p"), Kind.P5, joker))
    assert state.faces[state.hands[W][-1]] == Kind.JOKER
    return state


def test_after_a_joker_exchange_the_default_discard_is_not_the_joker() -> None:
    state = _west_after_a_joker_exchange()
    rules = AmericanRules()
    default = rules.default_action(state, W)
    assert isinstance(default, AA.Discard)
    assert default.face != Kind.JOKER
    assert default in legal_actions(state, W)
    assert default == rules.default_action(state, W)  # the view's default is the timeout's


def test_the_default_discard_is_a_tile_the_bots_plan_spares() -> None:
    """The timeout lets go of a tile the built-in bot's target does not use."""
    state = _west_after_a_joker_exchange()
    default = AmericanRules().default_action(state, W)
    assert isinstance(default, AA.Discard)
    plan = AmericanBot(W, house_card(), random.Random(0)).plan(state)
    assert default.face in plan.surplus


def test_a_complete_american_hand_is_declared_not_thrown_away() -> None:
    """South draws the 8m that makes 2468-1: the drawn tile was the default discard."""
    state = play_state({E: "5p 1p2p3p4p6p7p9p 1s2s3s4s 7z7z", S: "222m444m6666m888m"}, draws="8m")
    state, _ = discard(state, E, "5p")
    state, _ = answer_rest(state)
    assert state.turn == S
    default = AmericanRules().default_action(state, S)
    assert isinstance(default, AA.DeclareMahjong)


def test_an_mcr_winning_draw_is_declared_not_discarded() -> None:
    """South draws 5s to 123456789m 567p 55s (Pure Straight): the drawn tile was the
    default discard, throwing the win away."""
    state = mcr.rig({E: "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z", S: "123456789m567p5s"}, front="5s")
    state = mcr.pass_others(mcr.discard(state, E, "5p"))
    assert state.phase is Phase.TURN and state.turn == S
    default = MCRRules().default_action(state, S)
    assert isinstance(default, MA.DeclareWin)


def test_an_mcr_default_discard_keeps_the_drawn_tile_the_hand_needs() -> None:
    """South holds 123456789m 56p 5s 1z and draws 7p: the timeout lets the 1z go, leaving
    the hand ready on 5s (the drawn 7p was the default, breaking the hand)."""
    state = mcr.rig({E: "5p 1m9m 1p9p 1s9s 2z3z4z 5z6z7z 6s", S: "123456789m56p5s1z"}, front="7p")
    state = mcr.pass_others(mcr.discard(state, E, "5p"))
    assert state.turn == S
    default = MCRRules().default_action(state, S)
    assert default == MA.Discard(S, mcr.slot_of(state, S, Kind.EAST), Kind.EAST)


def test_an_mcr_flower_in_hand_is_laid_out_before_any_discard() -> None:
    """South drew a flower and discarded without laying it out; on its next turn it draws
    7p: the timeout lays the flower out (a point and a replacement tile) before it discards
    anything. The drawn 7p was the default, so a player who pressed Enter at each turn kept
    the flower in hand for the whole hand."""
    state = mcr.rig(
        {E: "5p 1m9m 1p9p 1s9s 2z3z4z 5z6z7z 6s", S: "123456789m56p5s1z"}, front="1f 9m 9p 9s 7p"
    )
    state = mcr.pass_others(mcr.discard(state, E, "5p"))
    assert state.turn == S and state.drawn is not None
    assert state.faces[state.drawn] == Kind.FLOWER_1
    state = mcr.pass_others(mcr.discard(state, S, "5s"))  # the flower stays in hand
    for _ in range(3):  # West, North, East
        state = mcr.pass_others(mcr.tsumogiri(state))
    assert state.phase is Phase.TURN and state.turn == S and state.drawn is not None
    assert state.faces[state.drawn] == Kind.P7
    flower = mcr.slot_of(state, S, Kind.FLOWER_1)
    assert MCRRules().default_action(state, S) == MA.ExposeFlower(S, flower, Kind.FLOWER_1)
