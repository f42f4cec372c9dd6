"""A tournament round's tables played at real daemons on loopback (daemon/events/tables.py):
each seat's daemon opens or joins its table under the event's id, with the seating's winds,
says ready, and signs the final scores as the table's result once the match is over; every
daemon then computes the same standings from the record, equal to the export's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.app import Daemon
from fourwinds.daemon.events.tables import EventTables
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers.wire import EventPeers
from fourwinds.frontends.cli.commands.play import stored_tables_at
from fourwinds.protocol.american.tournament_hand import american_table_points, tournament_hand
from fourwinds.protocol.tournament.export import check_export
from fourwinds.protocol.tournament.round_tables import RoundTable, table_for, tables_played
from fourwinds.protocol.tournament.signing import table_id
from testkit.bots import choose
from tests.daemon.helpers import wait_for
from tests.daemon.test_events import all_hold, open_event, records_of, run
from tests.daemon.test_shell import call
from tests.daemon.test_shell import join as join_table

pytestmark = pytest.mark.slow


async def _bot(d: Daemon, table: str, stop: asyncio.Event) -> None:
    """One seat's bot over the local API: the default (or first) legal action, until the
    match is over."""
    while not stop.is_set():
        answer = await call(d, type="view", table=table)
        event: dict[str, Any] = answer["event"]
        if event["view"].get("session", {}).get("phase") == "over":
            return
        action = choose(event)
        if action is None or action.get("action") == "ready":
            # sleep-ok: bot loop pace (ready is our daemon's to say at event tables)
            await asyncio.sleep(0.02)
            continue
        try:
            await call(d, type="act", table=table, **action)
        except ApiError:
            # sleep-ok: bot loop pace (the table moved on meanwhile)
            await asyncio.sleep(0.02)


def _table_of(d: Daemon, event: str, round_index: int = 0) -> str | None:
    """The hex id of ``d``'s table in round ``round_index``, once its daemon holds that
    round's start and sits at the table with a session."""
    rt = d.events.events.get(bytes.fromhex(event))
    if rt is None:
        return None
    plan = table_for(rt.verdict, rt.event, d.identity.public_key)
    if plan is None or plan.round != round_index:
        return None
    table = d.tables.get(plan.table_id)
    return plan.table_id.hex() if table is not None and table.session is not None else None


def _duty_text(d: Daemon, ev: bytes, table: str) -> str:
    duty = d.event_tables.own_duty(d.events.events[ev])
    session = d.tables[bytes.fromhex(table)].session
    if duty is None:
        return f"no duty, {session.phase}"
    return (
        f"round {duty.plan.round} place {duty.plan.place} joining {duty.joining} "
        f"sent {duty.result_sent:.1f} ready {duty.ready_sent} {duty.join_problem!r} "
        f"{session.phase} {session.scores}"
    )


async def _play_round(
    director: Daemon, players: list[Daemon], event: str, round_index: int
) -> list[str]:
    """Start the round, wait for every player's daemon to sit at its table, play the
    tables by bots; the tables' ids."""
    started = await call(director, type="tournament_start", name="club", wait=10)
    assert started["rounds_started"] == round_index + 1, started
    assert await wait_for(lambda: all(_table_of(d, event, round_index) for d in players), 20)
    tables = [_table_of(d, event, round_index) for d in players]
    stop = asyncio.Event()
    bots = [
        asyncio.create_task(_bot(d, t, stop))
        for d, t in zip(players, tables, strict=True)
        if t is not None
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*bots), 90)
    finally:
        stop.set()
    rt = director.events.events[bytes.fromhex(event)]
    assert await wait_for(
        lambda: (
            len([s for s in rt.verdict.scores if s[0][0] == round_index]) == (len(players) + 3) // 4
        ),
        20,
    ), "; ".join(_duty_text(d, rt.event, t) for d, t in zip(players, tables, strict=True) if t)
    return [t for t in tables if t is not None]


@pytest.mark.parametrize(
    ("rules", "deck"), [("mcr", "practice"), ("american", "practice"), ("mcr", "fair")]
)
def test_a_rounds_tables_are_opened_played_and_scored_by_the_seats_daemons(
    tmp_path: Path, rules: str, deck: str
) -> None:
    """(The fair-deck event is also one without flowers, `tournament create --no-flowers`:
    its table is opened with the option off and its hand dealt without a flower.)"""

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        rounds = 1 if deck == "fair" else 2  # one round also on the fair deck
        flowers = deck != "fair"
        event = await open_event(
            director,
            players,
            rules=rules,
            rounds=rounds,
            hands=1,
            deck=deck,
            **({} if flowers else {"flowers": False}),
        )
        first = await _play_round(director, players, event, 0)
        ev = bytes.fromhex(event)
        signed = [_counted(players[0], ev, 0, rules)]
        assert set(first) == {table_id(ev, 0, 0).hex()}  # the table the event names
        for d in players:
            rt = d.events.events[ev]
            plan = table_for(rt.verdict, ev, d.identity.public_key)
            assert plan is not None
            table = d.tables[plan.table_id]  # the seating's winds, not the dice's
            assert table.session.first_seating == (0, 1, 2, 3)
            assert table.session.me == plan.place
            if not flowers:
                assert dict(table.session.open.options.rules) == {"flowers": False}
                final = table.session.finals[0]
                assert not final.options.flowers and not any(s.flowers for s in final.seats)
        if rounds == 2:
            second = await _play_round(director, players, event, 1)
            assert set(second) == {table_id(ev, 1, 0).hex()}
        assert await wait_for(
            lambda: all(records_of(d, event) == records_of(director, event) for d in players), 10
        )
        standings = [
            (await call(d, type="tournament_standings", name="club"))["standings"] for d in ds
        ]
        assert all(s == standings[0] for s in standings)
        exported = await call(players[1], type="tournament_export", name="club")
        verdict = check_export(exported["data"])
        assert verdict.ok and len(verdict.scores) == rounds
        held = dict(director.events.events[ev].verdict.scores)
        assert held[(0, 0)] == signed[0]
        if rounds == 2:
            assert held[(1, 0)] == _counted(players[0], ev, 1, rules)
            # round 1's table, finished and counted, was left once round 2 started
            assert table_id(ev, 0, 0) not in players[0].tables
            assert table_id(ev, 1, 0) in players[0].tables

    run(tmp_path, 5, body)


def test_a_stranger_cannot_take_a_seat_at_an_event_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the keys the seating put at a table are admitted there, each at its wind: a
    stranger who asks East's daemon for a seat while three are still free is refused with
    the reason; the seated players then take their seats."""
    held_back = True
    join = EventTables._open_or_join

    def east_only(self: EventTables, rt: Any, duty: Any, now: float) -> None:
        if duty.plan.place == 0 or not held_back:
            join(self, rt, duty, now)

    monkeypatch.setattr(EventTables, "_open_or_join", east_only)

    async def body(ds: list[Daemon]) -> None:
        nonlocal held_back
        director, *players, stranger = ds
        event = await open_event(director, players, rounds=1, hands=1)
        await call(director, type="tournament_start", name="club", wait=10)
        assert await all_hold(director, players, event)
        ev = bytes.fromhex(event)
        host = next(d for d in players if _plan(d, ev).place == 0)
        assert await wait_for(lambda: _table_of(host, event) is not None, 20)
        with pytest.raises(ApiError, match="a tournament table and you are not seated"):
            await join_table(stranger, host, table_id(ev, 0, 0).hex())
        held_back = False
        assert await wait_for(lambda: all(_table_of(d, event) for d in players), 20)
        table = host.tables[table_id(ev, 0, 0)]
        assert table.places() == {d.identity.public_key: _plan(d, ev).place for d in players}

    run(tmp_path, 6, body)


def _counted(d: Daemon, ev: bytes, round_index: int, rules: str) -> tuple[int, ...]:
    """What ``d``'s table of the round counts: each seat's daemon signs its own table's
    scores by place (= wind): MCR the match score, American the hands' tournament points."""
    session = d.tables[table_id(ev, round_index, 0)].session
    if rules == "mcr":
        return tuple(session.scores)
    return american_table_points(
        [tournament_hand(f, o[2]) for f, o in zip(session.finals, session.outcomes, strict=True)]
    )


def _plan(d: Daemon, ev: bytes) -> RoundTable:
    plan = table_for(d.events.events[ev].verdict, ev, d.identity.public_key)
    assert plan is not None
    return plan


@pytest.mark.parametrize(("rules", "rounds"), [("mcr", 4), ("american", 1)])
def test_a_bot_seat_is_played_and_signed_by_the_directors_daemon(
    tmp_path: Path, rules: str, rounds: int
) -> None:
    """``--fill bots`` with three entrants: each round's one table has a bot seat, which the
    director's daemon takes under its own key (admitted at that wind only), plays with the
    built-in bot and signs from the scores its seat holds. Over four rounds the seating's
    winds put the bot seat at each wind once, so it opens the table as East and joins the
    others' tables (American: one round, its Charleston included). Every daemon ends with
    the same standings, equal to the export's."""

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(
            director, players, rules=rules, rounds=rounds, hands=1, fill="bots", turn_seconds=25
        )
        ev = bytes.fromhex(event)
        bot_places = []
        for r in range(rounds):
            await _play_round(director, players, event, r)
            rt = director.events.events[ev]
            (plan,) = [
                p
                for p in tables_played(rt.verdict, ev, director.identity.public_key)
                if p.round == r
            ]
            assert plan.bot_seat and plan.keys[plan.place] is None
            bot_places.append(plan.place)
            host = (
                director if plan.place == 0 else next(d for d in players if _plan(d, ev).place == 0)
            )
            table = host.tables[plan.table_id]
            assert table.places() == plan.places()  # the director's key at the bot's wind
            # opened with the director's turn time (`create --turn-seconds`, issue 38 defect 4)
            seen = await call(host, type="view", table=plan.table_id.hex())
            assert seen["event"]["view"]["windows"]["turn"] == 25.0
            assert table.places()[director.identity.public_key] == plan.place
            held = dict(rt.verdict.scores)
            assert held[(r, 0)] == _counted(director, ev, r, rules)
        assert rounds < 4 or sorted(bot_places) == [0, 1, 2, 3]
        # the director's daemon sits at the bot seat's table, marked so that `play` and the
        # web page do not take the director there; a player's table is not marked
        listed = (await call(director, type="tables"))["tables"]
        assert listed and all(t["bot_seat"] for t in listed)
        assert not any(t["bot_seat"] for t in (await call(players[0], type="tables"))["tables"])
        # the same list when no daemon runs: `play` reads the folder (issue 38 defect 13)
        await director.meta_writes.finish(10)
        assert stored_tables_at(director.store.root) == []
        assert [t.table for t in stored_tables_at(players[0].store.root)] == [
            t["table"] for t in (await call(players[0], type="tables"))["tables"]
        ]
        assert await all_hold(director, players, event)
        standings = [
            (await call(d, type="tournament_standings", name="club"))["standings"] for d in ds
        ]
        assert all(s == standings[0] for s in standings)
        verdict = check_export(
            (await call(players[0], type="tournament_export", name="club"))["data"]
        )
        assert verdict.ok and len(verdict.scores) == rounds
        assert len(standings[0]) == 3  # the bot has no row

    run(tmp_path, 4, body)


def test_a_restarted_director_tells_a_table_where_its_east_is_whichever_seat_says_hello_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A director killed as it started a round knows, once restarted, where each entrant is
    only as that entrant's Hello arrives. A seat that said hello before its East did was
    told nothing of East then (the director had not heard East yet), so East's own Hello
    must tell the table's other seats where East is: else they never join and the round
    never ends (a fresh-clone CI run's stall, found with the daemons' logs kept)."""

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(director, players, rounds=1, hands=1)
        await call(director, type="tournament_start", name="club", wait=10)
        rt = director.events.events[bytes.fromhex(event)]
        verdict = rt.verdict
        east, *others = [verdict.entrants[n] for n in verdict.rounds[-1].tables[0] if n is not None]
        heard = dict(director.frames.addresses)
        told: list[tuple[bytes, object]] = []
        monkeypatch.setattr(
            director.transport, "send", lambda key, frame: told.append((key, frame))
        )
        director.frames.addresses.clear()  # as after a restart: nobody heard yet
        for key in others:  # the other seats say hello first
            director.frames.addresses[key] = heard[key]
            director.events.on_hello(key)
        told_east = {
            key
            for key, frame in told
            if isinstance(frame, EventPeers) and east in {m[0] for m in frame.members}
        }
        assert told_east == set()  # nobody could be told of East yet
        director.frames.addresses[east] = heard[east]
        director.events.on_hello(east)  # East's Hello, last
        told_east = {
            key
            for key, frame in told
            if isinstance(frame, EventPeers) and east in {m[0] for m in frame.members}
        }
        assert told_east == set(others)

    run(tmp_path, 5, body)


def test_where_a_tables_seats_are_told_before_the_rounds_seating_arrives_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restarted director tells an entrant where its table's seats are as soon as the
    entrant says hello, which may be before the entrant's catching up brings the round's
    seating: the hint is kept for the event, not dropped for want of a table yet (it is not
    sent twice), and the seats join from it. Here the hints come before the round and the
    director's own hints at its start are lost."""

    async def body(ds: list[Daemon]) -> None:
        director, *players = ds
        event = await open_event(director, players, rounds=1, hands=1)
        ev = bytes.fromhex(event)
        members = tuple((d.identity.public_key, "127.0.0.1", d.transport.port) for d in players)
        for d in players:  # the hints, before any round is seated
            d.event_tables.told(d.events.events[ev], EventPeers(ev, members), "127.0.0.1")
        send = director.transport.send
        monkeypatch.setattr(
            director.transport,
            "send",
            lambda key, frame: None if isinstance(frame, EventPeers) else send(key, frame),
        )  # the start's own hints: lost
        await call(director, type="tournament_start", name="club", wait=10)
        assert await wait_for(lambda: all(_table_of(d, event) for d in players), 20)

    run(tmp_path, 5, body)
