"""Tournament standings (issue 23): MCR table points 4/2/1/0 with ties sharing, then total
score; American tournament points with the discarder's penalty by exposures; byes at the
value fixed at creation; bot seats credit nobody."""

from __future__ import annotations

from fractions import Fraction

import pytest

from fourwinds.protocol.american.tournament_hand import (
    AmericanHand,
    HandEnd,
    american_hand_points,
    american_table_points,
)
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.tournament.standings import (
    Bye,
    Scoring,
    StandingsError,
    TableResult,
    ranking,
    standings,
    table_points,
)

MCR = Scoring("mcr")


def fr(*values: int | Fraction) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


def test_table_points_by_place_and_ties_share_the_places_they_cover() -> None:
    assert table_points((40, -10, 25, -55)) == fr(4, 1, 2, 0)
    assert table_points((10, 10, 0, -20)) == fr(3, 3, 1, 0)
    assert table_points((30, 0, 0, -30)) == fr(4, Fraction(3, 2), Fraction(3, 2), 0)
    assert table_points((30, 0, -15, -15)) == fr(4, 2, Fraction(1, 2), Fraction(1, 2))
    assert table_points((5, 5, 5, -15)) == fr(*[Fraction(7, 3)] * 3, 0)
    assert table_points((0, 0, 0, 0)) == fr(*[Fraction(7, 4)] * 4)
    assert sum(table_points((9, 9, 1, 1))) == 7


def test_mcr_ranks_by_table_points_then_total_score() -> None:
    results = [
        TableResult(0, 0, (0, 1, 2, 3), (50, 10, -20, -40)),
        TableResult(0, 1, (4, 5, 6, 7), (20, 20, -10, -30)),
        TableResult(1, 0, (0, 4, 1, 5), (-10, 60, -20, -30)),
        TableResult(1, 1, (2, 6, 3, 7), (5, 5, 5, -15)),
    ]
    rows = standings(results, MCR)
    by_player = {row.player: row for row in rows}
    assert by_player[0].points == 4 + 2 and by_player[0].score == 40
    assert by_player[4].points == 3 + 4 and by_player[4].score == 80
    assert by_player[2].points == 1 + Fraction(7, 3)
    assert ranking(rows) == (4, 0, 6, 2, 1, 5, 3, 7), "6 before 2: equal points, more score"
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5, 5, 7, 8], "1 and 5: equal in all"
    assert all(row.played == 2 and row.byes == 0 for row in rows)


def test_players_equal_on_points_and_score_share_a_rank() -> None:
    results = [TableResult(0, 0, (0, 1, 2, 3), (10, 10, -10, -10))]
    rows = standings(results, MCR)
    assert [(row.player, row.rank) for row in rows] == [(0, 1), (1, 1), (2, 3), (3, 3)]


def test_a_bye_scores_what_the_event_fixed_and_a_bot_seat_credits_nobody() -> None:
    scoring = Scoring("mcr", bye_points=Fraction(2), bye_score=5)
    results = [TableResult(0, 0, (0, 1, None, 2), (30, 0, 20, -50))]
    rows = standings(results, scoring, byes=[Bye(0, 3)], players=range(5))
    by_player = {row.player: row for row in rows}
    assert by_player[0].points == 4 and by_player[1].points == 1
    assert by_player[3].points == 2 and by_player[3].score == 5 and by_player[3].byes == 1
    assert by_player[3].played == 0
    assert by_player[4].points == 0 and by_player[4].played == 0, "entered, nothing yet"
    assert len(rows) == 5, "the bot seat has no row"


def test_american_points_winner_bonuses_and_discarder_penalty_by_exposures() -> None:
    win = AmericanHand(HandEnd.MAHJONG, winner=Seat.SOUTH, value=25, discarder=Seat.WEST)
    assert american_hand_points(win) == (0, 25, -10, 0)
    assert american_hand_points(
        AmericanHand(
            HandEnd.MAHJONG, winner=Seat.SOUTH, value=25, discarder=Seat.WEST, discarder_exposures=1
        )
    ) == (0, 25, -10, 0)
    assert american_hand_points(
        AmericanHand(
            HandEnd.MAHJONG, winner=Seat.SOUTH, value=25, discarder=Seat.WEST, discarder_exposures=2
        )
    ) == (0, 25, -20, 0)
    three = AmericanHand(
        HandEnd.MAHJONG, winner=Seat.SOUTH, value=25, discarder=Seat.WEST, discarder_exposures=3
    )
    assert american_hand_points(three) == (0, 25, -30, 0)
    assert american_hand_points(three, three_exposures_penalty=25) == (0, 25, -25, 0)
    picked = AmericanHand(
        HandEnd.MAHJONG, winner=Seat.EAST, value=30, self_picked=True, jokerless=True
    )
    assert american_hand_points(picked) == (60, 0, 0, 0)
    pairs = AmericanHand(
        HandEnd.MAHJONG,
        winner=Seat.EAST,
        value=50,
        jokerless=True,
        singles_and_pairs=True,
        discarder=Seat.NORTH,
    )
    assert american_hand_points(pairs) == (50, 0, 0, -10), "no jokerless bonus for S&P"


def test_american_wall_game_and_unfinished_hand() -> None:
    wall = AmericanHand(HandEnd.WALL_GAME, dead=(False, True, False, False))
    assert american_hand_points(wall) == (10, 0, 10, 10)
    assert american_hand_points(AmericanHand(HandEnd.UNFINISHED)) == (0, 0, 0, 0)
    with pytest.raises(StandingsError):
        american_hand_points(AmericanHand(HandEnd.MAHJONG))


def test_american_standings_rank_by_total_points_and_ties_share() -> None:
    hands = [
        AmericanHand(HandEnd.MAHJONG, winner=Seat.EAST, value=25, discarder=Seat.SOUTH),
        AmericanHand(HandEnd.WALL_GAME),
    ]
    scores = american_table_points(hands)
    assert scores == (35, 0, 10, 10)
    scoring = Scoring("american", bye_score=15)
    rows = standings([TableResult(0, 0, (0, 1, 2, 3), scores)], scoring, byes=[Bye(0, 4)])
    assert [(row.player, row.rank, int(row.points)) for row in rows] == [
        (0, 1, 35),
        (4, 2, 15),
        (2, 3, 10),
        (3, 3, 10),
        (1, 5, 0),
    ]


@pytest.mark.parametrize(
    "results, byes, reason",
    [
        ([TableResult(0, 0, (0, 1, 2, 3), (0, 0, 0, 0))] * 2, [], "two results"),
        (
            [
                TableResult(0, 0, (0, 1, 2, 3), (0, 0, 0, 0)),
                TableResult(0, 1, (3, 4, 5, 6), (0, 0, 0, 0)),
            ],
            [],
            "player 3 at two seats",
        ),
        ([TableResult(0, 0, (0, 1, 2, 3), (0, 0, 0, 0))], [Bye(0, 2)], "a bye and a seat"),
    ],
)
def test_results_that_cannot_make_standings_are_refused(
    results: list[TableResult], byes: list[Bye], reason: str
) -> None:
    with pytest.raises(StandingsError, match=reason):
        standings(results, MCR, byes=byes)


def test_each_rule_set_says_how_its_tournaments_count_a_tables_hands() -> None:
    """The daemon asks the table's rule set (no branch on its name): MCR counts the match
    score (None), American the tournament points of the hands played (none yet: zeros)."""
    from fourwinds.protocol.table.rules.registry import ruleset_named

    assert ruleset_named("mcr").tournament_scores([], [], 10) is None
    assert ruleset_named("american").tournament_scores([], [], 10) == (0, 0, 0, 0)


def test_each_rule_set_declares_what_its_tournaments_count() -> None:
    """The tournament asks the rule set by the event's rules name (event_rules.py): MCR
    counts table points by place with the score breaking ties, a whole match of 16 hands,
    the hand in progress at the time call played out; American counts the hands' tournament
    points as points, a game of 4 hands, and may score an unfinished hand 0."""
    from fourwinds.protocol.table.rules.ruleset import ScoringFigure, TablePoints, TournamentRules
    from fourwinds.protocol.tournament.event_rules import (
        NoTournaments,
        event_rule_names,
        tournament_rules,
    )

    assert event_rule_names() == ("american", "mcr")
    assert tournament_rules("mcr") == TournamentRules(16, TablePoints.PLACES, True, False)
    american = TournamentRules(
        4, TablePoints.SCORES, False, True, ScoringFigure("three exposures penalty", 30)
    )
    assert tournament_rules("american") == american
    with pytest.raises(NoTournaments, match=r"unknown rules 'toy' \(american or mcr\)"):
        tournament_rules("toy")
    with pytest.raises(NoTournaments, match="'No Rules' is not a rules name"):
        tournament_rules("No Rules")


def test_an_events_scoring_figure_is_its_rule_sets() -> None:
    """The American figure is the discarder's penalty facing three exposures (30 unless the
    event sets its own); MCR reads none, and its records carry the number they always did."""
    from fourwinds.protocol.table.rules.ruleset import FIGURE_UNUSED

    assert Scoring("american").rules_figure == 30
    assert Scoring("american", figure=25).rules_figure == 25
    assert Scoring("mcr").rules_figure == FIGURE_UNUSED == 30


def test_a_set_figure_travels_in_the_record_and_the_default_reads_back_as_none() -> None:
    from fourwinds.protocol.tournament.record_wire import decode_record, encode_record
    from fourwinds.protocol.tournament.records import (
        Create,
        Deck,
        Length,
        Record,
    )
    from fourwinds.protocol.tournament.seating import FillPolicy

    def create(scoring: Scoring) -> Create:
        return Create(
            bytes(32), "e", scoring.rules, 3, Length.HANDS, 4, FillPolicy.BOTS, scoring,
            False, False, True, Deck.FAIR, bytes(16),
        )  # fmt: skip

    for scoring in (Scoring("american", figure=25), Scoring("american"), Scoring("mcr")):
        read = decode_record(encode_record(Record(create(scoring), (bytes(64),)))).body
        assert isinstance(read, Create)
        assert read.scoring == scoring
        assert read.scoring.rules_figure == scoring.rules_figure
