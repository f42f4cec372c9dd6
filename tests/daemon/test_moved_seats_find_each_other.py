"""Two seats restarted on new ports find each other through the host (daemon/app.py
``learn``): the bot seats of `fourwinds play` restart on new loopback ports after a Q and
know only the host's address (--peer); before, each listed the other as unreachable for
ever, and their messages crossed only through the host's catch-up, once a second. The host
tells the others a seat's new address (its roster) as soon as that seat reached it there."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from testkit.procs import free_port_pair, request
from tests.daemon.test_real_table import RealTable

pytestmark = pytest.mark.slow


def _alive(table: RealTable, i: int) -> dict[int, bool]:
    """Whether daemon ``i`` reaches each other seat, by place."""
    listed = table.query(i, type="tables")["tables"]
    return {int(m["place"]): bool(m["alive"]) for m in listed[0]["members"]}


def test_two_seats_restarted_on_new_ports_reach_each_other_through_the_host(tmp_path: Path) -> None:
    table = RealTable(tmp_path, "mcr", "practice")
    try:
        table.open()
        moved = table.daemons[1:3]
        for daemon in moved:
            daemon.stop()
        for daemon in moved:
            daemon.port = free_port_pair()  # a new port, as `play --port 0` gives
            daemon.start()
            client = daemon.client(subscribe=False)
            try:
                request(client, type="peer", host="127.0.0.1", port=table.daemons[0].port)
            finally:
                client.close()
        end = time.monotonic() + 20
        while True:
            seen = [_alive(table, i) for i in (1, 2)]
            if seen[0].get(2) and seen[1].get(1):
                break
            assert time.monotonic() < end, f"the moved seats never reached each other: {seen}"
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
    finally:
        table.close()
