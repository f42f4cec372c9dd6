"""Random MCR winning hands: the property tests' input and the fan benchmark's corpus."""

from __future__ import annotations

import random

from fourwinds.protocol.mcr.hand import Meld, meld
from fourwinds.protocol.mcr.scoring import WinContext
from fourwinds.protocol.tiles import Kind

Hand = tuple[list[Meld], list[Kind], WinContext]


def random_winning_hand(rng: random.Random) -> Hand:
    """Four sets and a pair, some of them melded, won on one of the concealed tiles."""
    counts = [0] * 34
    sets: list[tuple[str, list[int]]] = []
    while len(sets) < 4:
        if rng.random() < 0.5:
            start = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
            tiles, kind = [start, start + 1, start + 2], "chow"
        else:
            k = rng.randrange(34)
            kong = rng.random() < 0.1
            tiles, kind = [k] * (4 if kong else 3), ("kong" if kong else "pung")
        if all(counts[t] + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                counts[t] += 1
            sets.append((kind, tiles))
    pair = rng.choice([k for k in range(34) if counts[k] <= 2])
    n_melded = rng.randrange(5)
    melds: list[Meld] = []
    concealed = [pair, pair]
    for i, (kind, tiles) in enumerate(sets):
        if i < n_melded or kind == "kong":
            melds.append(meld(kind, tiles, kind == "kong" and rng.random() < 0.5))
        else:
            concealed.extend(tiles)
    win = rng.choice(concealed)
    concealed.remove(win)
    ctx = WinContext(
        Kind(win),
        self_drawn=rng.random() < 0.5,
        seat_wind=rng.randrange(4),
        prevalent_wind=rng.randrange(4),
        flowers=rng.randrange(4),
    )
    return melds, [Kind(k) for k in concealed], ctx
