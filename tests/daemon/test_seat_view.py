"""The seat view the daemon sends on the local API (real_session.seat_view): plain, small, and
naming the places the table waits for.

(Moved from tests/protocol/table/test_engines.py, where it checked ``session.seat_view``, a
second seat view only tests used; the daemon's is the one a frontend gets.)"""

from __future__ import annotations

import msgpack

from fourwinds.daemon.table_runtimes.real_session import seat_view
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions

ONE = TableOptions(deck=DeckKind.PRACTICE, hands=1)


def test_seat_view_is_plain_and_names_whom_we_wait_for() -> None:
    for rules in ("american", "mcr"):
        h = open_harness(rules, b"view", options=ONE)
        for _ in range(300):
            if not any(bot_moves(h, p) for p in SEATS):
                deliver_one(h)
        view = seat_view(h.sessions[1])
        packed = msgpack.packb(view, use_bin_type=True)
        assert msgpack.unpackb(packed, raw=False)["session"]["phase"] == "play"
        assert len(packed) < 20_000
        s = h.sessions[1]
        assert view["session"]["waiting_for"] == sorted(
            int(p) for p in s.awaiting if p not in s.inputs
        )
        if s.me in s.awaiting and s.me not in s.inputs:
            assert view["legal_actions"]
