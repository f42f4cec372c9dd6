"""The table as a Botzone bot rebuilds it from its requests: the tests' independent reading
of what ``protocol/mcr/botzone/story.py`` tells. Every request is checked against the
protocol as it goes (its grammar, a claim naming the discard just made, a chow only from the
left, a concealed kong only after a draw), and the board it adds up to is compared with the
seat view's."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fourwinds.protocol.mcr.botzone.tiles import from_botzone

TILE = r"(?:[WBT][1-9]|F[1-4]|J[1-3])"
GRAMMAR = re.compile(
    rf"^(?:0 [0-3] [0-3]|1(?: \d){{4}}(?: {TILE}){{13}}(?: H[1-8])*|2 {TILE}"
    rf"|3 [0-3] (?:DRAW|GANG|PLAY {TILE}|PENG {TILE}|CHI {TILE} {TILE}|BUGANG {TILE}"
    rf"|BUHUA H[1-8]))$"
)


def _run(middle: str) -> list[str]:
    rank, suit = int(middle[:-1]), middle[-1]
    return [f"{rank + step}{suit}" for step in (-1, 0, 1)]


@dataclass
class Referee:
    """Seats' rows, melds (kind, sorted tiles, from) and flowers, our hand: our codes."""

    me: int = -1
    quan: int = -1
    hand: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    melds: list[list[tuple[str, tuple[str, ...], int | None]]] = field(
        default_factory=lambda: [[], [], [], []]
    )
    flowers: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    pending: tuple[int, str] | None = None  # the last discard: seat, tile
    drew: int | None = None  # the seat that drew last and has not discarded
    heard: int = 0

    def hear(self, request: str) -> None:
        assert GRAMMAR.match(request), f"not a Botzone request: {request!r}"
        words = request.split()
        self.heard += 1
        if words[0] == "0":
            assert self.heard == 1
            self.me, self.quan = int(words[1]), int(words[2])
        elif words[0] == "1":
            assert self.heard == 2
            counts = [int(w) for w in words[1:5]]
            self.hand = [from_botzone(t) for t in words[5:18]]
            flowers = [from_botzone(t) for t in words[18:]]
            assert len(flowers) == sum(counts)
            for seat, count in enumerate(counts):
                self.flowers[seat], flowers = flowers[:count], flowers[count:]
        elif words[0] == "2":
            self.hand.append(from_botzone(words[1]))
            self.drew = self.me
        else:
            self._event(int(words[1]), words[2], [from_botzone(w) for w in words[3:]])

    def _event(self, seat: int, verb: str, tiles: list[str]) -> None:
        mine = seat == self.me
        if verb == "BUHUA":
            self.flowers[seat].append(tiles[0])
        elif verb == "DRAW":
            assert not mine, "our own draw is told as 2 X"
            self.drew = seat
        elif verb == "PLAY":
            assert self.drew == seat, f"{seat} plays without drawing"
            self._discard(seat, tiles[0])
        elif verb in ("PENG", "CHI"):
            source, tile = self._claimed(seat)
            meld: tuple[str, tuple[str, ...], int | None]
            if verb == "PENG":
                used, meld = [tile] * 2, ("pung", (tile,) * 3, source)
            else:
                assert seat == (source + 1) % 4, "a chow is claimed from the left only"
                run = _run(tiles[0])
                assert tile in run, f"chow {run} does not hold the discard {tile}"
                used = list(run)
                used.remove(tile)
                meld = ("chow", tuple(run), source)
            self._meld(seat, meld, used if mine else [])
            self._discard(seat, tiles[-1])
        elif verb == "GANG":
            if self.drew == seat:  # after its own draw: concealed
                kind = next((t for t, n in Counter(self.hand).items() if n == 4), "?")
                shown = (kind if mine else "?",) * 4
                self._meld(seat, ("concealed kong", shown, None), [kind] * 4 if mine else [])
            else:
                source, tile = self._claimed(seat)
                self._meld(seat, ("kong", (tile,) * 4, source), [tile] * 3 if mine else [])
            self.drew = None
        else:  # BUGANG
            assert self.drew == seat
            tile = tiles[0]
            index = next(
                i for i, m in enumerate(self.melds[seat]) if m[0] == "pung" and m[1][0] == tile
            )
            self.melds[seat][index] = ("kong", (tile,) * 4, self.melds[seat][index][2])
            if mine:
                self.hand.remove(tile)
            self.drew = None

    def _discard(self, seat: int, tile: str) -> None:
        self.rows[seat].append(tile)
        if seat == self.me:
            self.hand.remove(tile)
        self.pending, self.drew = (seat, tile), None

    def _claimed(self, seat: int) -> tuple[int, str]:
        assert self.pending is not None and self.pending[0] != seat, "a claim with no discard"
        source, tile = self.pending
        assert self.rows[source][-1] == tile
        self.rows[source].pop()
        self.pending = None
        return source, tile

    def _meld(
        self, seat: int, meld: tuple[str, tuple[str, ...], int | None], used: list[str]
    ) -> None:
        self.melds[seat].append(meld)
        for tile in used:
            self.hand.remove(tile)

    def check(self, view: Mapping[str, Any], *, robbing: int | None = None) -> None:
        """The board the requests add up to is the view's (``robbing``: the seat adding a
        kong, which the view still shows as its pung: its melds are not compared)."""
        assert view["seat"] == self.me and view["prevalent_wind"] == self.quan
        assert Counter(self.hand) == Counter(view["hand"]), (self.hand, view["hand"])
        for seat, player in enumerate(view["players"]):
            assert self.rows[seat] == player["discards"], (seat, self.rows[seat], player)
            assert self.flowers[seat] == player["flowers"], (seat, self.flowers[seat])
            shown = [
                (m["label"], tuple(sorted(m["tiles"])), m["from"]) for m in player["exposures"]
            ]
            told = [
                (kind, tuple(sorted(tiles)), source) for kind, tiles, source in self.melds[seat]
            ]
            if seat != robbing:
                assert told == shown, (seat, told, shown)
