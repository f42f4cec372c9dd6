"""Real MCR hands in memory for the Botzone adapter's tests: our seat (place 0) sees the seat
views the daemon would send (``build_seat_view`` on its own table session) and acts through
``resolve_action``; the three other places are the built-in engine bots. No daemon, no
network: a whole hand takes a fraction of a second.

``skip`` drops each view that asks nothing of us with that chance, as the daemon's
coalescing of views may (one view then shows several steps); views that ask us to act are
always shown, as the daemon shows them at once, and so is the end of the match."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from fourwinds.protocol.errors import IllegalAction, LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.harness import Harness, bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.options import DeckKind, TableOptions
from fourwinds.protocol.table.session import local_action, tick

ME = Seat(0)
ROUNDS = 20_000   # harness moves within one ``events`` call, at most


class HarnessStream:
    """A ``botzone_seat.ViewStream`` over an in-memory table (see the module's doc)."""

    def __init__(self, seed: bytes, *, hands: int = 1, deck: DeckKind = DeckKind.PRACTICE,
                 auto_pass: bool = True, skip: float = 0.0, flowers: bool = True) -> None:
        self.h: Harness = open_harness("mcr", seed, options=TableOptions(
            hands=hands, deck=deck, auto_pass=auto_pass,
            rules=() if flowers else (("flowers", False),)))
        self.rng = random.Random(seed)
        self.skip = skip
        self.seq = 0
        self.shown: dict[str, Any] | None = None
        self.views: list[dict[str, Any]] = []      # every view event shown, in order
        self.acts: list[dict[str, Any]] = []       # every act request, with its answer

    def _event(self) -> dict[str, Any]:
        built = build_seat_view(self.h.sessions[ME], now=self.h.now)
        return {"type": "view", "table": "harness", "view": built["view"],
                "legal_actions": built["legal_actions"]}

    def events(self, timeout: float) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for _ in range(ROUNDS):
            event = self._event()
            if self.shown is None or (event["view"], event["legal_actions"]) != (
                    self.shown["view"], self.shown["legal_actions"]):
                self.shown = event
                asks = bool(event["legal_actions"]) or event["view"]["phase"] == "match_over"
                if asks or self.rng.random() >= self.skip:
                    self.seq += 1
                    shown = {**event, "seq": self.seq}
                    out.append(shown)
                    self.views.append(shown)
                if asks:
                    return out
            self._move()
        return out

    def _move(self) -> None:
        h = self.h
        if any(bot_moves(h, place) for place in SEATS[1:]):
            return
        if h.queue:
            deliver_one(h)
            return
        h.now += 1.0
        for place in SEATS:
            h.take(place, tick(h.sessions[place], h.now))

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        s = self.h.sessions[ME]
        try:
            action = resolve_action(s, int(request["action"]), list(request.get("tiles") or ()),
                                    request.get("expected"))
            self.h.take(ME, local_action(s, action, self.h.now))
        except (IllegalAction, LocalProtocolError) as error:
            answer = {"ok": False, "error": str(error)}
        else:
            answer = {"ok": True}
        self.acts.append({**request, "answer": answer})
        return answer
