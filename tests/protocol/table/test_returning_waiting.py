"""A returning seat's fresh window (``returning.py``) and the view's ``waiting``
(``waiting.py``), issue 22 items 4 and 5, on real MCR sessions of the pure harness."""

from __future__ import annotations

from typing import Any

import pytest

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.session import local_action, seat_returned, tick
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import (
    Unreachable,
    build_seat_view,
    resolve_action,
)

ME = Seat(0)
OPTIONS = TableOptions(
    deck=DeckKind.PRACTICE, hands=1, call_window=8, stall_after=30, auto_pass=False
)


def _actions(s: TableSession) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [dict(a) for a in build_seat_view(s)["legal_actions"]]
    return actions


def _until_we_answer_a_discard(h: Harness) -> None:
    """Our seat plays its defaults, the others their bots, until our seat is asked about a
    discard (a "pass" offered) and nothing is in flight."""
    for _ in range(100_000):
        actions = _actions(h.sessions[ME])
        if any(a["type"] == "pass" for a in actions):
            if not h.queue:
                return
            deliver_one(h)
            continue
        if actions:
            s = h.sessions[ME]
            pick = next((a for a in actions if a.get("default")), actions[0])
            h.take(ME, local_action(s, resolve_action(s, pick["id"]), h.now))
            continue
        if any(bot_moves(h, p) for p in SEATS[1:]):
            continue
        assert h.queue, "the table stopped"
        deliver_one(h)
    raise AssertionError("never asked about a discard")


def test_a_return_restarts_our_window_once_per_step() -> None:
    h = open_harness("mcr", b"return", options=OPTIONS)
    _until_we_answer_a_discard(h)
    s = h.sessions[ME]
    start, step = s.step_started, s.step
    assert build_seat_view(s, now=start + 7)["view"]["deadline"] == pytest.approx(1.0)
    back = seat_returned(s, start + 7)  # 1 s left: we come back
    assert back.returned == (step, start + 7)
    assert build_seat_view(back, now=start + 7)["view"]["deadline"] == pytest.approx(8.0)
    assert tick(back, start + 14.9).outgoing == ()  # the old window would have ended at 8
    assert tick(back, start + 15.0).outgoing  # the fresh one ends 8 s after the return
    # once per step: a second return in the same step gives nothing more
    again = seat_returned(back, start + 12)
    assert again is back
    assert build_seat_view(again, now=start + 12)["view"]["deadline"] == pytest.approx(3.0)
    # our own stall report follows the fresh window too (none at 8 + 30 s after the start)
    assert not [
        p
        for p in tick(back, start + 38.5).problems
        if isinstance(p, Problem) and p.kind is ProblemKind.STALLED and p.seat == ME
    ]


def test_a_return_changes_nothing_when_no_window_of_ours_runs() -> None:
    h = open_harness("mcr", b"return-idle", options=OPTIONS)
    _until_we_answer_a_discard(h)
    s = h.sessions[ME]
    answered = local_action(
        s, resolve_action(s, next(a["id"] for a in _actions(s) if a["type"] == "pass")), h.now
    ).session
    if ME not in answered.awaiting or ME in answered.inputs:
        assert seat_returned(answered, h.now + 1) is answered
    resumed = TableSession.__new__(TableSession)
    resumed.__dict__.update({**s.__dict__, "step_started": -1.0})
    assert seat_returned(resumed, h.now) is resumed  # tick restarts a resumed timer anyway


def _waiting_for(
    place: int, seed: bytes, options: TableOptions = OPTIONS
) -> tuple[Harness, TableSession]:
    h = open_harness("mcr", seed, options=options)
    for _ in range(40_000):
        s = h.sessions[0]
        waiting = {int(p) for p in s.awaiting if p not in s.inputs}
        if s.phase is Phase.PLAY and place in waiting and 0 not in waiting:
            return h, s
        if not any(bot_moves(h, p) for p in SEATS):
            if h.queue:
                deliver_one(h)
            else:
                h.now += 1.0
    raise AssertionError(f"the table never waited for place {place}")


def test_waiting_names_an_unreachable_seat_instead_of_a_countdown() -> None:
    _, s = _waiting_for(2, b"waiting")
    assert s.hand is not None and s.hand.seating is not None
    wind = int(wind_of(s.hand.seating, Seat(2)))
    plain = build_seat_view(s, now=s.step_started + 1)["view"]
    assert plain["waiting"] is None
    name = plain["players"][wind]["name"]
    view = build_seat_view(s, now=s.step_started + 50, unreachable=[Unreachable(2, 42, "")])["view"]
    assert view["waiting"] == {
        "seats": [wind],
        "names": [name],
        "unreachable": True,
        "seconds": 42,
        "text": f"Waiting for {name} (unreachable for 42 s)",
    }
    later = build_seat_view(s, now=s.step_started + 51, unreachable=[Unreachable(2, 43, "")])[
        "view"
    ]
    assert later["waiting"] is not None
    assert later["waiting"]["text"].endswith("(unreachable for 43 s)")
    # an unreachable seat the table does not wait for: no waiting
    other = build_seat_view(s, now=s.step_started + 1, unreachable=[Unreachable(1, 9, "")])
    assert other["view"]["waiting"] is None


def test_waiting_after_a_reachable_seats_window_is_over() -> None:
    untimed = build_seat_view(_waiting_for(1, b"waiting-late")[1], now=1e6)["view"]
    if untimed["deadline"] is None:  # a turn with no timer: nothing counts down or waits
        assert untimed["waiting"] is None
    timed = TableOptions(deck=DeckKind.PRACTICE, hands=1, turn_window=5, auto_pass=False)
    _, s = _waiting_for(1, b"waiting-late", timed)
    view = build_seat_view(s, now=s.step_started + 0.5)["view"]
    deadline = view["deadline"]
    assert deadline is not None and view["waiting"] is None
    over = build_seat_view(s, now=s.step_started + deadline + 0.5 + 12)["view"]
    assert over["waiting"] is not None
    name = over["waiting"]["names"][0]
    assert over["waiting"]["unreachable"] is False
    assert over["waiting"]["text"] == f"Waiting for {name} ({over['waiting']['seconds']} s)"


def test_no_waiting_while_the_table_waits_for_us() -> None:
    h = open_harness("mcr", b"waiting-us", options=OPTIONS)
    _until_we_answer_a_discard(h)
    s = h.sessions[ME]
    away = [Unreachable(int(p), 20, "") for p in SEATS[1:]]
    view = build_seat_view(s, now=s.step_started + 100, unreachable=away)["view"]
    assert view["waiting"] is None and view["deadline"] == 0.0
