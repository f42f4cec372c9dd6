"""Leaving a lobby by its key, in a terminal (issue 22, item 8): Ann hosts with `fourwinds play
--bots 0`, Bob joins with `play --join ... --peer` (the README's venue way, on loopback),
presses L in his lobby, and Ann's lobby shows the place free again. Before, the lobby had no
such key and the host kept Bob's place for ever."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest

from testkit.dirs import short_dir
from testkit.machines import EXITED, Machine
from testkit.procs import free_port_pair
from testkit.screen import TMUX

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


@pytest.fixture
def friends() -> Iterator[tuple[Machine, Machine]]:
    base = short_dir()
    ann, bob = Machine("Ann", base / "Ann"), Machine("Bob", base / "Bob")
    try:
        yield ann, bob
    finally:
        bob.stop()
        ann.stop()
        shutil.rmtree(base, ignore_errors=True)


def test_l_in_the_lobby_leaves_and_the_hosts_lobby_shows_the_place_free(
    friends: tuple[Machine, Machine],
) -> None:
    ann, bob = friends
    port = free_port_pair()
    host = ann.terminal(f"fourwinds play --bots 0 --table kitchen --port {port}", 100, 30)
    host.wait_for("Places: 1 of 4 taken, 3 free", 60, "Ann's lobby")
    guest = bob.terminal(
        f"fourwinds play --join kitchen --peer 127.0.0.1:{port} --port {free_port_pair()}", 100, 30
    )
    screen = guest.wait_for("Places: 2 of 4 taken, 2 free", 60, "Bob's lobby")
    assert re.search(r"L leave", screen), f"the lobby shows no key to leave:\n{screen}"
    host.wait_for("Places: 2 of 4 taken, 2 free", 15, "Bob in Ann's lobby")
    guest.keys("L")
    done = guest.wait_for(EXITED, 15, "Bob's screen closing after L", gone="")
    assert "you left the table" in done, done
    host.wait_for("Places: 1 of 4 taken, 3 free", 10, "the place free again in Ann's lobby")
    tables = bob.run("fourwinds tables --json --wait 0")
    assert tables.returncode == 0, tables.stderr
    assert '"tables": []' in tables.stdout, tables.stdout
