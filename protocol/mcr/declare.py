"""Mahjong declarations: the self-drawn win, the end of a won hand, and false declarations.

A friendly table refuses a false Mahjong with the reason. A tournament table accepts it and
applies docs/RULES.md B6: the declarer pays 10 to each player (complete hand under 8 points) or 20
(not a winning hand at all), the shown hand stays shown, and the hand is dead: it keeps
drawing and discarding but can no longer claim, kong or win.
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..seats import Seat
from ..tiles import Kind
from .actions import DeclareWin, Reveal
from .events import DrawSource, FalseDeclaration, HandWon
from .flowers import Step
from .payments import add, penalty_payments, win_payments
from .state import HandResult, HandState, Phase, evolve, with_faces, with_seat
from .wins import Verdict, check_reveal, judge, shown_slots


def finish_win(
    state: HandState, winner: Seat, discarder: Seat | None, win_slot: int, verdict: Verdict
) -> Step:
    """End the hand: the winner's hand is shown and the payments made."""
    score = verdict.score
    assert score is not None and score.winning
    payments = add(win_payments(winner, discarder, score.total), state.penalties)
    result = HandResult(winner, discarder, discarder is None, score.fans, score.total, payments)
    shown = state.revealed | set(state.seats[winner].hand) | {win_slot}
    for meld in state.seats[winner].melds:
        shown |= set(meld.slots)
    ended = evolve(
        state,
        phase=Phase.ENDED,
        result=result,
        revealed=frozenset(shown),
        answers=(None, None, None, None),
    )
    return ended, (HandWon(winner, discarder, score.fans, score.total, payments),)


def false_declaration(state: HandState, seat: Seat, verdict: Verdict) -> Step:
    """Tournament penalty (B6): pay 10 or 20 to each, hand shown and dead."""
    each = verdict.penalty
    shown = state.revealed | set(shown_slots(state, seat))
    new = evolve(
        state,
        penalties=add(state.penalties, penalty_payments(seat, each)),
        revealed=frozenset(shown),
    )
    new = with_seat(new, seat, evolve(new.seats[seat], dead=True))
    return new, (FalseDeclaration(seat, verdict.reason, each),)


def reveal_faces(state: HandState, seat: Seat, reveal: Reveal) -> dict[int, Kind]:
    if state.seats[seat].dead:
        raise IllegalAction("a dead hand cannot win", seat)
    return check_reveal(state, seat, reveal)


def declare_win(state: HandState, action: DeclareWin) -> Step:
    """Self-drawn Mahjong on the tile just drawn."""
    seat = action.seat
    if state.phase is not Phase.TURN or seat != state.turn:
        raise IllegalAction("a self-drawn Mahjong is declared on your own turn", seat)
    if not state.may_declare or state.drawn is None:
        raise IllegalAction("Mahjong on a claimed tile is claimed with the discard", seat)
    learned = reveal_faces(state, seat, action.reveal)
    kong = state.drawn_source is DrawSource.KONG_REPLACEMENT
    verdict = judge(state, seat, state.drawn, self_drawn=True, kong_related=kong, faces=learned)
    if not verdict.winning and not state.options.tournament:
        raise IllegalAction(f"not a winning hand: {verdict.reason}", seat)
    new = with_faces(state, learned)
    if verdict.winning:
        return finish_win(new, seat, None, state.drawn, verdict)
    return false_declaration(new, seat, verdict)
