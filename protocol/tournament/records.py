"""The tournament record: every signed record of one event, as frozen dataclasses.

Every entrant's daemon holds the whole record of its event, as it holds its tables' messages,
and ``check_event`` (check.py) recomputes everything from it. A record is a body (what is
said) and the signatures of whoever must say it (``Record``); the bytes signed are
``signed_bytes(body)``, which name the event (``event``, the hash of its ``Create``) in every
body but the ``Create`` itself, so a record of one event is worthless in another.

Who signs what (``signers`` in check.py):

* ``Create``: the director (the event's rules, fixed for good);
* ``Entry``: the player (its key and name); ``Admit``: the director (needed at a private event);
  ``Withdraw``: the player, or the director with a reason;
* ``SeedCommit``, ``SeedEcho``, ``SeedReveal``: each entrant of the round, the table dice's
  commit-reveal (round_seed.py) run by all entrants for the round's seed;
* ``RoundCall``: the director, at ``tournament start`` (an event made with
  ``SeedSteps.AHEAD``): entries and the results the seating uses are closed for that round,
  and only from then on may its entrants reveal;
* ``RoundStart``: the director, the seating as the seating method computes it;
* ``TableResult``: the four seats of the table (a bot seat: the director, who runs it);
* ``Correction``, ``Penalty``: the director, with a reason, shown in the standings history;
* ``TimeCall``: the director, once a started round of a timed event, when its clock runs out;
  ``Extension``, ``EndTable``: the director, for one table of a started round, with a reason
  (extra minutes before its time is called; its time called now). See docs/TOURNAMENT.md.
* ``Substitute``: the director and the three seats left at the table: a seat taken by a
  reserve or a bot seat from the next hand, with the scores so far and a reason;
* ``NewDirector``: more than half of the entrants not withdrawn, each by entrant number.

Player keys are 32-byte Ed25519 public keys; players in a seating are entrant numbers, in the
order the record admitted them (0 = the first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from ..canonical import ADDED_LATER
from .seating import FillPolicy, Seats
from .standings import Scoring

KEY_LEN = 32
SIGNATURE_LEN = 64
EVENT_ID_LEN = 32
TABLE_ID_LEN = 16
HASH_LEN = 32
NONCE_LEN = 16
MAX_NAME = 64
MAX_REASON = 200
MAX_ROUNDS = 64
MAX_ENTRANTS = 1024
MAX_TABLES = MAX_ENTRANTS // 4 + 1
MAX_AMOUNT = 10_000  # hands or minutes a round
MAX_SCORE = 10**9  # a table's final score, either sign


class Kind(Enum):
    """Every record kind; the values are on the wire."""

    CREATE = 1
    ENTRY = 2
    ADMIT = 3
    WITHDRAW = 4
    SEED_COMMIT = 5
    SEED_ECHO = 6
    SEED_REVEAL = 7
    ROUND_START = 8
    TABLE_RESULT = 9
    CORRECTION = 10
    PENALTY = 11
    TIME_CALL = 12
    EXTENSION = 13
    END_TABLE = 14
    SUBSTITUTE = 15
    NEW_DIRECTOR = 16
    ROUND_CALL = 17
    REVEAL_LAPSE = 18


class Length(Enum):
    """How a round ends: after a fixed number of hands, or when its clock runs out."""

    HANDS = "hands"
    MINUTES = "minutes"


class Deck(Enum):
    """The event's deck: the fair (masked) wall, or the practice deck."""

    FAIR = "fair"
    PRACTICE = "practice"


class SeedSteps(Enum):
    """When a round's seed is made (docs/TOURNAMENT.md, "The round seed").

    ``AFTER_CALL``: every step (commit, echo, reveal) after the director calls the round, the
    call itself no record: events made before the ``RoundCall`` record existed (their
    ``Create`` has 13 fields, and reads as this). ``AHEAD``: commitments and echoes are made
    ahead (during entries, while the round before plays), the director's signed
    ``RoundCall`` closes the round's entries and results, and reveals are taken only after
    it: ``start`` waits for the reveals alone."""

    AFTER_CALL = "after_call"
    AHEAD = "ahead"


class WithdrawnBy(Enum):
    """Who signed a withdrawal."""

    PLAYER = "player"
    DIRECTOR = "director"


TURN_SECONDS = 60
"""A turn's seconds at an event's tables unless its director chose others."""
TURN_SECONDS_RANGE = (10, 600)
"""The seconds a director may give each turn: from a quick evening's to a slow learner's."""


@dataclass(frozen=True)
class Create:
    """The event: its director's key, name and rules, fixed at creation. ``rules`` is a
    rules name (the registry's, as a table's Open carries it: ``"mcr"``), whose rule set says
    what its tournaments count (event_rules.py). ``nonce`` makes two events of one director
    with the same settings two events (their ids differ)."""

    director: bytes
    name: str
    rules: str
    rounds: int
    length: Length
    amount: int  # hands, or minutes, a round
    fill: FillPolicy
    scoring: Scoring
    unfinished_zero: bool  # a hand unfinished at the call scores 0 (where the rule set
    #                              allows it: TournamentRules.unfinished_scores_zero, American)
    private: bool
    seeded: bool  # Swiss-like seeding by standings from round 2
    deck: Deck
    nonce: bytes
    seed_steps: SeedSteps = SeedSteps.AFTER_CALL  # a 14th field on the wire only if AHEAD
    # MCR without flowers: every table of the event opened with the table option ``flowers``
    # off (136 tiles, no flower points). A 15th field on the wire only when off (then the
    # 14th is written whatever the seed steps), so an event made before it keeps its bytes
    # and its id; an event of a rule set that always plays its flowers (American) is refused
    # when checked.
    flowers: bool = field(default=True, metadata=ADDED_LATER)
    # the seconds a player of the event's tables has for each turn (the table option
    # ``turn_window``; the director's ``create --turn-seconds``). A 16th field on the wire only
    # when not TURN_SECONDS (then the 14th and the 15th are written whatever they hold).
    turn_seconds: int = field(default=TURN_SECONDS, metadata=ADDED_LATER)


@dataclass(frozen=True)
class Entry:
    """A player enters: its key and name, signed by the player."""

    event: bytes
    player: bytes
    name: str


@dataclass(frozen=True)
class Admit:
    """The director admits a key (what makes an entry count at a private event)."""

    event: bytes
    player: bytes


@dataclass(frozen=True)
class Withdraw:
    """A player leaves the event from the next round not yet begun."""

    event: bytes
    player: bytes
    by: WithdrawnBy
    reason: str


@dataclass(frozen=True)
class SeedCommit:
    """An entrant's commitment to its nonce for a round's seed."""

    event: bytes
    round: int
    player: bytes
    commitment: bytes


@dataclass(frozen=True)
class SeedEcho:
    """An entrant's echo: the digest of every commitment of the round it holds."""

    event: bytes
    round: int
    player: bytes
    commitments: bytes


@dataclass(frozen=True)
class SeedReveal:
    """An entrant's nonce for a round's seed, opening its commitment."""

    event: bytes
    round: int
    player: bytes
    nonce: bytes


@dataclass(frozen=True)
class RoundCall:
    """The director calls a round (``tournament start``, an event whose seed is made
    ``AHEAD``): from here the round's roster is closed (an entry after it plays from the
    next round; a withdrawal after it, from the next round), the results it is seated
    after are fixed, and its entrants may reveal their nonces."""

    event: bytes
    round: int


@dataclass(frozen=True)
class RevealLapse:
    """The director seats a called round without the entrants who did not reveal their
    nonce in time (their daemon gone, or withholding it): the seed is made by the others and
    those named sit the round out (no table, no bye); they play again from the next round.
    Only after the round's call, only of entrants of its roster who have not revealed, with
    a reason every entrant reads ("no reveal within 30 s of the call")."""

    event: bytes
    round: int
    players: tuple[bytes, ...]
    reason: str


@dataclass(frozen=True)
class RoundStart:
    """The director starts a round: its seating (entrant numbers; None a bot seat), its byes,
    its seed, and ``results``: the digest of the result records the round was seated after
    (round_seed.results_digest)."""

    event: bytes
    round: int
    tables: tuple[Seats, ...]
    byes: tuple[int, ...]
    seed: bytes
    results: bytes


@dataclass(frozen=True)
class TableResult:
    """A table's final scores (E, S, W, N) with the keys that sat there (None: a bot seat),
    signed by all four seats. ``table_id`` is the protocol's id of the table's transcript
    (signing.table_id: derived from the event, round and table)."""

    event: bytes
    round: int
    table: int
    players: tuple[bytes | None, bytes | None, bytes | None, bytes | None]
    scores: tuple[int, int, int, int]
    table_id: bytes


@dataclass(frozen=True)
class Correction:
    """The director sets a table's final scores (a result entered wrong, a table ended by
    force), with a reason; it takes the place of the table's signed result."""

    event: bytes
    round: int
    table: int
    scores: tuple[int, int, int, int]
    reason: str


@dataclass(frozen=True)
class Penalty:
    """The director takes ``points`` (table points, or tournament points) and ``score`` from
    a player in a round, with a reason."""

    event: bytes
    round: int
    player: bytes
    points: Fraction
    score: int
    reason: str


@dataclass(frozen=True)
class TimeCall:
    """The director calls time in a round of a timed event: at every table the hand in
    progress is the last (an extended table: that many minutes later). Signed by the director
    when its own clock of the round runs out; the record says when, nobody's clock does."""

    event: bytes
    round: int


@dataclass(frozen=True)
class Extension:
    """The director gives one table of a started round ``minutes`` more before its time is
    called (the extensions of one table add up), with a reason."""

    event: bytes
    round: int
    table: int
    minutes: int
    reason: str


@dataclass(frozen=True)
class EndTable:
    """The director ends one table of a started round by force, with a reason: its time is
    called now (the hand in progress is its last). A table that cannot even finish that
    hand gets its scores from a ``Correction``."""

    event: bytes
    round: int
    table: int
    reason: str


@dataclass(frozen=True)
class Substitute:
    """A seat of a started table whose player cannot come back is taken by a substitute
    from the next hand: ``substitute`` a named reserve's key (an entrant not seated in the
    round), or None for a bot seat the director's daemon plays. ``hands`` is how many hands
    the table finished before, ``scores`` (E, S, W, N) the scores after them: carried into
    the table's result. The table goes on as a new fourwinds table (signing.table_id part 1)
    with the substitute in ``seat`` for the hands left. Signed by the director, then the three
    seats left in wind order (a bot seat among them: the director again)."""

    event: bytes
    round: int
    table: int
    seat: int  # 0..3: E, S, W, N
    leaving: bytes
    substitute: bytes | None
    hands: int
    scores: tuple[int, int, int, int]
    reason: str


@dataclass(frozen=True)
class NewDirector:
    """The entrants name a new director: signed by more than half of the entrants not
    withdrawn, one signature an entrant by entrant number (None: not signed). ``at`` is the
    record's own place in the record, so the signatures cannot be used at another place
    (nor, naming the event, in another event). From then on the director's records are the
    new key's, and the former director's are refused."""

    event: bytes
    at: int
    director: bytes
    reason: str


Body = (
    Create
    | Entry
    | Admit
    | Withdraw
    | SeedCommit
    | SeedEcho
    | SeedReveal
    | RoundCall
    | RevealLapse
    | RoundStart
    | TableResult
    | Correction
    | Penalty
    | TimeCall
    | Extension
    | EndTable
    | Substitute
    | NewDirector
)

KIND_OF: dict[type, Kind] = {
    Create: Kind.CREATE,
    Entry: Kind.ENTRY,
    Admit: Kind.ADMIT,
    Withdraw: Kind.WITHDRAW,
    SeedCommit: Kind.SEED_COMMIT,
    SeedEcho: Kind.SEED_ECHO,
    SeedReveal: Kind.SEED_REVEAL,
    RoundStart: Kind.ROUND_START,
    TableResult: Kind.TABLE_RESULT,
    Correction: Kind.CORRECTION,
    Penalty: Kind.PENALTY,
    TimeCall: Kind.TIME_CALL,
    Extension: Kind.EXTENSION,
    EndTable: Kind.END_TABLE,
    Substitute: Kind.SUBSTITUTE,
    NewDirector: Kind.NEW_DIRECTOR,
    RoundCall: Kind.ROUND_CALL,
    RevealLapse: Kind.REVEAL_LAPSE,
}


@dataclass(frozen=True)
class Record:
    """A body and its signatures, one per signer in the order ``check.signers`` gives (a
    result: E, S, W, N; a new director: by entrant number). A signature missing is None."""

    body: Body
    signatures: tuple[bytes | None, ...]

    @property
    def kind(self) -> Kind:
        return KIND_OF[type(self.body)]


@dataclass(frozen=True)
class Unreadable:
    """A record in a file that could not be read, and why (it is refused, never guessed)."""

    problem: str
