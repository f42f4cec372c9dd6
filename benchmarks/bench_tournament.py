"""The tournament seating method (issue 23): quality and time at the sizes the issue names.

For each size (players x rounds; 238 with bot seats and 241 with byes beside 240) one
``seat_rounds`` plan (no seeding, a fixed seed): ``seating_repeats`` (meetings beyond a
pair's first; target 0: zero repeats is possible at every size here),
``seating_sum_squares`` (the sum over pairs of (meetings - 1)**2, target 0),
``seating_wind_spread`` (the largest difference between a player's most and least held wind
after every fourth round, target <= 1) and ``seating_time`` (median wall time of the whole
plan over three runs, caches cleared, target <= 2 s: the issue's bound for 240 x 10). One
size beyond zero repeats, 16 players x
8 rounds, shows how near the search comes to the floor no seating can beat
(``seating_sum_squares_vs_floor``: ratio to that floor, target <= 1.2).

Quick (``scripts/bench --quick``): the sizes up to 24 players only.

``event`` (benchmarks/tournament_event.py): an event's record over 33 real daemons.
``mdns`` (benchmarks/tournament_mdns.py): mDNS datagrams per entrant at 8 to 64 entrants.
``pure`` (benchmarks/tournament_pure.py): a venue evening of pure event sessions.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from benchmarks.timing import result
from benchmarks.tournament_event import bench_event
from benchmarks.tournament_mdns import bench_mdns
from benchmarks.tournament_pure import bench_pure_evening
from fourwinds.protocol.tournament import designs, seating
from fourwinds.protocol.tournament.quality import repeats, sum_of_squares, wind_spread
from fourwinds.protocol.tournament.seating import FillPolicy, RoundSeating, seat_rounds

BOTS, BYES = FillPolicy.BOTS, FillPolicy.BYES
SIZES = [
    (16, 5, BOTS),
    (20, 5, BOTS),
    (24, 6, BOTS),
    (32, 8, BOTS),
    (40, 4, BOTS),
    (240, 10, BOTS),
    (238, 10, BOTS),
    (241, 10, BYES),
]
QUICK_SIZES = SIZES[:3]
BEYOND = (16, 8)
TIME_TARGET_S = 2.0
FLOOR_RATIO_TARGET = 1.2
SEED = bytes.fromhex("23" * 32)
RUNS = 3


def _timed(
    players: int, rounds: int, fill: FillPolicy = BOTS
) -> tuple[tuple[RoundSeating, ...], float]:
    samples = []
    plan: tuple[RoundSeating, ...] = ()
    for _ in range(RUNS):
        seating._plan.cache_clear()
        designs.base_design.cache_clear()
        start = time.perf_counter()
        plan = seat_rounds(players, rounds, SEED, fill)
        samples.append(time.perf_counter() - start)
    return plan, statistics.median(samples)


def _floor(players: int, rounds: int) -> int:
    """The least sum of (meetings - 1)**2 any seating of full tables can have."""
    pairs = players * (players - 1) // 2
    base, extra = divmod(rounds * (players // 4) * 6, pairs)
    return (pairs - extra) * max(0, base - 1) ** 2 + extra * max(0, base) ** 2


def bench_seating(quick: bool) -> list[dict[str, object]]:
    lines: list[dict[str, object]] = []
    for players, rounds, fill in QUICK_SIZES if quick else SIZES:
        size = f"{players}x{rounds}" + ("" if players % 4 == 0 else f"_{fill.value}")
        plan, seconds = _timed(players, rounds, fill)
        found = repeats(plan)
        squares = sum_of_squares(plan)
        spread = wind_spread(plan)
        lines += [
            result(f"seating_repeats_{size}", found, "meetings", target="0", met=found == 0),
            result(
                f"seating_sum_squares_{size}", squares, "sum (m-1)^2", target="0", met=squares == 0
            ),
            result(f"seating_wind_spread_{size}", spread, "seats", target="<= 1", met=spread <= 1),
            result(
                f"seating_time_{size}",
                seconds,
                "s",
                target=f"<= {TIME_TARGET_S} s",
                met=seconds <= TIME_TARGET_S,
            ),
        ]
    if not quick:
        players, rounds = BEYOND
        size = f"{players}x{rounds}"
        plan, seconds = _timed(players, rounds)
        squares, floor = sum_of_squares(plan), _floor(players, rounds)
        ratio = squares / floor if floor else 1.0
        lines += [
            result(
                f"seating_sum_squares_vs_floor_{size}",
                ratio,
                "ratio",
                target=f"<= {FLOOR_RATIO_TARGET}",
                met=ratio <= FLOOR_RATIO_TARGET,
                sum_squares=squares,
                floor=floor,
                repeats=repeats(plan),
            ),
            result(
                f"seating_wind_spread_{size}",
                wind_spread(plan),
                "seats",
                target="<= 1",
                met=wind_spread(plan) <= 1,
            ),
            result(
                f"seating_time_{size}",
                seconds,
                "s",
                target=f"<= {TIME_TARGET_S} s",
                met=seconds <= TIME_TARGET_S,
            ),
        ]
    return lines


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {
    "seating": bench_seating,
    "event": bench_event,
    "mdns": bench_mdns,
    "pure": bench_pure_evening,
}
