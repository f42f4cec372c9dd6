"""Which tables of a round a daemon plays, read from the record (round_tables.py): its
player's, and for the director each table with a bot seat, at that seat, under the
director's key; a table that would seat one key twice is left to be entered by hand."""

from __future__ import annotations

from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.round_tables import bot_tables, table_for, tables_played
from fourwinds.protocol.tournament.seating import FillPolicy
from testkit.tournament_event import EventMaker


def _started(labels: list[str]) -> EventMaker:
    maker = EventMaker(rounds=1, fill=FillPolicy.BOTS)
    for label in labels:
        maker.enter(label)
    maker.start_round()
    return maker


def test_the_director_plays_each_bot_seat_under_its_own_key_at_that_wind() -> None:
    maker = _started([f"player {i}" for i in range(7)])
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    director = maker.director.public
    (bot,) = bot_tables(verdict, maker.event)
    numbers = verdict.rounds[0].tables[bot.table]
    assert bot.place == numbers.index(None) and bot.bot_seat and bot.playable
    assert bot.seats[bot.place] == director and bot.places()[director] == bot.place
    east = numbers[0]
    assert bot.host == (director if east is None else verdict.entrants[east])
    assert tables_played(verdict, maker.event, director) == (bot,)
    for n in numbers:  # each player there reads the same table, its own place
        if n is not None:
            own = table_for(verdict, maker.event, verdict.entrants[n])
            assert own is not None and not own.bot_seat
            assert own.places() == bot.places() and own.table_id == bot.table_id
    other = next(n for t in verdict.rounds[0].tables if None not in t for n in t if n is not None)
    assert tables_played(verdict, maker.event, verdict.entrants[other])[0].table != bot.table


def test_a_table_seating_the_director_twice_is_not_played_by_daemons() -> None:
    """The director entered, and three entrants make one table with a bot seat: its key
    would sit at two places, which a table cannot seat, so it is entered by hand."""
    maker = _started(["director", "a", "b"])  # key("director") is the director's key
    verdict = check_event(maker.records)
    assert verdict.ok, [p.line() for p in verdict.problems]
    plays = tables_played(verdict, maker.event, maker.director.public)
    assert len(plays) == 1 and not plays[0].bot_seat and not plays[0].playable
    assert not bot_tables(verdict, maker.event)[0].playable
