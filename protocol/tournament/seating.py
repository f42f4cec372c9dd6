"""The seating method: who sits where, round by round, from the roster and a shared seed.

Every entrant's daemon must reach the same seating, and none may steer it, so the seating is
a pure function of the roster, the round, the rounds already seated, (with Swiss-like
seeding) the standings, and the seed the entrants made together. Nothing here reads a clock
or draws its own randomness; every choice by chance comes from the seed (stream.py).

Without seeding, the whole event is planned at once: a construction with no repeated
meeting where one is known (designs.py), players placed on it in an order drawn from the
seed, then a bounded local search (search.py) for whatever repeats are left, then the seat
winds (winds.py). Round ``r`` is round ``r`` of that plan as long as the rounds before it
are the plan's; when they are not (a late entrant, a withdrawal, seeding by standings), the
round is seated alone against what came before, by the same search.

Players are numbered by the caller (a count ``n`` means players 0..n-1). A table is four
seats in the order East, South, West, North; a bot seat is ``None``. When the count is not a
multiple of four, ``FillPolicy.BOTS`` adds bot seats (never more than three a round; one a
table when there are as many tables) and ``FillPolicy.BYES`` sits out the players with the
fewest byes so far (the longest ago first, then in an order drawn from the seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from ..errors import FourwindsError
from ..seats import Seat
from .designs import base_design
from .search import BOT, Search
from .stream import SeedStream
from .winds import WINDS, block_winds, table_winds

SEARCH_BUDGET = 120_000  # swaps weighed by the local search, at most, per seating
_LABEL = "fourwinds tournament seating 1"

Seats = tuple[int | None, int | None, int | None, int | None]


class FillPolicy(Enum):
    """What fills a round when the players are not a multiple of four."""

    BOTS = "bots"
    BYES = "byes"


class SeatingProblem(Enum):
    """Why a round cannot be seated."""

    NO_PLAYERS = "no players"
    TOO_FEW_PLAYERS = "fewer than four players, and byes cannot fill a table"
    BAD_ROSTER = "the roster names a player twice or a negative number"
    BAD_ROUNDS = "the event needs at least one round"
    BAD_ROUND = "the round is not one of the event's rounds"
    BAD_HISTORY = "the rounds seated before do not fit"
    BAD_STANDINGS = "the standings do not rank every player of the roster once"
    BAD_SEED = "the seed is not bytes"


class SeatingError(FourwindsError):
    """A round that cannot be seated, and why (``problem``, ``detail``)."""

    def __init__(self, problem: SeatingProblem, detail: str = "") -> None:
        self.problem = problem
        self.detail = detail
        super().__init__(f"cannot seat: {problem.value}" + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class RoundSeating:
    """One round: its index (0 = the first), its tables (E, S, W, N; None = a bot seat) and
    the players with a bye."""

    round: int
    tables: tuple[Seats, ...]
    byes: tuple[int, ...] = ()

    def seated(self) -> tuple[int, ...]:
        """Every player at a table this round."""
        return tuple(p for table in self.tables for p in table if p is not None)

    def bot_seats(self) -> tuple[tuple[int, Seat], ...]:
        """(table index, seat) of every bot seat."""
        return tuple(
            (t, Seat(s))
            for t, table in enumerate(self.tables)
            for s, p in enumerate(table)
            if p is None
        )

    def table_of(self, player: int) -> tuple[int, Seat] | None:
        """(table index, seat) of ``player``, None for a bye."""
        for t, table in enumerate(self.tables):
            if player in table:
                return t, Seat(table.index(player))
        return None


def seat_rounds(
    players: int | Sequence[int], rounds: int, seed: bytes, fill: FillPolicy = FillPolicy.BOTS
) -> tuple[RoundSeating, ...]:
    """Every round of an event with no seeding by standings: the plan."""
    roster = _roster(players)
    _check(roster, rounds, fill, seed)
    return _plan(roster, rounds, bytes(seed), fill)


def seat_round(
    players: int | Sequence[int],
    round_index: int,
    rounds: int,
    history: Sequence[RoundSeating],
    seed: bytes,
    fill: FillPolicy = FillPolicy.BOTS,
    standings: Sequence[int] | None = None,
) -> RoundSeating:
    """Round ``round_index`` (0 = the first) of an event of ``rounds`` rounds, after the
    rounds in ``history``. ``standings`` (player numbers, best first) seeds the round by
    rank (Swiss-like: neighbours in the standings meet, repeats avoided where possible);
    it is ignored for the first round."""
    roster = _roster(players)
    _check(roster, rounds, fill, seed)
    if not 0 <= round_index < rounds:
        raise SeatingError(SeatingProblem.BAD_ROUND, f"round {round_index} of 0..{rounds - 1}")
    _check_history(history, round_index)
    ranking = None
    if standings is not None and round_index > 0:
        if sorted(standings) != list(roster):
            raise SeatingError(SeatingProblem.BAD_STANDINGS)
        ranking = tuple(standings)
    if ranking is None:
        plan = _plan(roster, rounds, bytes(seed), fill)
        if tuple(history) == plan[:round_index]:
            return plan[round_index]
    return _alone(roster, round_index, tuple(history), bytes(seed), fill, ranking)


# -- checks ---------------------------------------------------------------------------------


def _roster(players: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(players, int):
        if players < 0:
            raise SeatingError(SeatingProblem.BAD_ROSTER, f"{players} players")
        return tuple(range(players))
    roster = tuple(sorted(players))
    if len(set(roster)) != len(roster) or (roster and roster[0] < 0):
        raise SeatingError(SeatingProblem.BAD_ROSTER)
    return roster


def _check(roster: tuple[int, ...], rounds: int, fill: FillPolicy, seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray):
        raise SeatingError(SeatingProblem.BAD_SEED)
    if not isinstance(rounds, int) or rounds < 1:
        raise SeatingError(SeatingProblem.BAD_ROUNDS, f"{rounds} rounds")
    if not roster:
        raise SeatingError(SeatingProblem.NO_PLAYERS)
    if fill is FillPolicy.BYES and len(roster) < 4:
        raise SeatingError(
            SeatingProblem.TOO_FEW_PLAYERS,
            f"{len(roster)} players; --fill bots seats them with bots",
        )


def _check_history(history: Sequence[RoundSeating], round_index: int) -> None:
    if len(history) != round_index:
        raise SeatingError(
            SeatingProblem.BAD_HISTORY, f"{len(history)} rounds given before round {round_index}"
        )
    for index, seating in enumerate(history):
        if seating.round != index:
            raise SeatingError(SeatingProblem.BAD_HISTORY, f"round {seating.round} at {index}")
        people = [*seating.seated(), *seating.byes]
        if len(set(people)) != len(people) or any(len(t) != WINDS for t in seating.tables):
            raise SeatingError(
                SeatingProblem.BAD_HISTORY,
                f"round {index} seats a player twice or a table not of four",
            )


# -- shared steps ---------------------------------------------------------------------------


def _shape(count: int, fill: FillPolicy) -> tuple[int, int, int]:
    """(tables, bot seats, byes) of a round of ``count`` players."""
    if fill is FillPolicy.BOTS:
        tables = -(-count // 4)
        return tables, 4 * tables - count, 0
    return count // 4, 0, count % 4


def _pick_byes(
    count: int, byes: int, had: list[int], last: list[int], order: Sequence[int]
) -> list[int]:
    """The ``byes`` players (indices) to sit out: fewest byes, the longest ago, then by
    ``order`` (their place in it)."""
    place = {p: i for i, p in enumerate(order)}
    chosen = sorted(range(count), key=lambda p: (had[p], last[p], place[p]))[:byes]
    return sorted(chosen)


def _spread_bots(tables: list[list[int]]) -> None:
    """Bot seats as evenly over the tables as they go (one a table while there are at least
    as many tables as bot seats): an extra one changes places with a player of the table
    with the fewest."""
    bots = sum(table.count(BOT) for table in tables)
    most = -(-bots // len(tables))
    for table in tables:
        while table.count(BOT) > most:
            target = min(tables, key=lambda t: t.count(BOT))
            j = next(i for i, p in enumerate(target) if p != BOT)
            i = table.index(BOT)
            table[i], target[j] = target[j], table[i]


def _seating(
    roster: tuple[int, ...], index: int, tables: Sequence[Sequence[int]], byes: Sequence[int]
) -> RoundSeating:
    def who(p: int) -> int | None:
        return None if p == BOT else roster[p]

    seats = tuple((who(t[0]), who(t[1]), who(t[2]), who(t[3])) for t in tables)
    return RoundSeating(index, seats, tuple(sorted(roster[p] for p in byes)))


# -- the plan -------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _plan(
    roster: tuple[int, ...], rounds: int, seed: bytes, fill: FillPolicy
) -> tuple[RoundSeating, ...]:
    count = len(roster)
    table_count, bots, bye_count = _shape(count, fill)
    order = SeedStream(seed, f"{_LABEL}/players").permutation(count)
    had, last = [0] * count, [-1] * count
    byes_of: list[list[int]] = []
    for r in range(rounds):
        out = _pick_byes(count, bye_count, had, last, order)
        for p in out:
            had[p] += 1
            last[p] = r
        byes_of.append(out)
    design = base_design(table_count, rounds)
    slots = 4 * table_count
    holder: list[int] = [BOT] * bots + order[: slots - bots]
    bench = order[slots - bots :]
    tables_of: list[list[list[int]]] = []
    for r in range(rounds):
        away = set(byes_of[r])
        freed = [s for s, p in enumerate(holder) if p in away]
        back = [p for p in bench if p not in away]
        bench = [p for p in bench if p in away] + [holder[s] for s in freed]
        for s, p in zip(freed, back, strict=True):
            holder[s] = p
        tables = [[holder[s] for s in table] for table in design[r]]
        _spread_bots(tables)
        tables_of.append(tables)
    Search(count, tables_of, 0, SeedStream(seed, f"{_LABEL}/search")).run(SEARCH_BUDGET)
    shuffle = SeedStream(seed, f"{_LABEL}/tables")
    orders = SeedStream(seed, f"{_LABEL}/winds")
    counts = [[0] * WINDS for _ in range(count)]
    plan = []
    for start in range(0, rounds, WINDS):
        block = tables_of[start : start + WINDS]
        for offset, seated in enumerate(block_winds(count, block, counts, orders)):
            shuffle.shuffle(seated)
            plan.append(_seating(roster, start + offset, seated, byes_of[start + offset]))
    return tuple(plan)


# -- one round alone ------------------------------------------------------------------------


def _alone(
    roster: tuple[int, ...],
    index: int,
    history: tuple[RoundSeating, ...],
    seed: bytes,
    fill: FillPolicy,
    ranking: tuple[int, ...] | None,
) -> RoundSeating:
    count = len(roster)
    number = {p: i for i, p in enumerate(roster)}
    table_count, bots, bye_count = _shape(count, fill)
    counts = [[0] * WINDS for _ in range(count)]
    had, last = [0] * count, [-1] * count
    past: list[list[list[int]]] = []
    for seating in history:
        tables = []
        for table in seating.tables:
            inner = [number.get(p, BOT) if p is not None else BOT for p in table]
            for w, p in enumerate(inner):
                if p != BOT:
                    counts[p][w] += 1
            tables.append(inner)
        past.append(tables)
        for p in seating.byes:
            if p in number:
                had[number[p]] += 1
                last[number[p]] = seating.round
    stream = SeedStream(seed, f"{_LABEL}/round {index}")
    ranks = None
    if ranking is not None:
        ranks = [0] * count
        for place, p in enumerate(ranking):
            ranks[number[p]] = place
        order = sorted(range(count), key=lambda p: -ranks[p])  # byes: the lowest ranked
    else:
        order = stream.permutation(count)
    out = _pick_byes(count, bye_count, had, last, order)
    sitting_out = set(out)
    by_rank = sorted(range(count), key=lambda p: ranks[p]) if ranks is not None else order
    playing = [p for p in by_rank if p not in sitting_out]
    tables = _first_tables(playing, table_count, bots, past, count, ranks is not None)
    may_take = [
        sum(1 << w for w in range(WINDS) if counts[p][w] == min(counts[p])) for p in range(count)
    ]
    search = Search(count, [*past, tables], len(past), stream, ranks, may_take)
    search.run(SEARCH_BUDGET)
    tables = search.rounds[-1]
    if ranks is not None:  # the top table first
        tables.sort(key=lambda t: min(ranks[p] for p in t if p != BOT))
    seated = [table_winds(table, counts, stream) for table in tables]
    if ranks is None:
        stream.shuffle(seated)
    return _seating(roster, index, seated, out)


def _first_tables(
    playing: list[int],
    table_count: int,
    bots: int,
    past: list[list[list[int]]],
    count: int,
    ranked: bool,
) -> list[list[int]]:
    """A start for the search: by rank in fours, or greedily each table's newcomer the one
    who met its players least; bot seats at the last tables, as evenly as they go."""
    bots_at = [0] * table_count
    for i in range(bots):
        bots_at[table_count - 1 - i % table_count] += 1
    if ranked:
        tables, start = [], 0
        for t in range(table_count):
            size = 4 - bots_at[t]
            tables.append(playing[start : start + size] + [BOT] * bots_at[t])
            start += size
        return tables
    meet = [[0] * count for _ in range(count)]
    for tables in past:
        for table in tables:
            for a in table:
                for b in table:
                    if a != BOT and b != BOT and a != b:
                        meet[a][b] += 1
    left = list(playing)
    out = []
    for t in range(table_count):
        table = [BOT] * bots_at[t]
        while len(table) < 4:
            real = [p for p in table if p != BOT]
            best = min(left, key=lambda p: sum(meet[p][x] for x in real))
            left.remove(best)
            table.append(best)
        out.append(table)
    return out
