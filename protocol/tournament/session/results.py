"""A table's result, signed by its four seats and gathered by the director.

Each seat's daemon signs the final scores its seat holds (``sign_result``) and submits them;
the director keeps each proposed result with the signatures given so far and takes it once
the four seats signed the same scores (``collect``). A bot seat is the director's to sign:
its daemon signs what the seat it played holds (``sign_bot_result``), and signs beside any
proposal, since the players' seats signing the same scores is what makes a result, a table
entered by hand too (a physical set). Only the tables of the round being played, and at
most MAX_PROPOSALS different results a table (a seat cannot grow the director's memory).
"""

from __future__ import annotations

from dataclasses import replace

from ..intake import Decision
from ..next_steps import table_result
from ..record_wire import signed_bytes
from ..records import Record, TableResult
from ..signing import signature, signed_by
from .inputs import Scores
from .outcome import EventRefused, Outcome
from .state import EventState, Proposal
from .steps import Submit
from .taking import take

MAX_PROPOSALS = 4


def collect(state: EventState, key: bytes, record: Record, now: float) -> tuple[Outcome, str]:
    """``key``'s signature(s) of a table's result, for us to gather as the director: the
    outcome, and "" when kept (else why not, the state unchanged)."""
    body = record.body
    if not isinstance(body, TableResult):
        return Outcome(state), "that is no table's result"
    ours = key == state.director == state.me.key
    own = [n for n, p in enumerate(body.players) if p == key or (p is None and ours)]
    if not own:
        return Outcome(state), "you do not sit at that table"
    sigs = record.signatures
    given = [n for n in own if n < len(sigs) and sigs[n] is not None]
    if not given or not all(signed_by(body, sigs[n], key) for n in given):
        return Outcome(state), "your signature of the result does not check"
    try:
        expected = table_result(state.verdict, state.event, body.table, body.scores)
    except ValueError as error:
        return Outcome(state), str(error)
    if expected != body:
        return Outcome(state), "that is not a table of the round being played"
    where = (body.round, body.table)
    if any(t == where for t, _ in state.verdict.scores):
        return Outcome(
            state
        ), f"round {body.round + 1}, table {body.table + 1} has its result already"
    proposals = dict(state.signing.get(where, {}))
    wire = signed_bytes(body)
    if wire not in proposals:
        if len(proposals) >= MAX_PROPOSALS:
            return Outcome(state), "too many different results for that table"
        bots = tuple(signature(body, state.me.signer) if p is None else None for p in body.players)
        proposals[wire] = Proposal(body, bots)
    merged = list(proposals[wire].signatures)
    for n in given:
        merged[n] = sigs[n]
    proposals[wire] = Proposal(body, tuple(merged))
    signing = {**state.signing, where: proposals}
    state = replace(state, signing=signing)
    if any(s is None for s in merged):
        return Outcome(state), ""
    outcome = take(state, (Record(body, tuple(merged)),), now)
    if outcome.intake is not None and outcome.intake.decision is Decision.ACCEPT:
        rest = {k: v for k, v in outcome.state.signing.items() if k != where}
        outcome = replace(outcome, state=replace(outcome.state, signing=rest))
    return outcome, ""


def sign_result(state: EventState, table: int, scores: Scores, now: float) -> Outcome:
    """Our player signs the final scores of their table of the round; the director takes
    the result once its four seats signed the same scores."""
    body = _result(state, table, scores)
    me = state.me.key
    if me not in body.players:
        raise EventRefused(f"you do not sit at table {table + 1} of round {body.round + 1}")
    sigs = tuple(
        signature(body, state.me.signer) if n == body.players.index(me) else None
        for n in range(len(body.players))
    )
    record = Record(body, sigs)
    if not state.directs:
        return Outcome(state, (Submit(state.director, record),), result=body)
    outcome, problem = collect(state, me, record, now)
    if problem:
        raise EventRefused(problem)
    return replace(outcome, result=body)


def sign_bot_result(state: EventState, table: int, scores: Scores, now: float) -> Outcome:
    """As the director whose daemon played ``table``'s bot seat(s): sign the final scores
    our seat holds for each bot seat, taken once the players' seats signed the same."""
    body = _result(state, table, scores)
    if not state.directs or None not in body.players:
        raise EventRefused(f"no bot seat of ours at table {table + 1}")
    sig = signature(body, state.me.signer)
    record = Record(body, tuple(sig if p is None else None for p in body.players))
    outcome, problem = collect(state, state.me.key, record, now)
    if problem:
        raise EventRefused(problem)
    return replace(outcome, result=body)


def _result(state: EventState, table: int, scores: Scores) -> TableResult:
    try:
        return table_result(state.verdict, state.event, table, scores)
    except ValueError as error:
        raise EventRefused(str(error)) from None
