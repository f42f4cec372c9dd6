"""Two faults of an event over daemons, each a record that needs several signatures gathered
here (docs/TOURNAMENT.md, "Faults"); what a record means is the checker's alone.

* **A substitute.** A seat's player whose machine is gone for good is replaced from the next
  hand. The director asks (``substitute``) the three seats left at that table: each seat's
  daemon fills in the hands its table finished and the scores after them, and signs, only
  when it cannot reach the leaving seat's daemon itself (``agree_to``), so a director cannot
  replace a player who is there. The director takes the record once the three signed the
  same hands and scores; every daemon then reads the table as going on as a new fourwinds
  table with the substitute in that seat (round_tables.py), opened and played by
  events/tables.py as any round table, a bot seat by the director's daemon.
* **A new director.** An entrant proposes a key (``propose``); each entrant's daemon signs
  the proposal it holds when its player agrees (``agree``) and sends its signature to every
  entrant; every daemon merges the signatures of one proposal, and whichever holds more
  than half of the entrants' first takes the record and spreads it. The record names its own
  place, so it holds only there: a proposal made before the record grew is dropped.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from fourwinds.daemon.local_api.server import ApiError
from fourwinds.daemon.peers.wire import EventSubmit, Refuse
from fourwinds.daemon.table_runtimes.session_port import scores_so_far
from fourwinds.protocol.tournament.intake import Decision
from fourwinds.protocol.tournament.record_wire import encode_record, signed_bytes
from fourwinds.protocol.tournament.records import NewDirector, Record, Substitute
from fourwinds.protocol.tournament.round_tables import seated_keys, substitute_at, tables_played
from fourwinds.protocol.tournament.session import EventRefused
from fourwinds.protocol.tournament.session.faults import (
    Answers,
    answer_slots,
    majority,
    proposal_refusal,
    request_refusal,
    slot,
    substitute_request,
    vote_refusal,
)
from fourwinds.protocol.tournament.signing import signature

if TYPE_CHECKING:
    from fourwinds.daemon.events.host import EventsHost
    from fourwinds.daemon.events.runtime import EventRuntime

log = logging.getLogger(__name__)

ASK_AGAIN_S = 2.0  # the director asks the seats again until the substitute is held
MAX_SAID = 1024  # refusals remembered so that each is logged once


@dataclass
class SubstituteAsk:
    """The director's request for a substitute at one table, the seats' answers so far
    (protocol/tournament/session/faults.py ``Answers``), and when it was last asked."""

    template: Substitute
    answers: Answers = field(default_factory=Answers)
    asked: float = 0.0


@dataclass
class Proposal:
    """A new director proposed: its body and the entrants' signatures so far (by number).
    An entrant's signature counts for one proposal at a time (its latest), so an entrant
    can neither make the daemon keep more than one proposal of its own nor crowd others
    out."""

    body: NewDirector
    sigs: dict[int, bytes] = field(default_factory=dict)


class EventFaults:
    """Substitutes and new directors being signed, for every event this daemon holds."""

    def __init__(self, d: EventsHost) -> None:
        self.d = d
        self.asks: dict[tuple[bytes, int, int], SubstituteAsk] = {}
        self.proposals: dict[bytes, dict[bytes, Proposal]] = {}  # event -> signed -> ...
        self._said: set[tuple[bytes, str]] = set()

    def _me(self) -> bytes:
        return self.d.identity.public_key

    # -- a substitute: the director ------------------------------------------------------

    def substitute(
        self, rt: EventRuntime, table: int, seat: int, reserve: bytes | None, reason: str
    ) -> Substitute:
        """As the director: ask the seats left at ``table`` of the round under way to sign
        a substitute for ``seat`` (``reserve`` an entrant's key, None a bot seat)."""
        if rt.director != self._me():
            raise ApiError(f"only the director of {rt.name} names a substitute")
        try:
            template = substitute_request(rt.verdict, rt.event, table, seat, reserve, reason)
        except EventRefused as error:
            raise ApiError(str(error)) from None
        seating = rt.verdict.rounds[-1]
        self.asks[(rt.event, seating.round, table)] = SubstituteAsk(template)
        self._ask(rt, self.asks[(rt.event, seating.round, table)], time.monotonic())
        return template

    def _ask(self, rt: EventRuntime, ask: SubstituteAsk, now: float) -> None:
        """Send the request to each seat left (and answer for those our daemon plays)."""
        ask.asked = now
        body = ask.template
        seating = rt.verdict.rounds[body.round]
        data = encode_record(Record(body, ()))
        for place, key in enumerate(seated_keys(rt.verdict, seating, body.table)):
            if place == body.seat:
                continue
            if key is None or key == self._me():
                self.agree_to(rt, self._me(), body)
            else:
                self.d.transport.send(key, EventSubmit(rt.event, data))

    def answered(self, rt: EventRuntime, key: bytes, record: Record) -> str:
        """A seat's signed answer to our request ("" when kept; else why not). Once the
        three seats signed the same hands and scores, we sign and take the record."""
        body = record.body
        assert isinstance(body, Substitute)
        ask = self.asks.get((rt.event, body.round, body.table))
        template = None if ask is None else ask.template
        given, problem = answer_slots(rt.verdict, template, key, self._me(), record)
        if problem or ask is None:
            return problem
        director_sig = signature(body, self.d.events.signer())
        ask.answers, sigs = ask.answers.kept(body, director_sig, given, record)
        if all(s is not None for s in sigs):
            intake = self.d.events.take(rt, Record(body, tuple(sigs)))
            if intake.decision is Decision.ACCEPT:
                log.info(
                    "event %s: round %d, table %d: %s takes seat %s (%s)",
                    rt.name,
                    body.round + 1,
                    body.table + 1,
                    "a bot" if body.substitute is None else "a reserve",
                    "ESWN"[body.seat],
                    body.reason,
                )
                self.asks.pop((rt.event, body.round, body.table), None)
            elif intake.problem is not None:
                self._once(
                    logging.WARNING,
                    rt,
                    self._me(),
                    "the substitute is refused: " + intake.problem.line(),
                )
        return ""

    # -- a substitute: a seat left -------------------------------------------------------

    def agree_to(self, rt: EventRuntime, key: bytes, template: Substitute) -> str:
        """The director's request for a substitute at our table: sign it with the hands our
        table finished and the scores after them, when we cannot reach the leaving seat's
        daemon ourselves ("" when signed and sent; else why not)."""
        verdict = rt.verdict
        reached = key != self._me() and self.d.alive(template.leaving)  # (ours: a bot seat's)
        problem = request_refusal(verdict, rt.director, key, self._me(), template, reached)
        if problem:
            return problem
        penalty = rt.create.scoring.rules_figure
        answered = False
        for plan in tables_played(verdict, rt.event, self._me(), template.round):
            if plan.table != template.table or plan.place == template.seat or not plan.playable:
                continue
            table = self.d.tables.get(plan.table_id)
            so_far = scores_so_far(self.d.port, None if table is None else table.session, penalty)
            if so_far is None:
                return "our table has not begun its first hand"
            body = replace(template, hands=so_far[0], scores=so_far[1])
            sigs: list[bytes | None] = [None] * 4
            sigs[slot(template.seat, plan.place)] = signature(body, self.d.events.signer())
            record = Record(body, tuple(sigs))
            if key == self._me():
                self.answered(rt, key, record)
            else:
                self.d.transport.send(key, EventSubmit(rt.event, encode_record(record)))
            self._once(
                logging.INFO,
                rt,
                key,
                f"our seat signs a substitute for seat "
                f"{'ESWN'[template.seat]} after {so_far[0]} hand(s)",
            )
            answered = True
        return "" if answered else "we do not sit at that table"

    # -- a new director ------------------------------------------------------------------

    def propose(self, rt: EventRuntime, director: bytes, reason: str) -> NewDirector:
        """Our player proposes ``director`` as the event's new director, and signs it."""
        problem = proposal_refusal(rt.verdict, self._me(), rt.director, director, reason)
        if problem:
            raise ApiError(problem)
        body = NewDirector(rt.event, len(rt.held), director, reason)
        self.agree(rt, body)
        return body

    def agree(self, rt: EventRuntime, body: NewDirector | None = None) -> NewDirector:
        """Our player signs the proposal we hold (the only one, or ``body``), and our
        signature goes to every entrant."""
        held = self._current(rt)
        if body is None:
            if len(held) != 1:
                raise ApiError(
                    "no proposal of a new director to agree to"
                    if not held
                    else f"{len(held)} proposals: name the director to agree to"
                )
            body = next(iter(held.values())).body
        me = self._me()
        sigs: list[bytes | None] = [None] * len(rt.entrants())
        sigs[rt.entrants().index(me)] = signature(body, self.d.events.signer())
        record = Record(body, tuple(sigs))
        self.merge(rt, me, record)
        data = encode_record(record)
        for key in rt.entrants():
            if key != me:
                self.d.transport.send(key, EventSubmit(rt.event, data))
        return body

    def proposals_of(self, rt: EventRuntime) -> list[Proposal]:
        """The proposals of a new director that still hold at the record's end."""
        return list(self._current(rt).values())

    def _current(self, rt: EventRuntime) -> dict[bytes, Proposal]:
        held = self.proposals.setdefault(rt.event, {})
        for wire in [w for w, p in held.items() if p.body.at != len(rt.held)]:
            del held[wire]  # the record grew: signed for another place
        return held

    def _keep(self, rt: EventRuntime, number: int, body: NewDirector) -> Proposal:
        """The proposal ``body``, entrant ``number``'s signature cleared from every other
        one first (a proposal no entrant signs any more is dropped)."""
        held = self._current(rt)
        wire = signed_bytes(body)
        for other, proposal in list(held.items()):
            if other != wire:
                proposal.sigs.pop(number, None)
                if not proposal.sigs:
                    del held[other]
        return held.setdefault(wire, Proposal(body))

    def merge(self, rt: EventRuntime, key: bytes, record: Record) -> str:
        """An entrant's signature of a proposal ("" when kept; else why not): kept with the
        others of the same proposal; taken once more than half of the entrants signed."""
        body = record.body
        problem = vote_refusal(rt.verdict, len(rt.held), key, record)
        if problem:
            return problem
        assert isinstance(body, NewDirector)
        number = rt.entrants().index(key)
        proposal = self._keep(rt, number, body)
        if number not in proposal.sigs and key != self._me():
            log.info(
                "event %s: %s signs %s as the new director (%s); "
                "`fourwinds tournament director %s --agree` to sign it too",
                rt.name,
                rt.verdict.names[number],
                body.director.hex()[:16],
                body.reason,
                rt.name,
            )
        sig = record.signatures[number]
        assert sig is not None
        proposal.sigs[number] = sig
        sigs = majority(rt.verdict, proposal.sigs)
        if sigs is not None:
            intake = self.d.events.take(rt, Record(body, sigs))
            if intake.decision is Decision.ACCEPT:
                log.info(
                    "event %s: %s directs it now, named by a majority",
                    rt.name,
                    body.director.hex()[:16],
                )
        return ""

    # -- the tick ------------------------------------------------------------------------

    def tick(self, now: float) -> None:
        """The director asks the seats again (a frame lost, a seat's daemon slow to see the
        leaving seat gone) until the substitute is held or the round has moved on."""
        for (event, r, t), ask in list(self.asks.items()):
            rt = self.d.events.events.get(event)
            if (
                rt is None
                or rt.director != self._me()
                or r != len(rt.verdict.rounds) - 1
                or substitute_at(rt.verdict, r, t) is not None
                or (r, t) in dict(rt.verdict.scores)
            ):
                del self.asks[(event, r, t)]
            elif now - ask.asked >= ASK_AGAIN_S:
                self._ask(rt, ask, now)

    def submitted(self, rt: EventRuntime, key: bytes, record: Record) -> None:
        """A substitute or new-director record from a peer: a request, an answer or a
        signature; a refusal goes back with the reason."""
        body = record.body
        if isinstance(body, NewDirector):
            problem = self.merge(rt, key, record)
        elif key == rt.director and not record.signatures:
            assert isinstance(body, Substitute)
            problem = self.agree_to(rt, key, body)
        elif rt.director == self._me():
            problem = self.answered(rt, key, record)
        else:
            problem = "a substitute goes to the director"
        if problem:
            self._once(
                logging.INFO,
                rt,
                key,
                f"{type(body).__name__} from {key.hex()[:8]} not taken: {problem}",
            )
            self.d.transport.send(key, Refuse(problem[:200]))

    def _once(self, level: int, rt: EventRuntime, key: bytes, text: str) -> None:
        """Log ``text`` the first time only (a request is asked again every ASK_AGAIN_S)."""
        if (key, text) in self._said:
            return
        if len(self._said) >= MAX_SAID:
            self._said.clear()
        self._said.add((key, text))
        log.log(level, "event %s: %s", rt.name, text)
