"""Which legal exposure calls are worth putting to a player (issue 22, item 11).

The rules (``calls.legal_answers``) allow any exposure some card hand can still use: with
two jokers that is a pung of almost every discard, so a player was asked on nearly every
discard. A call is *worth offering* when the exposure it makes, with the player's own
tiles, brings the hand nearer to a card line than passing does: some card hand that takes
all the seat's exposures (the new one included) then needs fewer tiles than the nearest
hand needs now. A call that does not would only spend tiles (often jokers) on a group no
near hand uses, and the exposure, being fixed, would close lines the player is working on.

The lines kept open are named (card line ids, nearest first) so the prompt can say why the
call is offered. Calls for Mahjong are always worth offering; this module leaves them alone.
Pure; results are cached per card (by identity), rack, exposures and call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..seats import Seat
from ..tiles import Kind
from .actions import Call
from .card import Card
from .matcher import nearest_hands
from .state import AmericanState

LINES_SHOWN = 3  # card lines named per call


@dataclass(frozen=True)
class CallOffer:
    """A legal exposure call and the card lines (ids, nearest first) it keeps open: each of
    them needs fewer tiles after the call than the nearest hand needs if we pass."""

    call: Call
    lines: tuple[str, ...]

    @property
    def worth_offering(self) -> bool:
        return bool(self.lines)


_Key = tuple[tuple[Kind, ...], tuple[tuple[Kind, ...], ...], tuple[Kind, ...], Kind]
_LINES = __name__ + ".lines_kept_open"
_NOW = __name__ + ".distance_now"
"""This module's tables in a card's memo (memo.py), each of at most ``_CACHE_LIMIT``."""
_CACHE_LIMIT = 2048


def _distance_now(
    card: Card, concealed: tuple[Kind, ...], exposures: tuple[tuple[Kind, ...], ...]
) -> int | None:
    """Tiles the nearest card hand still needs (None: no hand can use these exposures)."""
    key = (concealed, exposures)
    known: dict[tuple[tuple[Kind, ...], tuple[tuple[Kind, ...], ...]], int] = card.memo.table(_NOW)
    found = known.get(key)
    if found is not None:  # -1 kept: no hand can use these exposures
        return None if found < 0 else found
    near = nearest_hands(card, concealed, exposures, 1)
    distance = near[0].distance if near else -1
    if len(known) >= _CACHE_LIMIT:
        known.clear()
    known[key] = distance
    return None if distance < 0 else distance


def lines_kept_open(
    card: Card,
    concealed: Sequence[Kind],
    exposures: Sequence[Sequence[Kind]],
    call_faces: Sequence[Kind],
    discard: Kind,
) -> tuple[str, ...]:
    """The card lines (ids, nearest first, at most ``LINES_SHOWN``) that, after exposing
    ``call_faces`` from ``concealed`` with the ``discard``, need fewer tiles than the nearest
    hand needs now; empty when the call brings the hand no nearer to any line."""
    held = tuple(sorted(concealed))
    laid = tuple(tuple(e) for e in exposures)
    faces = tuple(call_faces)
    key = (held, laid, faces, discard)
    made: dict[_Key, tuple[str, ...]] = card.memo.table(_LINES)
    found = made.get(key)
    if found is not None:
        return found
    lines = _lines(card, held, laid, faces, discard)
    if len(made) >= _CACHE_LIMIT:
        made.clear()
    made[key] = lines
    return lines


def _lines(
    card: Card,
    held: tuple[Kind, ...],
    laid: tuple[tuple[Kind, ...], ...],
    faces: tuple[Kind, ...],
    discard: Kind,
) -> tuple[str, ...]:
    now = _distance_now(card, held, laid)
    if now is None:
        return ()
    left = list(held)
    for face in faces:
        if face not in left:
            return ()  # not our tiles: no such call
        left.remove(face)
    after = nearest_hands(card, tuple(left), (*laid, (*faces, discard)), LINES_SHOWN)
    out: list[str] = []
    for near in after:
        if near.distance < now and near.hand.id not in out:
            out.append(near.hand.id)
    return tuple(out)


def call_offer(state: AmericanState, seat: Seat, call: Call) -> CallOffer:
    """``call`` (an exposure call of ``seat`` on the discard now) with the lines it keeps
    open, read from what ``seat`` knows: its concealed tiles and exposures."""
    assert state.last_discard is not None
    concealed = state.concealed_kinds(seat)
    if Kind.HIDDEN in concealed:  # our own faces not all known yet: nothing to judge by
        return CallOffer(call, ())
    lines = lines_kept_open(
        state.card,
        concealed,
        state.exposure_kinds(seat),
        call.faces,
        state.faces[state.last_discard],
    )
    return CallOffer(call, lines)


def call_offers(state: AmericanState, seat: Seat, calls: Sequence[object]) -> tuple[CallOffer, ...]:
    """The exposure calls among ``calls`` (legal answers of ``seat``), each with the lines
    it keeps open (empty: not worth offering)."""
    return tuple(call_offer(state, seat, c) for c in calls if isinstance(c, Call))


__all__ = ["LINES_SHOWN", "CallOffer", "call_offer", "call_offers", "lines_kept_open"]
