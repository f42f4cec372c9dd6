"""Seat winds for seated tables: each player at each wind as evenly as can be.

Over a block of four rounds every player sits at four tables and every table has four seats,
so the block is a bipartite graph (players and tables, an edge per seat taken) of degree at
most four, and König's theorem says its edges take four colours with no two alike at a
node: colour = wind. Each table then has its four winds, and each player who played all
four rounds of the block sat once at each. Blocks start at rounds 0, 4, 8, ..., so after
every fourth round a player's counts at the four winds differ by at most one. A player
with a bye in the block misses one wind; renaming the colours and alternating-path swaps
then move that miss to a wind the player has had most (so byes do not pile up at one wind),
and when that is not enough the colouring is built again in another seat order. A round
seated alone (a changed roster, Swiss seeding) gets each table's winds by the assignment
that least exceeds each player's fewest-held wind.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from .stream import SeedStream

WINDS = 4
_ATTEMPTS = 12
Counts = list[list[int]]


def _spread(counts: Sequence[int]) -> int:
    return max(counts) - min(counts)


class _Coloring:
    """A proper 4-edge-colouring of a bipartite graph, built edge by edge (König)."""

    def __init__(self, nodes: int) -> None:
        self.at: list[list[int | None]] = [[None] * WINDS for _ in range(nodes)]

    def _free(self, node: int) -> int:
        return next(c for c in range(WINDS) if self.at[node][c] is None)

    def add(self, u: int, v: int) -> None:
        alpha, beta = self._free(u), self._free(v)
        if self.at[v][alpha] is not None:
            self.flip(v, alpha, beta)
        self.at[u][alpha] = v
        self.at[v][alpha] = u

    def flip(self, start: int, first: int, second: int) -> int:
        """Swap colours ``first``/``second`` along the path leaving ``start`` by ``first``;
        the node where the path ends."""
        path: list[tuple[int, int, int]] = []
        node, colour = start, first
        while (nxt := self.at[node][colour]) is not None:
            path.append((node, nxt, colour))
            node, colour = nxt, second if colour == first else first
        for x, y, c in path:
            self.at[x][c] = None
            self.at[y][c] = None
        for x, y, c in path:
            other = second if c == first else first
            self.at[x][other] = y
            self.at[y][other] = x
        return node


def block_winds(
    players: int, block: Sequence[Sequence[Sequence[int]]], counts: Counts, stream: SeedStream
) -> list[list[list[int]]]:
    """For each round of ``block`` (at most four), each table's players in seat order
    E, S, W, N. Tables hold player indices, -1 for a bot seat; ``counts[p][w]`` is how often
    p sat at wind w before the block, and is updated. When a player who misses a round of
    the block would end with winds two apart, the colouring is tried again with the seats in
    another order drawn from ``stream`` (up to ``_ATTEMPTS`` times; the most even kept)."""
    table_ids: list[tuple[int, int]] = [
        (r, t) for r, tables in enumerate(block) for t in range(len(tables))
    ]
    node_of_table = {rt: players + i for i, rt in enumerate(table_ids)}
    bot_nodes = players + len(table_ids)
    edges: list[tuple[int, int]] = []
    degree = [0] * players
    nodes = bot_nodes
    for r, tables in enumerate(block):
        for t, table in enumerate(tables):
            for p in table:
                if p < 0:  # a bot seat: a node of its own
                    edges.append((nodes, node_of_table[(r, t)]))
                    nodes += 1
                else:
                    edges.append((p, node_of_table[(r, t)]))
                    degree[p] += 1
    short = [p for p in range(players) if 0 < degree[p] < WINDS]
    best: tuple[tuple[int, int], _Coloring] | None = None
    for attempt in range(_ATTEMPTS if short else 1):
        if attempt:
            stream.shuffle(edges)
        coloring = _Coloring(nodes)
        for u, v in edges:
            coloring.add(u, v)
        _best_renaming(coloring, players, degree, counts)
        _even_out(coloring, players, degree, counts)
        held = [[coloring.at[p][c] is not None for c in range(WINDS)] for p in short]
        worst = max(
            (
                _spread([n + h for n, h in zip(counts[p], held[i], strict=True)])
                for i, p in enumerate(short)
            ),
            default=0,
        )
        total = sum(_penalty(counts[p], held[i]) for i, p in enumerate(short))
        if best is None or (worst, total) < best[0]:
            best = ((worst, total), coloring)
        if worst <= 1:
            break
    assert best is not None
    coloring = best[1]
    out: list[list[list[int]]] = []
    for r, tables in enumerate(block):
        seated: list[list[int]] = []
        for t in range(len(tables)):
            node = node_of_table[(r, t)]
            seats = []
            for c in range(WINDS):
                who = coloring.at[node][c]
                assert who is not None
                seats.append(who if who < players else -1)
            seated.append(seats)
        out.append(seated)
    for p in range(players):
        for c in range(WINDS):
            if coloring.at[p][c] is not None:
                counts[p][c] += 1
    return out


def _penalty(counts: Sequence[int], held: Sequence[bool]) -> int:
    """How uneven a player's winds end: the spread first, then the sum of squares."""
    final = [n + h for n, h in zip(counts, held, strict=True)]
    return 16 * _spread(final) + sum(n * n for n in final)


def _best_renaming(
    coloring: _Coloring, players: int, degree: Sequence[int], counts: Counts
) -> None:
    """Rename the four colours of the block (still a proper colouring) so that the players
    who miss a wind miss one they already hold most."""
    short = [p for p in range(players) if 0 < degree[p] < WINDS]
    if not short:
        return

    def cost(order: Sequence[int]) -> int:
        total = 0
        for p in short:
            held = [False] * WINDS
            for c in range(WINDS):
                if coloring.at[p][c] is not None:
                    held[order[c]] = True
            total += _penalty(counts[p], held)
        return total

    best = min(permutations(range(WINDS)), key=cost)
    for node in coloring.at:
        renamed: list[int | None] = [None] * WINDS
        for c in range(WINDS):
            renamed[best[c]] = node[c]
        node[:] = renamed


def _even_out(coloring: _Coloring, players: int, degree: Sequence[int], counts: Counts) -> None:
    """Move a short player's missing wind to one already held most, along alternating paths
    (each swap keeps the colouring proper; it is kept only when the spread falls)."""

    def penalty(p: int) -> int:
        if p >= players:
            return 0
        return _penalty(counts[p], [coloring.at[p][c] is not None for c in range(WINDS)])

    short = [p for p in range(players) if 0 < degree[p] < WINDS]
    for _ in range(4 * WINDS):
        improved = False
        for p in short:
            for miss in range(WINDS):
                for held in range(WINDS):
                    if (
                        coloring.at[p][miss] is not None
                        or coloring.at[p][held] is None
                        or counts[p][held] <= counts[p][miss]
                    ):
                        continue
                    before = penalty(p)
                    end = coloring.flip(p, held, miss)
                    after = penalty(p) + penalty(end)
                    coloring.flip(p, miss, held)  # undo: the same path, back
                    if after < before + penalty(end):
                        coloring.flip(p, held, miss)
                        improved = True
        if not improved:
            return


def table_winds(table: Sequence[int], counts: Counts, stream: SeedStream) -> list[int]:
    """One table's players in seat order E, S, W, N, each at the wind they have held least
    (ties by the stream); -1 is a bot seat. ``counts`` is updated."""
    orders = list(permutations(range(WINDS)))
    stream.shuffle(orders)

    def cost(order: Sequence[int]) -> int:
        total = 0
        for p, w in zip(table, order, strict=True):
            if p >= 0:
                total += counts[p][w] - min(counts[p])
        return total

    best = min(orders, key=cost)
    seats = [-1] * WINDS
    for p, w in zip(table, best, strict=True):
        seats[w] = p
        if p >= 0:
            counts[p][w] += 1
    return seats
