"""Every seat's concealed tiles at a hand's end: what the end-of-hand screens reveal.

Once a hand is over every seat may know every tile of its wall, and the table shows each
seat's concealed tiles at every seat, the same at all four:

- masked deck: once the end-of-hand audit is over and blamed no seat. The four revealed
  permutations give the tile at every position and the audit checked the whole wall against
  them (protocol/deck/audit.py), so the faces shown are ones every seat verified itself;
  while it runs the hands are not shown yet, and after an audit that blamed a seat they are
  not shown at all (its faces are not the wall's);
- practice deck: at once, since the wall follows from the hand's public seed, which every
  seat holds in its records (protocol/table/machine/practice.py).

Which positions a seat holds concealed comes from the engine's public state (in the public
digest every seat agrees on), and the face at each from the wall alone, never from what one
seat was told privately: the four seats build the same lists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.tiles import Kind

AUDIT_RUNNING = "Every seat's tiles are shown once the deck audit is over"
AUDIT_FAILED = "Every seat's tiles are not shown: the deck audit found a problem"


@dataclass(frozen=True)
class Reveal:
    """``hands``: by wind, each seat's concealed tiles as sorted codes (None: not shown);
    ``detail``: why they are not shown ("" when they are)."""

    hands: tuple[tuple[str, ...], ...] | None
    detail: str


def wall_faces(s: TableSession) -> tuple[Kind, ...] | None:
    """Every face of the hand's wall, once the hand is over and every seat may know them
    all (None before, or when the audit blamed a seat)."""
    hand = s.hand
    if hand is None or hand.outcome is None:
        return None
    if hand.wall is not None:  # practice deck: from the public seed
        return hand.wall.faces
    if hand.deck is not None and hand.audited and hand.revealed:
        return hand.revealed
    return None


def reveal_hands(
    s: TableSession, engine: Any, concealed_slots: Callable[[Any, Seat], Sequence[int]]
) -> Reveal:
    """Every seat's concealed tiles at the end of the hand, or why they are not shown yet.
    ``concealed_slots(engine, wind)``: the wall positions a seat holds concealed, as the
    rules engine's public state has them."""
    faces = wall_faces(s)
    if faces is None:
        hand = s.hand
        if hand is not None and hand.deck is not None:
            return Reveal(None, AUDIT_FAILED if hand.audited else AUDIT_RUNNING)
        return Reveal(None, "")  # an observer of a masked hand: no seat view to show
    hands = tuple(
        tuple(tile_code(k) for k in sorted(faces[slot] for slot in concealed_slots(engine, wind)))
        for wind in SEATS
    )
    return Reveal(hands, "")
