"""Standings from table results: pure, so every daemon computes the same table.

How a table's result counts is the event's rule set's (its ``TournamentRules``, asked by the
event's rules name: event_rules.py): with ``TablePoints.PLACES`` (MCR) each table of a round
gives table points 4 / 2 / 1 / 0 by place (higher final score first); players tied on score
share the points of the places they cover (two tied for third: 0.5 each); the score breaks
ties between equal points when the rule set says so (MCR: players rank by table points, then
by total score). With ``TablePoints.SCORES`` (American) the table's scores are the points:
American tables score each hand's tournament points (protocol/american/tournament_hand.py,
``american_hand_points``: the card value, +10 self-picked, +20 jokerless except Singles and
Pairs; the discarder pays by its exposures, the most an event's own figure:
``Scoring.rules_figure``; a wall game +10 to every hand not dead; a hand unfinished at time
0), and players rank by their total. Players equal on everything that ranks them
share a rank. A bye scores what the event fixed at creation (``Scoring``); a bot seat takes
its place at the table but its points count for nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from fourwinds.protocol.table.rules.ruleset import FIGURE_UNUSED, TablePoints

from ..errors import FourwindsError
from .event_rules import NoTournaments, tournament_rules

PLACE_POINTS = (4, 2, 1, 0)


class StandingsError(FourwindsError):
    """Results that cannot make standings (a player twice in a round, a table twice)."""


@dataclass(frozen=True)
class Scoring:
    """An event's standings rules, fixed at creation: ``rules`` is the event's rules name
    (its rule set's ``TournamentRules`` say how results count). A bye gives ``bye_points``
    (table points by place: MCR) and ``bye_score`` (the score; where the scores are the
    points, American, its points too). ``figure`` is the number of its own the rule set
    reads (its ``TournamentRules.figure``), None for the rule set's default:
    ``rules_figure`` is the figure either way."""

    rules: str
    bye_points: Fraction = Fraction(0)
    bye_score: int = 0
    figure: int | None = None

    @property
    def rules_figure(self) -> int:
        """The event's figure for its rule set (``figure``, else the rule set's default;
        ``FIGURE_UNUSED`` for a rule set that reads none): what the record carries."""
        if self.figure is not None:
            return self.figure
        found = default_figure(self.rules)
        # a record naming rules without tournaments still has bytes (the checker refuses
        # the event with its reason, NO_CREATE); it reads no figure
        return FIGURE_UNUSED if found is None else found


def default_figure(rules: str) -> int | None:
    """The figure of an event of ``rules`` whose director set none: its rule set's
    ``TournamentRules.figure`` default, ``FIGURE_UNUSED`` when it reads none; None when no
    rule set of that name with tournaments is here."""
    try:
        declared = tournament_rules(rules)
    except NoTournaments:
        return None
    return FIGURE_UNUSED if declared.figure is None else declared.figure.default


@dataclass(frozen=True)
class TableResult:
    """A table's final scores, one per seat (E, S, W, N), as its four seats signed them;
    ``players`` names who sat there (None: a bot seat)."""

    round: int
    table: int
    players: tuple[int | None, int | None, int | None, int | None]
    scores: tuple[int, int, int, int]


@dataclass(frozen=True)
class Handover:
    """A seat of a table taken by a substitute from a hand on (records.Substitute): the seat's
    player (``players`` of the table's result) keeps what it earned before, ``carried`` (its
    score then) and ``share`` of the seat's MCR table points (the hands it played over the
    table's hands); the rest counts for ``substitute`` (a reserve's entrant number) or for
    nobody (None: a bot seat)."""

    round: int
    table: int
    seat: int
    substitute: int | None
    carried: int
    share: Fraction


@dataclass(frozen=True)
class Bye:
    """A player who sat out a round."""

    round: int
    player: int


@dataclass(frozen=True)
class Deduction:
    """Points and score taken from a player (a director's penalty, signed with a reason)."""

    player: int
    points: Fraction
    score: int


@dataclass(frozen=True)
class StandingsRow:
    """One player's place: ``rank`` (1 = first; equal players share it), ``points`` (table
    points by place, MCR; or the scores, American: tournament points), ``score`` (the total
    score: MCR's game score; American's the same tournament points), rounds played and
    byes."""

    rank: int
    player: int
    points: Fraction
    score: int
    played: int
    byes: int


def table_points(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """MCR table points by place, ties sharing the points of the places they cover."""
    order = sorted(range(len(scores)), key=lambda seat: -scores[seat])
    points = [Fraction(0)] * len(scores)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and scores[order[end + 1]] == scores[order[start]]:
            end += 1
        share = Fraction(sum(PLACE_POINTS[start : end + 1]), end - start + 1)
        for place in range(start, end + 1):
            points[order[place]] = share
        start = end + 1
    return tuple(points)


def standings(
    results: Sequence[TableResult],
    scoring: Scoring,
    byes: Sequence[Bye] = (),
    players: Sequence[int] = (),
    deductions: Sequence[Deduction] = (),
    handovers: Sequence[Handover] = (),
) -> tuple[StandingsRow, ...]:
    """Every player's row, best first (ties: by player number). ``players`` adds entrants
    with no result yet; ``deductions`` are taken off after the results (penalties);
    ``handovers`` split a seat's result between its player and a substitute."""
    _check(results, byes, handovers)
    counts = tournament_rules(scoring.rules)
    by_place = counts.points is TablePoints.PLACES
    handed = {(h.round, h.table, h.seat): h for h in handovers}
    points: dict[int, Fraction] = {p: Fraction(0) for p in players}
    score: dict[int, int] = dict.fromkeys(players, 0)
    played: dict[int, int] = dict.fromkeys(players, 0)
    sat_out: dict[int, int] = dict.fromkeys(players, 0)
    for result in results:
        if by_place:
            gained = table_points(result.scores)
        else:
            gained = tuple(Fraction(s) for s in result.scores)
        for seat, player in enumerate(result.players):
            shares = _shares(
                result,
                seat,
                player,
                gained[seat],
                handed.get((result.round, result.table, seat)),
                by_place,
            )
            for who, won, scored in shares:
                points[who] = points.get(who, Fraction(0)) + won
                score[who] = score.get(who, 0) + scored
                played[who] = played.get(who, 0) + 1
                sat_out.setdefault(who, 0)
    for bye in byes:
        bonus = scoring.bye_points if by_place else Fraction(scoring.bye_score)
        points[bye.player] = points.get(bye.player, Fraction(0)) + bonus
        score[bye.player] = score.get(bye.player, 0) + scoring.bye_score
        sat_out[bye.player] = sat_out.get(bye.player, 0) + 1
        played.setdefault(bye.player, 0)
    for taken in deductions:
        points[taken.player] = points.get(taken.player, Fraction(0)) - taken.points
        score[taken.player] = score.get(taken.player, 0) - taken.score
        played.setdefault(taken.player, 0)
        sat_out.setdefault(taken.player, 0)

    def key(p: int) -> tuple[Fraction, int]:
        return (points[p], score[p] if counts.score_breaks_ties else 0)

    order = sorted(points, key=lambda p: (tuple(-k for k in key(p)), p))
    rows: list[StandingsRow] = []
    for place, p in enumerate(order):
        rank = rows[-1].rank if rows and key(order[place - 1]) == key(p) else place + 1
        rows.append(StandingsRow(rank, p, points[p], score[p], played.get(p, 0), sat_out.get(p, 0)))
    return tuple(rows)


def _shares(
    result: TableResult,
    seat: int,
    player: int | None,
    gained: Fraction,
    handover: Handover | None,
    by_place: bool,
) -> list[tuple[int, Fraction, int]]:
    """Who a seat's result counts for: (player, points, score) each, none for a bot. A seat
    handed over keeps, for its player, its share of the table points by place (``by_place``)
    or, where the scores are the points, the score it had then."""
    total = result.scores[seat]
    if handover is None:
        return [] if player is None else [(player, gained, total)]
    before = gained * handover.share if by_place else Fraction(handover.carried)
    shares = [] if player is None else [(player, before, handover.carried)]
    if handover.substitute is not None:
        shares.append((handover.substitute, gained - before, total - handover.carried))
    return shares


def ranking(rows: Sequence[StandingsRow]) -> tuple[int, ...]:
    """Player numbers best first: the ``standings`` argument of the seating's seeding."""
    return tuple(row.player for row in rows)


def _check(
    results: Sequence[TableResult], byes: Sequence[Bye], handovers: Sequence[Handover] = ()
) -> None:
    tables: set[tuple[int, int]] = set()
    seen: set[tuple[int, int]] = set()
    for result in results:
        if (result.round, result.table) in tables:
            raise StandingsError(f"round {result.round + 1}, table {result.table + 1}: two results")
        tables.add((result.round, result.table))
        if len(result.players) != 4 or len(result.scores) != 4:
            raise StandingsError(
                f"round {result.round + 1}, table {result.table + 1}: not four seats"
            )
        for player in result.players:
            if player is not None:
                if (result.round, player) in seen:
                    raise StandingsError(f"round {result.round + 1}: player {player} at two seats")
                seen.add((result.round, player))
    for handover in handovers:
        if handover.substitute is not None:
            if (handover.round, handover.substitute) in seen:
                raise StandingsError(
                    f"round {handover.round + 1}: player {handover.substitute} at two seats"
                )
            seen.add((handover.round, handover.substitute))
    for bye in byes:
        if (bye.round, bye.player) in seen:
            raise StandingsError(f"round {bye.round + 1}: player {bye.player} has a bye and a seat")
        seen.add((bye.round, bye.player))
