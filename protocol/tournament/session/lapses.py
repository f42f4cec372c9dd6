"""A called round whose reveals do not all come: seated without those missing, after a while.

A round's seed is made by every entrant of its roster revealing its nonce after the
director's call (seed_ahead.py). An entrant whose daemon is gone, frozen or withholding its
reveal (to see the others' first) would stall the round for the whole room. So the director's
daemon waits REVEAL_WAIT_S from the call (from its own start, after a restart), then signs a
``RevealLapse`` naming who has not revealed, with the reason; the checker lets the round be
seeded and seated by the others, and those named sit the round out (no table, no bye) and
play again from the next round. A late reveal of theirs is refused then.

What a withholder gains is no more than choosing between two seatings of the others while
sitting the round out itself; the lapse is in the record, with its reason, for every
entrant and the export to see. Pure: the time is the daemon's clock, passed in.
"""

from __future__ import annotations

from dataclasses import replace

from ..intake import Decision
from ..records import RevealLapse, SeedSteps
from ..signing import signed
from .outcome import Outcome
from .state import EventState
from .steps import Note
from .taking import advance, take

REVEAL_WAIT_S = 30.0
"""How long after a round's call the director waits for every reveal: an entrant's daemon
reveals as soon as it holds the call (seconds, on a loaded 16-machine venue about ten)."""


def lapse_due(state: EventState, now: float) -> Outcome:
    """At the director's tick: note when the called round's wait began, and once it has
    lasted REVEAL_WAIT_S with reveals missing, seat the round without them (the round start
    follows at once). Nothing elsewhere, or while every reveal may still come."""
    progress = state.verdict.seeding
    if (
        not state.directs
        or state.create.seed_steps is not SeedSteps.AHEAD
        or progress is None
        or not progress.called
    ):
        return Outcome(replace(state, called_at=None) if state.called_at is not None else state)
    if state.called_at is None:
        return Outcome(replace(state, called_at=now))
    revealed = dict(progress.reveals)
    missing = [n for n in progress.roster if n not in revealed and n not in progress.excused]
    if not missing or now - state.called_at < REVEAL_WAIT_S:
        return Outcome(state)
    keys = tuple(state.entrants[n] for n in missing)
    names = ", ".join(state.verdict.names[n] for n in missing)
    reason = f"no seating-seed reveal within {REVEAL_WAIT_S:.0f} s of the call"
    body = RevealLapse(state.event, progress.round, keys, reason)
    outcome = take(state, (signed(body, state.me.signer),), now)
    if outcome.intake is None or outcome.intake.decision is not Decision.ACCEPT:
        return Outcome(state)  # the record would not take it (a reveal came meanwhile)
    said = Note(f"round {progress.round + 1} is seated without {names}: {reason}")
    return outcome.plus(said).then(advance(outcome.state, now))
