"""The event session's moves: each input type's move, by table (INPUT_MOVES), as the table's
PHASE_MOVES does for a hand.

``apply(state, input, now)`` is the one way in: it returns the ``Outcome`` (the next state
and the Steps to perform) or raises a typed error with the state unchanged. Who may send a
frame at all is admission.FRAME_SENDERS, asked before (``admit_frame``: ``FrameRefused``,
the daemon answers with a refusal naming why); a record a move refuses is answered by a
``Refuse`` step; a request of our own player or director that cannot be done raises
``EventRefused``. ``now`` is the daemon's monotonic clock, passed in: the session reads no
clock. A substitute's or a new director's signatures, gathered from several daemons, are
the daemon's faults part's (it offers the record once gathered: ``Gathered``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from fourwinds.protocol.codes import same_code

from ..intake import Decision
from ..next_steps import seed_step
from ..record_wire import encode_record
from ..records import Admit, Create, Entry, Record, RoundCall, SeedSteps, Withdraw, WithdrawnBy
from ..signing import signed
from .admission import SubmitRefused, Submitted, route_submitted
from .inputs import (
    CallIn,
    CallRound,
    DirectorSigns,
    EnterIn,
    Gathered,
    Input,
    PeerBack,
    RecordsIn,
    SignBotResult,
    SignResult,
    SubmitIn,
    Tick,
    WithdrawEntrant,
    WithdrawSelf,
)
from .lapses import lapse_due
from .outcome import EventRefused, Outcome
from .results import collect, sign_bot_result, sign_result
from .state import EventState
from .steps import (
    Admitted,
    Ask,
    Dial,
    GatherFault,
    Refuse,
    SendCall,
    Step,
    Submit,
    TellSeats,
    WrongCode,
)
from .taking import advance, take

SUBMIT_RESEND_S = 3.0  # our seed step goes to the director again until the record holds it


def records_in(state: EventState, given: RecordsIn, now: float) -> Outcome:
    """Records relayed from ``start`` on: those we lack taken in order up to the first
    refused; the sender asked for more while it gave us some, or skipped ahead (a gap)."""
    held = len(state.held)
    fresh = given.records[held - given.start :] if given.start <= held else ()
    outcome = take(state, fresh, now) if fresh else Outcome(state)
    grown = len(outcome.state.held) > held
    if given.records and (grown or given.start > held):
        outcome = outcome.plus(Ask(given.sender, len(outcome.state.held)))
    return outcome


def submit_in(state: EventState, given: SubmitIn, now: float) -> Outcome:
    """A record an entrant submits to us: routed by admission.SUBMIT_ROUTES."""
    body = given.record.body
    if isinstance(body, Create) or body.event != state.event:
        return Outcome(state, (Refuse(given.sender, "a record of another event"),))
    try:
        route = route_submitted(body, given.sender, state.directs)
    except SubmitRefused as error:
        return Outcome(state, (Refuse(given.sender, str(error)),))
    if route is Submitted.FAULTS:
        return Outcome(state, (GatherFault(given.sender, given.record),))
    if route is Submitted.SIGNATURE:
        outcome, problem = collect(state, given.sender, given.record, now)
        return outcome.plus(Refuse(given.sender, problem[:200])) if problem else outcome
    return take(state, (given.record,), now)


def enter_in(state: EventState, given: EnterIn, now: float) -> Outcome:
    """An entry, at an event we direct that takes entries (a private one's code checked:
    the director then signs the admission)."""
    key = given.sender
    body = given.entry.body
    if not (state.directs and state.entries_open):
        return Outcome(state, (Refuse(key, "that event takes no entries here"),))
    if not isinstance(body, Entry) or body.player != key:
        return Outcome(state, (Refuse(key, "an entry is the sender's own"),))
    if key in state.entrants:
        return Outcome(state)
    outcome = Outcome(state)
    if state.create.private:
        if state.code is None or not same_code(given.code, state.code):
            why = f"wrong code for event {state.create.name}"
            return Outcome(state, (WrongCode(key), Refuse(key, why)))
        outcome = take(state, (signed(Admit(state.event, key), state.me.signer),), now)
        if outcome.intake is None or outcome.intake.decision is not Decision.ACCEPT:
            return outcome
    entered = take(outcome.state, (given.entry,), now)
    steps = (*outcome.steps, *entered.steps)
    if entered.intake is not None and entered.intake.decision is Decision.ACCEPT:
        steps = (*steps, Admitted(key))
    return Outcome(entered.state, steps, entered.intake)


def call_in(state: EventState, given: CallIn, now: float) -> Outcome:
    """The director called a round (admission.FRAME_SENDERS: only it may): our seed step
    for it is due."""
    return advance(replace(state, called=given.round), now)


def peer_back(state: EventState, given: PeerBack, now: float) -> Outcome:
    """A member said hello: dial it back (a restarted director knows an entrant only by its
    hello), ask it for what we lack; as the director, call it again while a round is being
    seeded (it may have missed the call) and tell it where its table's others are."""
    key = given.sender
    if not state.member(key):
        return Outcome(state)
    steps: list[Step] = [Dial(key), Ask(key, len(state.held))]
    if state.directs:
        if state.called is not None:
            steps.append(SendCall(key, state.called))
        steps.append(TellSeats(around=key))
    return Outcome(state, tuple(steps))


def tick(state: EventState, given: Tick, now: float) -> Outcome:
    """Send our seed step to the director again while the record does not hold it (every
    SUBMIT_RESEND_S): a step is sent once as the record makes it due, and a frame lost on
    the way would otherwise stall the round's seed for everyone, since the record,
    unchanged, never makes it due again. A step held back may be due now. The director:
    a called round whose reveals do not all come is seated without them (lapses.py)."""
    state = replace(state, table_opening=given.table_opening)
    outcome = advance(state, now) if state.timing.held_back else Outcome(state)
    outcome = outcome.then(lapse_due(outcome.state, now))  # a round waiting on reveals
    state = outcome.state
    if not state.submitted or state.directs or now - state.submitted_at < SUBMIT_RESEND_S:
        return outcome
    state = replace(state, submitted_at=now)
    me = state.me
    step = seed_step(state.verdict, state.event, me.key, me.secret, state.called)
    record = signed(step, me.signer) if step is not None else None
    if record is None or encode_record(record) != state.submitted:
        return replace(outcome, state=state)
    return Outcome(state, (*outcome.steps, Submit(state.director, record)))


def call_round(state: EventState, given: CallRound, now: float) -> Outcome:
    """The director calls the next round: every entrant makes its seed; the round start
    follows by itself. A seed made ahead: the signed call closes the round's entries and
    results, the reveals follow."""
    name = state.create.name
    if not state.directs:
        raise EventRefused(f"only the director starts a round of {name}")
    r = state.rounds_started
    if r >= state.create.rounds:
        raise EventRefused(f"all {state.create.rounds} rounds of {name} have started")
    if len(state.entrants) - len(state.verdict.withdrawn) < 1:
        raise EventRefused(f"{name} has no entrants yet")
    state = replace(state, called=r, start_problem="")
    if state.create.seed_steps is not SeedSteps.AHEAD:
        calls = tuple(SendCall(key, r) for key in state.entrants if key != state.me.key)
        return Outcome(state, calls).then(advance(state, now))
    if any(isinstance(x.body, RoundCall) and x.body.round == r for x in state.held.records):
        return advance(state, now)
    outcome = take(state, (signed(RoundCall(state.event, r), state.me.signer),), now)
    if outcome.intake is None or outcome.intake.decision is not Decision.ACCEPT:
        problem = outcome.intake.problem if outcome.intake is not None else None
        why = problem.line() if problem is not None else "not stored"
        raise EventRefused(f"round {r + 1} of {name} cannot be called: {why}")
    return outcome


def withdraw_self(state: EventState, given: WithdrawSelf, now: float) -> Outcome:
    """Our player withdraws from the next round not yet begun."""
    if state.me.key not in state.entrants:
        raise EventRefused(f"you are not an entrant of {state.create.name}")
    body = Withdraw(state.event, state.me.key, WithdrawnBy.PLAYER, given.reason)
    return _own_record(state, signed(body, state.me.signer), now)


def withdraw_entrant(state: EventState, given: WithdrawEntrant, now: float) -> Outcome:
    """The director withdraws an entrant, with a reason."""
    if not state.directs:
        raise EventRefused("only the director withdraws another player")
    if not given.reason.strip():
        raise EventRefused("the director withdraws a player with a reason")
    body = Withdraw(state.event, given.player, WithdrawnBy.DIRECTOR, given.reason)
    return _own_record(state, signed(body, state.me.signer), now)


def _own_record(state: EventState, record: Record, now: float) -> Outcome:
    if not state.directs:
        return Outcome(state, (Submit(state.director, record),))
    outcome = take(state, (record,), now)
    if outcome.intake is None or outcome.intake.decision is not Decision.ACCEPT:
        raise EventRefused("the record refuses that withdrawal (already withdrawn?)")
    return outcome


def director_signs(state: EventState, given: DirectorSigns, now: float) -> Outcome:
    """A correction, a penalty or a record of the round clock, signed by us as the
    director, taken and spread."""
    if not state.directs:
        raise EventRefused(f"only the director of {state.create.name} signs that")
    outcome = take(state, (signed(given.body, state.me.signer),), now)
    intake = outcome.intake
    if intake is None or intake.decision is not Decision.ACCEPT:
        why = intake.problem.line() if intake is not None and intake.problem else "not stored"
        raise EventRefused(f"the record refuses it: {why}")
    return outcome


def gathered(state: EventState, given: Gathered, now: float) -> Outcome:
    """A record gathered elsewhere, offered; the outcome's intake says what became of it."""
    return take(state, (given.record,), now)


def result(state: EventState, given: SignResult, now: float) -> Outcome:
    return sign_result(state, given.table, given.scores, now)


def bot_result(state: EventState, given: SignBotResult, now: float) -> Outcome:
    return sign_bot_result(state, given.table, given.scores, now)


Move = Callable[[EventState, Any, float], Outcome]

INPUT_MOVES: Mapping[type, Move] = {
    RecordsIn: records_in,
    SubmitIn: submit_in,
    EnterIn: enter_in,
    CallIn: call_in,
    PeerBack: peer_back,
    Tick: tick,
    CallRound: call_round,
    SignResult: result,
    SignBotResult: bot_result,
    WithdrawSelf: withdraw_self,
    WithdrawEntrant: withdraw_entrant,
    DirectorSigns: director_signs,
    Gathered: gathered,
}


def apply(state: EventState, given: Input, now: float) -> Outcome:
    """The outcome of ``given`` at ``state`` (a typed error, the state unchanged, when it
    cannot be taken)."""
    return INPUT_MOVES[type(given)](state, given, now)
