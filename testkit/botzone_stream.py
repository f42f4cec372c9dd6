"""Real MCR hands in memory for the Botzone adapter's tests and ``scripts/bench
botzone_public``: our seat (place ``me``, 0 unless told) sees the seat views the daemon would
send (``build_seat_view`` on its own table session) and acts through ``resolve_action``; the
three other places are the built-in engine bots at ``level``. No daemon, no network: a whole
hand takes a fraction of a second. The same seed deals the same wall whichever place is ours,
so a bench can play one wall with our seat at each place in turn (duplicate play).

``skip`` drops each view that asks nothing of us with that chance, as the daemon's
coalescing of views may (one view then shows several steps); views that ask us to act are
always shown, as the daemon shows them at once, and so is the end of the match."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import IllegalAction, LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, bot_moves, one_round, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import local_action
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action

ME = Seat(0)
ROUNDS = 20_000  # harness moves within one ``events`` call, at most


@dataclass(frozen=True)
class HandScore:
    """A finished hand, by place: net points, the winner and the seat that dealt in."""

    points: tuple[int, int, int, int]
    winner: Seat | None
    discarder: Seat | None


class HarnessStream:
    """A ``botzone_seat.ViewStream`` over an in-memory table (see the module's doc)."""

    def __init__(
        self,
        seed: bytes,
        *,
        hands: int = 1,
        deck: DeckKind = DeckKind.PRACTICE,
        auto_pass: bool = True,
        skip: float = 0.0,
        flowers: bool = True,
        me: Seat = ME,
        level: BotLevel = BotLevel.NORMAL,
    ) -> None:
        self.h: Harness = open_harness(
            "mcr",
            seed,
            options=TableOptions(
                hands=hands,
                deck=deck,
                auto_pass=auto_pass,
                rules=() if flowers else (("flowers", False),),
            ),
        )
        self.rng = random.Random(seed)
        self.me, self.level = me, level
        self.skip = skip
        self.seq = 0
        self.shown: ViewEvent | None = None
        self.views: list[ViewEvent] = []  # every view event shown, in order
        self.acts: list[dict[str, Any]] = []  # every act request, with its answer

    def _event(self) -> ViewEvent:
        built = build_seat_view(self.h.sessions[self.me], now=self.h.now)
        return {
            "type": "view",
            "table": "harness",
            "view": built["view"],
            "legal_actions": built["legal_actions"],
        }

    def events(self, timeout: float) -> list[ViewEvent]:
        out: list[ViewEvent] = []
        for _ in range(ROUNDS):
            event = self._event()
            if self.shown is None or (event["view"], event["legal_actions"]) != (
                self.shown["view"],
                self.shown["legal_actions"],
            ):
                self.shown = event
                asks = bool(event["legal_actions"]) or event["view"]["phase"] == "match_over"
                if asks or self.rng.random() >= self.skip:
                    self.seq += 1
                    shown: ViewEvent = {**event, "seq": self.seq}
                    out.append(shown)
                    self.views.append(shown)
                if asks:
                    return out
            self._move()
        return out

    def _move(self) -> None:
        one_round(
            self.h,
            lambda h: any(bot_moves(h, place, self.level) for place in SEATS if place != self.me),
        )

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        s = self.h.sessions[self.me]
        try:
            action = resolve_action(
                s, int(request["action"]), list(request.get("tiles") or ()), request.get("expected")
            )
            self.h.take(self.me, local_action(s, action, self.h.now))
        except (IllegalAction, LocalProtocolError) as error:
            answer = {"ok": False, "error": str(error)}
        else:
            answer = {"ok": True}
        self.acts.append({**request, "answer": answer})
        return answer

    def scores(self) -> list[HandScore]:
        """Every hand finished so far, by place (from our session's outcomes and the
        hands' last engine states, which name the seat that discarded the winning tile)."""
        s = self.h.sessions[self.me]
        found = []
        for (_, outcome, seating), final in zip(s.outcomes, s.finals, strict=False):
            result = getattr(final, "result", None)
            by_wind = getattr(result, "discarder", None)
            points = [0, 0, 0, 0]
            for wind in SEATS:
                points[seating[wind]] = outcome.payments[wind]
            found.append(
                HandScore(
                    (points[0], points[1], points[2], points[3]),
                    None if outcome.winner is None else seating[outcome.winner],
                    None if by_wind is None else seating[by_wind],
                )
            )
        return found
