"""An MCR table opened in the engine's tournament mode (``rules`` pair ``mode:
tournament``, which the local API takes since the rule set checks its own options): a whole
match of four bots plays through and its transcript verifies, on both decks; the mode is in
the signed Open, so every seat plays it."""

from __future__ import annotations

import pytest

from fourwinds.protocol.table.machine.harness import play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript

TOURNAMENT = (("mode", "tournament"),)


@pytest.mark.slow
@pytest.mark.parametrize("deck", [DeckKind.PRACTICE, DeckKind.MASKED])
def test_an_mcr_table_in_tournament_mode_plays_a_match_that_verifies(deck: DeckKind) -> None:
    h = play_match(
        "mcr",
        b"tournament mode " + deck.value.encode(),
        options=TableOptions(hands=2, deck=deck, rules=TOURNAMENT),
    )
    for s in h.sessions:
        assert s.phase is Phase.OVER and s.hands_played == 2
        assert s.open is not None and s.open.options.rules == TOURNAMENT
    assert len({s.step_hash for s in h.sessions}) == 1
    verdict = check_transcript(export_transcript(h.sessions[1]))
    assert verdict.ok, [p.describe() for p in verdict.problems]
