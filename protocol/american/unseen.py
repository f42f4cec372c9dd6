"""What one American seat can count: copies of each kind it has not seen, and which kinds
another seat's exposures show it still needs.

Both read only public tiles (discards, exposures, the pool: ``state.public``) and the seat's
own concealed tiles, so a bot using them never learns a hidden face.
"""

from __future__ import annotations

from collections import Counter

from ..seats import Seat
from ..tiles import Kind
from .card import Card
from .compile import compiled
from .state import AmericanState
from .targets import exposure_key, targets_for
from .tileset import AMERICAN_TILES

__all__ = ["opponent_needs", "unseen_counts"]

_TOTAL = Counter(AMERICAN_TILES)


def unseen_counts(state: AmericanState, seat: Seat) -> dict[Kind, int]:
    """Copies of each kind ``seat`` has not seen (the wall, others' concealed tiles)."""
    seen: Counter[Kind] = Counter(state.faces[s] for s in state.public)
    seen.update(state.concealed_kinds(seat))
    return {kind: max(0, total - seen[kind]) for kind, total in _TOTAL.items()}


_NEEDS = __name__ + ".needs"
"""This module's table in a compiled card's memo (memo.py): kind shares, by exposures."""


def _needs(card: Card, key: tuple[tuple[int, ...], ...]) -> dict[int, float]:
    """Share of the card's variants left possible by exposures ``key`` needing each kind
    (memoised per compiled card and exposures, which change rarely)."""
    cc = compiled(card)
    needs: dict[tuple[tuple[int, ...], ...], dict[int, float]] = cc.memo.table(_NEEDS)
    found = needs.get(key)
    if found is not None:
        return found
    targets = targets_for(cc, key).targets
    count: Counter[int] = Counter()
    for target in targets:
        count.update(k for k, n in zip(target.kinds, target.need, strict=True) if n > 0)
    shares = {k: n / len(targets) for k, n in count.items()} if targets else {}
    if len(needs) > 1024:
        needs.clear()
    needs[key] = shares
    return shares


def opponent_needs(state: AmericanState, seat: Seat) -> dict[int, float]:
    """For each kind, the summed share of each other seat's still-possible card lines
    (given its exposures) that need it; only seats with exposures count (a concealed hand
    shows nothing)."""
    out: dict[int, float] = {}
    for other in Seat:
        if other == seat or not state.exposures[other]:
            continue
        key = exposure_key(state.exposure_kinds(other))
        for kind, share in _needs(state.card, key).items():
            out[kind] = out.get(kind, 0.0) + share
    return out
