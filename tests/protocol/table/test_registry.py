"""The registry finds each rule set by its name, and each rule set answers for itself."""

from __future__ import annotations

import pytest

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.rules.registry import rule_names, rules_for, ruleset_named, ruleset_of
from fourwinds.protocol.table.rules.rotation import first_seating
from fourwinds.protocol.table.views.sheet import rules_sheet


def test_every_registered_rule_set_answers_to_its_name() -> None:
    assert rule_names() == ("american", "mcr")
    for name in rule_names():
        ruleset = ruleset_named(name)
        assert ruleset.name == name == ruleset.tile_set.name
        table = rules_for(name, "")
        assert ruleset_of(table) is ruleset
        assert rules_sheet(name)["rules"] == name
    with pytest.raises(KeyError, match="unknown rules 'toy' \\(american or mcr\\)"):
        ruleset_named("toy")


def test_mcr_rounds_start_with_the_players_seated_as_the_tournament_exchange_says() -> None:
    """Who drew E, S, W, N start the four rounds as E S W N, S E N W, W N S E, N W E S."""
    mcr = ruleset_named("mcr")
    first = first_seating(Seat.EAST)
    starts = [mcr.seating_for_hand(first, 4 * round_no, ()) for round_no in range(4)]
    drew = {place: "ESWN"[first.index(place)] for place in first}
    assert ["".join(drew[p] for p in start) for start in starts] == ["ESWN", "SENW", "WNSE", "NWES"]
    assert [mcr.prevalent_wind(n) for n in (0, 3, 4, 15, 16)] == [0, 0, 1, 3, 0]


def test_american_deal_passes_right_and_has_no_round_wind() -> None:
    american = ruleset_named("american")
    first = first_seating(Seat.SOUTH)
    assert american.seating_for_hand(first, 1, ())[Seat.EAST] == first[Seat.SOUTH]
    assert {american.prevalent_wind(n) for n in range(8)} == {0}
