"""The seat view names a place the daemon cannot reach (issue 14): who, for how long and
where it was last reached, in ``unreachable`` and, when the table waits for it, in
``phase_detail``; the player's ``connected`` flag follows."""

from __future__ import annotations

import pytest

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import Unreachable, build_seat_view


def _waiting_for(place: int) -> TableSession:
    """Seat 0's session at a moment of a real MCR hand when the table waits for ``place``
    (and not for seat 0)."""
    h = open_harness("mcr", b"unreachable", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    for _ in range(40_000):
        s = h.sessions[0]
        waiting = {int(p) for p in s.awaiting if p not in s.inputs}
        if s.phase is Phase.PLAY and place in waiting and 0 not in waiting:
            return s
        if not any(bot_moves(h, p) for p in SEATS):
            if h.queue:
                deliver_one(h)
            else:
                h.now += 1.0
    raise AssertionError(f"the table never waited for place {place}")


def test_the_view_names_the_unreachable_seat_with_its_last_address() -> None:
    s = _waiting_for(2)
    assert s.hand is not None and s.hand.seating is not None
    wind = int(wind_of(s.hand.seating, Seat(2)))
    plain = build_seat_view(s)["view"]
    assert plain["unreachable"] == [] and "unreachable" not in plain["phase_detail"]
    view = build_seat_view(s, unreachable=[Unreachable(2, 12, "169.254.1.3:7420")])["view"]
    name = view["players"][wind]["name"]
    assert view["unreachable"] == [
        {"seat": wind, "name": name, "for_s": 12, "last_address": "169.254.1.3:7420"}
    ]
    assert view["phase_detail"] == (
        f"Waiting for {name}: unreachable for 12 s, last address 169.254.1.3:7420"
    )
    assert [p["connected"] for p in view["players"]] == [w != wind for w in range(4)]
    # a seat the table does not wait for is listed, and the detail says what it was
    other = build_seat_view(s, unreachable=[Unreachable(1, 5, "")])["view"]
    assert [u["for_s"] for u in other["unreachable"]] == [5]
    assert other["phase_detail"] == plain["phase_detail"]
    with pytest.raises(ValueError, match="0-3"):
        build_seat_view(s, unreachable=[Unreachable(4, 1, "")])
