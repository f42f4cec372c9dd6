"""Who is ready, at real daemons in terminals (issue 22, item 1): Ada hosts with `fourwinds play
--bots 0`, and Bob, Cy and Di run `fourwinds play --join kitchen` at the same moment (the
README's venue way, `--peer`, on loopback). Before, `play` said ready right after its join
was answered: refused while the table still waited for players, taken when the seating had
come first. So whoever completed the table was often made ready without a key while the
others saw "not ready yet" and "Ready to start [default]". Now every lobby, the host's and each
joiner's, shows its own place "not ready yet" until that person's own key, and the match starts
once all four have pressed Ready.

Which comes first, the join's answer to `play` or the seating at its daemon, is a race (on
loopback the answer mostly wins; on the four friends' network the seating won). The test
makes the order certain the way a busy laptop would: each joiner's `play` process is paused
(SIGSTOP) while its daemon joins, and resumed once the table is seated there.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fourwinds.frontends.client.client import Client
from testkit.dirs import short_dir
from testkit.machines import Machine
from testkit.procs import free_port_pair
from testkit.screen import TMUX, Terminal, entry, rack

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

NAMES = ("Ada", "Bob", "Cy", "Di")
SETTLE_S = 4.0  # longer than the old `play` kept asking for ready after its join
# a place of the lobby panel: "  2. Bob (you)      not ready yet" (the status after the label)
_PLACE = re.compile(
    r"^\s*\d\. (?P<name>\w+)(?: \((?P<marks>[^)]*)\))?\s+(?P<state>ready|"
    r"not ready yet)\s*$"
)


@pytest.fixture
def machines() -> Iterator[list[Machine]]:
    base = short_dir()
    found = [Machine(name, base / name) for name in NAMES]
    try:
        yield found
    finally:
        for machine in reversed(found):
            machine.stop()
        shutil.rmtree(base, ignore_errors=True)


def _places(screen: str) -> dict[str, tuple[bool, bool]]:
    """name -> (is it "you", is it ready) for each taken place of a lobby screen."""
    out = {}
    for line in screen.splitlines():
        found = _PLACE.match(line)
        if found:
            you = "you" in (found.group("marks") or "")
            out[found.group("name")] = (you, found.group("state") == "ready")
    return out


def _shows_ready(names: set[str]) -> Callable[[str], bool]:
    """A test of a lobby screen: exactly ``names`` are shown ready."""
    return lambda screen: {n for n, (_, ready) in _places(screen).items() if ready} == names


def _full(screen: str) -> bool:
    return "Places: 4 of 4 taken" in screen and set(_places(screen)) == set(NAMES)


def _own_ready(machine: Machine) -> bool | None:
    """Whether the machine's daemon says its own seat is ready (None: no lobby view)."""
    view = machine.view()
    players = view.get("players") or []
    seat = view.get("seat")
    if view.get("phase") != "lobby" or seat is None or seat >= len(players):
        return None
    return bool(players[seat].get("ready"))


def _play_pids(machine: Machine) -> set[int]:
    """The machine's `fourwinds play` processes (not the shell around them, not the daemon)."""
    found = set()
    for pid in machine.pids():
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"play" in argv and any(a.endswith(b"/fourwinds") for a in argv):
                found.add(pid)
    return found


def _joining(machine: Machine, clients: dict[str, Client]) -> bool:
    """Has the machine's daemon begun to join a table (it lists it from the first step)?"""
    client = clients.get(machine.login)
    try:
        if client is None:
            client = clients[machine.login] = machine.client()
        return bool(client.request({"type": "tables"}, timeout=5).get("tables"))
    except (ConnectionError, TimeoutError):
        return False


def _pause_while_joining(friends: list[Machine], timeout: float = 60.0) -> set[int]:
    """SIGSTOP each friend's `play` as soon as its daemon is joining (see the docstring)."""
    clients: dict[str, Client] = {}
    paused: set[int] = set()
    waiting = list(friends)
    end = time.monotonic() + timeout
    try:
        while waiting and time.monotonic() < end:
            for friend in list(waiting):
                if _joining(friend, clients):
                    for pid in _play_pids(friend):
                        os.kill(pid, signal.SIGSTOP)
                        paused.add(pid)
                    waiting.remove(friend)
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.01)
    finally:
        for client in clients.values():
            client.close()
    assert not waiting, f"{[f.login for f in waiting]} never began to join"
    return paused


def _seated(machine: Machine) -> bool:
    """The machine's table has its four places fixed (it waits for everyone's Ready)."""
    return (machine.view().get("session") or {}).get("phase") == "ready"


def test_three_joining_at_once_and_the_host_are_each_ready_only_by_their_own_key(
    machines: list[Machine],
) -> None:
    ada, *friends = machines
    port = free_port_pair()
    screens: dict[str, Terminal] = {
        "Ada": ada.terminal(f"fourwinds play --bots 0 --table kitchen --port {port}", 100, 30)
    }
    screens["Ada"].wait_for("Places: 1 of 4 taken", 60, "Ada's lobby")
    for friend in friends:  # the three at once: none waits for another's screen
        screens[friend.login] = friend.terminal(
            f"fourwinds play --join kitchen --peer 127.0.0.1:{port} --port {free_port_pair()}",
            100,
            30,
        )
    paused = _pause_while_joining(friends)
    try:
        end = time.monotonic() + 90
        while not all(_seated(m) for m in machines):
            assert time.monotonic() < end, "the table was not seated within 90 s"
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.2)
    finally:
        for pid in paused:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    for name, term in screens.items():
        term.wait_for(_full, 90, f"the four places taken on {name}'s screen")
    # sleep-ok: a negative: longer than the old play asked for ready
    time.sleep(SETTLE_S)

    by_name = {m.login: m for m in machines}
    for name, term in screens.items():
        screen = term.wait_for(_full, 10, f"{name}'s full lobby")
        places = _places(screen)
        assert places[name] == (True, False), (
            f"{name}'s lobby shows {name} ready (or not as 'you') before any key:\n{screen}"
        )
        assert not any(ready for _, ready in places.values()), (
            f"someone is ready on {name}'s screen before any key was pressed:\n{screen}"
        )
        assert entry(screen, "Ready") is not None, f"no Ready on {name}'s screen:\n{screen}"
        assert _own_ready(by_name[name]) is False, f"{name}'s daemon says ready already"

    for count, name in enumerate(NAMES, 1):
        term = screens[name]
        key = entry(term.screen(), "Ready")
        assert key is not None, f"no Ready on {name}'s screen:\n{term.screen()}"
        term.keys(key.key)
        if count == 4:
            break
        done = set(NAMES[:count])
        for other, other_term in screens.items():  # every lobby shows who pressed, only them
            other_term.wait_for(
                _shows_ready(done),
                20,
                f"{other}'s lobby showing exactly {sorted(done)} ready after {name}'s key",
            )
        for machine in machines:
            assert machine.view().get("phase") == "lobby", (
                f"the match started at {machine.login}'s daemon before all four were ready"
            )
    for name, term in screens.items():
        term.wait_for(lambda s: bool(rack(s)), 90, f"the first hand on {name}'s screen")
