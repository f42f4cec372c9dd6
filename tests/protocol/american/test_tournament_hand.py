"""An American hand's end by table place, as a tournament's points count it
(protocol/american/tournament_hand.py): played matches of four bots, the deal moving round
the table, each hand read back against the engine's own result."""

from __future__ import annotations

import pytest

from fourwinds.protocol.american.tournament_hand import (
    HandEnd,
    american_hand_points,
    tournament_hand,
)
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.harness import play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions


@pytest.mark.slow
def test_each_hand_is_read_by_place_with_the_engines_winner_value_and_discarder() -> None:
    seen = set()
    for n in range(3):
        h = play_match(
            "american",
            f"tournament hand {n}".encode(),
            options=TableOptions(deck=DeckKind.PRACTICE, hands=4, fixed_winds=True),
        )
        s = h.sessions[0]
        assert len(s.finals) == len(s.outcomes) == 4
        for final, (hand_no, outcome, seating) in zip(s.finals, s.outcomes, strict=True):
            assert seating[SEATS[0]] == hand_no % 4  # the deal moves round the table
            hand = tournament_hand(final, seating)
            result = final.result
            assert result is not None
            points = american_hand_points(hand)
            if outcome.winner is None:
                seen.add("wall")
                assert hand.end is HandEnd.WALL_GAME
                assert all(points[seating[w]] == (0 if final.dead[w] else 10) for w in SEATS)
                continue
            seen.add("self" if result.self_drawn else "discard")
            assert hand.end is HandEnd.MAHJONG and hand.value == result.value > 0
            assert hand.winner == seating[outcome.winner]
            assert points[hand.winner] >= result.value
            if result.self_drawn:
                assert hand.discarder is None and sum(p < 0 for p in points) == 0
            else:
                assert result.discarder is not None
                assert hand.discarder == seating[result.discarder]
                assert points[hand.discarder] < 0
                assert hand.discarder_exposures == len(final.exposures[result.discarder])
    assert "discard" in seen or "self" in seen, seen
