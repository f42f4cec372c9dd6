"""MCR fan calculator figures: microseconds of ``score_hand`` per winning hand.

``mcr-fans`` scores a fixed, seeded, mixed corpus of complete hands (four sets and a pair with
0-4 melds and kongs, Seven Pairs, Thirteen Orphans, knitted hands, Nine Gates) and reports the
median over the hands of the time of one ``score_hand`` call (each hand timed as the best of a
few batches, so other work on the shared machine disturbs it less). The floor, measured in the
same run on the same hands, is building the hand's count array, the least any calculator does;
``ratio_to_floor`` is value / floor.

The peer: when an independent MCR calculator is importable (the ``MahjongGB`` module of the
PyMahjongGB package, a C++ extension; an optional ``peers`` extra, never required), the same
corpus is timed with it in the same run and the line gives ``peer``, ``peer_us`` and
``ratio_to_peer`` = our time / its time. When none is installed ``peer`` says so and
``peer_us`` is null.

Quick (``scripts/bench --quick``): a corpus of 20 hands.
"""

from __future__ import annotations

import importlib
import itertools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.timing import result
from fourwinds.protocol.mcr.hand import Meld, MeldType
from fourwinds.protocol.mcr.scoring import WinContext, is_complete, score_hand
from fourwinds.protocol.tiles import Kind
from testkit.mcr_hands import Hand, random_winning_hand

TARGET_US = 100.0
CORPUS_SIZE = 300
QUICK_CORPUS_SIZE = 20
BATCH = 10
BATCHES = 3


def _special(rng: random.Random) -> Hand:
    shape = rng.randrange(5)
    order = rng.choice(list(itertools.permutations(range(3))))
    knitted = [suit * 9 + offset + 3 * j for offset, suit in enumerate(order) for j in range(3)]
    if shape == 0:
        tiles = [k for k in rng.sample(range(34), 7) for _ in range(2)]
    elif shape == 1:
        orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
        tiles = [*orphans, rng.choice(orphans)]
    elif shape == 2:
        tiles = rng.sample(knitted + list(range(27, 34)), 14)
    elif shape == 3:
        base = rng.choice((0, 9, 18))
        tiles = [base] * 3 + list(range(base + 1, base + 8)) + [base + 8] * 3
        tiles.append(base + rng.randrange(9))
        win = tiles.pop()
        return [], [Kind(k) for k in tiles], _context(rng, win)
    else:
        start = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
        pair = rng.randrange(27, 34)
        tiles = [*knitted, start, start + 1, start + 2, pair, pair]
    return _won(rng, [], tiles)


def _context(rng: random.Random, win: int) -> WinContext:
    return WinContext(
        Kind(win),
        self_drawn=rng.random() < 0.4,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        flowers=rng.randrange(3),
    )


def _won(rng: random.Random, melds: list[Meld], concealed: list[int]) -> Hand:
    win = rng.choice(concealed)
    rest = list(concealed)
    rest.remove(win)
    return melds, [Kind(k) for k in rest], _context(rng, win)


def corpus(size: int = CORPUS_SIZE, seed: int = 2026) -> list[Hand]:
    """The fixed mixed corpus: 80% four sets and a pair, 20% special shapes; all complete."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    while len(hands) < size:
        hand = _special(rng) if rng.random() < 0.2 else random_winning_hand(rng)
        melds, tiles, ctx = hand
        if is_complete(melds, [*tiles, ctx.win_tile]):
            hands.append(hand)
    return hands


def _per_call_us(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) microseconds of one call: the best of a few batches."""
    best_wall = best_cpu = float("inf")
    for _ in range(BATCHES):
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(BATCH):
            fn()
        best_wall = min(best_wall, (time.perf_counter() - start) / BATCH)
        best_cpu = min(best_cpu, (time.process_time() - cpu) / BATCH)
    return best_wall * 1e6, best_cpu * 1e6


def _median_us(hands: Sequence[Hand], call: Callable[[Hand], object]) -> tuple[float, float]:
    """Median over the hands of the (wall, CPU) time of one call."""
    for hand in hands:  # warm-up (memo tables, caches)
        call(hand)
    times = [_per_call_us(lambda h=hand: call(h)) for hand in hands]  # type: ignore[misc]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def _count_array(hand: Hand) -> list[int]:
    melds, tiles, ctx = hand
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    counts[ctx.win_tile] += 1
    for m in melds:
        for k in m.tiles:
            counts[k] += 1
    return counts


def _score(hand: Hand) -> object:
    return score_hand(*hand)


# --- the optional peer (PyMahjongGB) -------------------------------------------------------

_PEER_SUITS = ("W", "B", "T")  # characters, dots, bamboo
_PEER_DRAGONS = {31: "J3", 32: "J2", 33: "J1"}  # white, green, red


def _peer_code(kind: int) -> str:
    if kind < 27:
        return f"{_PEER_SUITS[kind // 9]}{kind % 9 + 1}"
    if kind < 31:
        return f"F{kind - 26}"
    return _PEER_DRAGONS[kind]


def _peer_args(hand: Hand) -> dict[str, Any]:
    melds, tiles, ctx = hand
    packs = []
    for m in melds:
        if m.type is MeldType.CHOW:
            packs.append(("CHI", _peer_code(m.tiles[1]), 1))
        elif m.type is MeldType.PUNG:
            packs.append(("PENG", _peer_code(m.tiles[0]), 1))
        else:
            packs.append(("GANG", _peer_code(m.tiles[0]), 0 if m.concealed else 1))
    return {
        "pack": tuple(packs),
        "hand": tuple(_peer_code(k) for k in tiles),
        "winTile": _peer_code(ctx.win_tile),
        "flowerCount": ctx.flowers,
        "isSelfDrawn": ctx.self_drawn,
        "is4thTile": ctx.last_tile,
        "isAboutKong": ctx.kong_related,
        "isWallLast": ctx.wall_last,
        "seatWind": ctx.seat_wind,
        "prevalentWind": ctx.prevalent_wind,
    }


def _peer() -> tuple[str, Callable[..., Any]] | None:
    try:
        module = importlib.import_module("MahjongGB")
    except ImportError:
        return None
    try:
        from importlib.metadata import version

        name = f"PyMahjongGB {version('PyMahjongGB')}"
    except Exception:  # the version is only a label
        name = "PyMahjongGB"
    return name, module.MahjongFanCalculator


def _peer_call(calculator: Callable[..., Any], args: dict[str, Any]) -> object:
    try:
        return calculator(**args)
    except Exception as error:  # the peer raises plain errors when a hand is no win
        return error


def bench_fans(quick: bool) -> list[dict[str, object]]:
    hands = corpus(QUICK_CORPUS_SIZE if quick else CORPUS_SIZE)
    floor, _floor_cpu = _median_us(hands, _count_array)
    ours, ours_cpu = _median_us(hands, _score)
    beside: dict[str, object] = {"peer": "none installed", "peer_us": None, "ratio_to_peer": None}
    peer = _peer()
    if peer is not None:
        name, calculator = peer
        prepared = {id(hand): _peer_args(hand) for hand in hands}
        theirs, _cpu = _median_us(hands, lambda hand: _peer_call(calculator, prepared[id(hand)]))
        beside = {
            "peer": name,
            "peer_us": round(theirs, 3),
            "ratio_to_peer": round(ours / theirs, 2) if theirs else None,
        }
    return [
        result(
            "mcr-fans",
            ours,
            "us",
            target=TARGET_US,
            met=ours <= TARGET_US,
            cpu_us=round(ours_cpu, 3),
            floor_us=round(floor, 3),
            ratio_to_floor=round(ours / floor, 1),
            hands=len(hands),
            **beside,
        )
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {"mcr-fans": bench_fans}
