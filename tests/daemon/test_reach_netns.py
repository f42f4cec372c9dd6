"""A seat that restarts, or comes back at another address, is found again (issue 14).

Four daemons in four network namespaces joined by a bridge, on link-local addresses only,
each listening on every interface (no ``--interface``: the way a player starts it, so the
host's own bind address is the wildcard 0.0.0.0 that once ended up in the joiners' stores).
The joiner's daemon is killed with SIGKILL mid-match and started again on the same data
folder, at the same address and then at a new one (a laptop on a new DHCP lease): the match
goes on to its end with identical transcripts, and no stored address is a wildcard. Where
namespaces cannot be made, the tests are skipped with the reason.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import msgpack
import pytest

from testkit.dirs import short_dir
from testkit.netns import Lan, LanDaemon, Unavailable, start_all
from tests.daemon.toy_driver import ToyTable
from tests.daemon.toy_session import PLAYS

pytestmark = [pytest.mark.netns, pytest.mark.slow]

WILDCARDS = {"0.0.0.0", "::", ""}


class Match:
    def __init__(self, lan: Lan, base: Path) -> None:
        self.lan = lan
        self.daemons = [LanDaemon(lan, i, base / f"d{i}", f"p{i}") for i in range(4)]
        self.table = ToyTable(self.daemons)

    def open(self) -> None:
        start_all(self.daemons)
        self.table.seat_everyone(self.lan.addresses[0], 7420)

    def restart(self, i: int) -> None:
        self.daemons[i].spawn()
        self.daemons[i].wait_ready()
        self.table.forget(i)

    def stored(self, i: int) -> dict[bytes, tuple[list[tuple[str, int]], list[list[object]]]]:
        """Seat ``i``'s stored table: each other seat's roster address and address list."""
        folder = self.daemons[i].data_dir / "tables" / self.table.table
        meta = msgpack.unpackb((folder / "meta.msgpack").read_bytes(), raw=False)
        lists = {bytes(k): v for k, v in meta.get("addresses", [])}
        out = {}
        for key, host, port in meta["members"]:
            out[bytes(key)] = ([(host, port)], lists.get(bytes(key), []))
        return out

    def close(self) -> None:
        self.table.close()
        for d in self.daemons:
            d.stop()


@pytest.fixture
def match() -> Iterator[Match]:
    base = short_dir()
    try:
        try:
            lan = Lan(4, 87)
        except Unavailable as why:
            pytest.skip(str(why))
        m = Match(lan, base)
        try:
            m.open()
            yield m
        finally:
            m.close()
            lan.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _own_key(m: Match, i: int) -> bytes:
    client = m.table.client(i)
    return bytes.fromhex(client.request({"type": "whoami"})["public_key"])


def _no_wildcards(m: Match) -> None:
    for i in range(4):
        me = _own_key(m, i)
        for key, (roster, known) in m.stored(i).items():
            if key == me:
                continue  # our own entry is never dialled
            assert known, f"seat {i} keeps no address for {key.hex()[:8]}"
            hosts = {h for h, _ in roster} | {str(entry[0]) for entry in known}
            assert not hosts & WILDCARDS, f"seat {i} stores {hosts} for {key.hex()[:8]}"
            assert all(h.startswith("169.254.") for h in hosts), hosts


def test_the_joiner_killed_mid_match_restarts_and_the_match_goes_on(match: Match) -> None:
    match.table.play_until(PLAYS // 3, timeout=30)
    _no_wildcards(match)
    match.daemons[1].kill9()
    match.table.forget(1)
    match.table.play_until(PLAYS // 3 + 1, timeout=10, skip=frozenset({1}))
    match.restart(1)
    match.table.play_until(PLAYS, timeout=40)
    transcripts = match.table.transcripts()
    assert len(transcripts[0]) == PLAYS and all(t == transcripts[0] for t in transcripts)
    _no_wildcards(match)


def test_the_joiner_comes_back_at_a_new_address_and_is_found(match: Match) -> None:
    match.table.play_until(PLAYS // 3, timeout=30)
    joiner = _own_key(match, 2)
    match.daemons[2].kill9()
    match.table.forget(2)
    match.lan.move(2, "169.254.87.42")  # a new DHCP lease
    match.restart(2)
    match.table.play_until(PLAYS, timeout=40)
    transcripts = match.table.transcripts()
    assert len(transcripts[0]) == PLAYS and all(t == transcripts[0] for t in transcripts)
    for i in (0, 1, 3):  # the others found it there, and keep the old one too
        roster, known = match.stored(i)[joiner]
        assert roster == [("169.254.87.42", 7420)], (i, roster)
        assert ["169.254.87.42", 7420, True] in known and len(known) <= 8, known
    _no_wildcards(match)
