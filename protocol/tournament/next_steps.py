"""What a daemon signs next in an event, read from the checked record alone (a seed step, a
round start, a table's result).

Every entrant's daemon takes its own step of the round seed's commit-reveal (round_seed.py)
when the record says it is due, and the director's daemon signs the round start once every
reveal is in. Both are pure functions of the checker's ``Verdict`` (check.py), the event's
id and what only the signer knows (its key; the secret its nonces are derived from), so the
daemon decides nothing itself and a restarted daemon signs exactly what it would have: the
nonce of a round is derived from the secret, never drawn again.

At an event whose seed is made ahead (records.SeedSteps.AHEAD, seed_ahead.py) the
commitment and echo are owed as soon as the record allows them (round 1's during entries,
round ``r``'s once round ``r - 1`` has started; an echo again whenever an entry or a
withdrawal changed the commitments), the reveal only once the director's ``RoundCall`` is
held, and the round start once every reveal is in. When to send what is owed is the
daemon's choice (it waits for the roster to settle, and for its table to open).
"""

from __future__ import annotations

from . import round_seed
from .check import Verdict
from .records import (
    MAX_SCORE,
    RoundStart,
    SeedCommit,
    SeedEcho,
    SeedReveal,
    SeedSteps,
    TableResult,
)
from .round_seating import expected_seating
from .round_tables import seated_keys, substitute_at
from .signing import table_id
from .standings import ranking

SeedStep = SeedCommit | SeedEcho | SeedReveal


def seed_step(
    verdict: Verdict, event: bytes, player: bytes, secret: bytes, called: int | None
) -> SeedStep | None:
    """The seed step ``player`` owes now, or None. Before anyone committed, only when the
    director called the next round (``called``): the first commitment closes its roster."""
    create = verdict.create
    r = len(verdict.rounds)
    if create is None or r >= create.rounds or player not in verdict.entrants:
        return None
    number = verdict.entrants.index(player)
    nonce = round_seed.nonce(secret, event, r, player)
    progress = verdict.seeding
    if create.seed_steps is SeedSteps.AHEAD:
        return _ahead_step(verdict, event, player, number, nonce)
    if progress is None:
        if called != r or number in verdict.withdrawn:
            return None
        return SeedCommit(event, r, player, round_seed.commitment(event, r, player, nonce))
    if number not in progress.roster:
        return None  # entered after the round's roster closed: the next round
    commits = dict(progress.commits)
    if number not in commits:
        return SeedCommit(event, r, player, round_seed.commitment(event, r, player, nonce))
    if len(commits) < len(progress.roster):
        return None
    echoes = dict(progress.echoes)
    if number not in echoes:
        return SeedEcho(event, r, player, round_seed.echo([commits[n] for n in progress.roster]))
    if len(echoes) < len(progress.roster) or number in dict(progress.reveals):
        return None
    return SeedReveal(event, r, player, nonce)


def _ahead_step(
    verdict: Verdict, event: bytes, player: bytes, number: int, nonce: bytes
) -> SeedStep | None:
    """The step owed at an event whose seed is made ahead (seed_ahead.py)."""
    r = len(verdict.rounds)
    progress = verdict.seeding
    if progress is None:  # nothing taken yet: the entrants now in commit
        if number in verdict.withdrawn:
            return None
        return SeedCommit(event, r, player, round_seed.commitment(event, r, player, nonce))
    if number not in progress.roster:
        return None  # withdrawn, or entered after the call: the next round
    commits = dict(progress.commits)
    if number not in commits:
        return SeedCommit(event, r, player, round_seed.commitment(event, r, player, nonce))
    if len(commits) < len(progress.roster):
        return None
    if number not in dict(progress.echoes):
        return SeedEcho(event, r, player, round_seed.echo([commits[n] for n in progress.roster]))
    if (
        not progress.called
        or len(progress.echoes) < len(progress.roster)
        or number in dict(progress.reveals)
        or number in progress.excused  # seated out of the round: no reveal owed any more
    ):
        return None
    return SeedReveal(event, r, player, nonce)


def round_start(verdict: Verdict, event: bytes) -> RoundStart | None:
    """The round start the director signs once every entrant of the round revealed: the
    seed they made and the seating the method gives (``SeatingError`` when the round
    cannot be seated, with the reason); None while reveals are missing."""
    create = verdict.create
    progress = verdict.seeding
    if create is None or progress is None:
        return None
    seeders = tuple(n for n in progress.roster if n not in progress.excused)
    reveals = dict(progress.reveals)
    if any(n not in reveals for n in seeders):
        return None
    if create.seed_steps is SeedSteps.AHEAD and not progress.called:
        return None
    r = progress.round
    made = round_seed.seed(event, r, [reveals[n] for n in seeders])
    order = None
    if create.seeded and r > 0:
        order = tuple(n for n in ranking(verdict.standings) if n in seeders)
    seating = expected_seating(
        seeders,
        r,
        create.rounds,
        verdict.rounds,
        [*verdict.seeds, made],
        create.fill,
        order,
    )
    return RoundStart(
        event, r, seating.tables, seating.byes, made, round_seed.results_digest(verdict.hashes)
    )


def table_result(
    verdict: Verdict, event: bytes, table: int, scores: tuple[int, int, int, int]
) -> TableResult:
    """The result of ``table`` (from 0) of the last round started with these final scores
    (E, S, W, N), naming the keys seated there (None: a bot seat, signed by the director):
    what each seat of the table signs. ``ValueError`` when there is no such table or a
    score is out of bounds."""
    if not verdict.rounds:
        raise ValueError("no round has started")
    seating = verdict.rounds[-1]
    if not 0 <= table < len(seating.tables):
        raise ValueError(f"round {seating.round + 1} has tables 1 to {len(seating.tables)}")
    if any(not -MAX_SCORE <= score <= MAX_SCORE for score in scores):
        raise ValueError(f"a score is beyond {MAX_SCORE:,}")
    keys = seated_keys(verdict, seating, table)
    sub = substitute_at(verdict, seating.round, table)
    return TableResult(
        event,
        seating.round,
        table,
        keys,
        scores,
        table_id(event, seating.round, table, 0 if sub is None else 1),
    )
