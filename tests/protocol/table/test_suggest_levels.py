"""``suggest`` at each bot level, at an in-memory table: every seat's suggestion is one of
its view's offered actions and the hand plays to its end (the path a `fourwinds bot --rules
--bot-level` seat takes through its daemon)."""

from __future__ import annotations

import pytest

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.harness import Harness, drive, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import local_action
from fourwinds.protocol.table.views.contract_view import resolve_action
from fourwinds.protocol.table.views.suggest import offered, suggest

LEVELS = (BotLevel.STRONG, BotLevel.EASY, BotLevel.NORMAL, BotLevel.STRONG)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["mcr", "american"])
def test_each_level_suggests_an_offered_action_to_the_end_of_a_hand(rules: str) -> None:
    h = open_harness(
        rules, b"levels-" + rules.encode(), options=TableOptions(deck=DeckKind.PRACTICE, hands=1)
    )

    def moves(h: Harness) -> bool:
        moved = False
        for place in SEATS:
            s = h.sessions[place]
            found = suggest(s, h.seed, LEVELS[place])
            if found is None:
                continue
            assert found.entry in offered(s)
            action = resolve_action(s, int(found.entry["id"]), found.tiles, found.entry)
            h.take(place, local_action(s, action, h.now))
            moved = True
        return moved

    drive(h, moves)
    assert h.sessions[0].outcomes, "the hand did not finish"
