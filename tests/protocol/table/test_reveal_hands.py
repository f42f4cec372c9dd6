"""At a hand's end every seat's concealed tiles are revealed in the seat view (issue 22,
"beyond the defects"): the same at the four seats, each seat's list equal to the tiles that
seat itself holds (what it was dealt and drew, less its discards and melds), with the practice
deck at once and with the masked deck only once its audit is over."""

from __future__ import annotations

from typing import Any

import pytest

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, open_harness, restart
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view
from fourwinds.protocol.table.views.reveal import AUDIT_FAILED, AUDIT_RUNNING
from fourwinds.protocol.values import evolve

from .hand_end_helpers import (
    AMERICAN_DISCARD_WIN,
    AMERICAN_WALL_GAME,
    MCR_DISCARD_WIN,
    MCR_DRAW,
    play_until,
    to_hand_end,
)

CASES = [
    ("mcr", MCR_DISCARD_WIN),
    ("mcr", MCR_DRAW),
    ("american", AMERICAN_DISCARD_WIN),
    ("american", AMERICAN_WALL_GAME),
]


def _view(h: Harness, place: Seat) -> dict[str, Any]:
    view: dict[str, Any] = dict(build_seat_view(h.sessions[place])["view"])
    return view


def _own_racks(h: Harness) -> list[list[str]]:
    """By wind: the concealed tiles each seat holds as that seat itself knows them (its own
    engine: the tiles it was dealt and drew, less those it discarded, melded or passed)."""
    racks: list[list[str]] = [[], [], [], []]
    for place in SEATS:
        s = h.sessions[place]
        assert s.hand is not None and s.hand.seating is not None
        racks[wind_of(s.hand.seating, place)] = _view(h, place)["hand"]
    return racks


@pytest.mark.slow
@pytest.mark.parametrize("deck", [DeckKind.PRACTICE, DeckKind.MASKED])
@pytest.mark.parametrize(("rules", "seed"), CASES)
def test_every_seat_sees_every_seats_tiles_at_the_hands_end(
    rules: str, seed: bytes, deck: DeckKind
) -> None:
    h = to_hand_end(rules, seed, TableOptions(deck=deck, hands=1))
    results = [_view(h, place)["result"] for place in SEATS]
    hands = results[0]["hands"]
    assert hands is not None and results[0]["hands_detail"] == ""
    assert all(r["hands"] == hands and r["hands_detail"] == "" for r in results)
    # every seat's own rack; the winner's hand as the result lays it out (with the discard
    # it won on, which MCR keeps apart from its rack)
    winner = results[0]["winner"]
    racks = _own_racks(h)
    if winner is not None:
        assert hands[winner] == results[0]["concealed"]
        racks[winner] = results[0]["concealed"]
    assert hands == racks
    players = _view(h, Seat(0))["players"]
    assert all(
        len(tiles) == p["concealed_count"]
        for w, (tiles, p) in enumerate(zip(hands, players, strict=True))
        if w != winner
    )


def test_a_seat_restarted_at_the_hands_end_shows_the_same_hands() -> None:
    h = to_hand_end("mcr", MCR_DISCARD_WIN, TableOptions(deck=DeckKind.MASKED, hands=1))
    before = _view(h, Seat(2))["result"]["hands"]
    restart(h, Seat(2))
    play_until(
        h, lambda h: not h.queue and h.sessions[2].hand is not None and h.sessions[2].hand.audited
    )
    assert _view(h, Seat(2))["result"]["hands"] == before is not None


def test_masked_hands_are_not_shown_until_the_audit_is_over() -> None:
    h = open_harness(
        "american", AMERICAN_DISCARD_WIN, options=TableOptions(deck=DeckKind.MASKED, hands=1)
    )
    play_until(h, lambda h: any(s.phase is Phase.HAND_END for s in h.sessions))
    place = next(p for p in SEATS if h.sessions[p].phase is Phase.HAND_END)
    hand = h.sessions[place].hand
    assert hand is not None and not hand.audited
    result = _view(h, place)["result"]
    assert result["hands"] is None and result["hands_detail"] == AUDIT_RUNNING


def test_no_hands_are_shown_after_an_audit_that_blamed_a_seat() -> None:
    h = to_hand_end("mcr", MCR_DRAW, TableOptions(deck=DeckKind.MASKED, hands=1))
    s = h.sessions[1]
    assert s.hand is not None
    h.sessions[1] = evolve(s, hand=evolve(s.hand, revealed=()))  # as an audit with a blame
    result = _view(h, Seat(1))["result"]
    assert result["hands"] is None and result["hands_detail"] == AUDIT_FAILED
