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
import os
import re
import shlex
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.terminal.table_keys import RESULT_GUARD_S
from testkit.dirs import short_dir
from testkit.machines import Machine, Network, Unavailable
from testkit.screen import TMUX, Person, Terminal, entry, is_result, play_until, rack
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
                # sleep-ok: a person's pace, as in the README
                time.sleep(1.0)  # a person starts the daemon, then types the next line
            elif words[:2] == ["fourwinds", "play"]:
                self._play(machine, command, words)
            elif words[:2] == ["fourwinds", "tables"]:
                self._tables(machine, command)
            else:
                done = machine.run(command)
                if done.returncode:
                    self.problems.append(
                        f"{machine.login}: `{command}` failed: "
                        f"{(done.stderr or done.stdout).strip()[-300:]}"
                    )

    def _play(self, machine: Machine, command: str, words: list[str]) -> None:
        if "--table" in words:
            self.table = words[words.index("--table") + 1]
        term = machine.terminal(command, 80, 24)
        self.screens[machine.login] = term
        want = self.table or words[-1]
        try:
            term.wait_for(
                lambda s: want in _table_lines(s),
                60,
                f"the table {want} on {machine.login}'s screen",
            )
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
                    f"(exit {done.returncode}): {(done.stdout + done.stderr).strip()[-300:]}"
                )
                return
            # sleep-ok: retry interval of a bounded wait (30 s)
            time.sleep(1.0)

    def lobby_full(self, timeout: float = 90.0) -> None:
        """Every screen shows the four names (fails: the table cannot start without them)."""
        names = [re.compile(rf"\b{n}\b") for n in NAMES]
        end = time.monotonic() + timeout
        for login, term in self.screens.items():
            try:
                term.wait_for(
                    lambda s: all(n.search(s) for n in names),
                    max(1.0, end - time.monotonic()),
                    f"all four names {NAMES} on {login}'s screen",
                )
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
            return all(
                v.get("phase") in ("hand_over", "match_over")
                or int(v.get("hands_played") or 0) >= 1
                for v in views
            )

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
                f"next: phase {view.get('phase')!r}, hand {view.get('hand_number')}"
            )
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
            self.problems.extend(
                f"{login}'s screen: {p}\n{screen}" for p in result_problems(screen, result)
            )

    def next_hand(self) -> None:
        """Three say "next" (``n``): the table still waits, and the last one's screen says
        so; the fourth says it and hand 2 starts at every seat."""
        logins = list(self.screens)
        hand = {m.login: m.view().get("hand_number") for m in self.net.machines}
        # people look at the result first: a key within RESULT_GUARD_S of its coming up is
        # taken for one meant for the last discard, and not as "next" (table_keys.py)
        # sleep-ok: a rule about time: keys within RESULT_GUARD_S are not 'next'
        time.sleep(RESULT_GUARD_S)
        for login in logins[:-1]:
            self.screens[login].keys("n")
        last = logins[-1]
        # sleep-ok: a negative: time passes to show the table still waits
        time.sleep(2.0)
        for machine in self.net.machines:
            view = machine.view()
            assert view.get("phase") == "hand_over", (
                f"{machine.login}: the next hand began before {last} said next: "
                f"{view.get('phase')!r}"
            )
            waiting = (view.get("next") or {}).get("waiting")
            assert waiting is not None and len(waiting) == 1, (machine.login, view.get("next"))
        screen = self.screens[logins[0]].screen()
        if not re.search(rf"[Ww]aiting for\b.*\b{last}\b", screen):
            self.problems.append(
                f"{logins[0]}'s screen does not say it waits for {last}:\n{screen}"
            )
        self.screens[last].keys("n")
        end = time.monotonic() + 30
        for machine in self.net.machines:
            while machine.view().get("hand_number") == hand[machine.login]:
                assert time.monotonic() < end, f"{machine.login}: hand 2 did not start"
                # sleep-ok: poll interval of a bounded wait
                time.sleep(0.2)
            self.screens[machine.login].wait_for(
                lambda s: not is_result(s), 15, f"{machine.login}'s table after the result"
            )


def _table_lines(screen: str) -> str:
    """The screen without the progress and error lines `fourwinds` prints before (or
    instead of) the table."""
    return "\n".join(
        line
        for line in screen.splitlines()
        if not line.startswith(("fourwinds play:", "fourwinds:"))
    )


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
    venue: Network,
) -> None:
    _play_the_section(venue, VENUE)


# -- four friends, a whole hand with a call, a kill -9 and a Q (issue 22, "How it must be
# shown") ------------------------------------------------------------------------------------

KILLED, QUITS = "Bob", "Cy"  # whose daemon is killed mid-hand; who presses Q and returns


@pytest.fixture
def friends() -> Iterator[Network]:
    with _machines(63, multicast=True) as net:
        yield net


def _discards(view: dict[str, Any]) -> int:
    return sum(len(p.get("discards") or ()) for p in view.get("players") or ())


class WholeHand:
    """Four people at one table by keys, with the checks of one hand: every call offered
    is read off the screen (the discard it is on, the time left) and the first taken; one
    daemon is killed with -9 and its screen must say so and come back; one person presses
    Q and returns with `fourwinds play`."""

    def __init__(self, net: Network, screens: dict[str, Terminal]) -> None:
        self.net = net
        self.machines = {m.login: m for m in net.machines}
        self.people = {login: Person(term, login, calls="hold") for login, term in screens.items()}
        self.called: list[str] = []
        self.killed_at: float | None = None
        self.back_from_kill = False
        self.quit_done = False

    def screens(self) -> str:
        return "\n".join(
            f"--- {p.name} (last moves: {p.log[-6:]})\n{p.term.screen()}"
            for p in self.people.values()
        )

    def _calls(self, person: Person, screen: str) -> bool:
        """A call offered on ``person``'s screen: the first is checked and taken, the
        others passed. True when a key was pressed."""
        offer = entry(screen, "Call ")
        if offer is None:
            return False
        if not self.called:
            view = self.machines[person.name].view()
            discard = str((view.get("last_discard") or {}).get("tile") or "")
            assert discard and discard in screen, (discard, screen)
            left = re.search(r"time (\d+)s", screen)
            assert left and int(left.group(1)) > 0, f"a call offered with no time:\n{screen}"
            self.called.append(f"{person.name}: {offer.label}")
            person.term.keys(offer.key)
        else:
            passing = entry(screen, "Pass")
            if passing is None:
                return False
            person.term.keys(passing.key)
        # sleep-ok: a person's pace: the screen redraws before the next look
        time.sleep(0.3)
        return True

    def _kill(self) -> None:
        machine = self.machines[KILLED]
        pid = machine.daemon_pid()
        assert pid is not None, f"{KILLED}'s daemon is not running"
        os.kill(pid, signal.SIGKILL)
        self.killed_at = time.monotonic()
        self.people[KILLED].term.wait_for(
            "Your daemon stopped", 5.0, f"{KILLED}'s screen saying the daemon stopped"
        )

    def _back(self) -> bool:
        screen = self.people[KILLED].term.screen()
        if rack(screen) or is_result(screen):
            print(
                f"{KILLED}'s table back {time.monotonic() - (self.killed_at or 0):.1f} s "
                "after kill -9"
            )
            return True
        assert time.monotonic() - (self.killed_at or 0) < 60, (
            f"{KILLED}'s seat did not come back within 60 s of kill -9:\n{screen}"
        )
        return False

    def _quit_and_return(self) -> None:
        person, machine = self.people[QUITS], self.machines[QUITS]
        before = machine.view()
        person.term.keys("Q")
        person.term.wait_for(lambda s: not rack(s), 20, f"{QUITS}'s table closed after Q")
        term = machine.terminal("fourwinds play --ascii", 80, 24)
        term.wait_for(
            lambda s: bool(rack(s)) or is_result(s),
            60,
            f"{QUITS} back at the table with `fourwinds play`",
        )
        after = machine.view()
        assert (after.get("table"), after.get("seat"), after.get("hand_number")) == (
            before.get("table"),
            before.get("seat"),
            before.get("hand_number"),
        ), (before, after)
        person.term = term
        self.quit_done = True

    def play(self, timeout: float) -> None:
        """By keys to the hand's end at every daemon, the faults on the way."""
        end = time.monotonic() + timeout
        checked = 0.0
        while True:
            if time.monotonic() > end:
                raise AssertionError(
                    f"the hand did not end within {timeout:.0f} s\n{self.screens()}"
                )
            if time.monotonic() - checked > 1.0:
                checked = time.monotonic()
                views = [m.view() for m in self.net.machines]
                if all(v.get("phase") in ("hand_over", "match_over") for v in views):
                    return
                gone = _discards(max(views, key=_discards))
                if self.killed_at is None and gone >= 6:
                    self._kill()
                elif self.killed_at is not None and not self.back_from_kill:
                    self.back_from_kill = self._back()
                elif self.back_from_kill and not self.quit_done and gone >= 12:
                    self._quit_and_return()
            acted = False
            for person in self.people.values():
                if person.name == KILLED and self.killed_at and not self.back_from_kill:
                    continue
                screen = person.term.screen()
                acted = self._calls(person, screen) or bool(person.step()) or acted
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.05 if acted else 0.15)


@pytest.mark.parametrize("rules", ["mcr", "american"])
def test_four_friends_play_a_whole_hand_by_keys_through_a_kill9_and_a_q(
    friends: Network, rules: str
) -> None:
    """The host opens a table (MCR; American, with the Charleston), the three friends join
    at the same moment; every lobby
    shows the four names; the hand is played by keys with a call taken on the screen that
    offered it, a joiner's daemon killed with -9 (its screen says so and the seat comes back
    by itself) and another friend's Q and return; every screen ends on the result every
    daemon reports."""
    started = time.monotonic()
    host, *others = friends.machines
    screens = {
        host.login: host.terminal(
            f"fourwinds play --bots 0 --table dragons --rules {rules} --hands 1 --ascii", 80, 24
        )
    }
    screens[host.login].wait_for(lambda s: "dragons" in _table_lines(s), 60, "the host's table")
    for friend in others:  # each friend's daemon sees the table before they all join
        end = time.monotonic() + 30
        while "dragons" not in friend.run("fourwinds tables").stdout:
            assert time.monotonic() < end, f"{friend.login}: the table was never listed"
            # sleep-ok: poll interval of a bounded wait
            time.sleep(1.0)
    for friend in others:  # at the same moment
        screens[friend.login] = friend.terminal("fourwinds play --join dragons --ascii", 80, 24)
    story = Story(friends, FRIENDS)
    story.screens = screens
    story.lobby_full()
    print(f"lobby full after {time.monotonic() - started:.1f} s")
    hand = WholeHand(friends, screens)
    hand.play(HAND_TIMEOUT)
    print(f"hand over after {time.monotonic() - started:.1f} s; calls: {hand.called}")
    assert hand.back_from_kill and hand.quit_done, "the hand ended before the faults"
    assert hand.called, "no call was offered on any screen in the whole hand"
    story.screens = {login: p.term for login, p in hand.people.items()}
    story.check_result()
    assert not story.problems, "\n".join(story.problems)
