"""The seat view and its actions as types: what ``contract_view`` builds and every frontend reads.

The view travels as a plain msgpack map (docs/LOCAL-API.md, "Events"), so these are
``TypedDict``s: the same dicts as before, now with their keys and value types written down once
for mypy and for a reader. ``SeatView`` is the VIEW every rule set shares; ``ActionEntry`` one
ACTION of ``legal_actions``. A rule set's half of the view (``rule_view.RuleView``) answers with
``RuleTableKeys`` and ``RulePlayerKeys``: the shared keys it fills in, all optional. A rule set
that adds keys of its own (MCR's ``fans``, American's ``card_hand`` in a result) declares a
``TypedDict`` that extends these in its folder; the shared code reads only the keys named here.

Nested values a rule set shapes alone (an exposure's entry, a hint, the news) stay ``Any``
here: their shape is the rule set's (its ``table_view``) and the docs'.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = [
    "ActionEntry",
    "Exposure",
    "HandResult",
    "HandSummary",
    "LastDiscard",
    "LiveWins",
    "NextEntry",
    "PastHand",
    "PaymentEntry",
    "PlayerEntry",
    "RulePlayerKeys",
    "RuleTableKeys",
    "RulesetWords",
    "SeatView",
    "SeatViewEvent",
    "StandingEntry",
    "UnreachableEntry",
    "WaitingEntry",
    "Windows",
]


class ActionEntry(TypedDict):
    """One ACTION of ``legal_actions``: what a frontend shows and sends back by ``id``."""

    id: NotRequired[int]
    """Its place in ``legal_actions`` (``contract_view`` numbers the offers in order)."""
    type: str
    """What kind of action: ``discard``, ``call``, ``pass``, ``mahjong``, ``ready``..."""
    label: str
    """The action as people read it ("Discard 5p")."""
    tiles: list[str]
    """The tiles it shows or, with ``choose``, the tiles to choose from (codes)."""
    default: NotRequired[bool]
    """True on the one the window would take when it runs out."""
    choose: NotRequired[int]
    """How many of ``tiles`` the player chooses (a pass, a courtesy offer)."""


class RulesetWords(TypedDict):
    """What to call the table's rule set and its parts (each "" before it has rules)."""

    title: str
    short_title: str
    hints_title: str


class Windows(TypedDict):
    """The table's timers in seconds (0: none, wait for ever)."""

    call: float
    turn: float
    charleston: float
    next: float


Exposure = TypedDict("Exposure", {"tiles": list[str], "label": str, "from": int | None})
"""An exposed group: its tiles, what it is ("pung", "concealed kong") and the seat whose
discard it took (a wind; None when none: a concealed kong, a group of the seat's own)."""


class LastDiscard(TypedDict):
    """The discard that may be called now: its discarder (wind), the tile, and its place in
    that seat's ``discards`` (the one tile to mark)."""

    seat: int
    tile: str
    index: int


class LiveWins(TypedDict):
    """The tiles that win for our ready hand and how many of them are still live."""

    left: int
    tiles: list[str]


class RulePlayerKeys(TypedDict, total=False):
    """A seat's public part as a rule set fills it in (``RuleView.player``)."""

    dead: bool
    concealed_count: int
    exposures: list[Exposure]
    flowers: list[str]
    discards: list[str]


class PlayerEntry(TypedDict):
    """One seat of ``players``, in wind order this hand (table places outside a hand)."""

    seat: int
    name: str
    wind: str
    score: int
    dead: bool
    connected: bool
    concealed_count: int
    exposures: list[Exposure]
    flowers: list[str]
    discards: list[str]
    ready: bool
    thinking: bool
    free: NotRequired[bool]
    """True at a lobby place nobody holds yet, when a view says so outright (the lobby screen
    reads it; the contract's view names such a place ``seat N`` instead)."""


class PaymentEntry(TypedDict):
    """One seat's net payment of a hand's ``result``: its wind, its player's name, the amount."""

    seat: int
    name: str
    amount: int


class HandResult(TypedDict):
    """A hand's ``result`` (docs/LOCAL-API.md): the keys every rule set gives; a rule set
    adds its own (``fans``, ``card_hand``) by a ``TypedDict`` of its own that extends this."""

    kind: str
    winner: int | None
    hand: str
    tiles: list[str]
    payouts: list[int]
    audit: str
    winning_tile: str | None
    self_drawn: bool
    from_seat: int | None
    concealed: list[str]
    exposures: list[list[str]]
    flowers: list[str]
    # the shared half adds these to the rule set's result, by the names of the hand's players
    winner_name: NotRequired[str | None]
    from_name: NotRequired[str | None]
    payments: NotRequired[list[PaymentEntry]]
    hands: NotRequired[list[list[str]] | None]
    hands_detail: NotRequired[str]
    scores: NotRequired[list[int]]


PastHand = TypedDict(
    "PastHand",
    {
        "hand_number": int,
        "kind": str,
        "winner": str | None,
        "self_drawn": bool,
        "from": str | None,
        "summary": str,
        "payments": list[list[Any]],
    },
)
"""One finished hand of ``history``: its kind, the winner's and the discarder's names (``from``
is a Python keyword, hence this form), its one line and each player's ``[name, amount]``."""


HandSummary = TypedDict(
    "HandSummary",
    {"kind": str, "winner": int | None, "from": int | None, "self_drawn": bool, "summary": str},
)
"""A finished hand as a rule set sums it up for ``history`` (``RuleView.summary``): winds,
which the shared half turns into the players' names."""


class StandingEntry(TypedDict):
    """One place of the match's final ``standings``."""

    name: str
    score: int
    rank: int


class NextEntry(TypedDict):
    """At a hand's end: who the "next" countdown waits for, its seconds and what follows."""

    waiting: list[int]
    deadline: float | None
    then: str


class UnreachableEntry(TypedDict):
    """A player our daemon cannot reach."""

    seat: int
    name: str
    for_s: int
    last_address: str


class WaitingEntry(TypedDict):
    """Whom the table waits for beyond their countdown, and how long (``waiting.py``)."""

    seats: list[int]
    names: list[str]
    unreachable: bool
    seconds: int
    text: str


class RuleTableKeys(TypedDict, total=False):
    """The VIEW keys a rule set fills in (``RuleView.table``)."""

    phase: str
    phase_detail: str
    turn: int | None
    wall_remaining: int
    hand: list[str]
    drawn: str | None
    last_discard: LastDiscard | None
    news: list[str]
    received: list[str]
    hints: list[str]
    live_wins: LiveWins | None
    result: HandResult | None
    prevalent_wind: int | None


class SeatView(TypedDict):
    """The VIEW of one seat (version 1): the same keys for every rule set."""

    rules: str
    ruleset: RulesetWords
    table: str
    practice: bool
    flowers: bool
    hand_number: int
    hands_in_match: int
    seat: int | None
    dealer: int
    prevalent_wind: int | None
    phase: str
    phase_detail: str
    turn: int | None
    waiting_for: list[int]
    deadline: float | None
    wall_remaining: int
    players: list[PlayerEntry]
    hand: list[str]
    drawn: str | None
    last_discard: LastDiscard | None
    news: list[str]
    received: list[str]
    hints: list[str]
    live_wins: LiveWins | None
    result: HandResult | None
    windows: Windows
    next: NextEntry | None
    history: list[PastHand]
    standings: list[StandingEntry] | None
    unreachable: list[UnreachableEntry]
    waiting: WaitingEntry | None
    screen: str
    rack: list[str]
    prompt: str | None
    # the daemon adds these for the wire (docs/LOCAL-API.md), not the contract
    step: NotRequired[int]
    """The table session's step: with the offered ACTION ids it names the decision asked."""
    reconnecting: NotRequired[bool]
    """True while our daemon, started again, catches up with the others: the rest is stale."""


class SeatViewEvent(TypedDict):
    """What ``build_seat_view`` returns: our seat's VIEW and the ACTIONs it may take."""

    view: SeatView
    legal_actions: list[ActionEntry]
