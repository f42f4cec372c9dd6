"""A resumed table's catch-up (table_runtimes/catching_up.py): behind while a member holds more of
a seat than we do, and never past RECONNECT_MAX_S."""

from __future__ import annotations

from fourwinds.daemon.table_runtimes.catching_up import RECONNECT_MAX_S, CatchingUp


def test_behind_until_we_hold_what_the_members_said_they_hold() -> None:
    work = CatchingUp(until=100.0 + RECONNECT_MAX_S)
    assert not work.behind([5, 3, 3, 3], 100.0)  # nobody answered: nothing known ahead
    work.heard((5, 7, 3, 3))
    work.heard((5, 6, 4, 3))  # the most any member holds, per seat
    assert work.heads == [5, 7, 4, 3]
    assert work.behind([5, 6, 4, 3], 101.0)
    assert not work.behind([5, 7, 4, 3], 101.0)
    assert not work.behind([5, 6, 4, 3], 100.0 + RECONNECT_MAX_S)  # bounded
