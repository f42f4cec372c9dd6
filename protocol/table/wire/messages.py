"""Message bodies of the table protocol: one frozen dataclass per message kind.

Each body encodes to a msgpack array (``to_wire``) and decodes strictly (``decode_body``);
the envelope (envelope.py) carries the sender, sequence, chain link, step and state hash.
docs/PROTOCOL.md lists who sends each one, when, and to whom.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from fourwinds.protocol.table.machine.options import TableOptions
from fourwinds.protocol.table.wire.strict import (
    WireError,
    need_bytes,
    need_int,
    need_list,
    need_str,
    pack,
    unpack,
)

MAX_CARD_TEXT = 200 * 1024


class MsgKind(IntEnum):
    """Every message kind; values are on the wire."""

    OPEN = 1  # creator: the table's name, rules, card, options, versions
    JOIN = 2  # a joiner asks for a seat (to the creator)
    SEATING = 3  # creator: the four seats and the version; embeds the three joins
    READY = 4  # each seat: ready to start (complete set of four starts the match)
    COMMIT = 5  # each seat: H(context, seat, nonce) for this hand's dice
    ECHO = 6  # each seat: hash of the four commitments it saw
    REVEAL = 7  # each seat: its nonce
    ACT = 8  # one seat's game action (or its timeout default)
    HAND_END = 9  # each seat: digest of the hand's outcome it computed
    ACCUSE = 10  # proof of equivocation: two signed messages of one seat, one seq
    DECK = 11  # a masked-wall message of protocol/deck (pass, keys, reveal, audit)
    THINKING = 12  # a seat asks for more time on a discard (once per call window; v4)


@dataclass(frozen=True)
class Open:
    name: str
    rules: str  # "american" or "mcr"
    # the rule set's own text, whole, so every seat plays the same (an American table's card
    # file; "" for a rule set that has none), and its name as people read it; only the rule
    # set reads it (RuleSetAdapter.table): on the wire, the card_name and card_text of before
    rules_text_name: str
    rules_text: str
    options: TableOptions
    versions: tuple[int, int]  # lowest, highest protocol version the creator speaks
    public_key: bytes
    player: str  # the creator's display name

    def to_wire(self) -> list[Any]:
        return [
            self.name,
            self.rules,
            self.rules_text_name,
            self.rules_text,
            self.options.to_wire(),
            list(self.versions),
            self.public_key,
            self.player,
        ]


@dataclass(frozen=True)
class Join:
    public_key: bytes
    versions: tuple[int, int]
    player: str

    def to_wire(self) -> list[Any]:
        return [self.public_key, list(self.versions), self.player]


@dataclass(frozen=True)
class Seating:
    version: int  # the highest version all four speak
    joins: tuple[bytes, bytes, bytes]  # the signed Join messages of seats 1, 2, 3

    def to_wire(self) -> list[Any]:
        return [self.version, list(self.joins)]


@dataclass(frozen=True)
class Ready:
    seating: bytes  # hash of the Seating message this seat accepts

    def to_wire(self) -> list[Any]:
        return [self.seating]


@dataclass(frozen=True)
class Commit:
    commitment: bytes

    def to_wire(self) -> list[Any]:
        return [self.commitment]


@dataclass(frozen=True)
class Echo:
    commitments: bytes

    def to_wire(self) -> list[Any]:
        return [self.commitments]


@dataclass(frozen=True)
class Reveal:
    nonce: bytes

    def to_wire(self) -> list[Any]:
        return [self.nonce]


@dataclass(frozen=True)
class Act:
    action: Any  # the rules adapter's plain encoding of the action
    timeout: bool  # True when our own side answered by default
    time_up: bool = False  # the time call stops the hand at once (steps.py)

    def to_wire(self) -> list[Any]:
        items = [self.action, self.timeout]
        return [*items, True] if self.time_up else items


@dataclass(frozen=True)
class HandEnd:
    """A seat confirms the hand's outcome; ``time_up``: its daemon holds the tournament's
    time call for this table, so this hand is the match's last (steps.py). Only sent as a
    second item when set, so a HandEnd without it encodes as before."""

    outcome: bytes  # digest of the outcome this seat computed
    time_up: bool = False

    def to_wire(self) -> list[Any]:
        return [self.outcome, True] if self.time_up else [self.outcome]


@dataclass(frozen=True)
class Accuse:
    first: bytes  # two wire messages of one seat with one seq
    second: bytes

    def to_wire(self) -> list[Any]:
        return [self.first, self.second]


@dataclass(frozen=True)
class DeckMsg:
    message: Any  # protocol/deck's message in plain form (deck_wire.py)

    def to_wire(self) -> list[Any]:
        return [self.message]


@dataclass(frozen=True)
class Thinking:
    """Our seat asks for more time on the discard the current step waits on: its window is
    extended once by another full call window. Not a step input (docs/PROTOCOL.md)."""

    def to_wire(self) -> list[Any]:
        return []


Body = (
    Open
    | Join
    | Seating
    | Ready
    | Commit
    | Echo
    | Reveal
    | Act
    | HandEnd
    | Accuse
    | DeckMsg
    | Thinking
)

KIND_OF: dict[type, MsgKind] = {
    Open: MsgKind.OPEN,
    Join: MsgKind.JOIN,
    Seating: MsgKind.SEATING,
    Ready: MsgKind.READY,
    Commit: MsgKind.COMMIT,
    Echo: MsgKind.ECHO,
    Reveal: MsgKind.REVEAL,
    Act: MsgKind.ACT,
    HandEnd: MsgKind.HAND_END,
    Accuse: MsgKind.ACCUSE,
    DeckMsg: MsgKind.DECK,
    Thinking: MsgKind.THINKING,
}


def encode_body(body: Body) -> bytes:
    return pack(body.to_wire())


def _versions(value: object) -> tuple[int, int]:
    lo, hi = need_list(value, "versions", length=2)
    low, high = need_int(lo, "versions low", 0, 2**16), need_int(hi, "versions high", 0, 2**16)
    if low > high:
        raise WireError(f"versions: {low} > {high}")
    return low, high


def decode_body(kind: MsgKind, data: bytes) -> Body:
    """The body of a message of ``kind``; ``WireError`` names any malformed field."""
    what = kind.name.lower()
    value = unpack(data, what)
    if kind is MsgKind.OPEN:
        f = need_list(value, what, length=8)
        return Open(
            need_str(f[0], "open.name"),
            need_str(f[1], "open.rules", 16),
            need_str(f[2], "open.rules_text_name"),
            need_str(f[3], "open.rules_text", MAX_CARD_TEXT),
            TableOptions.from_wire(f[4]),
            _versions(f[5]),
            need_bytes(f[6], "open.public_key", 32),
            need_str(f[7], "open.player"),
        )
    if kind is MsgKind.JOIN:
        f = need_list(value, what, length=3)
        return Join(
            need_bytes(f[0], "join.public_key", 32), _versions(f[1]), need_str(f[2], "join.player")
        )
    if kind is MsgKind.SEATING:
        f = need_list(value, what, length=2)
        joins = need_list(f[1], "seating.joins", length=3)
        return Seating(
            need_int(f[0], "seating.version", 0, 2**16),
            (
                need_bytes(joins[0], "seating.join"),
                need_bytes(joins[1], "seating.join"),
                need_bytes(joins[2], "seating.join"),
            ),
        )
    if kind is MsgKind.ACT:
        f = need_list(value, what, max_len=3)
        if len(f) < 2:
            raise WireError(f"act: expected 2 or 3 items, got {len(f)}")
        if not isinstance(f[1], bool):
            raise WireError("act.timeout: expected true/false")
        if len(f) == 3 and f[2] is not True:
            raise WireError("act.time_up: expected true (left out when false)")
        return Act(f[0], f[1], len(f) == 3)
    if kind is MsgKind.DECK:
        return DeckMsg(need_list(value, what, length=1)[0])
    if kind is MsgKind.THINKING:
        need_list(value, what, length=0)
        return Thinking()
    if kind is MsgKind.ACCUSE:
        f = need_list(value, what, length=2)
        return Accuse(need_bytes(f[0], "accuse.first"), need_bytes(f[1], "accuse.second"))
    if kind is MsgKind.HAND_END:
        f = need_list(value, what, max_len=2)
        if len(f) == 2 and f[1] is not True:
            raise WireError("hand_end.time_up: expected true (left out when false)")
        if not f:
            raise WireError("hand_end: expected 1 or 2 items, got 0")
        return HandEnd(need_bytes(f[0], "hand_end hash", 32), len(f) == 2)
    single: dict[MsgKind, Callable[[bytes], Body]] = {
        MsgKind.READY: Ready,
        MsgKind.COMMIT: Commit,
        MsgKind.ECHO: Echo,
        MsgKind.REVEAL: Reveal,
    }
    f = need_list(value, what, length=1)
    return single[kind](need_bytes(f[0], f"{what} hash", 32))
