"""Duplicate play for the bot levels: the same walls replayed with the seats rotated.

A stronger level sits at seat ``p`` and three bots of a weaker level at the others, for
``p`` = East, South, West, North on the same wall (the same shuffle and dice, drawn from the
wall's number), so each level gets every wall's good and bad tiles at every seat and luck
largely cancels. The hands are played on the rule set's engine (protocol/mcr,
protocol/american) as the in-memory bots play them, and every bot decides from
``engine.view(state, seat)``: the state with every face its seat may not see hidden, as a
seat's own engine holds it at a real table (the in-memory table in between, which
``bots_*`` and tests/protocol/table/test_suggest_levels.py use, costs about 0.7 s a hand here,
some seven times the engine's, and adds nothing to the bots' play).

What one wall gives (``WallResult``): the stronger seat's points per hand over its four
rotations and the weaker seats' mean, its wins, deal-ins and the wall games; plus every
decision's time by level. ``summary`` turns a run into the bench figures: mean points per
hand with a 95% confidence interval over walls (the walls are independent, the rotations of
one wall are not), win, deal-in and wall-game rates, and decision time p50/p99 per level.

No control replay (the same wall played by four bots of the weaker level, the stronger seat
measured against what the weaker bot scored in its seat): payments sum to zero and the
stronger level sits at every seat once, so over a wall that difference is exactly the
stronger seat's points per hand, and its interval is no narrower
(tests/test_bench_duplicate.py). The lead over the weaker seats' mean is 4/3 of it.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fourwinds.protocol.american import engine as american
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.levels import make_bot
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.mcr import engine as mcr
from fourwinds.protocol.mcr import levels as mcr_levels
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.state import Phase
from fourwinds.protocol.mcr.tileset import MCR_TILES
from fourwinds.protocol.seats import SEATS, Seat

__all__ = ["Run", "WallResult", "ci95", "percentile", "play_wall", "summary"]

MAX_STEPS = 5000
Outcome = tuple[tuple[int, int, int, int], Seat | None, Seat | None]


@dataclass
class Run:
    """Decision times (seconds) by level, collected over a run."""

    times: dict[BotLevel, list[float]] = field(default_factory=dict)

    def timed(self, level: BotLevel, started: float) -> None:
        self.times.setdefault(level, []).append(time.perf_counter() - started)


@dataclass(frozen=True)
class WallResult:
    """One wall played four times, the stronger level at each seat once."""

    strong_points: float  # the stronger seat's mean points per hand
    weak_points: float  # the weaker seats' mean points per hand
    wins: int  # hands the stronger seat won (of 4)
    deal_ins: int  # hands it lost by discarding the winning tile
    wall_games: int  # hands nobody won


def _mcr_hand(wall: int, levels: Sequence[BotLevel], run: Run) -> Outcome:
    deal = random.Random(wall)
    faces = list(MCR_TILES)
    deal.shuffle(faces)
    dice = (deal.randint(1, 6), deal.randint(1, 6), deal.randint(1, 6), deal.randint(1, 6))
    state, _ = mcr.new_hand(TableOptions(), faces, dice, wall % 4)
    rngs = [random.Random(wall * 4 + p) for p in SEATS]
    for _ in range(MAX_STEPS):
        if state.phase is Phase.ENDED:
            break
        for seat in SEATS:
            started = time.perf_counter()
            action = mcr_levels.choose(mcr.view(state, seat), seat, rngs[seat], levels[seat])
            if action is None:
                continue
            run.timed(levels[seat], started)
            state, _ = mcr.apply(state, action)
            break
    result = state.result
    if result is None:
        raise RuntimeError(f"MCR wall {wall} did not finish")
    return result.payments, result.winner, result.discarder


def _american_hand(wall: int, levels: Sequence[BotLevel], run: Run) -> Outcome:
    deal = random.Random(wall)
    faces = list(AMERICAN_TILES)
    deal.shuffle(faces)
    card = house_card()
    state, _ = american.new_hand(card, faces, (deal.randint(1, 6), deal.randint(1, 6)))
    rngs = [random.Random(wall * 4 + p) for p in SEATS]
    bots = [make_bot(seat, card, rngs[seat], levels[seat]) for seat in SEATS]
    for _ in range(MAX_STEPS):
        if state.result is not None:
            break
        for seat in american.seats_to_act(state):
            started = time.perf_counter()
            action = bots[seat].act(american.view(state, seat))
            if action is None:
                continue
            run.timed(levels[seat], started)
            state, _ = american.apply(state, action)
            if state.result is not None:
                break
    result = state.result
    if result is None:
        raise RuntimeError(f"American wall {wall} did not finish")
    return result.payments, result.winner, result.discarder


def play_wall(rules: str, wall: int, strong: BotLevel, weak: BotLevel, run: Run) -> WallResult:
    """Wall number ``wall`` four times, ``strong`` at East, South, West, North in turn."""
    hand = _mcr_hand if rules == "mcr" else _american_hand
    mine: list[int] = []
    others: list[float] = []
    wins = deal_ins = walls = 0
    for seat in SEATS:
        levels = [strong if p == seat else weak for p in SEATS]
        points, winner, discarder = hand(wall, levels, run)
        mine.append(points[seat])
        others.append(sum(points[p] for p in SEATS if p != seat) / 3)
        wins += winner == seat
        deal_ins += discarder == seat
        walls += winner is None
    return WallResult(sum(mine) / 4, sum(others) / 4, wins, deal_ins, walls)


def ci95(values: Sequence[float]) -> tuple[float, float]:
    """Mean ± 1.96 standard errors (normal approximation; the walls are independent)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean - half, mean + half


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summary(walls: Sequence[WallResult], run: Run) -> dict[str, Any]:
    """The figures of a run (points per hand, their 95% intervals over walls, rates, and
    the decision times by level in milliseconds)."""
    hands = 4 * len(walls)
    strong = [w.strong_points for w in walls]
    weak = [w.weak_points for w in walls]
    lead = [w.strong_points - w.weak_points for w in walls]
    times = {
        level.value: {
            "p50_ms": round(1000 * percentile(t, 0.5), 2),
            "p99_ms": round(1000 * percentile(t, 0.99), 2),
            "decisions": len(t),
        }
        for level, t in run.times.items()
    }
    return {
        "hands": hands,
        "stronger_points_per_hand": round(statistics.fmean(strong), 3),
        "stronger_ci95": [round(x, 3) for x in ci95(strong)],
        "weaker_points_per_hand": round(statistics.fmean(weak), 3),
        "weaker_ci95": [round(x, 3) for x in ci95(weak)],
        "lead_ci95": [round(x, 3) for x in ci95(lead)],
        "win_rate": round(sum(w.wins for w in walls) / hands, 3),
        "deal_in_rate": round(sum(w.deal_ins for w in walls) / hands, 3),
        "wall_game_rate": round(sum(w.wall_games for w in walls) / hands, 3),
        "decision_ms": times,
    }
