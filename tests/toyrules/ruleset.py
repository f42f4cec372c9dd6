""" "Pungs and a pair" as the rest of the code finds it: its one ``RuleSetAdapter``
(protocol/table/rules/ruleset.py).

This module is what a registry line names: every ``fourwinds`` process started with
``FOURWINDS_RULESETS=tests.toyrules.ruleset`` (and this checkout on its Python path) loads it
(frontends/cli/rule_plugins.py), and its tables are hosted, joined, played, shown and scored like
the built-in rule sets' (docs/DESIGN.md, "How to add a rule set"). Seating: the first East by
the dice (as American), and the deal passes to the right after each hand unless East won it,
when East deals again (a house rule of many tables, which the built-in rule sets do not play:
it shows the seating seam reads the hands so far); no round wind. A match is the table's
hands, or ends sooner once a player is bust: their match score at ``-BUST`` or below (another
house rule, which shows the rule set decides when its match ends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fourwinds.protocol.deck import dice as deck_dice
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.rules.rotation import Seating, first_seating, rotate
from fourwinds.protocol.table.rules.rules_adapter import RulesAdapter
from fourwinds.protocol.table.rules.ruleset import PlayedHand, RuleSetAdapter
from fourwinds.protocol.table.views.narration import Narration
from fourwinds.protocol.table.views.rule_view import RuleView
from fourwinds.protocol.walls import TileSet

from . import table_view
from .narration import NARRATION
from .table_rules import NAME, TILES, PungsRules

BUST = 24
"""A player whose match score falls to ``-BUST`` (three hands lost) ends the match."""


@dataclass(frozen=True)
class PungsRuleSet:
    """Pungs and a pair: no card, no flowers, no options; no ``tournament`` (optional), so
    no tournaments: an event of these rules is refused where it is made."""

    name: str = NAME
    tile_set: TileSet = field(default=TILES)
    title: str = "Pungs and a pair"
    short_title: str = "Pungs"
    hints_title: str = "Your pungs"
    plays_a_card: bool = False
    flowers_optional: bool = False

    @property
    def narration(self) -> Narration:
        return NARRATION

    @property
    def view(self) -> RuleView:
        return table_view.RULES

    def table(self, rules_text: str) -> RulesAdapter:
        return PungsRules(rules_text)

    def sheet(self, rules_text: str, *, flowers: bool) -> dict[str, Any]:
        return table_view.SHEET

    def first_seating(self, seed: bytes) -> Seating:
        return first_seating(Seat(deck_dice.first_east(seed)))

    def seating_for_hand(
        self, first: Seating, hand_no: int, before: Sequence[PlayedHand]
    ) -> Seating:
        if not before:
            return first
        _, outcome, seating = before[-1]
        return seating if outcome.winner is Seat.EAST else rotate(seating, 1)

    def match_over(self, played: Sequence[PlayedHand], hands: int) -> bool:
        if len(played) >= hands:
            return True
        scores = [0, 0, 0, 0]
        for _, outcome, seating in played:  # payments by wind: each place's by its seat
            for wind, place in enumerate(seating):
                scores[place] += outcome.payments[wind]
        return min(scores) <= -BUST

    def prevalent_wind(self, hand_no: int) -> int:
        return 0

    def tournament_scores(
        self, finals: Sequence[Any], seatings: Sequence[Seating], rules_figure: int
    ) -> None:
        return None


RULESET: RuleSetAdapter = PungsRuleSet()
"""What ``FOURWINDS_RULESETS=tests.toyrules.ruleset`` loads: the registry line."""
