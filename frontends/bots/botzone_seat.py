"""`fourwinds bot --botzone CMD`: a Botzone bot plays our seat, in the game the table's rule set
speaks (MCR's "Chinese-Standard-Mahjong": protocol/mcr/botzone/).

The table's rule set is asked for its Botzone game (protocol/table/rules/botzone.py), and a table
whose rules speak none is refused with one line. Every view event is read in order (the
game's story: what happened, as Botzone requests); the requests go to the program
(``botzone_proc``) as they come, and when the view asks our seat to act on one of them (the
game's question) the program's answer is judged against the view's legal actions and played.
A combined claim (``PENG X``, ``CHI M X``) is played as the claim, then, once the table gives
us the tile, the discard X. The seat acts by itself where a Botzone bot is never asked: laying
out flowers (the platform does it), saying ready and next, and the whole hand when it was
already under way at the start.

An answer that is garbage, illegal or late, a program that crashes, an action the daemon
refuses: each is counted in ``faults``, logged with the line the bot sent, and the seat's
default action (what a timeout would do: the view marks it) is played, so the match goes on.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol

from fourwinds.frontends.bots.botzone_proc import BotzoneProgram
from fourwinds.frontends.bots.exec_bot import default_action, default_request, needs_answer
from fourwinds.frontends.client.acting import act_request, decision_key
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.botzone import (
    BotzoneGame,
    Fault,
    Told,
    Verdict,
    botzone_game,
    botzone_refusal,
)

__all__ = ["BotzoneSeat", "ViewStream", "play_botzone"]

log = logging.getLogger(__name__)
Event = ViewEvent
END_PHASES = ("match_over", "over", "halted")
MARGIN = 0.5  # seconds kept from the view's deadline for the act to reach the daemon


class ViewStream(Protocol):
    """Every view event of our table, in order (``DaemonTable.events``), and the act
    request."""

    def events(self, timeout: float) -> list[ViewEvent]: ...

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]: ...


class BotzoneSeat:
    """Our seat's side of the adapter: the story of the hand, the program, the faults."""

    def __init__(self, program: BotzoneProgram) -> None:
        self.program = program
        self.rules = ""  # the table's rules, once a view named them
        self.game: BotzoneGame | None = None  # the game they speak
        self.story: Told | None = None  # the game's story (its own type)
        self.moment: Any = None  # the game's last moment (its own type)
        self.given = 0  # requests of the story given to the program
        self.answers: dict[int, str | None] = {}  # request index -> the bot's answer
        self.then: str | None = None  # our discard once our claim is taken
        self.ended = False  # the hand is over and the program stopped
        self.faults: Counter[Fault] = Counter()
        self.hands = 0  # hands the bot played (not sat out)

    # ------------------------------------------------------------------ following the hand

    def game_for(self, event: Event) -> BotzoneGame | None:
        """The game of the table's rules (the view names them); ``FourwindsError`` at a table
        whose rules speak no Botzone game."""
        rules = event["view"].get("rules")
        if rules and rules != self.rules:
            game = botzone_game(str(rules))
            if game is None:
                raise FourwindsError(botzone_refusal(str(rules)))
            self.rules, self.game = str(rules), game
        return self.game

    def follow(self, event: Event) -> None:
        """Read one view event: what it adds to the story is given to the program."""
        game = self.game_for(event)
        if game is None:
            return
        moment = game.read_moment(event)
        if moment is None:
            return
        self.moment = moment
        old = self.story
        story = game.tell(old, moment)
        if story is None:
            return
        if old is None or story.hand != old.hand:
            self._new_hand(story)
        self.story = story
        if story.over:
            if not story.sat_out and not self.ended:
                self._feed(len(story.requests))
                self.program.new_hand()  # the game is over: the program ends
                self.ended = True
            return
        asked = game.question(story, moment, event) if needs_answer(event) else None
        last = story.requests[-1] if story.requests else ""
        held = asked is not None or bool(last and game.may_ask(last, story.me))
        self._feed(len(story.requests) - (1 if held else 0))

    def _new_hand(self, story: Told) -> None:
        self.program.new_hand()
        self.given, self.answers, self.then, self.ended = 0, {}, None, False
        if story.sat_out:
            self.program.note(
                f"hand {story.hand}: under way when the seat started; the seat "
                "plays its default actions until the next hand"
            )
        else:
            self.hands += 1
            self.program.note(f"hand {story.hand}: seat {story.me}")

    def _feed(self, upto: int, timeout: float | None = None) -> None:
        """Give the program the story's requests up to ``upto`` (no answer wanted)."""
        story = self.story
        assert story is not None
        while self.given < upto:
            reply = self.program.ask(story.requests[self.given], decide=False, timeout=timeout)
            if reply.fault in (Fault.LATE, Fault.CRASH):
                self._fault(
                    reply.fault,
                    story.requests[self.given],
                    reply.printed,
                    reply.problem,
                    "nothing (no answer was wanted)",
                )
            self.given += 1

    # ------------------------------------------------------------------ acting

    def act_for(self, event: Event) -> dict[str, Any] | None:
        """The act request for a view that asks our seat to act (after ``follow``)."""
        story, moment, game = self.story, self.moment, self.game
        if (
            story is None
            or moment is None
            or game is None
            or story.sat_out
            or not needs_answer(event)
        ):
            return default_request(event)
        asked = game.question(story, moment, event)
        if asked is not None:
            return self._answer(game, asked, event, story)
        if story.discard_after_claim:
            return self._discard_after_claim(event)
        return default_request(event)

    def _answer(
        self, game: BotzoneGame, asked: Any, event: Event, story: Told
    ) -> dict[str, Any] | None:
        index = len(story.requests) - 1
        if index not in self.answers:
            self._feed(index)
            reply = self.program.ask(story.requests[index], decide=True, timeout=_time_left(event))
            self.given = index + 1
            self.answers[index] = reply.line
            if reply.fault is not None:
                return self._fault(
                    reply.fault, story.last, reply.printed, reply.problem, event=event
                )
        line = self.answers[index]
        if line is None:
            return default_request(event)
        verdict: Verdict = game.judge(line, asked, event, story)
        if verdict.action is None:
            return self._fault(
                verdict.fault or Fault.ILLEGAL, story.last, line, verdict.problem, event=event
            )
        self.then = verdict.then
        return act_request(event, verdict.action)

    def _discard_after_claim(self, event: Event) -> dict[str, Any] | None:
        tile, self.then = self.then, None
        if tile is None:  # no claim of the bot's (cannot happen: the defaults never claim)
            return default_request(event)
        action = next(
            (
                a
                for a in event.get("legal_actions") or ()
                if a.get("type") == "discard" and a.get("tiles") == [tile]
            ),
            None,
        )
        if action is None:
            story = self.story
            assert story is not None
            return self._fault(
                Fault.ILLEGAL,
                story.last,
                f"(discard {tile} after the claim)",
                "the discard named with the claim is not legal now",
                event=event,
            )
        return act_request(event, action)

    def refused(
        self, event: Event, request: Mapping[str, Any], reason: str
    ) -> dict[str, Any] | None:
        """The daemon refused our act: counted, and the default to send instead (None when
        the refused act was the default already)."""
        fallback = default_request(event)
        label = str((request.get("expected") or {}).get("label") or request.get("action"))
        self._fault(
            Fault.REFUSED, self.story.last if self.story else "", label, reason, event=event
        )
        if fallback is None or fallback.get("action") == request.get("action"):
            return None
        return fallback

    def _fault(
        self,
        fault: Fault,
        request: str,
        line: str,
        problem: str,
        taken: str | None = None,
        *,
        event: Event | None = None,
    ) -> dict[str, Any] | None:
        """Count and log a fault; the seat's default action for ``event``, if any."""
        self.faults[fault] += 1
        fallback = None if event is None else default_request(event)
        if taken is None:
            chosen = None if event is None else default_action(event)
            taken = "nothing" if chosen is None else str(chosen[0].get("label"))
        hand = self.story.hand if self.story else 0
        text = (
            f"hand {hand}: {fault.value}: the bot answered {line!r} to {request!r} "
            f"({problem}); the seat played: {taken}"
        )
        self.program.note(text)
        log.info("botzone bot %s", text)
        return fallback

    def close(self) -> None:
        summary = (
            ", ".join(
                f"{n} {f.value}"
                for f, n in sorted(self.faults.items(), key=lambda item: item[0].value)
            )
            or "none"
        )
        self.program.note(f"match over: {self.hands} hands played by the bot; faults: {summary}")
        if self.faults:
            log.warning("the Botzone bot's faults: %s (log: %s)", summary, self.program.log.name)
        self.program.close()


def _time_left(event: Event) -> float | None:
    deadline = event["view"].get("deadline")
    if isinstance(deadline, (int, float)) and not isinstance(deadline, bool) and deadline > 0:
        return max(0.2, float(deadline) - MARGIN)
    return None


def play_botzone(
    stream: ViewStream, seat: BotzoneSeat, *, poll: float = 0.2, give_up: float | None = None
) -> int:
    """Play until the match ends (0); ``give_up``: seconds after which to stop (1).
    ``FourwindsError`` at a table whose rules speak no Botzone game."""
    answered: set[object] = set()
    stop = None if give_up is None else time.monotonic() + give_up
    try:
        while stop is None or time.monotonic() < stop:
            for event in stream.events(poll):
                seat.follow(event)
                if event["view"].get("phase") in END_PHASES:
                    return 0
                if not needs_answer(event) or decision_key(event) in answered:
                    continue
                if _send(stream, seat, event, seat.act_for(event)):
                    answered.add(decision_key(event))
        return 1
    finally:
        seat.close()


def _send(
    stream: ViewStream, seat: BotzoneSeat, event: Event, request: dict[str, Any] | None
) -> bool:
    if request is None:
        return False
    answer = stream.act(request)
    if answer.get("ok"):
        return True
    fallback = seat.refused(event, request, str(answer.get("error") or "refused"))
    return fallback is not None and bool(stream.act(fallback).get("ok"))
