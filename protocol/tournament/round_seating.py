"""The seating a round start must carry, recomputed from the record's roster and seeds.

Without seeding by standings the event is planned at once (seating.seat_rounds), so while
the rounds already played are the plan's, round ``r`` is the plan's round ``r`` under the
first round's seed: the later rounds' seeds are made all the same but the plan, fixed by a
seed nobody could predict, does not need them. When the rounds before are not the plan's (a
late entrant, a withdrawal) or the event seeds by standings, the round is seated alone
(seating.seat_round) under its own seed, made by its own entrants.
"""

from __future__ import annotations

from collections.abc import Sequence

from .seating import FillPolicy, RoundSeating, seat_round, seat_rounds


def expected_seating(
    roster: Sequence[int],
    round_index: int,
    rounds: int,
    history: Sequence[RoundSeating],
    seeds: Sequence[bytes],
    fill: FillPolicy,
    standings: Sequence[int] | None = None,
) -> RoundSeating:
    """Round ``round_index`` for ``roster`` (entrant numbers) after ``history``; ``seeds``
    are the rounds' seeds up to this one; ``standings`` (entrants best first) when the event
    seeds by standings. ``SeatingError`` when it cannot be seated."""
    if standings is None or round_index == 0:
        plan = seat_rounds(roster, rounds, seeds[0], fill)
        if tuple(history) == plan[:round_index]:
            return plan[round_index]
    return seat_round(
        roster,
        round_index,
        rounds,
        history,
        seeds[round_index],
        fill,
        standings if round_index > 0 else None,
    )
