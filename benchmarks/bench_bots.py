"""How well the bot seats of `fourwinds bot --rules` play: the engine bot through the view
(``suggest``, what a built-in seat plays now) against the rules-agnostic view bot
(frontends/bots/view_bot.py, what it played before), in the in-memory harness, one hand per seed.

Every seat acts only through its view, as a real seat does: the engine seats on
``protocol.table.views.suggest``, the view seats on ``view_bot.choose_request`` of the same view
event; both resolved by ``contract_view.resolve_action``. Two measures, side by side in the
same run: at mixed tables (places 0 and 2 engine, 1 and 3 view bots) how many of the hands won
the engine seats win, and how many hands end in a draw (wall game) at an all-engine table and
at an all-view-bot table. ``FOURWINDS_BOT_HANDS`` sets the hands per rule set (default 12).
Also the time ``suggest`` takes per decision (the daemon answers it inside its event loop).

Quick (``scripts/bench --quick``): one hand per table kind, one hand for ``suggest``'s time.

The bot levels (``bots_mcr_levels``, ``bots_american_levels``): duplicate play
(benchmarks/duplicate.py: the same walls replayed with the seats rotated, so luck cancels),
``strong`` against three ``normal`` and ``normal`` against three ``easy``. Each line's value
is the stronger level's mean points per hand; target (issue 24): ahead of the weaker seats
on the same walls with the 95% interval of the lead (stronger minus weaker, per wall) above
zero, with the 95% intervals over walls, the win, deal-in and wall-game rates and the
decision times p50/p99 per level alongside; one more line per rule set holds the strong
bot's p99 decision time against 100 ms. ``FOURWINDS_LEVEL_WALLS`` sets the walls (4 hands
each; default 250, so 1000 hands a pairing: a lead of a point or two a hand is within the
noise of 400); quick: 1 wall. The walls are numbered from ``FIRST_WALL``, walls no tuning
of the bots ever looked at (the strong bots' weights were chosen on walls 1000-1099 and
checked on 5000-5099; their later changes were measured on walls 1000-1999, and the American
strong bot's second round on walls 1000-1999 and 5000-5499). The lead's
spread between walls is large (some 20 points a hand in MCR, 45 in American), so at 250
walls only a lead of about 2.5 (MCR) or 5.6 (American) points a hand clears zero; a
control replay would not narrow it (benchmarks/duplicate.py).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from benchmarks.duplicate import Run, play_wall, summary
from benchmarks.timing import result
from fourwinds.frontends.bots.view_bot import choose_request
from fourwinds.frontends.client.view_shapes import view_event
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, drive, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import local_action
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.views.suggest import suggest

Policy = Callable[[TableSession, bytes], "tuple[int, tuple[str, ...], Mapping[str, Any]] | None"]


def engine(s: TableSession, seed: bytes) -> tuple[int, tuple[str, ...], Mapping[str, Any]] | None:
    found = suggest(s, seed)
    return None if found is None else (int(found.entry["id"]), found.tiles, found.entry)


def view_bot(s: TableSession, seed: bytes) -> tuple[int, tuple[str, ...], Mapping[str, Any]] | None:
    built = build_seat_view(s)
    if not built["legal_actions"]:
        return None
    event = view_event({"type": "view", "table": "bench", "seq": s.step, **built})
    request = choose_request(event)
    if request is None:
        return None
    return int(request["action"]), tuple(request.get("tiles") or ()), request["expected"]


def play_hand(rules: str, seed: bytes, policies: Sequence[Policy]) -> Seat | None:
    """One hand with ``policies[place]`` deciding for each place; the winning place or None."""
    h: Harness = open_harness(rules, seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))

    def moves(h: Harness) -> bool:
        moved = False
        for place in SEATS:
            s = h.sessions[place]
            choice = policies[place](s, h.seed)
            if choice is None:
                continue
            action_id, tiles, expected = choice
            h.take(place, local_action(s, resolve_action(s, action_id, tiles, expected), h.now))
            moved = True
        return moved

    drive(h, moves)
    s = h.sessions[0]
    if not s.outcomes:
        raise RuntimeError(f"{rules} hand {seed!r} did not finish")
    _, outcome, seating = s.outcomes[-1]
    return None if outcome.winner is None else seating[outcome.winner]


def _hands(quick: bool) -> int:
    return 1 if quick else int(os.environ.get("FOURWINDS_BOT_HANDS", "12"))


def bench_engine_vs_view(rules: str, quick: bool) -> list[dict[str, object]]:
    n = _hands(quick)
    mixed = [engine, view_bot, engine, view_bot]
    wins = {"engine": 0, "view": 0, "draw": 0}
    for i in range(n):
        winner = play_hand(rules, f"bots-mixed-{i}".encode(), mixed)
        key = "draw" if winner is None else ("engine" if winner % 2 == 0 else "view")
        wins[key] += 1
    won = wins["engine"] + wins["view"]
    share = 100.0 * wins["engine"] / won if won else 0.0
    draws = {}
    for name, policy in (("engine", engine), ("view", view_bot)):
        draws[name] = sum(
            play_hand(rules, f"bots-{name}-{i}".encode(), [policy] * 4) is None for i in range(n)
        )
    ratio = (wins["engine"] / wins["view"]) if wins["view"] else float(wins["engine"])
    return [
        result(
            f"bots_{rules}_engine_seat_win_share",
            share,
            "% of hands won",
            target=">50 (engine seats win more than view-bot seats)",
            met=share > 50.0,
            hands=n,
            engine_wins=wins["engine"],
            view_wins=wins["view"],
            draws=wins["draw"],
            ratio_engine_to_view_wins=round(ratio, 2),
        ),
        result(
            f"bots_{rules}_draw_rate_all_engine",
            100.0 * draws["engine"] / n,
            "% of hands drawn",
            target="< the all-view-bot table's",
            met=draws["engine"] < draws["view"],
            hands=n,
            all_view_bot_draw_rate=round(100.0 * draws["view"] / n, 1),
        ),
    ]


def bench_suggest_time(rules: str, quick: bool) -> list[dict[str, object]]:
    """Milliseconds per ``suggest`` answer over a few hands of engine seats (the view already
    built, as in the daemon, which answers from the view it published)."""
    samples: list[float] = []

    def timed(
        s: TableSession, seed: bytes
    ) -> tuple[int, tuple[str, ...], Mapping[str, Any]] | None:
        build_seat_view(s)
        start = time.perf_counter()
        choice = engine(s, seed)
        if choice is not None:
            samples.append(time.perf_counter() - start)
        return choice

    for i in range(1 if quick else 3):
        play_hand(rules, f"bots-time-{i}".encode(), [timed] * 4)
    samples.sort()
    median = 1000 * statistics.median(samples)
    return [
        result(
            f"bots_{rules}_suggest_ms",
            median,
            "ms per decision (median)",
            target=20.0,
            met=median < 20.0,
            decisions=len(samples),
            p95_ms=round(1000 * samples[int(0.95 * len(samples))], 3),
            max_ms=round(1000 * samples[-1], 3),
        )
    ]


def _walls(quick: bool) -> int:
    return 1 if quick else int(os.environ.get("FOURWINDS_LEVEL_WALLS", "250"))


FIRST_WALL = 20_000


STRONG_P99_MS = 100.0


def bench_levels(rules: str, quick: bool) -> list[dict[str, object]]:
    """Duplicate play of each stronger level against three of the next weaker one."""
    n = _walls(quick)
    lines: list[dict[str, object]] = []
    run = Run()
    for strong, weak in ((BotLevel.STRONG, BotLevel.NORMAL), (BotLevel.NORMAL, BotLevel.EASY)):
        walls = [play_wall(rules, FIRST_WALL + i, strong, weak, run) for i in range(n)]
        figures = summary(walls, run)
        mine = float(figures["stronger_points_per_hand"])
        theirs = float(figures["weaker_points_per_hand"])
        lower = float(figures["lead_ci95"][0])
        lines.append(
            result(
                f"bots_{rules}_{strong.value}_vs_{weak.value}",
                mine,
                "points per hand",
                target=f"ahead of the {weak.value} seats on the same walls, the lead's 95% "
                "interval above zero",
                met=mine > theirs and lower > 0,
                **{k: v for k, v in figures.items() if k != "decision_ms"},
            )
        )
    times = {level: sorted(t) for level, t in run.times.items()}
    p99 = 1000 * times[BotLevel.STRONG][int(0.99 * (len(times[BotLevel.STRONG]) - 1))]
    lines.append(
        result(
            f"bots_{rules}_strong_decision_p99_ms",
            p99,
            "ms per decision (p99)",
            target=f"<= {STRONG_P99_MS:g}",
            met=p99 <= STRONG_P99_MS,
            **{
                f"{level.value}_p50_ms": round(1000 * t[len(t) // 2], 3)
                for level, t in times.items()
            },
            **{
                f"{level.value}_p99_ms": round(1000 * t[int(0.99 * (len(t) - 1))], 3)
                for level, t in times.items()
            },
        )
    )
    return lines


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "bots_american": lambda quick: bench_engine_vs_view("american", quick),
    "bots_mcr": lambda quick: bench_engine_vs_view("mcr", quick),
    "bots_american_suggest_time": lambda quick: bench_suggest_time("american", quick),
    "bots_mcr_suggest_time": lambda quick: bench_suggest_time("mcr", quick),
    "bots_mcr_levels": lambda quick: bench_levels("mcr", quick),
    "bots_american_levels": lambda quick: bench_levels("american", quick),
}
