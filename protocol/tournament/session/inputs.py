"""What an event session takes in: a frame a peer sent (decoded and bounded by the daemon
where it entered), a peer back, a tick of the daemon's clock, and what this daemon's player
or director asks through the local API. Each input is a frozen value; ``moves.INPUT_MOVES``
names the move for each type.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..records import Correction, EndTable, Extension, Penalty, Record, TimeCall

Scores = tuple[int, int, int, int]


@dataclass(frozen=True)
class RecordsIn:
    """``EventRecords``: records from ``start`` on, relayed by ``sender`` (any member)."""

    sender: bytes
    start: int
    records: tuple[Record, ...]


@dataclass(frozen=True)
class SubmitIn:
    """``EventSubmit``: a record ``sender`` submits to us as the event's holder."""

    sender: bytes
    record: Record


@dataclass(frozen=True)
class EnterIn:
    """``EventEnter``: ``sender``'s signed entry, with the code of a private event."""

    sender: bytes
    code: str
    entry: Record


@dataclass(frozen=True)
class CallIn:
    """``EventCall``: the director called ``round`` (from 0)."""

    sender: bytes
    round: int


@dataclass(frozen=True)
class PeerBack:
    """``sender`` said hello (again): a restarted peer, or one just reached."""

    sender: bytes


@dataclass(frozen=True)
class Tick:
    """The daemon's clock ticked; ``table_opening``: our table of the round is being opened
    (the next round's seed steps wait for it)."""

    table_opening: bool = False


@dataclass(frozen=True)
class CallRound:
    """The director calls the next round."""


@dataclass(frozen=True)
class SignResult:
    """Our player signs the final scores (E, S, W, N) of their table of the round."""

    table: int
    scores: Scores


@dataclass(frozen=True)
class SignBotResult:
    """As the director that played ``table``'s bot seat(s): sign the scores it holds."""

    table: int
    scores: Scores


@dataclass(frozen=True)
class WithdrawSelf:
    """Our player withdraws from the next round not yet begun."""

    reason: str


@dataclass(frozen=True)
class WithdrawEntrant:
    """The director withdraws ``player`` with a reason."""

    player: bytes
    reason: str


@dataclass(frozen=True)
class DirectorSigns:
    """The director signs a correction, a penalty or a record of the round clock."""

    body: Correction | Penalty | TimeCall | Extension | EndTable


@dataclass(frozen=True)
class Gathered:
    """A record whose signatures were gathered elsewhere (a substitute, a new director),
    offered to the record."""

    record: Record


Input = (
    RecordsIn
    | SubmitIn
    | EnterIn
    | CallIn
    | PeerBack
    | Tick
    | CallRound
    | SignResult
    | SignBotResult
    | WithdrawSelf
    | WithdrawEntrant
    | DirectorSigns
    | Gathered
)
