"""Kongs (docs/RULES.md B4): exposed, concealed, added; replacement draws; robbing the kong."""

from __future__ import annotations

import pytest

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.actions import (
    AddedKong,
    ClaimKong,
    ClaimPung,
    ClaimWin,
    ConcealedKong,
    DeclareWin,
    Pass,
)
from fourwinds.protocol.mcr.engine import apply, learn, legal_actions, public_digest, view
from fourwinds.protocol.mcr.events import DrawSource, KongRobbed, MeldMade, TileDrawn
from fourwinds.protocol.mcr.hand import MeldType
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.wins import reveal_of
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.tiles import Kind

from .rig import discard, pass_others, rig, slots_of, tiles, tsumogiri

E, S, W, N = SEATS
EAST_HAND = "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z"


def fans(state: HandState) -> list[str]:
    assert state.result is not None
    return [name for name, _, _ in state.result.fans]


def test_b4_exposed_kong_from_a_discard_then_replacement_from_the_far_end() -> None:
    state = rig({E: EAST_HAND, W: "5p5p5p 2p2p 3p3p 7p7p 8p8p 3m 4s"}, back="6z")
    last = state.wall.live[-1]
    state = discard(state, E, "5p")
    slots = slots_of(state, W, tiles("5p5p5p"))
    state, _ = apply(
        state, ClaimKong(W, (slots[0], slots[1], slots[2]), (Kind.P5, Kind.P5, Kind.P5))
    )
    state, events = apply(pass_others(state, but=[N]), Pass(N))
    drawn = [e for e in events if isinstance(e, TileDrawn)]
    assert drawn and drawn[0].slot == last and drawn[0].source is DrawSource.KONG_REPLACEMENT
    assert state.turn is W and state.seats[W].melds[0].type is MeldType.KONG
    assert state.faces[last] == Kind.WHITE + 1  # the 6z placed at the far end
    assert state.may_declare  # a replacement tile is a draw


def _south_draws(south: str, front: str, back: str = "") -> HandState:
    state = rig({E: EAST_HAND, S: south}, front=front, back=back)
    state = discard(state, E, "5p")
    return pass_others(state)


def test_b4_concealed_kong_on_own_turn_is_laid_face_down() -> None:
    state = _south_draws("2m2m2m 3s3s 6s6s 7s7s 8s8s 9m1m", front="2m", back="7z")
    kong = next(a for a in legal_actions(state, S) if isinstance(a, ConcealedKong))
    state, events = apply(state, kong)
    made = next(e for e in events if isinstance(e, MeldMade))
    assert made.concealed and made.faces == (Kind.HIDDEN,) * 4
    assert state.seats[S].melds[0].concealed
    for other in (E, W, N):
        assert all(view(state, other).faces[s] == Kind.HIDDEN for s in made.slots)
    assert state.drawn_source is DrawSource.KONG_REPLACEMENT and state.turn is S


def test_b5_out_with_replacement_tile_after_a_concealed_kong() -> None:
    state = _south_draws("2m2m2m 123456789p 5s", front="2m", back="5s")
    kong = next(a for a in legal_actions(state, S) if isinstance(a, ConcealedKong))
    full, _ = apply(state, kong)
    # A hidden-information engine (West's) follows and can score South's win.
    west = view(state, W)
    west, _ = apply(west, kong)
    winning = reveal_of(full, S)
    full, _ = apply(full, DeclareWin(S, winning))
    west, _ = apply(west, DeclareWin(S, winning))
    assert "Out with Replacement Tile" in fans(full) and "Concealed Kong" in fans(full)
    assert west.result == full.result
    assert public_digest(west) == public_digest(learn(view(full, W), {}))


def _pung_then_draw_fourth(north: str) -> HandState:
    """East discards 5p, South pungs it, and four turns later South draws the last 5p."""
    state = rig(
        {
            E: EAST_HAND,
            S: "5p5p 2m2m 3s3s 6s6s 7s7s 8s8s 9m",
            W: "2p2p 3p3p 7p7p 8p8p 4s4s 3m 1m 9p",
            N: north,
        },
        front="1z 2z 3z 5p",
    )
    state = discard(state, E, "5p")
    a, b = slots_of(state, S, tiles("5p5p"))
    state, _ = apply(state, ClaimPung(S, (a, b), (Kind.P5, Kind.P5)))
    state = pass_others(state)
    assert not state.may_declare
    with pytest.raises(IllegalAction, match="after drawing"):
        apply(state, AddedKong(S, state.seats[S].hand[0], state.faces[state.seats[S].hand[0]]))
    state = discard(state, S, "9m")
    for _ in range(3):  # West, North, East draw and discard
        state = tsumogiri(pass_others(state))
    state = pass_others(state)
    assert state.turn is S and state.faces[state.drawn or 0] == Kind.P5
    return state


def test_b4_added_kong_becomes_a_kong_when_nobody_robs_it() -> None:
    state = _pung_then_draw_fourth("46p 2m2m 3s3s 6s6s 7s7s 4m 9s 1s")
    added = next(a for a in legal_actions(state, S) if isinstance(a, AddedKong))
    state, _ = apply(state, added)
    assert state.phase is Phase.ROB and state.pending == added.slot
    state, events = apply(pass_others(state, but=[N]), Pass(N))
    assert state.seats[S].melds[0].type is MeldType.KONG
    assert len(state.seats[S].melds[0].slots) == 4
    assert any(isinstance(e, TileDrawn) and e.source is DrawSource.KONG_REPLACEMENT for e in events)


def test_b4_added_kong_needs_an_exposed_pung_of_that_tile() -> None:
    state = _pung_then_draw_fourth("46p 2m2m 3s3s 6s6s 7s7s 4m 9s 1s")
    slot = slots_of(state, S, tiles("2m"))[0]
    with pytest.raises(IllegalAction, match="no exposed pung"):
        apply(state, AddedKong(S, slot, Kind.M2))


def test_b4_robbing_the_kong() -> None:
    state = _pung_then_draw_fourth("123456789m46p55s")  # North waits on 5p
    added = next(a for a in legal_actions(state, S) if isinstance(a, AddedKong))
    state, _ = apply(state, added)
    assert any(isinstance(a, ClaimWin) for a in legal_actions(state, N))
    assert not any(isinstance(a, ClaimPung) for a in legal_actions(state, W))
    state, _ = apply(state, ClaimWin(N, reveal_of(state, N)))
    state, events = apply(pass_others(state, but=[W]), Pass(W))
    assert any(isinstance(e, KongRobbed) for e in events)
    assert state.result is not None and state.result.winner is N
    assert state.result.discarder is S  # the robbed player pays as the discarder
    assert "Robbing the Kong" in fans(state)
    assert state.seats[S].melds[0].type is MeldType.PUNG
