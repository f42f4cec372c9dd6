"""American Mahjong (NMJL-style card, jokers, Charleston) as the rest of the code finds it.

The one ``RuleSetAdapter`` (protocol/table/rules/ruleset.py) of this rule set; the registry finds it
by the name ``american``. Seating (docs/RULES.md A3/A7): the highest roll of the first dice is
East, and the deal passes to the right after every hand; there is no prevalent wind.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fourwinds.protocol.deck import dice as deck_dice
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.rules.commands import RuleCommands
from fourwinds.protocol.table.rules.rotation import Seating, first_seating, rotate
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
from .match import HANDS_PER_GAME
from .narration import NARRATION
from .table_rules import AmericanRules, card_from_text
from .tileset import AMERICAN_SET
from .tournament_hand import THREE_EXPOSURES, american_table_points, tournament_hand

TOURNAMENT = TournamentRules(
    match_hands=HANDS_PER_GAME,
    points=TablePoints.SCORES,
    score_breaks_ties=False,
    unfinished_scores_zero=True,
    figure=THREE_EXPOSURES,
)
"""American tournaments: each hand's tournament points (``tournament_scores``) are the table's
scores and the standings points, ties sharing a rank; a timed round plays at most a game of 4
hands, and an event may say a hand unfinished at the time call scores 0 for everybody. The
event's scoring figure is the discarder's penalty facing three or more exposures."""


@dataclass(frozen=True)
class AmericanRuleSet:
    """American rules: the table's card travels in its Open (``rules_text``)."""

    name: str = AMERICAN_SET.name
    tile_set: TileSet = AMERICAN_SET
    title: str = "American"
    short_title: str = "American"
    hints_title: str = "Nearest card hands"
    plays_a_card: bool = True
    flowers_optional: bool = False
    exchange_title: str = "Charleston"
    """What the table option ``exchange_window`` times here: each pass of the Charleston."""

    @property
    def tournament(self) -> TournamentRules:
        return TOURNAMENT

    @property
    def narration(self) -> Narration:
        return NARRATION

    @property
    def commands(self) -> RuleCommands:
        """Its commands (``fourwinds score|hint|demo american``, ``card check|show``):
        loaded when a command line asks, never by a daemon or a bot seat."""
        from .commands import COMMANDS  # late: the scorers and the demo are the commands'

        return COMMANDS

    @property
    def view(self) -> RuleView:
        return table_view.RULES

    def table(self, rules_text: str) -> RulesAdapter:
        return AmericanRules(rules_text)

    def sheet(self, rules_text: str, *, flowers: bool) -> dict[str, Any]:
        """The card's lines; an American wall always has its flowers."""
        return table_view.sheet(card_from_text(rules_text))

    def first_seating(self, seed: bytes) -> Seating:
        return first_seating(Seat(deck_dice.first_east(seed)))

    def seating_for_hand(
        self, first: Seating, hand_no: int, before: Sequence[PlayedHand]
    ) -> Seating:
        return rotate(first, hand_no)  # the deal passes to the right after every hand

    def match_over(self, played: Sequence[PlayedHand], hands: int) -> bool:
        return len(played) >= hands  # a game of so many hands, whoever won them

    def tournament_scores(
        self, finals: Sequence[Any], seatings: Sequence[Seating], rules_figure: int
    ) -> tuple[int, int, int, int]:
        """The tournament points of the hands (protocol/tournament/standings.py): the card
        value, self-picked and jokerless bonuses, the discarder paying double;
        ``rules_figure`` is the event's ``THREE_EXPOSURES``."""
        hands = [
            tournament_hand(final, seating) for final, seating in zip(finals, seatings, strict=True)
        ]
        return american_table_points(hands, three_exposures_penalty=rules_figure)

    def prevalent_wind(self, hand_no: int) -> int:
        return 0


RULESET: RuleSetAdapter = AmericanRuleSet()
"""What the registry's ``american`` line finds."""
