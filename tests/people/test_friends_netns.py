"""Four friends, four machines, one network: README.md's "Play with friends on one network",
typed word for word, then a whole hand played by keys on the four screens.

Each machine is a network namespace on one bridge (link-local 169.254.x addresses, no route
anywhere else) with its own HOME, XDG directories and login name (Ada, Bob, Cy, Di). The test
reads the section's sh block: the "# the host" commands run on Ada's machine, the "# each
friend" commands on the three others; every `fourwinds play ...` opens in its own 80x24 terminal
(tmux) inside the namespace; other commands run and their output is checked (`fourwinds
tables` must list the host's table; a person runs it again while it is not listed yet).

Then the lobby fills (every screen shows the four names), the hand is played to its end by
keys only (tests/people/screen.py: the Charleston by letters and the pass's number, calls
passed, Mahjong taken when offered, a tile discarded on each turn), and every screen must show
the same result as every daemon's view (`fourwinds status --json` on each machine): the
headline, the winner, the hand and each player's payment. Then three press ``n``: the table
waits for the fourth (and says so), whose ``n`` starts hand 2 at every seat. Problems that do
not stop the story (a README command failing, a screen missing a fact) are collected and
reported together.

The "venue" section (`--peer` where multicast is blocked) is played the same way in a second
test, on a network whose bridge forwards no multicast (mDNS cannot find the table there).
"""

from __future__ import annotations

import contextlib
import re
import shlex
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from testkit.machines import Machine, Network, Unavailable, short_dir
from testkit.screen import TMUX, Person, Terminal, is_result, play_until
from tests.people.readme import Role, role
from tests.people.table_checks import result_of, result_problems, summary

pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.netns,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]

NAMES = ["Ada", "Bob", "Cy", "Di"]
FRIENDS = "Play with friends on one network"
VENUE = "Play at a venue where multicast is blocked"
README_HOST_ADDRESS = "10.0.4.17"  # the venue section's example address of the host
HAND_TIMEOUT = 300.0


def _network(base: Path, subnet: int, multicast: bool) -> Network:
    try:
        return Network(base, NAMES, subnet, multicast=multicast)
    except Unavailable as why:
        pytest.skip(str(why))


@contextlib.contextmanager
def _machines(subnet: int, *, multicast: bool) -> Iterator[Network]:
    """Four machines on one bridge, torn down and their folders removed afterwards."""
    base = short_dir()
    try:
        net = _network(base, subnet, multicast=multicast)
        try:
            yield net
        finally:
            net.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def lan() -> Iterator[Network]:
    with _machines(61, multicast=True) as net:
        yield net


@pytest.fixture
def venue() -> Iterator[Network]:
    with _machines(62, multicast=False) as net:
        yield net


class Story:
    """The four people following one README section; ``problems`` collects what went wrong
    without stopping them."""

    def __init__(self, net: Network, section: str) -> None:
        self.net = net
        self.section = section
        self.problems: list[str] = []
        self.screens: dict[str, Terminal] = {}
        self.table = ""

    def follow(self, machine: Machine, part: Role, host: Machine) -> None:
        """Type the commands of ``part`` on ``machine`` (``host``'s address and ``machine``'s
        login put where the README has its example ones)."""
        for written in part.commands:
            command = written.replace(README_HOST_ADDRESS, host.address or "")
            command = re.sub(r"--name \w+", f"--name {machine.login}", command)
            words = shlex.split(command.rstrip("&").strip())
            if command.endswith("&"):
                machine.start(command.rstrip("&").strip(), f"{words[1]}.log")
                time.sleep(1.0)  # a person starts the daemon, then types the next line
            elif words[:2] == ["fourwinds", "play"]:
                self._play(machine, command, words)
            elif words[:2] == ["fourwinds", "tables"]:
                self._tables(machine, command)
            else:
                done = machine.run(command)
                if done.returncode:
                    self.problems.append(f"{machine.login}: `{command}` failed: "
                                         f"{(done.stderr or done.stdout).strip()[-300:]}")

    def _play(self, machine: Machine, command: str, words: list[str]) -> None:
        if "--table" in words:
            self.table = words[words.index("--table") + 1]
        term = machine.terminal(command, 80, 24)
        self.screens[machine.login] = term
        want = self.table or words[-1]
        try:
            term.wait_for(lambda s: want in _table_lines(s), 60,
                          f"the table {want} on {machine.login}'s screen")
        except AssertionError as error:
            self.problems.append(f"{machine.login}: `{command}`: {error}")

    def _tables(self, machine: Machine, command: str) -> None:
        end = time.monotonic() + 30
        while True:
            done = machine.run(command)
            if done.returncode == 0 and self.table in done.stdout:
                return
            if time.monotonic() > end:
                self.problems.append(
                    f"{machine.login}: `{command}` did not list {self.table!r} within 30 s "
                    f"(exit {done.returncode}): {(done.stdout + done.stderr).strip()[-300:]}")
                return
            time.sleep(1.0)

    def lobby_full(self, timeout: float = 90.0) -> None:
        """Every screen shows the four names (fails: the table cannot start without them)."""
        names = [re.compile(rf"\b{n}\b") for n in NAMES]
        end = time.monotonic() + timeout
        for login, term in self.screens.items():
            try:
                term.wait_for(lambda s: all(n.search(s) for n in names),
                              max(1.0, end - time.monotonic()),
                              f"all four names {NAMES} on {login}'s screen")
            except AssertionError as error:
                raise AssertionError("\n".join([*self.problems, str(error)])) from None

    def play_hand(self) -> None:
        """Play by keys until every daemon says the hand is over."""
        people = [Person(term, login) for login, term in self.screens.items()]
        machines = self.net.machines
        checked = [0.0]

        def over() -> bool:
            if time.monotonic() - checked[0] < 1.0:
                return False
            checked[0] = time.monotonic()
            views = [m.view() for m in machines]
            return all(v.get("phase") in ("hand_over", "match_over")
                       or int(v.get("hands_played") or 0) >= 1 for v in views)

        try:
            play_until(people, over, HAND_TIMEOUT, "the hand's end")
        except AssertionError as error:
            raise AssertionError("\n".join([*self.problems, str(error)])) from None

    def check_result(self) -> None:
        """Every screen shows the result every daemon's view reports (status --json)."""
        results = {}
        for machine in self.net.machines:
            event = machine.status_json()
            view = event.get("view") or {}
            assert view.get("phase") in ("hand_over", "match_over"), (
                f"{machine.login}'s view left the end of the hand without anyone pressing "
                f"next: phase {view.get('phase')!r}, hand {view.get('hand_number')}")
            results[machine.login] = result_of(view)
        seen = {login: summary(r) for login, r in results.items()}
        assert len(set(seen.values())) == 1, f"the daemons disagree on the result: {seen}"
        result = results[NAMES[0]]
        for login, term in self.screens.items():
            try:
                screen = term.wait_for(is_result, 15, f"{login}'s end-of-hand screen")
            except AssertionError as error:
                self.problems.append(str(error))
                continue
            self.problems.extend(f"{login}'s screen: {p}\n{screen}"
                                 for p in result_problems(screen, result))


    def next_hand(self) -> None:
        """Three say "next" (``n``): the table still waits, and the last one's screen says
        so; the fourth says it and hand 2 starts at every seat."""
        logins = list(self.screens)
        hand = {m.login: m.view().get("hand_number") for m in self.net.machines}
        for login in logins[:-1]:
            self.screens[login].keys("n")
        last = logins[-1]
        time.sleep(2.0)
        for machine in self.net.machines:
            view = machine.view()
            assert view.get("phase") == "hand_over", (
                f"{machine.login}: the next hand began before {last} said next: "
                f"{view.get('phase')!r}")
            waiting = (view.get("next") or {}).get("waiting")
            assert waiting is not None and len(waiting) == 1, (machine.login, view.get("next"))
        screen = self.screens[logins[0]].screen()
        if not re.search(rf"[Ww]aiting for\b.*\b{last}\b", screen):
            self.problems.append(f"{logins[0]}'s screen does not say it waits for {last}:\n"
                                 f"{screen}")
        self.screens[last].keys("n")
        end = time.monotonic() + 30
        for machine in self.net.machines:
            while machine.view().get("hand_number") == hand[machine.login]:
                assert time.monotonic() < end, f"{machine.login}: hand 2 did not start"
                time.sleep(0.2)
            self.screens[machine.login].wait_for(lambda s: not is_result(s), 15,
                                                 f"{machine.login}'s table after the result")


def _table_lines(screen: str) -> str:
    """The screen without the progress and error lines `fourwinds` prints before (or
    instead of) the table."""
    return "\n".join(line for line in screen.splitlines()
                     if not line.startswith(("fourwinds play:", "fourwinds:")))


def _play_the_section(net: Network, section: str) -> None:
    started = time.monotonic()
    story = Story(net, section)
    host, *friends = net.machines
    story.follow(host, role(section, "the host"), host)
    for friend in friends:
        story.follow(friend, role(section, "each friend"), host)
    assert len(story.screens) == 4, f"not every person opened the table: {story.problems}"
    print(f"four tables open after {time.monotonic() - started:.1f} s")
    story.lobby_full()
    print(f"lobby full after {time.monotonic() - started:.1f} s")
    story.play_hand()
    print(f"hand over after {time.monotonic() - started:.1f} s")
    story.check_result()
    print(f"result checked after {time.monotonic() - started:.1f} s")
    story.next_hand()
    print(f"hand 2 under way after {time.monotonic() - started:.1f} s")
    assert not story.problems, "\n".join(story.problems)


def test_four_friends_on_one_network_play_a_hand_as_the_readme_says(lan: Network) -> None:
    _play_the_section(lan, FRIENDS)


def test_four_players_at_a_venue_without_multicast_play_a_hand_by_peer_addresses(
        venue: Network) -> None:
    _play_the_section(venue, VENUE)
