"""Helpers of the `fourwinds play` tests under tmux (MCR and American).

Making a call at a real table: find the call the action menu offers, pick it by its menu
number, and check the outcome on the screen and in the daemon's view. With the table option
``auto_pass`` (on by default) our seat is asked about a discard only when it can call it, so a
"Call ..." entry in the menu is a real call chance; whether the call then stands is up to the
other seats (a pung or a Mahjong outranks our chow), so the outcome is read back from the
daemon, never assumed.

Sharing the machine: `play` starts the player's daemon on the default peer port when none runs
for its data directory; when that port is taken (another test or daemon on this machine),
``PlayTable`` starts the daemon itself on a free loopback port and runs `play` again, which
then uses it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from fourwinds.frontends.client.client import connect
from fourwinds.frontends.client.local_seats import Started, start_daemon, wait_for_api
from fourwinds.frontends.terminal.table_panels import seat_label
from fourwinds.frontends.terminal.tile_text import tiles_text
from testkit.views import our_exposures
from tests.frontends.test_curses_tmux import Tmux

PORT_TAKEN = "is in use"  # what `play` says when the default peer port is taken
View = Mapping[str, Any]

# one menu entry: " 2 Call chow 7p 8p 9p" on its own line, or packed after "Actions:" with
# three spaces between entries (the compact layouts); a label that does not name all the
# tiles is followed by them ("Call pung 3m (1 joker) 3m J  3m")
_CALL_ENTRY = re.compile(
    r"(?:^|(?<=\s))[> ]?([1-9]) (Call (chow|pung|kong|quint|sextet) ([^\n]*?))(?= {3}|\s*$)",
    re.MULTILINE,
)
_TILE = re.compile(r"^(?:[1-9][mps]|[1-7]z|F|J)$")
_GROUP_SIZE = {"pung": 3, "kong": 4, "quint": 5, "sextet": 6}
_RANK = {"chow": 0, "pung": 1, "kong": 2, "quint": 2, "sextet": 2}
# a player's head line flagged as ours: "[you, dealer]" (full layouts) or "13t you,TURN"
_OUR_HEAD = re.compile(r"^[ESWN] \S.*(?:\[you[,\]]|\dt you\b)")


@dataclass(frozen=True)
class CallOffer:
    """A call entry of the action menu as the screen shows it."""

    key: str  # the menu number that picks it
    label: str  # e.g. "Call chow 7p 8p 9p", "Call pung 5p (1 joker)"
    kind: str  # chow | pung | kong | quint | sextet
    words: tuple[str, ...]  # what follows the kind: tiles, maybe "(1 joker)"

    def meld_tiles(self) -> Counter[str]:
        """The tiles the exposure will hold (as a multiset)."""
        tiles = [w for w in self.words if _TILE.match(w)]
        if self.kind == "chow":
            return Counter(tiles)
        jokers = 0
        joker_words = re.search(r"\((\d) jokers?\)", self.label)
        if joker_words:
            jokers = int(joker_words.group(1))
        size = _GROUP_SIZE[self.kind]
        return Counter({tiles[0]: size - jokers, **({"J": jokers} if jokers else {})})


@dataclass(frozen=True)
class CallMade:
    """A call the table accepted: the offer, and our new exposure in the daemon's view."""

    offer: CallOffer
    meld: Mapping[str, Any]
    screen: str  # the screen showing the exposure

    def exposure_text(self) -> str:
        """How the table screen writes this exposure in a seat's row (ASCII tiles)."""
        return exposure_text(self.meld)


def exposure_text(meld: Mapping[str, Any]) -> str:
    """A meld entry of the view as ``table_view`` draws it: ``[7p 8p 9p chow<N]``."""
    tiles = tiles_text([str(t) for t in meld.get("tiles") or ()], True).rstrip()
    source = meld.get("from")
    origin = f"<{seat_label(int(source))[0]}" if source is not None else ""
    return f"[{tiles} {meld.get('label') or ''}{origin}]".replace(" ]", "]")


def call_offers(screen: str) -> list[CallOffer]:
    """The call entries of the action menu on this screen, in menu order."""
    offers = []
    for match in _CALL_ENTRY.finditer(screen):
        rest = match.group(4).removesuffix("[default]").strip()
        # the card lines the call keeps open follow a colon: "Call pung 3m: keeps open 13579-2"
        rest = rest.split(":", 1)[0].strip()
        # an American call with jokers: "Call pung 3m (2 jokers)", then its tiles "J  J  3m"
        jokers = re.match(r"^(.*?\(\d jokers?\))", rest)
        words = jokers.group(1) if jokers else rest
        label = f"Call {match.group(3)} {words}"
        offers.append(CallOffer(match.group(1), label, match.group(3), tuple(words.split())))
    return offers


def best_offer(offers: Sequence[CallOffer]) -> CallOffer:
    """The call most likely to stand: a pung or kong outranks another seat's chow."""
    return max(offers, key=lambda o: _RANK[o.kind])


def our_rows(screen: str) -> list[str]:
    """The lines of our own seat's block on the table screen (head, exposures, discards)."""
    lines = screen.splitlines()
    for i, line in enumerate(lines):
        if _OUR_HEAD.match(line):
            rows = [line]
            rows.extend(next_line for next_line in _indented(lines[i + 1 :]))
            return rows
    return []


def _indented(lines: Sequence[str]) -> list[str]:
    out = []
    for line in lines:
        if not line.startswith("    "):
            break
        out.append(line)
    return out


def make_call(
    tmux: Tmux, data_dir: Path, offer: CallOffer, timeout: float = 8.0
) -> CallMade | None:
    """Pick ``offer`` by its menu number and follow it through: None when the call did not
    stand (another seat's claim won, or the window closed before our key arrived);
    otherwise the call as the daemon and then the screen show it (asserted here)."""
    view = view_of(data_dir)
    before = len(our_exposures(view))
    discard = view.get("last_discard")
    tmux.keys(offer.key)
    sent = f"sent: {offer.label}"
    end = time.monotonic() + timeout
    while sent not in tmux.screen():
        if time.monotonic() > end:
            return None  # the window closed first (or an earlier Enter passed on it)
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    end = time.monotonic() + timeout
    while len(mine := our_exposures(view := view_of(data_dir))) <= before:
        if view.get("last_discard") != discard or time.monotonic() > end:
            return None  # the discard went elsewhere: our call was outranked
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)
    meld = mine[-1]
    assert Counter(str(t) for t in meld.get("tiles") or ()) == offer.meld_tiles(), (meld, offer)
    assert meld.get("label") == offer.kind, (meld, offer)
    if discard is not None:
        assert meld.get("from") == discard.get("seat"), (meld, discard)
    text = exposure_text(meld)
    end = time.monotonic() + timeout
    while True:
        screen = tmux.screen()
        if any(text in row for row in our_rows(screen)):
            return CallMade(offer, meld, screen)
        if time.monotonic() > end:
            raise AssertionError(f"our exposure {text} is not in our seat's rows:\n{screen}")
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)


def play_until_a_call_stood(
    tmux: Tmux,
    data_dir: Path,
    started: float,
    *,
    look: Callable[[str], None],
    press: Callable[[str], None],
    over: Callable[[dict[str, Any], str], bool] = lambda v, s: False,
    limit: float = 200.0,
) -> CallMade | None:
    """Press keys through the first hand, then on into the next ones, until one of our calls
    stood: every call the menu offers is taken (the best one). ``look`` sees every screen,
    ``press`` answers one that offers no call; ``over`` ends early (e.g. the match ended).
    Returns the call that stood (None when ``over`` stopped it first); fails with the screen
    when ``limit`` seconds pass first."""
    offered: list[str] = []  # every call the menu offered us
    call: CallMade | None = None
    hand_over = False
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        view = view_of(data_dir)
        if not hand_over and (
            int(view.get("hands_played") or 0) >= 1 or view.get("phase") == "match_over"
        ):
            hand_over = True
            print(f"hand over after {time.monotonic() - started:.1f} s")
        if hand_over and call is not None:
            return call
        screen = tmux.screen()
        if over(view, screen):
            return call
        look(screen)
        offers = call_offers(screen) if call is None else []
        if offers:
            offer = best_offer(offers)
            assert "Pass" in screen, screen  # a call may always be declined
            offered.append(offer.label)
            call = make_call(tmux, data_dir, offer)
            if call is not None:
                print(
                    f"{offer.label} stood after {time.monotonic() - started:.1f} s: "
                    f"{call.exposure_text()}"
                )
            continue
        press(screen)
    raise AssertionError(
        f"{'no call stood' if hand_over else 'the hand did not end'} in time (calls "
        f"offered: {offered or 'none'}); screen:\n{tmux.screen()}"
    )


def view_of(data_dir: Path) -> dict[str, Any]:
    """Our seat's view of the first table of the daemon in ``data_dir`` (its local API), or
    an empty dict when it has no table."""
    client = connect(str(data_dir), subscribe=False)
    try:
        tables = client.request({"type": "tables"})["tables"]
        if not tables:
            return {}
        event = client.request({"type": "view", "table": tables[0]["table"]}).get("event") or {}
        view: dict[str, Any] = event.get("view") or {}
        return view
    finally:
        client.close()


def stop_daemon(data_dir: Path) -> None:
    """Stop the daemon of ``data_dir`` (if one runs) and wait until it is gone, so the next
    test finds its port free."""
    try:
        client = connect(str(data_dir), subscribe=False)
    except ConnectionError:
        return
    try:
        pid = int(client.request({"type": "status"})["pid"])
    finally:
        client.close()
    os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        with contextlib.suppress(ChildProcessError):  # not our child: someone else reaps it
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.1)


class PlayTable:
    """`fourwinds play` (``command``, using the daemon of ``data_dir``) in a tmux window;
    closing it closes the window and stops the daemon."""

    def __init__(self, data_dir: Path, command: str, width: int, height: int) -> None:
        self.data_dir = data_dir
        self.command = command
        self.size = (width, height)
        self.tmux: Tmux | None = None
        self.own_daemon: subprocess.Popen[bytes] | None = None  # started here, not by play

    def start(self, ready: str, timeout: float = 90.0) -> tuple[Tmux, str]:
        """Run `play` until ``ready`` is on the screen; returns the window and the screen.
        When the default port is taken, start our daemon on a loopback port and run `play`
        once more (it connects to that daemon instead of starting one)."""
        self.tmux = Tmux(self.command, *self.size)
        end = time.monotonic() + timeout
        while True:
            screen = self.tmux.screen()
            if ready in screen:
                return self.tmux, screen
            if PORT_TAKEN in screen and self.own_daemon is None:
                print(
                    f"`play` could not start its daemon ({PORT_TAKEN}): "
                    f"starting it on a loopback port"
                )
                self.tmux.close()
                self.own_daemon = self._start_daemon()
                self.tmux = Tmux(self.command, *self.size)
                continue
            if time.monotonic() > end:
                raise AssertionError(f"{ready!r} never appeared; screen:\n{screen}")
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.1)

    def _start_daemon(self) -> subprocess.Popen[bytes]:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log_path = self.data_dir / "test-daemon.log"
        process = start_daemon(
            Started(),
            data_dir=str(self.data_dir),
            name="",
            log_path=log_path,
            detach=True,
            extra=["--port", "0", "--interface", "127.0.0.1", "--no-mdns"],
        )
        wait_for_api(str(self.data_dir), process, log_path).close()
        return process

    def close(self) -> None:
        if self.tmux is not None:
            self.tmux.close()
        stop_daemon(self.data_dir)
        if self.own_daemon is not None:
            self.own_daemon.wait(timeout=10)

    def __enter__(self) -> PlayTable:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
