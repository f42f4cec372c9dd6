"""What the rest of the code needs from a rule set: one ``RuleSetAdapter`` per rule set.

Each rule set keeps its adapter in its own folder (``protocol/american/ruleset.py``,
``protocol/mcr/ruleset.py``) and is found by name through the registry
(``protocol/table/rules/registry.py``: one line per rule set). Generic code (the table session's
steps, the seat view, the scoring sheet, the daemon, the frontends) asks the adapter instead of
comparing rule names, so a rule set's choices (how the players sit each hand, its view half,
its sheet, its name as people read it) are written once, in its folder.

The adapter is stateless (one per rule set); the per-table part that drives an engine is the
``RulesAdapter`` of ``rules.py`` that ``table`` builds from the table's card text.

Seatings (``rotation.Seating``) are table places by wind: ``seating[wind]`` plays that wind.

Four members are optional, so that a rule set written against this protocol stays one (and
the registry does not ask for them): ``exchange_title``, what the rule set calls its pre-play
exchange of tiles where it has one (American: "Charleston";
``rules_label.exchange_title_of``, for the labels of the table option ``exchange_window``),
``commands``, its command-line commands (a
``RuleCommands``, commands.py: ``commands_of``), ``botzone``, the Botzone game it speaks (a
``BotzoneGame``, botzone.py: ``game_of``), and ``tournament``, what its tournaments count (a
``TournamentRules``, below: ``tournament_of``; without one an event of its rules is refused,
protocol/tournament/event_rules.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from fourwinds.protocol.table.rules.rotation import Seating
from fourwinds.protocol.table.rules.rules_adapter import HandOutcome, RulesAdapter
from fourwinds.protocol.table.views.narration import Narration
from fourwinds.protocol.table.views.rule_view import RuleView
from fourwinds.protocol.walls import TileSet

PlayedHand = tuple[int, HandOutcome, Seating]
"""A hand of the match so far: its number, how it ended (by wind) and its seating."""


class TablePoints(Enum):
    """How a table's result in a tournament round becomes standings points
    (protocol/tournament/standings.py)."""

    PLACES = "places"
    """Table points by place at the table, 4 / 2 / 1 / 0 from the final scores (ties share
    the points of the places they cover); the score is kept beside them. A bye gives the
    event's bye points, and a seat handed to a substitute keeps its share of the points by the
    hands it played."""
    SCORES = "scores"
    """The table's final scores are the points (and the score). A bye gives the event's bye
    score as points, and a seat handed to a substitute keeps the score it had then."""


FIGURE_UNUSED = 30
"""The scoring figure an event's record carries when its rule set reads none
(``TournamentRules.figure`` None): the number every event's record carried before the rule
sets declared their own, so the bytes (and the event ids) of those records stay the same."""


@dataclass(frozen=True)
class ScoringFigure:
    """A number of an event's scoring that its rule set's tournaments read, fixed when the
    event is created and carried in its record (``Scoring.rules_figure``, the fourth item of
    the record's scoring on the wire). What it means is the rule set's: it passes the figure
    to its own ``tournament_scores`` (American: the discarder's penalty when it faced three
    or more exposures)."""

    label: str
    """What the figure is, as an error about a record reads it ("... penalty")."""
    default: int
    """The figure of an event that set none."""


@dataclass(frozen=True)
class TournamentRules:
    """What a rule set's tournaments count, declared once in its folder (its adapter's
    ``tournament``): the event's record, standings and round clock read it by the event's
    rules name, never by comparing names (protocol/tournament/event_rules.py). Optional: a
    rule set without one has no tournaments (``tournament_of``)."""

    match_hands: int
    """The hands of a whole match: a timed round's tables play at most this many."""
    points: TablePoints
    """How a table's result becomes standings points (and what a bye and a handed-over seat
    count)."""
    score_breaks_ties: bool
    """Whether players equal on points rank by their total score (else they share a rank)."""
    unfinished_scores_zero: bool
    """Whether the event option ``unfinished_zero`` applies: at a timed event the time call
    stops the hand in progress at once, scoring 0 for everybody."""
    figure: ScoringFigure | None = None
    """The one number of its own an event of this rule set fixes at creation (None: the rule
    set reads none, and the record carries ``FIGURE_UNUSED``)."""


class RuleSetAdapter(Protocol):
    """One rule set as the table, the seat view, the daemon and the frontends need it."""

    @property
    def name(self) -> str:
        """The rules name an Open message and the local API carry (``"mcr"``)."""
        ...

    @property
    def tile_set(self) -> TileSet:
        """The tile set and wall the rule set plays (``walls.TileSet``: declared in its
        folder, or a built-in rule set's borrowed through the registry)."""
        ...

    @property
    def title(self) -> str:
        """The rule set's name as people read it (``"Chinese Official (MCR)"``)."""
        ...

    @property
    def short_title(self) -> str:
        """Its name in a list where people choose a table or an event (``"MCR"``)."""
        ...

    @property
    def hints_title(self) -> str:
        """The heading of the seat view's ``hints`` (``"Tiles to win"``)."""
        ...

    @property
    def plays_a_card(self) -> bool:
        """Whether its tables play a card, the rule set's own text that travels in the Open
        (``rules_text``): a card file given to a table of other rules is refused."""
        ...

    @property
    def flowers_optional(self) -> bool:
        """Whether a table may leave the flowers out of its wall (the ``flowers`` option)."""
        ...

    @property
    def narration(self) -> Narration:
        """Its engine's actions and events in a table log for people (narration.py)."""
        ...

    @property
    def view(self) -> RuleView:
        """The rule set's half of the seat view (``contract_view`` does the shared half)."""
        ...

    def table(self, rules_text: str) -> RulesAdapter:
        """The adapter that drives this rule set's engine at a table whose Open carries
        ``rules_text``, the rule set's own text that only it reads (American: the card file;
        "" when the rule set has none, or for the house card)."""
        ...

    def sheet(self, rules_text: str, *, flowers: bool) -> dict[str, Any]:
        """The scoring sheet (``{"rules", "title", "entries"}``) of a table with this
        ``rules_text``; ``flowers`` False: a wall without flowers (no flower scoring)."""
        ...

    def first_seating(self, seed: bytes) -> Seating:
        """The first hand's seating drawn from the table's first dice seed (a tournament's
        fixed seating does not ask)."""
        ...

    def seating_for_hand(
        self, first: Seating, hand_no: int, before: Sequence[PlayedHand]
    ) -> Seating:
        """The seating of hand ``hand_no`` (0-based) of a match given the first hand's and
        the match's hands so far, in order (``before``: a rule set whose dealer keeps the
        deal after a win reads the last one; the built-in ones pass the deal regardless)."""
        ...

    def match_over(self, played: Sequence[PlayedHand], hands: int) -> bool:
        """Whether the match ends after the hands ``played`` (every hand so far, in order,
        the one just over last) at a table of ``hands`` hands (the Open's option, else the
        adapter's ``default_hands``): the built-in rule sets end after exactly that many; a
        rule set may end sooner (a player bust) or count deals instead of hands. A
        tournament's time call ends a match whatever this says."""
        ...

    def prevalent_wind(self, hand_no: int) -> int:
        """The round wind of hand ``hand_no`` (0-3; 0, East, for rule sets without one)."""
        ...

    def tournament_scores(
        self, finals: Sequence[Any], seatings: Sequence[Seating], rules_figure: int
    ) -> tuple[int, int, int, int] | None:
        """Each table place's score over the finished hands as a tournament counts it, when
        the rule set counts other than the match's own score (American: the tournament
        points of its hands); None when the match score counts (MCR). ``finals``: each
        finished hand's last engine state, ``seatings`` its seating; ``rules_figure`` the
        event's figure (``TournamentRules.figure``: what it means is this rule set's)."""
        ...


def tournament_of(ruleset: object) -> TournamentRules | None:
    """What a rule set's tournaments count (its optional ``tournament``), or None when it has
    none. The registry refuses a rule set whose ``tournament`` is there but is not a
    ``TournamentRules`` (registry.add_rulesets), so None here means none was declared."""
    found = getattr(ruleset, "tournament", None)
    return found if isinstance(found, TournamentRules) else None
