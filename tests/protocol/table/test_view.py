"""The seat view of the local API (contract_view.build_seat_view): lean (no card body, only our
seat's knowledge) and kept per session state.

(These checks were written against ``session.seat_view``, a second seat view only tests used;
they hold for the one the daemon sends.)"""

from __future__ import annotations

from typing import Any, cast

import msgpack
import pytest

from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.canonical import to_plain
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.views.contract_view import build_seat_view
from fourwinds.protocol.table.views.view_types import SeatViewEvent
from fourwinds.protocol.values import evolve


def _views_of_a_hand(rules: str) -> list[tuple[TableSession, SeatViewEvent]]:
    h = open_harness(rules, b"view", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    seen: list[tuple[TableSession, SeatViewEvent]] = []
    while not h.done():
        if not any(bot_moves(h, p) for p in SEATS):
            assert h.queue, "the hand stalled"
            deliver_one(h)
        s = h.sessions[1]
        if s.phase is Phase.PLAY and (not seen or seen[-1][0] is not s):
            seen.append((s, build_seat_view(s)))
    return seen


@pytest.mark.slow
def test_american_view_carries_no_card_body() -> None:
    views = _views_of_a_hand("american")
    sizes = [len(msgpack.packb(v, use_bin_type=True)) for _, v in views]
    assert max(sizes) < 4096  # the house card alone packs to ~50 KB
    assert len(msgpack.packb(to_plain(house_card()), use_bin_type=True)) > 10 * 4096


@pytest.mark.slow
def test_view_is_kept_per_state_and_rebuilt_for_a_new_one() -> None:
    views = _views_of_a_hand("mcr")
    s, first = views[len(views) // 2]
    again = build_seat_view(s)
    assert again == first and again is not first
    # a caller may add keys to its copy...
    cast(dict[str, Any], again["view"])["legal_actions"] = []
    assert "legal_actions" not in build_seat_view(s)["view"]  # ...without touching the kept one
    later = evolve(s, scores=tuple(x + 1 for x in s.scores))  # a changed session: its own view
    assert [p["score"] for p in build_seat_view(later)["view"]["players"]] == [
        p["score"] + 1 for p in first["view"]["players"]
    ]
    assert build_seat_view(s) == first
