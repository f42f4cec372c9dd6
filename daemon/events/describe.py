"""An event as the local API tells it (`tournament status`, the page's event view): read
from the checker's verdict of the held record and the session's state, nothing decided."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from fourwinds.daemon.events.clock import clock_record, clock_view
from fourwinds.daemon.events.runtime import EventRuntime
from fourwinds.daemon.local_api.server import ApiError
from fourwinds.protocol.table.rules.rules_label import rules_label
from fourwinds.protocol.tournament.points_text import points_text
from fourwinds.protocol.tournament.records import Correction, Penalty, SeedSteps, Substitute
from fourwinds.protocol.tournament.round_tables import table_for
from fourwinds.protocol.tournament.signing import table_id


def entrant_named(rt: EventRuntime, player: str) -> bytes:
    """The key of the one entrant called ``player`` (ApiError when none or several)."""
    found = [key for _, name, key in names_of(rt) if name == player]
    if len(found) != 1:
        raise ApiError(f"{len(found)} entrants are called {player!r}")
    return found[0]


def _name_of(rt: EventRuntime, key: bytes) -> str:
    """An entrant's name by its key ("?" for a key that is no entrant's)."""
    entrants = rt.verdict.entrants
    return rt.verdict.names[entrants.index(key)] if key in entrants else "?"


def names_of(rt: EventRuntime) -> Iterable[tuple[int, str, bytes]]:
    return (
        (n, name, key)
        for n, (name, key) in enumerate(zip(rt.verdict.names, rt.verdict.entrants, strict=True))
    )


def describe(rt: EventRuntime, me: bytes) -> dict[str, Any]:
    """An event as the local API tells it."""
    create = rt.create
    entrants = rt.entrants()
    return {
        "event": rt.event.hex(),
        "name": create.name,
        "rules": create.rules,
        "rounds": create.rounds,
        "length": create.length.value,
        "amount": create.amount,
        "private": create.private,
        "fill": create.fill.value,
        "deck": create.deck.value,
        "flowers": create.flowers,
        "turn_seconds": create.turn_seconds,
        "rules_label": rules_label(create.rules, create.flowers),
        "director": rt.director == me,
        "director_key": rt.director.hex(),
        "director_changes": [
            {"director": item.director.hex(), "at": item.at, "reason": item.reason}
            for item in rt.verdict.directors
        ],
        "substitutes": [_substitute(rt, item) for item in rt.verdict.substitutes],
        "lapses": [
            {
                "round": lapse.round + 1,
                "players": [_name_of(rt, key) for key in lapse.players],
                "reason": lapse.reason,
            }
            for lapse in rt.verdict.lapses
        ],
        "entrants": [
            {"number": n, "name": name, "me": key == me, "withdrawn": n in rt.verdict.withdrawn}
            for n, name, key in names_of(rt)
        ],
        "me": entrants.index(me) if me in entrants else None,
        "rounds_started": rt.rounds_started(),
        "entries_open": rt.entries_open(),
        "records": len(rt.held),
        "results": rt.verdict.results,
        "problems": [p.line() for p in rt.verdict.problems],
        "code": rt.code,
        "adjustments": [_adjustment(rt, item) for item in rt.verdict.adjustments],
        "round": _last_round(rt, me),
        "seeding": _seeding(rt),
        "clock": clock_view(rt, me, time.monotonic()),
        "clock_history": [clock_record(item) for item in rt.verdict.clock_records],
    }


WINDS = ("East", "South", "West", "North")


def _substitute(rt: EventRuntime, item: Substitute) -> dict[str, Any]:
    """A seat taken by a substitute, as `tournament status` shows it."""

    def named(key: bytes | None) -> str:
        if key is None:
            return "a bot"
        return rt.verdict.names[rt.entrants().index(key)] if key in rt.entrants() else "?"

    return {
        "round": item.round + 1,
        "table": item.table + 1,
        "seat": WINDS[item.seat],
        "leaving": named(item.leaving),
        "substitute": named(item.substitute),
        "hands": item.hands,
        "scores": list(item.scores),
        "reason": item.reason,
    }


def _adjustment(rt: EventRuntime, item: Correction | Penalty) -> dict[str, Any]:
    """A correction or penalty as the standings' history shows it."""
    if isinstance(item, Correction):
        return {
            "kind": "correction",
            "round": item.round + 1,
            "table": item.table + 1,
            "scores": list(item.scores),
            "reason": item.reason,
        }
    entrants = rt.entrants()
    name = rt.verdict.names[entrants.index(item.player)] if item.player in entrants else "?"
    return {
        "kind": "penalty",
        "round": item.round + 1,
        "player": name,
        "points": str(item.points),
        "points_text": points_text(item.points),
        "score": item.score,
        "reason": item.reason,
    }


def _last_round(rt: EventRuntime, me: bytes) -> dict[str, Any] | None:
    """The last round started: its tables by names (a bot seat as null), its byes, and
    where we sit."""
    if not rt.verdict.rounds:
        return None
    seating = rt.verdict.rounds[-1]
    names = rt.verdict.names
    entrants = rt.entrants()
    mine = entrants.index(me) if me in entrants else None
    out: dict[str, Any] = {
        "round": seating.round + 1,
        "tables": [[None if n is None else names[n] for n in table] for table in seating.tables],
        "byes": [names[n] for n in seating.byes],
        "my_table": None,
        "my_wind": None,
        "my_table_id": None,
        "with": [],
    }
    for t, table in enumerate(seating.tables):
        if mine is not None and mine in table:
            out["my_table"] = t + 1
            out["my_wind"] = WINDS[table.index(mine)]
            out["my_table_id"] = table_id(rt.event, seating.round, t).hex()
            out["with"] = [
                f"{names[n]} ({WINDS[w]})" if n is not None else f"a bot ({WINDS[w]})"
                for w, n in enumerate(table)
                if n != mine
            ]
    scores = dict(rt.verdict.scores)
    out["scores"] = [
        list(scores[(seating.round, t)]) if (seating.round, t) in scores else None
        for t in range(len(seating.tables))
    ]
    plan = table_for(rt.verdict, rt.event, me)
    if plan is None or plan.round != seating.round:  # our seat was taken by a substitute
        out["my_table"] = out["my_wind"] = out["my_table_id"] = None
        out["with"] = []
    else:  # the seating's, or the one we substitute at
        out["my_table"] = plan.table + 1
        out["my_wind"] = WINDS[plan.place]
        out["my_table_id"] = plan.table_id.hex()
        out["with"] = [
            f"{names[entrants.index(k)]} ({WINDS[w]})" if k in entrants else f"a bot ({WINDS[w]})"
            for w, k in enumerate(plan.keys)
            if w != plan.place
        ]
    # the director's: per table, the results being signed and which winds signed each
    out["signing"] = [
        {
            "table": t + 1,
            "scores": list(body.scores),
            "signed": [WINDS[n] for n, sig in enumerate(sigs) if sig is not None],
        }
        for (r, t), proposals in sorted(rt.signing.items())
        if r == seating.round
        for body, sigs in ((p.body, p.signatures) for p in proposals)
    ]
    return out


def _seeding(rt: EventRuntime) -> dict[str, Any] | None:
    """The next round's seed under way: how far, and whom it waits for."""
    progress = rt.verdict.seeding
    if progress is None:
        return None if rt.called is None else {"round": rt.called + 1, "waiting_for": []}
    names = rt.verdict.names
    steps = [
        ("commit", dict(progress.commits)),
        ("echo", dict(progress.echoes)),
        ("reveal", dict(progress.reveals)),
    ]
    ahead = rt.create.seed_steps is SeedSteps.AHEAD and not progress.called
    extra = {"ahead": True} if ahead else {}  # made ahead, the round not called yet
    if ahead:
        steps = steps[:2]  # made ahead: the reveals wait for the director's call
    for step, done in steps:
        waiting = [
            names[n]
            for n in progress.roster
            if n not in done and not (step == "reveal" and n in progress.excused)
        ]
        if waiting:
            return {"round": progress.round + 1, "step": step, "waiting_for": waiting, **extra}
    return {
        "round": progress.round + 1,
        "step": "call" if ahead else "start",
        "waiting_for": [],
        **extra,
    }
