"""Checking and scoring a Mahjong declaration with the fan calculator.

The engine never counts fans itself: it builds the calculator's inputs (melds, concealed
tiles without the winning tile, and the ``WinContext``) from the hand state and asks
``scoring.score_hand``. A declaration also shows the hand: ``reveal`` must name exactly the
declarer's concealed slots, with faces that agree with what this engine already knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import IllegalAction
from ..seats import Seat
from ..tiles import Kind
from .actions import Reveal
from .hand import InvalidHand, Meld, MeldType
from .payments import PENALTY_NOT_A_WIN, PENALTY_UNDER_MINIMUM
from .scoring import FanScore, WinContext, is_complete, score_hand
from .state import HandState, meld_kinds, public_slots, with_faces


@dataclass(frozen=True)
class Verdict:
    """The calculator's answer for a declaration; ``penalty`` applies on a tournament table."""

    score: FanScore | None
    reason: str  # empty when winning
    complete: bool  # the tiles form a hand at all (decides the B6 penalty)

    @property
    def winning(self) -> bool:
        return self.score is not None and self.score.winning

    @property
    def penalty(self) -> int:
        if self.winning:
            return 0
        if self.complete:
            return PENALTY_UNDER_MINIMUM
        return PENALTY_NOT_A_WIN


@lru_cache(maxsize=4096)
def _meld(kind: MeldType, tiles: tuple[Kind, ...], concealed: bool) -> Meld:
    return Meld(kind, tiles, concealed)


def calc_melds(state: HandState, seat: Seat) -> tuple[Meld, ...]:
    """The seat's melds as the calculator takes them."""
    return tuple(_meld(m.type, meld_kinds(state, m), m.concealed) for m in state.seats[seat].melds)


def shown_slots(state: HandState, seat: Seat) -> tuple[int, ...]:
    """What a declarer shows: the concealed hand and any concealed kong (laid face down)."""
    own = state.seats[seat]
    kongs = tuple(s for m in own.melds if m.concealed for s in m.slots)
    return (*own.hand, *kongs)


def reveal_of(state: HandState, seat: Seat) -> Reveal:
    """The reveal a seat gives when it declares (its own concealed slots and faces)."""
    return tuple((slot, state.faces[slot]) for slot in shown_slots(state, seat))


def check_reveal(state: HandState, seat: Seat, reveal: Reveal) -> dict[int, Kind]:
    """Faces to record from a reveal; raises when it is not exactly the seat's hidden tiles."""
    slots = [slot for slot, _ in reveal]
    if sorted(slots) != sorted(shown_slots(state, seat)):
        raise IllegalAction("a Mahjong must show exactly the concealed hand and kongs", seat)
    learned: dict[int, Kind] = {}
    for slot, face in reveal:
        _check_face(state, seat, slot, face)
        if state.faces[slot] == Kind.HIDDEN:
            learned[slot] = face
    for meld in state.seats[seat].melds:
        kinds = {learned.get(s, state.faces[s]) for s in meld.slots}
        if meld.concealed and len(kinds) != 1:
            raise IllegalAction("a concealed kong must show four alike", seat)
    return learned


def _check_face(state: HandState, seat: Seat, slot: int, face: Kind) -> None:
    known = state.faces[slot]
    if face == Kind.HIDDEN or (known != Kind.HIDDEN and known != face):
        raise IllegalAction(f"slot {slot} does not hold {face.name}", seat)


def last_of_its_kind(state: HandState, win_slot: int) -> bool:
    """The winning tile's other three copies are already public (Last Tile, docs/RULES.md B5)."""
    kind = state.faces[win_slot]
    seen = sum(1 for s in public_slots(state) if s != win_slot and state.faces[s] == kind)
    return seen >= 3


def judge(
    state: HandState,
    seat: Seat,
    win_slot: int,
    *,
    self_drawn: bool,
    kong_related: bool,
    faces: dict[int, Kind] | None = None,
) -> Verdict:
    """Score ``seat``'s hand completed by ``win_slot`` (``faces`` fills in revealed tiles)."""
    if faces:
        state = with_faces(state, faces)
    own = state.seats[seat]
    win_tile = state.faces[win_slot]
    concealed = [state.faces[s] for s in own.hand if s != win_slot]
    if Kind.HIDDEN in concealed or win_tile == Kind.HIDDEN:
        raise IllegalAction("the declared hand is not fully shown", seat)
    melds = calc_melds(state, seat)
    ctx = WinContext(
        win_tile=win_tile,
        self_drawn=self_drawn,
        last_tile=last_of_its_kind(state, win_slot),
        kong_related=kong_related,
        wall_last=state.wall.remaining == 0,
        seat_wind=int(seat),
        prevalent_wind=state.prevalent_wind,
        flowers=len(own.flowers),
    )
    try:
        if not is_complete(melds, [*concealed, win_tile]):
            return Verdict(None, "the tiles do not form a complete hand", False)
        score = score_hand(melds, concealed, ctx)
    except InvalidHand as error:
        return Verdict(None, f"not a valid hand: {error}", False)
    if score.winning:
        return Verdict(score, "", True)
    flowers = len(own.flowers)
    return Verdict(
        score,
        f"only {score.total - flowers} points without flowers; {state.options.min_points} needed",
        True,
    )


def completes(state: HandState, seat: Seat, kind: Kind) -> bool:
    """Cheap pre-check: does ``kind`` complete the seat's concealed hand at all?"""
    concealed = [state.faces[s] for s in state.seats[seat].hand]
    if Kind.HIDDEN in concealed:
        return False
    try:
        return is_complete(calc_melds(state, seat), [*concealed, kind])
    except InvalidHand:
        return False
