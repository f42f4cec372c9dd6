"""The ``strong`` American bot: the normal bot's planning, with tile counting and defence.

* Lines: it aims for a nearest card line, as the normal bot does, but counts the tiles
  still unseen (``unseen.unseen_counts``, jokers too: only a joker fills a joker-only
  place): of the equally near lines it takes the one whose missing tiles are least scarce
  (``line_cost``: the sum of 1 / (copies left + 1)); a nearest line that needs more copies
  of a kind than are left is dead, and it takes instead the likeliest line at most one tile
  further. It keeps the line it aimed for while that is as near as the best, since
  switching between equally near lines throws away the tiles each needs.
* Keeps the other lines open: in the Charleston and in play it lets go only its line's
  surplus, and of that first the copies no other near line wants (``keep_order``: the
  other lines of the six nearest, at most 2 tiles further, each weighing half as much per
  tile further). On walls 1000-1999 of the duplicate bench this took its lead over the
  normal bot from +2.5 to about +11.7 points a hand, and choosing among equally near lines
  by scarcity (above) then added about 1.5 more; before ``keep_order`` that choice played
  worse, as choosing freely among the nearest lines a tile further still does: it switches
  lines and throws away what the old one held.
* Calls for exposures as the normal bot does (within 6 tiles of its line): calling only
  within 4 (an exposure fixes the line) lost about 4 points a hand in the duplicate bench,
  within 2 about 11; calling later than 6 changed nothing.
* Takes jokers: exchanges for an exposed joker a tile its line needs only in a group a
  joker may fill, not only a surplus tile as the normal bot does.
* Holds jokers: lets one go only when its line has no place for it and nothing else is
  surplus (keeping it by breaking the line instead lost 14 points a hand in the bench).
* Defends: of its surplus it lets go first the tiles no exposed opponent's possible lines
  need (``unseen.opponent_needs``), so it does not feed an exposure.

It reads only its own tiles and public ones. Randomness only through the chooser.
"""

from __future__ import annotations

from ..seats import Seat
from ..tiles import Kind
from .actions import Action, Discard, ExchangeJoker
from .bots import AmericanBot, Chooser, Plan
from .card import Card
from .matcher import NearHand
from .state import AmericanState
from .unseen import opponent_needs, unseen_counts

__all__ = ["StrongAmericanBot", "keep_order", "line_cost"]

FEED_SHARE = 0.35  # an opponent's lines needing a kind this often: do not throw it


def line_cost(near: NearHand, unseen: dict[Kind, int]) -> tuple[float, float]:
    """How hard a line is to finish, smaller first: (its distance plus 3 for each tile it
    needs beyond the copies left unseen, the scarcity of what it misses: the sum of
    1 / (copies left + 1) over its missing tiles). Only a joker fills a ``Kind.JOKER`` place,
    so unseen jokers count there."""
    missing: dict[Kind, int] = {}
    for kind in near.missing:
        missing[kind] = missing.get(kind, 0) + 1
    short = 0
    scarcity = 0.0
    for kind, count in missing.items():
        left = unseen.get(kind, 0)
        scarcity += count / (left + 1)
        short += max(0, count - left)
    return near.distance + 3.0 * short, scarcity


def keep_order(
    surplus: tuple[int, ...], need: dict[int, int], others: list[tuple[float, dict[int, int]]]
) -> tuple[int, ...]:
    """``surplus`` (least wanted first, repeats = copies) stably reordered by how much the
    other near lines want each copy: ``others`` holds (weight, the line's needs by kind);
    the j-th spare copy of a kind is wanted by a line needing more than ``need`` + j - 1
    copies of it. Jokers keep their place (the caller never lets one go while others can)."""
    seen: dict[int, int] = {}
    scored: list[tuple[float, int, int]] = []
    for index, kind in enumerate(surplus):
        copy = seen.get(kind, 0) + 1
        seen[kind] = copy
        wanted = (
            0.0
            if kind == Kind.JOKER
            else sum(w for w, line in others if line.get(kind, 0) >= need.get(kind, 0) + copy)
        )
        scored.append((wanted, index, kind))
    scored.sort()
    return tuple(kind for _, _, kind in scored)


class StrongAmericanBot(AmericanBot):
    """A seat's strong bot (see the module's docstring)."""

    NEAR_LINES = 6
    KEEP_SPAN = 2  # other lines at most this much further than the aim keep tiles
    KEEP_DECAY = 0.5  # ... each weighing this much less for each tile further

    def __init__(self, seat: Seat, card: Card, chooser: Chooser) -> None:
        super().__init__(seat, card, chooser)
        self._unseen: dict[Kind, int] = {}  # as of the last ``act``
        self._line: str | None = None  # the card line aimed for last
        self._near: tuple[NearHand, ...] = ()  # the lines ``_pick_near`` chose among last

    def _pick_near(self, near: tuple[NearHand, ...]) -> NearHand | None:
        """Of the nearest lines, the one whose missing tiles are least scarce among the tiles
        still unseen (``line_cost``; the card's order, higher values first, breaks ties),
        unless the tiles unseen cannot complete it: then the likeliest line at most one tile
        further. A line aimed for before is kept while it is as near as the best."""
        if not near:
            return None
        costs = {id(n): line_cost(n, self._unseen) for n in near}
        best = near[0]
        if costs[id(best)][0] > best.distance:  # the nearest line is dead
            live = [n for n in near if n.distance <= best.distance + 1]
            best = min(live, key=lambda n: (*costs[id(n)], n.distance))
        else:  # of the equally near lines, the one whose missing tiles are least scarce
            level = [n for n in near if costs[id(n)][0] == costs[id(best)][0]]
            best = min(level, key=lambda n: costs[id(n)][1])
        kept = next((n for n in near if self._line is not None and n.hand.id == self._line), None)
        if kept is not None and costs[id(kept)][0] <= costs[id(best)][0]:
            best = kept  # no switching between equally near lines: it throws tiles away
        self._line = best.hand.id
        self._near = near
        return best

    def _make_plan(
        self,
        concealed: tuple[Kind, ...],
        exposures: tuple[tuple[Kind, ...], ...],
        exposed: tuple[tuple[Kind, int], ...],
    ) -> Plan:
        """The normal bot's plan, its surplus reordered so that the copies the other near
        lines use go last (``keep_order``): letting go first what no line wants keeps the
        second-best lines open, in the Charleston and in play."""
        self._near = ()
        plan = super()._make_plan(concealed, exposures, exposed)
        if plan.hand is None or len(plan.surplus) < 2:
            return plan
        have = [0] * (int(Kind.HIDDEN) + 1)
        for kind in concealed:
            have[kind] += 1
        jokers = have[Kind.JOKER]
        others: list[tuple[float, dict[int, int]]] = []
        lines: tuple[NearHand, ...] = self._near
        for line in lines:
            if line.hand.id == plan.hand.id or line.distance > plan.distance + self.KEEP_SPAN:
                continue
            found = self._best_groups(line.hand, exposed, have, jokers)
            if found is None:
                continue
            need: dict[int, int] = {}
            for group in found[1]:
                for kind in group.kinds:
                    need[kind] = need.get(kind, 0) + 1
            others.append((self.KEEP_DECAY ** (line.distance - plan.distance), need))
        surplus = keep_order(plan.surplus, plan.need, others)
        return Plan(plan.hand, plan.distance, plan.need, plan.jokerable, plan.groups, surplus)

    def _exchange(self, state: AmericanState, plan: Plan) -> ExchangeJoker | None:
        """The normal bot's exchange (a surplus tile for an exposed joker), and also a tile
        its line needs only where a joker may stand (a group of 3 or more): the joker fills
        that place as well and any other line's too, so the hand loses nothing and gains a
        tile that fits everywhere (walls 1000-1999 and 5000-5499: about +1 point a hand)."""
        found = super()._exchange(state, plan)
        if found is not None:
            return found
        swappable = {k for g in plan.groups if g.jokers for k in g.kinds}
        fixed = {k for g in plan.groups if not g.jokers for k in g.kinds}
        for owner in Seat:
            if owner == self.seat and not state.options.exchange_from_own_exposure:
                continue
            for exposure in state.exposures[owner]:
                if exposure.kind not in swappable or exposure.kind in fixed:
                    continue
                jokers = [s for s in exposure.slots if state.faces[s] == Kind.JOKER]
                mine = [s for s in state.hands[self.seat] if state.faces[s] == exposure.kind]
                if jokers and mine:
                    return ExchangeJoker(self.seat, mine[0], exposure.kind, jokers[0])
        return None

    def act(self, state: AmericanState) -> Action | None:
        self._unseen = unseen_counts(state, self.seat)
        return super().act(state)

    def _discard(self, state: AmericanState, plan: Plan | None) -> Discard:
        if plan is None:  # a dead hand: any tile but a joker
            plain = [x for x in state.hands[self.seat] if state.faces[x] != Kind.JOKER]
            if not plain:
                return super()._discard(state, plan)
            slot = plain[int(self.chooser.random() * len(plain)) % len(plain)]
            return Discard(self.seat, slot, state.faces[slot])
        needs = opponent_needs(state, self.seat)
        surplus = [k for k in plan.surplus if k != Kind.JOKER]
        if surplus:
            safe = [k for k in surplus if needs.get(k, 0.0) < FEED_SHARE]
            kind = Kind(safe[0] if safe else min(surplus, key=lambda k: needs.get(k, 0.0)))
            for slot in reversed(state.hands[self.seat]):
                if state.faces[slot] == kind:
                    self._remember_after_discard(state, plan, kind)
                    return Discard(self.seat, slot, kind)
        return super()._discard(state, plan)  # only jokers to spare: one its line cannot use
