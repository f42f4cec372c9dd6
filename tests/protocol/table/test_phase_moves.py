"""The step machine as tables (issue 25): ``PHASE_MOVES`` says where each phase may lead,
``steps._RESOLVERS`` what resolves a complete step of each phase, ``steps._AUTO`` our own
automatic input there; a move the table does not list is refused."""

from __future__ import annotations

from typing import cast

import pytest

from fourwinds.protocol.table.machine import steps
from fourwinds.protocol.table.machine.acc import Acc
from fourwinds.protocol.table.machine.harness import open_harness, run
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import PHASE_MOVES, STEP_PHASES, Phase, TableSession


def test_every_phase_has_its_moves_and_every_step_phase_a_resolver() -> None:
    assert set(PHASE_MOVES) == set(Phase)
    assert set(steps._RESOLVERS) == STEP_PHASES - {Phase.WALL}  # the deck's own steps
    assert set(steps._AUTO) <= STEP_PHASES and Phase.READY not in steps._AUTO
    assert all(not PHASE_MOVES[end] for end in (Phase.OVER, Phase.HALTED))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "deck"), [("mcr", DeckKind.MASKED), ("american", DeckKind.PRACTICE)]
)
def test_a_match_moves_only_as_the_table_says(
    rules: str, deck: DeckKind, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: set[tuple[Phase, Phase]] = set()
    start = steps.start_step

    def watched(
        s: TableSession, phase: Phase, acc: Acc, *args: object, **kwargs: object
    ) -> TableSession:
        seen.add((s.phase, phase))
        return start(s, phase, acc, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(steps, "start_step", watched)
    h = run(
        open_harness(rules, b"moves-" + rules.encode(), options=TableOptions(deck=deck, hands=2))
    )
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert all(to in PHASE_MOVES[frm] for frm, to in seen), seen
    dice = {
        (Phase.COMMIT, Phase.ECHO),
        (Phase.ECHO, Phase.REVEAL),
        (Phase.PLAY, Phase.HAND_END),
        (Phase.HAND_END, Phase.COMMIT),
        (Phase.HAND_END, Phase.OVER),
    }
    dealt = (Phase.REVEAL, Phase.WALL) if deck is DeckKind.MASKED else (Phase.REVEAL, Phase.PLAY)
    assert dice | {dealt} <= seen


@pytest.mark.slow
def test_a_move_the_table_does_not_list_is_refused() -> None:
    h = run(open_harness("mcr", b"refused", options=TableOptions(hands=1)))
    over = h.sessions[0]
    assert over.phase is Phase.OVER
    with pytest.raises(AssertionError, match="no step leads from over to play"):
        steps.start_step(over, Phase.PLAY, cast(Acc, None), ())  # refused first
