"""The ``strong`` American bot: the normal bot's planning, with tile counting and defence.

* Lines: it aims for the nearest card line, as the normal bot does, but counts the tiles
  still unseen (``unseen.unseen_counts``, jokers too: only a joker fills a joker-only
  place): a nearest line that needs more copies of a kind than are left is dead, and it
  takes instead the likeliest line at most one tile further (``line_cost``: scarce missing
  tiles cost more). It keeps the line it aimed for while that is as near as the best, since
  switching between equally near lines throws away the tiles each needs. The Charleston
  passes the chosen line's surplus, so that line stays open. (Choosing freely among the four
  nearest lines by scarcity alone played worse in the duplicate bench: it switched lines.)
* Calls for exposures as the normal bot does (within 6 tiles of its line): calling only
  within 4 (an exposure fixes the line) lost about 4 points a hand in the duplicate bench,
  within 2 about 11; calling later than 6 changed nothing.
* Holds jokers: lets one go only when its line has no place for it and nothing else is
  surplus (keeping it by breaking the line instead lost 14 points a hand in the bench).
* Defends: of its surplus it lets go first the tiles no exposed opponent's possible lines
  need (``unseen.opponent_needs``), so it does not feed an exposure.

It reads only its own tiles and public ones. Randomness only through the chooser.
"""

from __future__ import annotations

from ..seats import Seat
from ..tiles import Kind
from .actions import Action, Discard
from .bots import AmericanBot, Chooser, Plan
from .card import Card
from .matcher import NearHand
from .state import AmericanState
from .unseen import opponent_needs, unseen_counts

__all__ = ["StrongAmericanBot", "line_cost"]

FEED_SHARE = 0.35      # an opponent's lines needing a kind this often: do not throw it


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


class StrongAmericanBot(AmericanBot):
    """A seat's strong bot (see the module's docstring)."""

    NEAR_LINES = 4

    def __init__(self, seat: Seat, card: Card, chooser: Chooser) -> None:
        super().__init__(seat, card, chooser)
        self._unseen: dict[Kind, int] = {}  # as of the last ``act``
        self._line: str | None = None       # the card line aimed for last

    def _pick_near(self, near: tuple[NearHand, ...]) -> NearHand | None:
        """The nearest line (the card's order breaks ties, as the normal bot's does), unless
        the tiles still unseen cannot complete it: then the likeliest line at most one tile
        further. A line aimed for before is kept while it is as near as the best."""
        if not near:
            return None
        costs = {id(n): line_cost(n, self._unseen) for n in near}
        best = near[0]
        if costs[id(best)][0] > best.distance:   # the nearest line is dead
            live = [n for n in near if n.distance <= best.distance + 1]
            best = min(live, key=lambda n: (*costs[id(n)], n.distance))
        kept = next((n for n in near if self._line is not None and n.hand.id == self._line),
                    None)
        if kept is not None and costs[id(kept)][0] <= costs[id(best)][0]:
            best = kept  # no switching between equally near lines: it throws tiles away
        self._line = best.hand.id
        return best

    def act(self, state: AmericanState) -> Action | None:
        self._unseen = unseen_counts(state, self.seat)
        return super().act(state)

    def _discard(self, state: AmericanState, plan: Plan | None) -> Discard:
        if plan is None:   # a dead hand: any tile but a joker
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
        return super()._discard(state, plan)   # only jokers to spare: one its line cannot use
