"""How dangerous a discard is, judged only from what one seat can see.

A strong bot stops throwing tiles that are likely to complete another seat's hand once that
seat looks ready. Both halves are estimated from public information (every discard, every
exposed meld, how many melds each seat has laid, how far the hand has gone) and the bot's own
tiles, never from hidden faces, so permuting the tiles others hold or the wall changes
nothing here.

``threat``: how likely a seat is ready (0..1), from its laid melds (a seat with three or four
melds is one or two tiles from done) and how many discards it has made (hands get ready as
they go on). ``danger``: for one kind, how likely it is that a threatening seat waits on it:
a tile the seat itself threw is rarely its wait (MCR has no "furiten", so not never); an
honor with no unseen copy cannot be waited on, with one unseen copy only as a single wait;
middle suited tiles sit in more waits than terminals; a seat whose laid melds are all of one
suit is likely going for a flush in it (that suit dangerous, the others nearly safe).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..seats import SEATS, Seat
from ..tiles import is_honor, rank_of
from .state import HandState

__all__ = ["danger", "threats"]

MELD_THREAT = (0.04, 0.15, 0.35, 0.65, 0.9)  # by melds laid
LATE_FROM = 6  # discards after which a seat's chance of being ready grows
LATE_STEP = 0.035  # per discard beyond LATE_FROM
LATE_CAP = 0.3


def _suit(kind: int) -> int | None:
    return None if is_honor(kind) else kind // 9


def threats(state: HandState, seat: Seat) -> dict[Seat, float]:
    """How likely each other seat is ready (0..1), from its laid melds and discards."""
    out: dict[Seat, float] = {}
    for other in SEATS:
        if other == seat:
            continue
        rec = state.seats[other]
        melds = min(len(rec.melds), 4)
        late = min(LATE_CAP, LATE_STEP * max(0, len(rec.discards) - LATE_FROM))
        out[other] = min(0.95, MELD_THREAT[melds] + late)
    return out


def _flush_suit(state: HandState, other: Seat) -> int | None:
    """The suit every laid meld of ``other`` is in, when it has two or more (honor melds
    fit any flush); None otherwise."""
    suits = set()
    laid = 0
    for meld in state.seats[other].melds:
        if meld.concealed:
            continue
        laid += 1
        suit = _suit(state.faces[meld.slots[0]])
        if suit is not None:
            suits.add(suit)
    return next(iter(suits)) if laid >= 2 and len(suits) == 1 else None


def _kind_danger(kind: int, unseen: int, thrown: bool, flush: int | None) -> float:
    """How likely one ready seat waits on ``kind`` (a relative weight, 0..~1.6)."""
    if is_honor(kind):
        base = 0.0 if unseen <= 0 else (0.2 if unseen == 1 else 0.6)
    else:
        rank = rank_of(kind)
        base = 1.0 if 3 <= rank <= 7 else (0.8 if rank in (2, 8) else 0.6)
        if unseen <= 0:
            base *= 0.5  # only a chow wait is left
    if thrown:
        base *= 0.3
    if flush is not None:
        suit = _suit(kind)
        if suit == flush:
            base *= 1.6
        elif suit is not None:
            base *= 0.2
    return base


def danger(
    state: HandState, seat: Seat, kinds: Sequence[int], seen: Sequence[int]
) -> dict[int, float]:
    """Danger of discarding each of ``kinds``: the sum over other seats of their threat
    times how likely they wait on it. ``seen``: copies of each kind ``seat`` can see
    (public tiles and its own)."""
    threat = threats(state, seat)
    thrown = {o: {state.faces[s] for s in state.seats[o].discards} for o in threat}
    flush = {o: _flush_suit(state, o) for o in threat}
    return {
        k: sum(
            t * _kind_danger(k, 4 - seen[k], k in thrown[o], flush[o]) for o, t in threat.items()
        )
        for k in kinds
    }
