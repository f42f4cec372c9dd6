"""The round clock of a timed event at real daemons on loopback (daemon/events/clock.py):
the director's daemon signs the round's time call when its minutes run out, each seat's
daemon tells its table, the hand in progress is the last, and the result is signed and
counted as any other."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.events import clock as event_clock
from fourwinds.daemon.events import meta as events_meta
from fourwinds.daemon.events.clock import EventClock
from fourwinds.daemon.events.held import Events
from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.protocol.american.tournament_hand import american_table_points, tournament_hand
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.machine.steps import UNFINISHED
from fourwinds.protocol.tournament import round_clock as round_clock_rules
from fourwinds.protocol.tournament.export import check_export
from fourwinds.protocol.tournament.signing import table_id
from tests.daemon.helpers import wait_for
from tests.daemon.test_event_tables import _bot, _play_round, _table_of
from tests.daemon.test_events import all_hold, open_event, run
from tests.daemon.test_shell import call

pytestmark = pytest.mark.slow


def test_time_is_called_and_the_hand_in_progress_is_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(round_clock_rules, "MINUTE_S", 1.5)  # the round's minute: 1.5 s
    told: dict[bytes, tuple[Phase, int]] = {}  # table -> (phase, hands) when told
    tell = EventClock._tell

    def noting(self: EventClock, table: bytes, now: float, stop: bool = False) -> None:
        held = self.d.tables.get(table)
        if held is not None and held.session is not None and not held.session.time_up:
            told.setdefault(
                self.d.identity.public_key + table, (held.session.phase, held.session.hands_played)
            )
        tell(self, table, now, stop)

    monkeypatch.setattr(EventClock, "_tell", noting)

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(director, players, rules="mcr", rounds=1, minutes=1)
        ev = bytes.fromhex(event)
        await _play_round(director, players, event, 0)
        assert await all_hold(director, players, event)
        verdict = director.events.events[ev].verdict
        assert verdict.ok and verdict.time_called == {0}
        sessions = [d.tables[table_id(ev, 0, 0)].session for d in players]
        played = {s.hands_played for s in sessions}
        assert len(played) == 1 and all(s.time_called for s in sessions)
        (hands,) = played
        assert 1 <= hands < sessions[0].match_hands  # the whole match is 16 hands
        # the first seat told decides: the hand it was in is the last; a seat told while
        # the table waited for "next" after its own HandEnd lets one more be played
        first = min(h + (phase is Phase.HAND_END) for phase, h in told.values())
        assert hands in (first + 1, first + 2), (told, hands)
        assert len({s.step_hash for s in sessions}) == 1
        status: dict[str, Any] = await call(players[0], type="tournament_status", name="club")
        clock = status["clock"]
        assert clock["time_called"] and clock["minutes"] == 1 and clock["seconds_left"] is None
        assert status["clock_history"] == [{"kind": "time_call", "round": 1}]
        exported = check_export(
            (await call(players[1], type="tournament_export", name="club"))["data"]
        )
        assert exported.ok and len(exported.scores) == 1 and exported.standings

    run(tmp_path, 5, body)


def test_an_extended_table_plays_on_until_the_director_ends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extra minutes for the table keep it playing past the round's time call; ending it by
    force (with a reason) calls its time at once: the hand in progress is its last, and its
    result is signed and counted as any other. Status shows both."""
    monkeypatch.setattr(round_clock_rules, "MINUTE_S", 1.0)

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(director, players, rules="mcr", rounds=1, minutes=1)
        ev = bytes.fromhex(event)
        await call(director, type="tournament_start", name="club", wait=10)
        with pytest.raises(ApiError, match="a table no round start seated"):
            await call(
                director,
                type="tournament_extend",
                name="club",
                table=2,
                minutes=5,
                reason="no such table",
            )
        await call(
            director,
            type="tournament_extend",
            name="club",
            table=1,
            minutes=30,
            reason="started late",
        )
        assert await wait_for(lambda: all(_table_of(d, event) for d in players), 20)
        tables = [d.tables[table_id(ev, 0, 0)] for d in players]
        stop = asyncio.Event()
        bots = [asyncio.create_task(_bot(d, table_id(ev, 0, 0).hex(), stop)) for d in players]
        try:
            assert await wait_for(lambda: 0 in director.events.events[ev].verdict.time_called, 20)
            # sleep-ok: a clock: the extension must run a while without time up
            await asyncio.sleep(1.0)
            assert not any(t.session.time_up for t in tables)  # its extension runs
            await call(
                director,
                type="tournament_end_table",
                name="club",
                table=1,
                reason="the venue closes",
            )
            await asyncio.wait_for(asyncio.gather(*bots), 60)
        finally:
            stop.set()
        rt = director.events.events[ev]
        assert await wait_for(lambda: len(rt.verdict.scores) == 1, 20)
        assert all(t.session.time_called for t in tables)
        assert rt.verdict.ok and rt.verdict.ended == (((0, 0), "the venue closes"),)
        assert await all_hold(director, players, event)
        status = await call(players[2], type="tournament_status", name="club")
        assert status["clock"]["my_extension"] == 30
        assert status["clock"]["my_table_ended"] == "the venue closes"
        assert [h["kind"] for h in status["clock_history"]] == [
            "extension",
            "time_call",
            "end_table",
        ]

    run(tmp_path, 5, body)


def test_american_unfinished_at_the_call_scores_zero(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An American event created with ``unfinished_zero``: the time call stops the hand in
    progress at once, 0 for everyone, and the table's signed result counts it so."""
    monkeypatch.setattr(round_clock_rules, "MINUTE_S", 1.0)

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(
            director,
            players,
            rules="american",
            rounds=1,
            minutes=1,
            deck="practice",
            unfinished_zero=True,
        )
        ev = bytes.fromhex(event)
        await _play_round(director, players, event, 0)
        assert await all_hold(director, players, event)
        sessions = [d.tables[table_id(ev, 0, 0)].session for d in players]
        for s in sessions:
            assert s.time_called and s.outcomes[-1][1].summary == UNFINISHED
            assert s.outcomes[-1][1].payments == (0, 0, 0, 0)
        assert len({s.step_hash for s in sessions}) == 1
        held = dict(director.events.events[ev].verdict.scores)
        assert held[(0, 0)] == american_table_points(
            [
                tournament_hand(f, o[2])
                for f, o in zip(sessions[0].finals, sessions[0].outcomes, strict=True)
            ]
        )

    run(tmp_path, 5, body)


def test_a_restarted_director_goes_on_counting_the_rounds_minutes(tmp_path: Path) -> None:
    """The director's daemon keeps when it first held the round's start (wall clock) beside
    the event's record: read back after a restart, the round's clock counts from then, not
    from the restart (which made the round longer by the time the machine was down); a
    clock set back counts none of the time between."""

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(director, players, rules="mcr", rounds=1, minutes=30)
        await call(director, type="tournament_start", name="club", wait=10)
        ev = bytes.fromhex(event)
        assert await wait_for(
            lambda: (
                director.events.events[ev].clock_wall is not None
                and not director.events.events[ev].meta_due
            ),
            5,
        )
        first = director.events.events[ev].clock_wall
        assert first is not None and first[0] == 0
        again = Events(director, director.events.store.root)  # as a restarted daemon
        again.load()
        rt = again.events[ev]
        assert rt.clock_wall == first and rt.clock is None
        clock = event_clock.round_clock(rt, 1000.0, wall=first[1] + 600.0)  # 10 min later
        assert clock is not None and clock.started == pytest.approx(400.0)
        view = event_clock.clock_view(rt, players[0].identity.public_key, 1000.0)
        assert view is not None and view["seconds_left"] == 20 * 60
        rt.clock = None
        clock = event_clock.round_clock(rt, 1000.0, wall=first[1] - 50.0)  # set back
        assert clock is not None and clock.started == 1000.0

    run(tmp_path, 5, body)


def test_a_restarted_daemon_counts_a_tables_extension_from_the_time_call_not_the_restart() -> None:
    """When the round's time was called before the restart, the call's wall-clock time is in
    the metadata too: an extended table's minutes count from the call, so a restart does not
    give the table its extension again (nor does a clock set back take time away)."""
    verdict = SimpleNamespace(rounds=(SimpleNamespace(round=0),), time_called=frozenset())
    rt = cast(
        EventRuntime, SimpleNamespace(verdict=verdict, clock=None, clock_wall=None, meta_due=False)
    )
    clock = event_clock.round_clock(rt, 100.0, wall=5000.0)
    kept: object = rt.clock_wall
    assert clock is not None and kept == (0, 5000.0, None) and rt.meta_due
    verdict.time_called = frozenset({0})
    clock = event_clock.round_clock(rt, 1900.0, wall=6800.0)  # time called
    assert clock is not None and clock.called == 1900.0
    kept = rt.clock_wall
    assert kept == (0, 5000.0, 6800.0)
    restarted = cast(
        EventRuntime,
        SimpleNamespace(verdict=verdict, clock=None, clock_wall=rt.clock_wall, meta_due=False),
    )
    clock = event_clock.round_clock(restarted, 50.0, wall=7100.0)  # 5 minutes later
    assert clock is not None and clock.started == pytest.approx(50.0 - 2100.0)
    assert clock.called == pytest.approx(50.0 - 300.0) and not restarted.meta_due
    restarted.clock = None
    clock = event_clock.round_clock(restarted, 50.0, wall=4000.0)  # a clock set back
    assert clock is not None and clock.started == 50.0 and clock.called == 50.0


def test_metadata_of_a_daemon_that_kept_only_the_rounds_start_still_reads() -> None:
    assert events_meta._clock_wall([2, 5000.0]) == (2, 5000.0, None)
    assert events_meta._clock_wall([2, 5000.0, 6800.0]) == (2, 5000.0, 6800.0)
    for bad in ([2], [2, "x"], [-1, 5.0], [2, 5.0, float("nan")], "2,5", [2, 5.0, 6.0, 7.0]):
        assert events_meta._clock_wall(bad) is None
