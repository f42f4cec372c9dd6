"""A tournament round's fourwinds tables, opened, joined and scored by the seats' daemons.

Once a round has started (its signed seating held), each entrant's daemon reads its own
table from the record (protocol/tournament/round_tables.py) and, on a tick, does what is
due, so a restart, a lost frame or a late record only delays it:

* East's daemon opens the table under the id the event gives it, unlisted, admitting only
  the three keys the seating put there, each at the place of its wind (frames_in.py asks
  ``seats_at``); the winds are the seating's (``fixed_winds``), never the dice's.
* Each other seat's daemon joins it at East's daemon, at the address the director told it
  (``EventPeers``, sent with each round start) or the one it heard East at; a refused or
  unanswered join is tried again a few seconds later.
* Each seat's daemon says "ready" for its player once the four are seated (the round is
  called for everyone at once), and when the match is over signs the table's final scores
  as its result, sent to the director again until the record holds it.

A bot seat (``--fill bots``) is played by the director's daemon under the director's key:
for each table of the round with one it is one more seat here (``tables_played``), opening
the table when the bot seat is East and joining it otherwise, and it acts for the seat on the
daemon's fast tick with the rule set's built-in bot (the session module's ``suggest``, the
view's default when that is refused): no game logic here. At the match's end it signs the
bot seat's result from the scores its own seat holds. A table where one key would sit twice
(the director seated beside a bot seat) is entered by hand (round_tables.py).

Nothing here decides what a record means: the result goes through the director's gathering
of four signatures and every daemon's check.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from fourwinds.daemon.events.clock import EventClock
from fourwinds.daemon.events.runtime import RESULT_RESEND_S, TableDuty
from fourwinds.daemon.local_api.host import ApiHost
from fourwinds.daemon.local_api.opening import drop_table, join_at, open_at
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers import reach
from fourwinds.daemon.peers.reach import Source
from fourwinds.daemon.peers.wire import EventPeers
from fourwinds.daemon.table_runtimes.runtime import TableRuntime
from fourwinds.daemon.table_runtimes.session_port import final_scores, ready_due
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.tournament.round_tables import (
    RoundTable,
    seated_keys,
    table_for,
    tables_played,
)

if TYPE_CHECKING:
    from fourwinds.daemon.events.host import EventsHost
    from fourwinds.daemon.events.runtime import EventRuntime

log = logging.getLogger(__name__)

JOIN_RETRY_S = 0.25  # a join that failed (East not up yet) is tried again after this
TICK_EVERY_S = 0.1  # how often the tables of the round are looked after (and at once
# when a round's start is taken: ``round_started``)
BOT_RETRY_S = 0.5  # a bot seat whose actions were all refused tries again after this


class EventTables:
    """The round tables of every event this daemon holds. No I/O until ``tick``."""

    def __init__(self, d: EventsHost, api: ApiHost) -> None:
        self.d = d
        self.api = api  # the local API's table requests: open, join and drop a table
        # (event id, table) -> our duty there: our player's table, and the director's daemon
        # each table of the round with a bot seat
        self.duties: dict[tuple[bytes, int], TableDuty] = {}
        self._last_tick = 0.0
        self.clock = EventClock(d, self.duties)  # a timed round's time call (events/clock.py)
        # event id -> entrant key -> the address the director told us (kept whether or not
        # we hold the round's start yet: the hint may come first, and is not sent twice)
        self.told_at: dict[bytes, dict[bytes, tuple[str, int]]] = {}

    # -- what the record says ------------------------------------------------------------

    def plans(self, rt: EventRuntime) -> tuple[RoundTable, ...]:
        """Our tables of ``rt``'s round under way played by daemons, whose results are not
        held yet (nothing left to do at the others)."""
        held = {at for at, _ in rt.verdict.scores}
        return tuple(
            plan
            for plan in tables_played(rt.verdict, rt.event, self.d.identity.public_key)
            if plan.playable and (plan.round, plan.table) not in held
        )

    def own_duty(self, rt: EventRuntime) -> TableDuty | None:
        """Our player's duty at its table of ``rt``'s round (not a bot seat's)."""
        for (event, _), duty in self.duties.items():
            if event == rt.event and not duty.plan.bot_seat:
                return duty
        return None

    def _duties(self, rt: EventRuntime) -> list[TableDuty]:
        plans = {plan.table: plan for plan in self.plans(rt)}
        event = rt.event
        for at in [at for at in self.duties if at[0] == event and at[1] not in plans]:
            del self.duties[at]
        duties = []
        for table, plan in plans.items():
            duty = self.duties.get((event, table))
            if duty is None or duty.plan != plan:
                if duty is not None and duty.plan.table_id != plan.table_id:
                    self._left_behind(duty.plan.table_id)
                duty = self.duties[(event, table)] = TableDuty(plan)
            held = self.d.tables.get(plan.table_id)
            if plan.bot_seat and held is not None and not held.bot_seat:
                held.bot_seat = True  # opened before its metadata said so: say it now
                self.d.meta_writes.save_soon(held)
            duties.append(duty)
        return duties

    def _left_behind(self, table_id: bytes) -> None:
        """A table that goes on under another id (a substitute took a seat: round_tables.py)
        is left, its folder kept as ``left-<id>``: its hands stand in its transcript, the
        scores after them are carried in the substitute's record."""
        table = self.d.tables.get(table_id)
        if table is not None:
            log.info("event table %s: left, it goes on with a substitute", table.name)
            drop_table(self.api, table)

    def seats_at(self, table_id: bytes) -> dict[bytes, int] | None:
        """Who may sit at ``table_id`` and where, when it is a table of an event we hold
        (None for any other table): the director's key at a bot seat's place."""
        for rt in self.d.events.events.values():
            for plan in tables_played(rt.verdict, rt.event, self.d.identity.public_key):
                if plan.table_id == table_id:
                    return plan.places()
        return None

    def counted(self, rt: EventRuntime) -> bool:
        """Whether the result of our table of the round under way counts (is held)."""
        plan = table_for(rt.verdict, rt.event, self.d.identity.public_key)
        return plan is not None and any(
            at == (plan.round, plan.table) for at, _ in rt.verdict.scores
        )

    def playing_at(self, rt: EventRuntime) -> str | None:
        """The table our player should be at now (its id), for a frontend that takes the
        player there (the web page): our table of the round under way while its match is
        on; None before it is open, once it is over, and when there is none."""
        duty = self.own_duty(rt)
        if duty is None or duty.plan.table_id not in self.d.tables:
            return None
        return duty.plan.table_id.hex() if self.describe(rt) == "playing" else None

    def opening(self, rt: EventRuntime) -> bool:
        """Whether our player's table of the round under way is still being opened or
        joined (a seed made ahead waits for it: the tables come first)."""
        duty = self.own_duty(rt)
        if duty is None:
            return False
        table = self.d.tables.get(duty.plan.table_id)
        return not duty.had_table and (table is None or table.session is None)

    def round_started(self, rt: EventRuntime) -> None:
        """A round's start was just taken: open or join our table now, not at the next
        tick (the time from `start` to every table dealt is what players wait)."""
        self._tick_event(rt, time.monotonic())

    def describe(self, rt: EventRuntime) -> str:
        """Where our table stands, for ``tournament status`` ("" when there is none)."""
        duty = self.own_duty(rt)
        if duty is None:
            return "over: its result counts" if self.counted(rt) else ""
        table = self.d.tables.get(duty.plan.table_id)
        if table is None:
            return duty.join_problem or "opening the table"
        penalty = rt.create.scoring.rules_figure
        return (
            "playing"
            if final_scores(self.d.port, table.session, penalty) is None
            else "over: our result is signed"
        )

    # -- the director's hints ------------------------------------------------------------

    def tell_peers(self, rt: EventRuntime, around: bytes | None = None) -> None:
        """As the director: tell each seated entrant (or those at ``around``'s table only)
        where the others of its table were last heard (a seat that entered by the
        director's address knows nobody else).

        ``around`` is an entrant just heard from (a restarted director learns where each
        entrant is only as its Hello arrives): its table's others are told too, so a seat
        that said hello before its East did still learns where East is."""
        verdict = rt.verdict
        if not verdict.rounds:
            return
        heard = self.d.frames.addresses
        me = self.d.identity.public_key
        seating = verdict.rounds[-1]
        for table in range(len(seating.tables)):  # a substitute in the seat it took
            keys = [k for k in seated_keys(verdict, seating, table) if k is not None]
            if around is not None and around not in keys:
                continue
            for key in keys:
                if key == me:
                    continue
                # the others as we heard them (ourselves: the entrant reached us already)
                members = tuple(
                    (other, *heard[other])
                    for other in keys
                    if other not in (key, me) and other in heard
                )
                if members:
                    self.d.transport.send(key, EventPeers(rt.event, members))

    def told(self, rt: EventRuntime, frame: EventPeers, via: str) -> None:
        """The director's hints of where our table's seats are: kept for the event's
        entrants only (at most one address each), an address being kept only as a member's
        told one would be (reach.usable).

        Kept even when we do not hold the round's start yet: a restarted director sends its
        hints as each entrant says hello, which may be before our catching up brings the
        round's seating, and it does not send them again."""
        entrants = set(rt.entrants())
        told = self.told_at.setdefault(rt.event, {})
        for key, host, port in frame.members:
            if (
                key in entrants
                and key != self.d.identity.public_key
                and reach.usable(host, port, Source.TOLD, via)
            ):
                told[key] = (host, port)
                self.d.transport.dial(key, [(host, port)])

    # -- the tick -------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """Do what is due at each event's table (called by the daemon's ticker): a bot
        seat's move at every tick, the rest every TICK_EVERY_S."""
        try:
            self._bot_moves(now)
        except Exception:  # a bug here must not stop the ticker (the tables' timers)
            log.exception("the bot seats' moves failed")
        if now - self._last_tick < TICK_EVERY_S:
            return
        self._last_tick = now
        self.clock.tick(now)
        self.d.events.each(lambda rt: self._tick_event(rt, now), "its table's duties")

    def _tick_event(self, rt: EventRuntime, now: float) -> None:
        self._leave_earlier_rounds(rt)
        for duty in self._duties(rt):
            table = self.d.tables.get(duty.plan.table_id)
            if table is None:
                if not duty.had_table:
                    self._open_or_join(rt, duty, now)
                continue
            duty.had_table = True
            if table.session is not None:
                self._at_table(rt, duty, table, now)

    def _leave_earlier_rounds(self, rt: EventRuntime) -> None:
        """Our finished tables of rounds before the one under way, whose results count,
        are left (their folders kept as ``left-<id>``): a player's daemon sits at one table
        of the event at a time, the current round's, which `fourwinds play` returns to."""
        verdict, me = rt.verdict, self.d.identity.public_key
        held = {at for at, _ in verdict.scores}
        for seating in verdict.rounds[:-1]:
            for plan in tables_played(verdict, rt.event, me, seating.round):
                if (plan.round, plan.table) not in held:
                    continue
                table = self.d.tables.get(plan.table_id)
                if (
                    table is not None
                    and table.session is not None
                    and final_scores(self.d.port, table.session, 0) is not None
                ):
                    log.info("event table %s: left, its result counts", table.name)
                    drop_table(self.api, table)

    def _open_or_join(self, rt: EventRuntime, duty: TableDuty, now: float) -> None:
        plan = duty.plan
        if plan.place == 0:
            self._open(duty)
            return
        if duty.joining or now < duty.next_join:
            return
        host = plan.host
        address = self.told_at.get(rt.event, {}).get(host) or self.d.frames.addresses.get(host)
        if address is None or not address[1]:
            duty.join_problem = "waiting to hear where East's daemon is"
            return
        duty.joining = True
        self.d.in_background(self._join(duty, host, address), "event-table-join")

    def _open(self, duty: TableDuty) -> None:
        plan = duty.plan
        try:
            open_at(
                self.api,
                plan.table_id,
                plan.name,
                plan.rules,
                dict(plan.options),
                listed=False,
                bot_seat=plan.bot_seat,
            )
        except (ApiError, FourwindsError) as error:
            duty.join_problem = f"cannot open the table: {error}"
            log.warning("event table %s: %s", plan.name, duty.join_problem)
            return
        log.info("event table %s: opened as East", plan.name)
        for key in plan.places():
            if key != self.d.identity.public_key:
                self.d.whereabouts.dial_member(key)

    async def _join(self, duty: TableDuty, host: bytes, address: tuple[str, int]) -> None:
        plan = duty.plan
        try:
            await join_at(
                self.api,
                plan.table_id,
                plan.name,
                plan.rules,
                host,
                address,
                None,
                bot_seat=plan.bot_seat,
            )
            duty.join_problem = ""
            log.info(
                "event table %s: joined as %s%s",
                plan.name,
                "ESWN"[plan.place],
                " (a bot seat)" if plan.bot_seat else "",
            )
        except (ApiError, FourwindsError) as error:
            duty.join_problem = f"joining: {error}"
            duty.next_join = time.monotonic() + JOIN_RETRY_S
        finally:
            duty.joining = False

    def _at_table(self, rt: EventRuntime, duty: TableDuty, table: TableRuntime, now: float) -> None:
        port = self.d.port
        if ready_due(port, table.session) and not duty.ready_sent:
            duty.ready_sent = True
            self.d.in_background(self._ready(duty, table), "event-table-ready")
            return
        scores = final_scores(port, table.session, rt.create.scoring.rules_figure)
        if scores is None or now - duty.result_sent < RESULT_RESEND_S:
            return
        first = duty.result_sent < 0
        duty.result_sent = now
        try:
            if duty.plan.bot_seat:
                self.d.events.bot_result(rt, duty.plan.table, scores)
            else:
                self.d.events.result(rt, duty.plan.table, scores)
            if first:
                log.info(
                    "event table %s: over; our seat signed %s as its result",
                    duty.plan.name,
                    ", ".join(map(str, scores)),
                )
        except ApiError as error:
            log.warning("event table %s: our result is not taken: %s", duty.plan.name, error)

    async def _ready(self, duty: TableDuty, table: TableRuntime) -> None:
        try:
            await self.d.steps.act(table, {"action": "ready"}, time.monotonic())
        except FourwindsError as error:
            log.info("event table %s: not ready yet: %s", duty.plan.name, error)
            duty.ready_sent = False

    # -- bot seats (the director's daemon) -------------------------------------------------

    def _bot_moves(self, now: float) -> None:
        """At each table where we play a bot seat and the table waits for it, its next
        action is carried out (one at a time a table)."""
        awaits = self.d.port.awaits_us
        for duty in self.duties.values():
            if not duty.plan.bot_seat or duty.acting or awaits is None or now < duty.next_move:
                continue
            table = self.d.tables.get(duty.plan.table_id)
            if table is None or table.session is None or not awaits(table.session):
                continue
            if ready_due(self.d.port, table.session):
                continue  # "ready" is the slower tick's, as for every seat
            duty.acting = True
            self.d.in_background(self._bot_move(duty, table), "event-table-bot")

    async def _bot_move(self, duty: TableDuty, table: TableRuntime) -> None:
        """The built-in bot's choice (the session module's ``suggest``), or the view's
        default action when there is none or it is refused; a refusal of both waits for
        the next tick (the turn timer's default stands behind it)."""
        try:
            for action in self._bot_choices(table):
                try:
                    await self.d.steps.act(table, action, time.monotonic())
                    return
                except FourwindsError as error:
                    log.info(
                        "event table %s: the bot seat's action %s refused: %s",
                        duty.plan.name,
                        action.get("action"),
                        error,
                    )
            duty.next_move = time.monotonic() + BOT_RETRY_S
        finally:
            duty.acting = False

    def _bot_choices(self, table: TableRuntime) -> list[dict[str, object]]:
        suggest = self.d.port.suggest
        choices: list[dict[str, object]] = []
        found = suggest(table.session) if suggest is not None else None
        if isinstance(found, dict) and isinstance(found.get("action"), dict):
            entry = found["action"]
            choices.append(
                {
                    "action": entry.get("id"),
                    "tiles": list(found.get("tiles") or ()),
                    "expected": entry,
                }
            )
        view = self.d.port.seat_view(table.session)
        for entry in view.get("legal_actions") or ():
            if isinstance(entry, dict) and entry.get("default"):
                tiles = list(entry.get("tiles") or ())[: int(entry.get("choose") or 0)]
                choices.append({"action": entry.get("id"), "tiles": tiles, "expected": entry})
                break
        return choices
