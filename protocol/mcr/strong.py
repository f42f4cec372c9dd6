"""The ``strong`` MCR bot: the normal bot's plans, plus tile counting, hand value and defence.

On its turn it ranks every discard by three things, all from what its seat can see:

* how near the hand stays to a plan worth 8 points (``bots._Position.value``: plan distance,
  and for a ready hand its live winning waits, here weighted by what each wait scores);
* how many still-unseen tiles would bring it a step nearer (the "improving tiles": for each
  kind, 4 minus the copies this seat can see; 40 of them weigh as much as a step), so
  between two discards of the same distance it keeps the one with more ways forward;
* how likely the tile is to deal in (``defence.danger``) once another seat looks ready:
  weighed lightly while its own hand is near, heavily when its hand is far (it folds).

Claims, kongs and Mahjong are the normal bot's, except that a folding bot claims nothing but
a win (a meld laid would only cost it safe tiles). Pure: randomness only through ``rng``.
"""

from __future__ import annotations

from functools import lru_cache

from ..seats import Seat
from ..tiles import Kind
from . import bots
from .actions import Action, ClaimWin, Discard, Pass
from .defence import danger, threats
from .hand import InvalidHand, Meld
from .plans import HAND_KINDS, INF, Counts, MeldKey, Plan
from .scoring import WinContext, score_hand
from .state import HandState, Phase
from .waits import tiles_to_win

__all__ = ["choose", "discard_scores"]

IMPROVE_WEIGHT = 1 / 40     # one unseen improving tile, in plan steps (40 tiles = a step)
FOLD_THREAT = 0.5          # a seat this likely ready makes a far hand fold
# How much a unit of danger weighs, in plan steps, by how far our own hand is. Light: a win
# brings 24 points and more, a deal-in costs only the hand's value beyond the 8 every seat
# pays, so folding early loses more than it saves (heavier weights and an earlier fold did
# worse in the duplicate bench).
DANGER_WEIGHT = {"ready": 0.18, "near": 0.5, "far": 2.0}


@lru_cache(maxsize=1 << 14)
def wait_points(melds: tuple[Meld, ...], hand: tuple[Kind, ...], seat_wind: int,
                prevalent: int) -> tuple[tuple[Kind, int, bool], ...]:
    """Each winning wait of a ready 13-tile hand, the points it scores on a discard
    (self-drawn when only that wins) and whether it also wins on a discard."""
    try:
        waits = tiles_to_win(melds, hand)
    except InvalidHand:
        return ()
    out: list[tuple[Kind, int, bool]] = []
    for kind in waits:
        for drawn in (False, True):
            found = score_hand(melds, hand, WinContext(kind, drawn, seat_wind=seat_wind,
                                                       prevalent_wind=prevalent))
            if found.winning:
                out.append((kind, found.total, not drawn))
                break
    return tuple(out)


def _improving(pos: bots._Position, after: Counts, key: MeldKey, plans: tuple[Plan, ...],
               dist: int) -> int:
    """Unseen tiles that would bring the 13 tiles ``after`` a step nearer a plan."""
    work = list(after)
    total = 0
    for t in range(HAND_KINDS):
        unseen = 4 - pos.seen[t]
        if unseen <= 0 or work[t] >= 4:
            continue
        work[t] += 1
        d, _ = bots._plan_value(tuple(work), key, plans)
        work[t] -= 1
        if d < dist:
            total += unseen
    return total


def _ready_value(pos: bots._Position, after: Counts, melds: tuple[Meld, ...]) -> float | None:
    """For a ready hand: minus its live winning waits, each weighted by its points (a wait
    worth 16 counts double one worth 8) and, as the normal bot does, by 0.4 when it wins
    only self-drawn; None when ``after`` is not ready."""
    hand = tuple(Kind(k) for k in range(HAND_KINDS) for _ in range(after[k]))
    waits = wait_points(melds, hand, int(pos.seat), pos.state.prevalent_wind)
    if not waits:
        return None
    live = sum((4 - pos.seen[k]) * min(points / 8, 3.0) * (1.0 if on_discard else 0.4)
               for k, points, on_discard in waits)
    return -0.5 - min(live, 12) / 16 if live > 0 else 1.0


def discard_scores(state: HandState, seat: Seat) -> dict[int, float]:
    """Each kind the seat may discard and its score (smaller is better)."""
    pos = bots._Position(state, seat)
    key = pos.key
    plans = pos.plans(key, pos.counts)
    kinds = [k for k in range(HAND_KINDS) if pos.counts[k]]
    offence: dict[int, float] = {}
    work = list(pos.counts)
    for k in kinds:
        work[k] -= 1
        after: Counts = tuple(work)
        value = pos.value(after, pos.melds, key)
        if value < 0:
            ready = _ready_value(pos, after, pos.melds)
            value = ready if ready is not None else value
        elif plans and value < INF:
            dist, _ = bots._plan_value(after, key, plans)
            value -= IMPROVE_WEIGHT * _improving(pos, after, key, plans, dist)
        offence[k] = value
        work[k] += 1
    best = min(offence.values())
    threat = max(threats(state, seat).values())
    if threat < 0.1:
        return offence
    stage = "ready" if best < 0 else ("near" if best < 1.5 else "far")
    if stage == "far" and threat < FOLD_THREAT:
        stage = "near"
    risk = danger(state, seat, kinds, pos.seen)
    weight = DANGER_WEIGHT[stage]
    return {k: v + weight * risk[k] for k, v in offence.items()}


def folding(state: HandState, seat: Seat) -> bool:
    """Whether the seat has given up on its hand: far from ready while another looks ready."""
    if max(threats(state, seat).values()) < FOLD_THREAT:
        return False
    pos = bots._Position(state, seat)
    return pos.value(pos.counts, pos.melds, pos.key) >= 2


def choose(state: HandState, seat: Seat, rng: bots.Rng) -> Action | None:
    """The strong bot's action for ``seat`` now, or None when the seat has nothing to do."""
    action = bots.choose(state, seat, rng)
    if isinstance(action, Discard):
        scores = discard_scores(state, seat)
        best = min(scores.values())
        tied = sorted(k for k, v in scores.items() if v == best)
        kind = tied[0] if len(tied) == 1 else min(
            tied, key=lambda k: (bots._keep_worth(k, bots._Position(state, seat).counts), k))
        if kind == action.face:
            return action
        own = state.seats[seat].hand
        slots = [s for s in own if state.faces[s] == kind]
        slot = slots[int(rng.random() * len(slots)) % len(slots)]
        return Discard(seat, slot, Kind(kind))
    if (state.phase is Phase.CLAIMS and action is not None
            and not isinstance(action, (Pass, ClaimWin)) and folding(state, seat)):
        return Pass(seat)
    return action
