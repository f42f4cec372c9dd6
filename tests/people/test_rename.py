"""A player who renames is shown by the new name at the table they sit at (issue 22, item 7), at
real daemons in terminals: Ann hosts an MCR table with `fourwinds play --bots 2`, Bob joins it
with `play --join` (the README's venue way, `--peer`, on loopback), both press Ready and the
hand starts. Bob closes his screen (Q), does what the README says to change his name
(`fourwinds config init --name Robert`, then `fourwinds stop` so that the daemon reads it), and
runs `fourwinds play` again: back at his seat, his screen and Ann's name him Robert, Bob no
more. Before, every seat kept showing the name he had signed when he joined."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest

from testkit.dirs import short_dir
from testkit.machines import Machine
from testkit.procs import free_port_pair
from testkit.screen import TMUX, Terminal, entry, rack

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


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"\b{name}\b")


def _ready_then_dealt(terms: list[Terminal]) -> None:
    """Each person presses Ready once their lobby offers it; then each screen shows a rack."""
    for term in terms:
        screen = term.wait_for(lambda s: entry(s, "Ready") is not None, 30, "Ready offered")
        term.keys(entry(screen, "Ready").key)  # type: ignore[union-attr]
    for term in terms:
        term.wait_for(lambda s: bool(rack(s)), 90, "the first hand")


def _names(machine: Machine) -> list[str]:
    return [str(p.get("name")) for p in machine.view().get("players") or ()]


def test_a_new_name_reaches_the_table_after_the_daemon_restarts(
    friends: tuple[Machine, Machine],
) -> None:
    ann, bob = friends
    port, bob_port = free_port_pair(), free_port_pair()
    host = ann.terminal(
        f"fourwinds play --rules mcr --bots 2 --table kitchen --port {port}", 100, 40
    )
    host.wait_for("Places: 3 of 4 taken", 90, "Ann's lobby with her two bots")
    guest = bob.terminal(
        f"fourwinds play --join kitchen --peer 127.0.0.1:{port} --port {bob_port}", 100, 40
    )
    for term in (host, guest):
        term.wait_for("Places: 4 of 4 taken", 60, "the four places taken")
    _ready_then_dealt([host, guest])
    assert "Bob" in _names(ann) and "Bob" in _names(bob)
    host.wait_for(lambda s: bool(_word("Bob").search(s)), 15, "Bob on Ann's table screen")

    guest.keys("Q")
    guest.wait_for("[exited ", 20, "Bob's screen closing", gone="")
    bob.config_file.unlink()  # the test machine's (its bots' pause): init writes a new one
    for command in ("fourwinds config init --name Robert", "fourwinds stop"):
        done = bob.run(command)
        assert done.returncode == 0, f"`{command}`: {done.stderr or done.stdout}"
    back = bob.terminal(f"fourwinds play --port {bob_port}", 100, 40)
    back.wait_for(
        lambda s: bool(rack(s)) and bool(_word("Robert").search(s)),
        60,
        "Bob back at his seat as Robert",
    )
    screen = host.wait_for(
        lambda s: bool(_word("Robert").search(s)) and not _word("Bob").search(s),
        30,
        "Robert, and Bob no more, on Ann's table screen",
    )
    assert rack(screen), f"Ann's screen left the table:\n{screen}"
    assert "Robert" in _names(ann) and "Bob" not in _names(ann), _names(ann)
    assert "Robert" in _names(bob) and "Bob" not in _names(bob), _names(bob)
    assert not _word("Bob").search(back.screen()), back.screen()
