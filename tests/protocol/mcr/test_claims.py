"""Claims on a discard (docs/RULES.md B4) and false declarations (B5, B6)."""

from __future__ import annotations

from itertools import permutations
from types import SimpleNamespace

import pytest

from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.mcr.actions import Answer, ClaimChow, ClaimPung, ClaimWin, Discard, Pass
from fourwinds.protocol.mcr.config import TableMode, TableOptions
from fourwinds.protocol.mcr.engine import apply, legal_actions
from fourwinds.protocol.mcr.events import FalseDeclaration, MeldMade
from fourwinds.protocol.mcr.hand import MeldType
from fourwinds.protocol.mcr.state import HandState, Phase
from fourwinds.protocol.mcr.table_view import news
from fourwinds.protocol.mcr.wins import reveal_of
from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from .rig import discard, hand_kinds, pass_others, rig, slots_of, tiles

E, S, W, N = SEATS
P4, P5, P6 = Kind.P4, Kind.P5, Kind.P6
EAST_HAND = "5p 1m9m 1p9p 1s9s 1z2z3z4z 5z6z7z"  # discards 5p first
TOURNAMENT = TableOptions(mode=TableMode.TOURNAMENT)


def table(
    north: str = "123456789m46p55s",
    south: str = "46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m",
    west: str = "5p5p 2p2p 3p3p 7p7p 8p8p 4s4s 3m",
    options: TableOptions | None = None,
    front: str = "",
) -> HandState:
    state = rig({E: EAST_HAND, S: south, W: west, N: north}, front=front, options=options)
    return discard(state, E, "5p")


def chow(state: HandState, seat: Seat) -> ClaimChow:
    a, b = slots_of(state, seat, [P4, P6])
    return ClaimChow(seat, (a, b), (P4, P6))


def pung(state: HandState, seat: Seat) -> ClaimPung:
    a, b = slots_of(state, seat, [P5, P5])
    return ClaimPung(seat, (a, b), (P5, P5))


def win(state: HandState, seat: Seat) -> ClaimWin:
    return ClaimWin(seat, reveal_of(state, seat))


def test_b4_chow_only_from_left_player() -> None:
    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    with pytest.raises(IllegalAction, match="left"):
        apply(state, chow(state, N))
    assert any(isinstance(a, ClaimChow) for a in legal_actions(state, S))
    assert not any(isinstance(a, ClaimChow) for a in legal_actions(state, N))
    state, _ = apply(state, chow(state, S))
    state = pass_others(state)
    assert state.phase is Phase.TURN and state.turn is S
    meld = state.seats[S].melds[0]
    assert meld.type is MeldType.CHOW and meld.claimed_from is E
    assert sorted(state.faces[s] for s in meld.slots) == [P4, P5, P6]


def test_b4_chow_from_any_player_when_the_discard_wins() -> None:
    state = table()  # North waits on 5p for 456p with a pure straight
    assert any(isinstance(a, ClaimWin) for a in legal_actions(state, N))
    state, _ = apply(state, win(state, N))
    state = pass_others(state)
    assert state.phase is Phase.ENDED and state.result is not None
    assert state.result.winner is N and state.result.discarder is E
    assert "Pure Straight" in [name for name, _, _ in state.result.fans]


def test_b4_pung_from_any_players_discard() -> None:
    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    state, _ = apply(state, pung(state, W))
    state, events = apply(apply(state, Pass(S))[0], Pass(N))
    assert state.turn is W and state.seats[W].melds[0].type is MeldType.PUNG
    assert any(isinstance(e, MeldMade) and e.claimed_from is E for e in events)


def test_b4_claimant_does_not_draw_and_discards_next() -> None:
    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    wall = state.wall
    state, _ = apply(state, pung(state, W))
    state = pass_others(state)
    assert state.wall == wall  # no draw
    assert len(state.seats[W].hand) + 3 * len(state.seats[W].melds) == 14
    assert all(isinstance(a, Discard) for a in legal_actions(state, W))
    state = discard(state, W, "3m")
    assert state.phase is Phase.CLAIMS and state.turn is W


def test_b4_claim_priority_pung_beats_chow() -> None:
    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    state, _ = apply(state, chow(state, S))
    state, _ = apply(state, pung(state, W))
    state, _ = apply(state, Pass(N))
    assert state.turn is W and not state.seats[S].melds


def test_b4_claim_priority_mahjong_beats_pung_and_chow() -> None:
    state = table()
    state, _ = apply(state, chow(state, S))
    state, _ = apply(state, pung(state, W))
    state, _ = apply(state, win(state, N))
    assert state.phase is Phase.ENDED and state.result is not None
    assert state.result.winner is N


def test_b4_several_mahjong_claims_nearest_in_turn_order_wins() -> None:
    state = table(south="123456789s46p55m")  # South also waits on 5p
    state, _ = apply(state, win(state, N))
    state, _ = apply(state, Pass(W))
    state, _ = apply(state, win(state, S))
    assert state.result is not None and state.result.winner is S
    assert sum(state.result.payments) == 0


def test_b4_window_resolves_only_when_all_three_answered() -> None:
    state = table()
    state, _ = apply(state, win(state, N))
    state, _ = apply(state, Pass(S))
    assert state.phase is Phase.CLAIMS  # West has not answered
    with pytest.raises(IllegalAction, match="already answered"):
        apply(state, Pass(N))
    with pytest.raises(IllegalAction, match="own tile"):
        apply(state, Pass(E))


@pytest.mark.parametrize("north", ["123456789m46p55s", "46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m"])
def test_b4_answer_arrival_order_never_changes_the_result(north: str) -> None:
    state = table(north=north, front="3z")
    answers: list[Answer] = [chow(state, S), pung(state, W)]
    answers.append(win(state, N) if "m46p" in north else Pass(N))
    results = set()
    for order in permutations(answers):
        final = state
        for answer in order:
            final, _ = apply(final, answer)
        results.add(final)
    assert len(results) == 1


def test_b5_friendly_table_refuses_a_false_mahjong_with_the_reason() -> None:
    state = table(north="123m234p678s234m5p")
    claim = win(state, N)
    with pytest.raises(IllegalAction, match="not a winning hand"):
        apply(state, claim)
    assert not any(isinstance(a, ClaimWin) for a in legal_actions(state, N))


def test_b6_tournament_false_mahjong_under_8_points_pays_10_each_and_hand_is_dead() -> None:
    state = table(north="123m234p678s234m5p", options=TOURNAMENT)
    state, _ = apply(state, win(state, N))
    state, events = apply(apply(state, Pass(S))[0], Pass(W))
    penalties = [e for e in events if isinstance(e, FalseDeclaration)]
    assert penalties and penalties[0].penalty_each == 10 and "points" in penalties[0].reason
    assert state.penalties == (10, 10, 10, -30)
    assert state.seats[N].dead
    assert state.phase is Phase.TURN and state.turn is S  # the discard went dead; play goes on
    assert set(state.seats[N].hand) <= state.revealed


def test_b6_tournament_mahjong_that_is_no_hand_at_all_pays_20_each() -> None:
    state = table(north="1m3m5m7m9m 2p4p6p8p 1s3s5s7s", options=TOURNAMENT)
    state, _ = apply(state, win(state, N))
    state = pass_others(state)
    assert state.penalties == (20, 20, 20, -60)


def test_b6_dead_hand_keeps_playing_but_cannot_claim_or_win() -> None:
    state = table(north="123m234p678s234m5p", options=TOURNAMENT, front="7z")
    state, _ = apply(state, win(state, N))
    state = pass_others(state)
    state = discard(state, S, "7z")
    assert legal_actions(state, N) == (Pass(N),)
    with pytest.raises(IllegalAction, match="dead hand"):
        apply(state, win(state, N))
    state = pass_others(state)
    assert state.turn is W


def test_b4_claim_must_use_matching_tiles() -> None:
    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    a, b = slots_of(state, W, tiles("2p2p"))
    with pytest.raises(IllegalAction, match="alike"):
        apply(state, ClaimPung(W, (a, b), (Kind.P2, Kind.P2)))
    x, y = slots_of(state, S, tiles("2m2m"))
    with pytest.raises(IllegalAction, match="chow"):
        apply(state, ClaimChow(S, (x, y), (Kind.M2, Kind.M2)))
    assert hand_kinds(state, W) == sorted(tiles("5p5p 2p2p 3p3p 7p7p 8p8p 4s4s 3m"))


def test_b4_a_claim_uses_exactly_its_number_of_tiles() -> None:
    state = table(west="5p5p5p 2p2p 3p3p 7p7p 8p8p 3m 4s")
    three = slots_of(state, W, [P5, P5, P5])
    with pytest.raises(IllegalAction, match="2 tiles"):
        apply(state, ClaimPung(W, three, (P5, P5, P5)))  # type: ignore[arg-type]


def test_b4_a_claimed_discard_is_shown_in_an_exposed_meld() -> None:
    from fourwinds.protocol.mcr.engine import view

    state = table(north="46p 2m2m 3s3s 6s6s 7s7s 8s8s 9m")
    state, _ = apply(state, pung(state, W))
    state = pass_others(state)
    meld = state.seats[W].melds[0]
    for seat in (E, S, N):
        assert [view(state, seat).faces[s] for s in meld.slots] == [P5, P5, P5]


def test_b5_last_tile_when_the_other_three_are_visible() -> None:
    state = table(north="123456789m46p55s", front="1z 5p")
    state, _ = apply(state, pung(state, W))  # three 5p now exposed
    state = pass_others(state)
    state = pass_others(discard(state, W, "3m"))
    assert state.turn is N
    state = pass_others(discard(state, N, "1z"))
    assert state.turn is E and state.faces[state.drawn or 0] == P5
    state = discard(state, E, "5p")  # the fourth 5p
    state, _ = apply(state, win(state, N))
    state = pass_others(state)
    assert state.result is not None and state.result.winner is N
    assert "Last Tile" in [name for name, _, _ in state.result.fans]


def test_b4_a_chow_claim_that_loses_to_a_pung_is_news_for_a_round() -> None:
    """South (next after East) claims a chow on East's 5p and West a pung: the pung takes it
    (B4), and South's seat view says why, for a round of discards (issue 22 item 13: a lost
    claim said nothing)."""
    state = table()
    state, _ = apply(state, chow(state, S))
    state, _ = apply(state, pung(state, W))
    state, _ = apply(state, Pass(N))
    assert state.turn == W and state.last_claims is not None

    def said(seat: Seat) -> list[str]:
        return news(SimpleNamespace(engine=state, me=seat))  # type: ignore[arg-type]

    assert said(S) == [
        "Your chow claim on 5p lost: West claimed pung (a pung or kong goes before a chow)"
    ]
    assert said(W) == [] and said(N) == [] and said(E) == []
    for _ in range(4):  # a round of discards later it is no news
        seat = state.turn
        state = discard(state, seat, tile_code(hand_kinds(state, seat)[-1]))
        state = pass_others(state)
    assert said(S) == []
