"""The seat view of the local API: lean (no card body, only our seat's knowledge) and kept
per session state."""

from __future__ import annotations

from typing import Any

import msgpack

from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.options import DeckKind, TableOptions
from fourwinds.protocol.table.session import seat_view
from fourwinds.protocol.table.state import Phase, TableSession
from fourwinds.protocol.table.values import evolve


def _views_of_a_hand(rules: str) -> list[tuple[TableSession, dict[str, Any]]]:
    h = open_harness(rules, b"view", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    seen: list[tuple[TableSession, dict[str, Any]]] = []
    while not h.done():
        if not any(bot_moves(h, p) for p in SEATS):
            assert h.queue, "the hand stalled"
            deliver_one(h)
        s = h.sessions[1]
        if s.phase is Phase.PLAY and (not seen or seen[-1][0] is not s):
            seen.append((s, seat_view(s)))
    return seen


def test_american_view_carries_the_card_name_not_its_body() -> None:
    views = _views_of_a_hand("american")
    engine = views[-1][1]["engine"]
    assert isinstance(engine, list)
    sizes = [len(msgpack.packb(v["engine"], use_bin_type=True)) for _, v in views]
    assert max(sizes) < 4096  # the house card alone packs to ~50 KB
    assert engine[0] == "AmericanState" and isinstance(engine[2], str)  # the card's name


def test_view_is_kept_per_state_and_rebuilt_for_a_new_one() -> None:
    views = _views_of_a_hand("mcr")
    s, first = views[len(views) // 2]
    again = seat_view(s)
    assert again == first and again is not first
    again["legal_actions"] = []  # a caller may add keys to its copy...
    assert "legal_actions" not in seat_view(s)  # ...without touching the kept view
    later = evolve(s, step=s.step + 1)  # a changed session gets its own view
    assert seat_view(later)["step"] == s.step + 1
    assert seat_view(s)["step"] == s.step
