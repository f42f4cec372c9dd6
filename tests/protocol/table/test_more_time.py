"""More time on a discard (THINKING, docs/PROTOCOL.md): once per discard a seat answering it
may double its call window; the other seats see it thinking and wait for it; a THINKING
repeated or sent outside a call window is refused with the reason and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine import lobby
from fourwinds.protocol.table.machine.acc import Acc
from fourwinds.protocol.table.machine.flow import outgoing, send
from fourwinds.protocol.table.machine.harness import Harness, bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.lobby import LOBBY
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.session import MoreTime, local_action, tick
from fourwinds.protocol.table.machine.state import Phase, Step
from fourwinds.protocol.table.machine.steps import advance
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.wire.messages import MsgKind, Thinking

from .hand_end_helpers import deliver_all

ME = Seat(0)
OPTIONS = TableOptions(
    deck=DeckKind.PRACTICE, hands=1, call_window=8, stall_after=30, auto_pass=False
)


def _actions(h: Harness, place: Seat = ME) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [
        dict(a) for a in build_seat_view(h.sessions[place])["legal_actions"]
    ]
    return actions


def _until(h: Harness, want: str) -> None:
    """Our seat plays its defaults (never more time), the others their bots, until our
    seat's view offers an action of type ``want`` and nothing is in flight."""
    for _ in range(100_000):
        actions = _actions(h)
        if any(a["type"] == want for a in actions):
            if not h.queue:
                return
            deliver_one(h)
            continue
        if actions:
            s = h.sessions[ME]
            pick = (
                next(a for a in actions if a.get("default"))
                if any(a.get("default") for a in actions)
                else actions[0]
            )
            h.take(ME, local_action(s, resolve_action(s, pick["id"]), h.now))
            continue
        if any(bot_moves(h, p) for p in SEATS[1:]):
            continue
        assert h.queue, "the table stopped"
        deliver_one(h)
    raise AssertionError(f"no {want} offered")


def _forge(h: Harness, place: Seat) -> None:
    """``place`` sends a THINKING whatever its own checks would say (a misbehaving seat)."""
    acc = Acc(h.now, lobby=LOBBY)
    s = advance(send(h.sessions[place], acc, Thinking()), acc)
    h.take(place, Step(s, tuple(outgoing(s, acc)), tuple(acc.persist)))


def _others_settled(h: Harness) -> None:
    """Deliver everything and let the other seats' bots answer (the clock stands still)."""
    while True:
        if any(bot_moves(h, p) for p in SEATS[1:]):
            continue
        if not h.queue:
            return
        deliver_one(h)


def test_more_time_doubles_our_call_window_once_and_the_others_see_us_thinking() -> None:
    h = open_harness("mcr", b"think", options=OPTIONS)
    _until(h, "more_time")
    actions = _actions(h)
    assert actions[-1]["type"] == "more_time" and actions[-1]["label"] == "More time"
    assert actions[-1]["default"] is False and actions[-1]["tiles"] == []
    assert sum(1 for a in actions if a.get("default")) == 1  # still "pass"
    s = h.sessions[ME]
    start, step = s.step_started, s.step
    assert isinstance(resolve_action(s, actions[-1]["id"]), MoreTime)
    h.take(ME, local_action(s, MoreTime(), h.now))
    _others_settled(h)
    s = h.sessions[ME]
    assert s.step == step and ME in s.thinking
    assert "more_time" not in [a["type"] for a in _actions(h)]
    assert build_seat_view(s, now=start + 3)["view"]["deadline"] == pytest.approx(13.0)
    with pytest.raises(LocalProtocolError, match="already had more time"):
        local_action(s, MoreTime(), h.now)
    assert s.hand is not None and s.hand.seating is not None
    wind = wind_of(s.hand.seating, ME)
    for place in SEATS[1:]:
        players = build_seat_view(h.sessions[place])["view"]["players"]
        assert [p["thinking"] for p in players] == [w == wind for w in SEATS]
        # their stall detection waits for the longer window: 16 s + 30 s
        assert tick(h.sessions[place], start + 45.0).problems == ()
        late = tick(h.sessions[place], start + 46.0).problems
        assert [(p.kind, p.seat) for p in late if isinstance(p, Problem)] == [
            (ProblemKind.STALLED, ME)
        ]
    # our own side answers by default only when the doubled window ends
    assert tick(s, start + 15.9).outgoing == ()
    answered = tick(s, start + 16.0)  # the others answered already: the step resolves
    assert answered.outgoing and answered.session.step > step
    assert answered.session.thinking == frozenset()  # a new step: nobody is thinking
    # THINKING is on our chain: a transcript with it verifies like any other
    verdict = check_transcript(export_transcript(h.sessions[1]), partial_ok=True)
    assert verdict.problems == () and any(
        env.kind is MsgKind.THINKING for env in verdict.session.chains[ME].accepted
    )


def test_a_repeated_or_untimely_thinking_is_refused_and_changes_nothing() -> None:
    h = open_harness("mcr", b"think-twice", options=OPTIONS)
    _until(h, "more_time")
    h.take(ME, local_action(h.sessions[ME], MoreTime(), h.now))
    _others_settled(h)
    before = [(s.step, s.step_hash, s.thinking) for s in h.sessions]
    _forge(h, ME)  # a second THINKING on the same discard
    deliver_all(h)
    assert [(s.step, s.step_hash, s.thinking) for s in h.sessions] == before
    for place in SEATS[1:]:
        refused = [p for p in h.problems[place] if p.seat == ME]
        assert [p.kind for p in refused] == [ProblemKind.OUT_OF_TURN]
        assert "already had more time on this discard" in refused[0].reason
    # out of a call window: on our own turn (a discard of ours is awaited)
    _until(h, "discard")
    s = h.sessions[ME]
    assert "more_time" not in [a["type"] for a in _actions(h)]
    with pytest.raises(LocalProtocolError, match="only for answering a discard"):
        local_action(s, MoreTime(), h.now)
    before = [(s.step, s.step_hash, s.thinking) for s in h.sessions]
    _forge(h, ME)
    deliver_all(h)
    assert [(s.step, s.step_hash, s.thinking) for s in h.sessions] == before
    for place in SEATS[1:]:
        refused = [p for p in h.problems[place] if p.seat == ME]
        assert len(refused) == 2 and "only for answering a discard" in refused[1].reason
    # the next discard we answer offers more time again
    _until(h, "more_time")
    assert h.sessions[ME].thinking == frozenset()


def test_no_more_time_at_a_table_that_plays_an_older_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat whose fourwinds predates THINKING (version 3) makes the table play version 3:
    nobody is offered more time, and a THINKING sent anyway is refused."""
    monkeypatch.setattr(lobby, "SUPPORTED_VERSIONS", (1, 3))  # every seat here: version 3
    h = open_harness("mcr", b"think-old", options=OPTIONS)
    deliver_all(h)
    monkeypatch.undo()
    assert all(s.version == 3 for s in h.sessions)
    _until(h, "pass")
    assert "more_time" not in [a["type"] for a in _actions(h)]
    with pytest.raises(LocalProtocolError, match="version 3"):
        local_action(h.sessions[ME], MoreTime(), h.now)
    _forge(h, ME)
    deliver_all(h)
    refused = [p for p in h.problems[1] if p.seat == ME]
    assert refused and "protocol version 3" in refused[0].reason
    assert all(s.phase is not Phase.HALTED for s in h.sessions)
