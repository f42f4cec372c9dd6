"""Chinese Official (MCR) as the rest of the code finds it.

The one ``RuleSetAdapter`` (protocol/table/rules/ruleset.py) of this rule set; the registry finds it
by the name ``mcr``. Seating (docs/RULES.md B2): the four seat winds are drawn at random once, the
players change seats at each round's end and the winds rotate after every hand
(``match.hand_seating``, which the match of ``match.py`` seats its players with too); the
prevalent wind is the round's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fourwinds.protocol.deck import dice as deck_dice
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.rules.botzone import BotzoneGame
from fourwinds.protocol.table.rules.commands import RuleCommands
from fourwinds.protocol.table.rules.rotation import Seating
from fourwinds.protocol.table.rules.rules_adapter import RulesAdapter
from fourwinds.protocol.table.rules.ruleset import (
    PlayedHand,
    RuleSetAdapter,
    TablePoints,
    TournamentRules,
)
from fourwinds.protocol.table.views.narration import Narration
from fourwinds.protocol.table.views.rule_view import RuleView
from fourwinds.protocol.walls import TileSet

from . import table_view
from .config import HANDS_PER_MATCH, HANDS_PER_ROUND
from .match import hand_seating
from .narration import NARRATION
from .table_rules import MCRRules
from .tileset import MCR_SET

TOURNAMENT = TournamentRules(
    match_hands=HANDS_PER_MATCH,
    points=TablePoints.PLACES,
    score_breaks_ties=True,
    unfinished_scores_zero=False,
)
"""MCR tournaments (European practice): table points 4 / 2 / 1 / 0 by place from the match
scores, the total score breaking ties; a timed round plays at most a whole match of 16 hands,
and the hand in progress at the time call is played out."""


@dataclass(frozen=True)
class MCRRuleSet:
    """MCR rules: no card; the ``flowers`` table option says whether the wall has flowers."""

    name: str = MCR_SET.name
    tile_set: TileSet = MCR_SET
    title: str = "Chinese Official (MCR)"
    short_title: str = "MCR"
    hints_title: str = "Tiles to win"
    plays_a_card: bool = False
    flowers_optional: bool = True

    @property
    def tournament(self) -> TournamentRules:
        return TOURNAMENT

    @property
    def narration(self) -> Narration:
        return NARRATION

    @property
    def commands(self) -> RuleCommands:
        """Its commands (``fourwinds score|hint|demo mcr``): loaded when a command line
        asks, never by a daemon or a bot seat."""
        from .commands import COMMANDS  # late: the scorers and the demo are the commands'

        return COMMANDS

    @property
    def botzone(self) -> BotzoneGame:
        """Botzone's "Chinese-Standard-Mahjong", which `fourwinds bot --botzone` plays
        (protocol/table/rules/botzone.py): loaded when a Botzone seat asks."""
        from .botzone.game import GAME  # late: only a Botzone seat needs it

        return GAME

    @property
    def view(self) -> RuleView:
        return table_view.RULES

    def table(self, rules_text: str) -> RulesAdapter:
        return MCRRules(rules_text)

    def sheet(self, rules_text: str, *, flowers: bool) -> dict[str, Any]:
        """The fans and their points (no Flower Tiles fan without flowers)."""
        return table_view.sheet(flowers)

    def first_seating(self, seed: bytes) -> Seating:
        """The four seat winds drawn at random once (B2): who drew each wind."""
        winds = deck_dice.seat_winds(seed)
        return (
            Seat(winds.index(Seat.EAST)),
            Seat(winds.index(Seat.SOUTH)),
            Seat(winds.index(Seat.WEST)),
            Seat(winds.index(Seat.NORTH)),
        )

    def seating_for_hand(
        self, first: Seating, hand_no: int, before: Sequence[PlayedHand]
    ) -> Seating:
        return hand_seating(first, hand_no)  # B2: by hand number alone, whoever won

    def match_over(self, played: Sequence[PlayedHand], hands: int) -> bool:
        return len(played) >= hands  # B2: sixteen hands (or the table's), whoever won them

    def prevalent_wind(self, hand_no: int) -> int:
        return (hand_no // HANDS_PER_ROUND) % 4

    def tournament_scores(
        self, finals: Sequence[Any], seatings: Sequence[Seating], rules_figure: int
    ) -> None:
        """The match score counts (its table points come from it: standings.py)."""
        return None


RULESET: RuleSetAdapter = MCRRuleSet()
"""What the registry's ``mcr`` line finds."""
