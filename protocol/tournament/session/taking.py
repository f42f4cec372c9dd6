"""Records offered to the held event, what their taking leads to, and our own next step.

A record is taken only when the checker accepts it after the records held (state.Held).
What taken records lead to is admission.TAKEN_LEADS: the director (or whoever took a new
director) spreads them, telling the seats where their tables are after a round start or a
substitute; a round start opens our table. Then this daemon takes its own next step as the
record makes it due (next_steps.py): an entrant its seed step, sent to the director (taken
at once when it directs the event too); the director the round start once every reveal is
in. The nonces come from the secret, never drawn, so a restarted daemon signs exactly what
it would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..intake import Decision, Intake
from ..next_steps import round_start, seed_step
from ..record_wire import encode_record
from ..records import Entry, Record
from ..seating import SeatingError
from ..signing import signed
from .admission import after_taken
from .outcome import Outcome
from .seed_timing import hold_back
from .state import EventState, with_held
from .steps import Announce, Entered, Note, OpenTables, Spread, Step, Store, Submit


def take(state: EventState, records: Sequence[Record], now: float) -> Outcome:
    """Offer ``records`` in order, up to the first not taken; the outcome's intake is the
    decision on the last one offered."""
    held = state.held
    before = len(held)
    intake = Intake(Decision.REFUSE)
    notes: list[Step] = []
    for record in records:
        intake, held = held.offer(record)
        if intake.decision is Decision.REFUSE and intake.problem is not None:
            notes.append(Note(f"refused a record: {intake.problem.line()}"))
        if intake.decision is not Decision.ACCEPT:
            break
    if len(held) == before:
        return Outcome(state, tuple(notes), intake)
    state = with_held(state, held)
    taken = held.records[before:]
    steps: list[Step] = [Store(taken), *notes]
    follows = after_taken((r.body for r in taken), state.me.key, state.director)
    if follows.spread:
        steps.append(Spread(before, follows.tell_seats))
        if not state.entries_open and state.directs:
            steps.append(Announce())  # the last round started: the announcement withdrawn
    if follows.open_tables:
        steps.append(OpenTables())
    if any(isinstance(r.body, Entry) and r.body.player == state.me.key for r in taken):
        steps.append(Entered())
    return Outcome(state, tuple(steps), intake).then(advance(state, now))


def advance(state: EventState, now: float) -> Outcome:
    """Our own next step, as the record makes it due."""
    me = state.me
    step = seed_step(state.verdict, state.event, me.key, me.secret, state.called)
    timing = hold_back(state, step, now) if step is not None else state.timing
    state = replace(state, timing=replace(timing, held_back=step is not None and timing.held_back))
    out = Outcome(state)
    if step is not None and not state.timing.held_back:
        record = signed(step, me.signer)
        if state.directs:
            return take(state, (record,), now)
        data = encode_record(record)
        if data != state.submitted:
            state = replace(state, submitted=data, submitted_at=now)
            out = Outcome(state, (Submit(state.director, record),))
    if not state.directs:
        return out
    try:
        start = round_start(state.verdict, state.event)
    except SeatingError as error:
        state = replace(state, start_problem=str(error))
        why = f"round {state.rounds_started + 1} cannot be seated: {error}"
        return Outcome(state, (*out.steps, Note(why)))
    if start is None:
        return out
    return out.then(take(state, (signed(start, me.signer),), now))
