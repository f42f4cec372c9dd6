"""Finding a tile by its face among the wall slots a seat holds (engine tests of every rule set).

Each rule set's fixtures know where its state keeps a seat's concealed slots
(``state.hands[seat]`` for American, ``state.seats[seat].hand`` for MCR) and pass them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fourwinds.protocol.tiles import Kind


def nth_slot(faces: Sequence[Kind], held: Iterable[int], kind: Kind, nth: int = 0) -> int:
    """The ``nth`` (from 0, in ``held``'s order) of the slots in ``held`` whose face is
    ``kind``; IndexError when there are not that many."""
    return [slot for slot in held if faces[slot] == kind][nth]
