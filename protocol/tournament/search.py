"""Bounded local search over a tournament's tables: fewer repeated meetings.

The state is every round's tables; rounds before ``first_free`` are history and never change.
The cost is the sum over pairs of (meetings - 1)**2, plus ``CONSECUTIVE_WEIGHT`` for every
pair that meets in two rounds in a row (a repeat the players notice most), plus, when a
ranking is given (Swiss-like seeding), how far each table's ranks spread beyond four
neighbours, and, when the winds each player may still take are given (a round seated
alone), ``WIND_WEIGHT`` for each seat of a table that cannot give its player such a wind.
A move swaps two players of one free round who sit at different tables; the search
looks at players in a repeated meeting (or at such a table), makes the best of a few swaps
when it worsens the cost by no more than a threshold that falls to zero (threshold
accepting: it climbs out of shallow dips early and settles late), and keeps the best state
seen. Its effort is a count of steps and swaps weighed, never a clock, so every daemon gets
the same answer. Bot seats (-1) never move and meet nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from .stream import SeedStream

CONSECUTIVE_WEIGHT = 3
SWISS_REPEAT_WEIGHT = 8  # with a ranking: one repeated meeting weighs as 8 ranks of spread
WIND_WEIGHT = 2  # a player who must take a wind held more than another, per repeat
ALL_WINDS = 0b1111
BOT = -1
_SAMPLE = 4  # swaps weighed per step
_THRESHOLD = 2  # the worsening a step may make at first (falls to 0)
_REFRESH = 16  # steps between refreshes of the players in trouble


@lru_cache(maxsize=4096)
def matched(masks: tuple[int, ...]) -> int:
    """How many of four seats can get a wind of their mask, each wind once (the largest
    matching; ``masks`` sorted, so that equal tables share the answer)."""
    best = 0
    for order in permutations(range(4)):
        best = max(best, sum(1 for mask, w in zip(masks, order, strict=True) if mask >> w & 1))
        if best == 4:
            break
    return best


def pair_cost(meetings: int) -> int:
    """(meetings - 1)**2, 0 for a pair that never met."""
    return (meetings - 1) ** 2 if meetings > 1 else 0


class Search:
    """Tables of ``rounds`` (lists of lists of player indices or BOT), improved in place."""

    def __init__(
        self,
        players: int,
        rounds: list[list[list[int]]],
        first_free: int,
        stream: SeedStream,
        ranks: Sequence[int] | None = None,
        winds: Sequence[int] | None = None,
    ) -> None:
        self.players = players
        self.rounds = rounds
        self.first_free = first_free
        self.stream = stream
        self.ranks = list(ranks) if ranks is not None else None
        self.scale = SWISS_REPEAT_WEIGHT if ranks is not None else 1
        self.winds = list(winds) if winds is not None else None  # a bit mask per player
        self.meet: list[list[int]] = []
        self.where: list[list[int]] = []
        self._index()

    def _index(self) -> None:
        """Meeting counts and each player's table, from the tables."""
        self.meet = [[0] * self.players for _ in range(self.players)]
        self.where = []
        for tables in self.rounds:
            where = [-1] * self.players
            for t, table in enumerate(tables):
                real = [p for p in table if p != BOT]
                for p in real:
                    where[p] = t
                for i, a in enumerate(real):
                    for b in real[i + 1 :]:
                        self.meet[a][b] += 1
                        self.meet[b][a] += 1
            self.where.append(where)

    # -- cost ------------------------------------------------------------------------------

    def cost(self) -> int:
        """The whole cost (repeats, consecutive repeats, seeding spread)."""
        total = 0
        for a in range(self.players):
            row = self.meet[a]
            for b in range(a + 1, self.players):
                total += pair_cost(row[b])
        for r in range(1, len(self.rounds)):
            before = self.where[r - 1]
            for table in self.rounds[r]:
                real = [p for p in table if p != BOT]
                for i, a in enumerate(real):
                    for b in real[i + 1 :]:
                        if before[a] >= 0 and before[a] == before[b]:
                            total += CONSECUTIVE_WEIGHT
        total *= self.scale
        for r in range(self.first_free, len(self.rounds)):
            total += sum(self._extra(table) for table in self.rounds[r])
        return total

    def _extra(self, table: Sequence[int]) -> int:
        """A free table's cost beyond meetings: seeding spread and winds none can take."""
        extra = self._spread(table) if self.ranks is not None else 0
        if self.winds is not None:
            masks = tuple(sorted(ALL_WINDS if p == BOT else self.winds[p] for p in table))
            extra += WIND_WEIGHT * self.scale * (4 - matched(masks))
        return extra

    def _spread(self, table: Sequence[int]) -> int:
        assert self.ranks is not None
        ranks = [self.ranks[p] for p in table if p != BOT]
        return max(0, max(ranks) - min(ranks) - (len(ranks) - 1)) if ranks else 0

    def lower_bound(self) -> int:
        """No seating of these rounds costs less (pairs met as evenly as can be)."""
        pairs = self.players * (self.players - 1) // 2
        if pairs == 0:
            return 0
        total = sum(
            self.meet[a][b] for a in range(self.players) for b in range(a + 1, self.players)
        )
        base, extra = divmod(total, pairs)
        return self.scale * ((pairs - extra) * pair_cost(base) + extra * pair_cost(base + 1))

    def delta(self, r: int, a: int, b: int) -> int:
        """How the cost changes when ``a`` and ``b`` (different tables of round r) swap."""
        where = self.where[r]
        table_a, table_b = self.rounds[r][where[a]], self.rounds[r][where[b]]
        row_a, row_b = self.meet[a], self.meet[b]
        before = self.where[r - 1] if r > 0 else None
        after = self.where[r + 1] if r + 1 < len(self.rounds) else None
        d = 0
        for leaver, joiner, table, row_leaver, row_joiner in (
            (a, b, table_a, row_a, row_b),
            (b, a, table_b, row_b, row_a),
        ):
            for x in table:
                if x in (leaver, BOT):
                    continue
                m = row_leaver[x]
                if m >= 2:
                    d -= 2 * m - 3
                m = row_joiner[x]
                if m >= 1:
                    d += 2 * m - 1
                for near in (before, after):
                    if near is not None and near[x] >= 0:
                        if near[leaver] == near[x]:
                            d -= CONSECUTIVE_WEIGHT
                        if near[joiner] == near[x]:
                            d += CONSECUTIVE_WEIGHT
        d *= self.scale
        if self.ranks is not None or self.winds is not None:
            old = self._extra(table_a) + self._extra(table_b)
            new_a = [b if p == a else p for p in table_a]
            new_b = [a if p == b else p for p in table_b]
            d += self._extra(new_a) + self._extra(new_b) - old
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        where = self.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = self.rounds[r][ta], self.rounds[r][tb]
        for leaver, joiner, table in ((a, b, table_a), (b, a, table_b)):
            for x in table:
                if x in (leaver, BOT):
                    continue
                self.meet[leaver][x] -= 1
                self.meet[x][leaver] -= 1
                self.meet[joiner][x] += 1
                self.meet[x][joiner] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta

    # -- search ----------------------------------------------------------------------------

    def _troubled(self) -> list[tuple[int, int]]:
        """(round, player) of every free player in a repeated or consecutive meeting, or
        (with a ranking) at a table spread beyond its neighbours."""
        found = []
        for r in range(self.first_free, len(self.rounds)):
            if len(self.rounds[r]) < 2:
                continue  # one table: nobody can change places
            before = self.where[r - 1] if r > 0 else None
            after = self.where[r + 1] if r + 1 < len(self.rounds) else None
            for table in self.rounds[r]:
                spread = self._extra(table) > 0
                for a in table:
                    if a == BOT:
                        continue
                    row = self.meet[a]
                    bad = spread
                    for x in table:
                        if bad:
                            break
                        if x in (a, BOT):
                            continue
                        if row[x] >= 2:
                            bad = True
                        for near in (before, after):
                            if near is not None and near[x] >= 0 and near[a] == near[x]:
                                bad = True
                    if bad:
                        found.append((r, a))
        return found

    def run(self, budget: int) -> int:
        """Improve for at most ``budget`` steps and swaps weighed; leave the best state seen;
        its cost.

        Threshold accepting: each step takes a player in trouble, weighs ``_SAMPLE`` swaps
        with players of other tables of that round and makes the best one if it worsens the
        cost by at most the threshold, which falls from ``_THRESHOLD`` to 0 over the budget
        (integers only: the same steps on every machine). The list of players in trouble is
        refreshed every ``_REFRESH`` steps."""
        cost = self.cost()
        floor = self.lower_bound() if self.ranks is None and self.winds is None else 0
        best, best_state = cost, self._snapshot()
        troubled: list[tuple[int, int]] = []
        spent = steps = 0
        while spent < budget and best > floor:
            if steps % _REFRESH == 0 or not troubled:
                troubled = self._troubled()
                if not troubled:
                    break
            steps += 1
            spent += 1  # a step costs at least one, so the search always ends
            threshold = _THRESHOLD * (budget - spent) // budget
            r, a = troubled[self.stream.below(len(troubled))]
            others = [p for table in self.rounds[r] if a not in table for p in table if p != BOT]
            choice: tuple[int, int] | None = None
            for _ in range(min(_SAMPLE, len(others))):
                b = others[self.stream.below(len(others))]
                d = self.delta(r, a, b)
                spent += 1
                if choice is None or d < choice[0]:
                    choice = (d, b)
            if choice is None or choice[0] > threshold:
                continue
            d, b = choice
            self.swap(r, a, b)
            cost += d
            if cost < best:
                best, best_state = cost, self._snapshot()
        self._restore(best_state)
        return best

    def _snapshot(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.rounds[self.first_free :]]

    def _restore(self, state: list[list[list[int]]]) -> None:
        self.rounds[self.first_free :] = state
        self._index()
