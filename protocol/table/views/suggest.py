"""The built-in bot's choice for our seat, as one of the local API's legal actions.

``fourwinds bot --rules`` (and so the bot seats of ``fourwinds play --bots N``) asks the
daemon for it with the local-API request ``suggest``: the rule set's own bot (the one the
in-memory harness lets play, ``harness.bot_moves``) then decides for the seat instead of the
modest rules-agnostic view bot. It reads our seat's engine state, which holds only what our
seat may know (others' concealed tiles are ``Kind.HIDDEN`` there), so the suggestion is fair.

The engine action the bot picks is matched back to the entry of ``legal_actions`` that does
the same: the entry itself when the view offers exactly that action, else the entry whose
action is the same choice for the player (another copy of the same face, a blind pass whose
fall-back tiles the view picks itself). Pure: the bot's entropy comes from the ``seed``
passed in, the table step and our place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.rules.rules_adapter import RulesAdapter
from fourwinds.protocol.table.views.contract_view import offered_entries, resolve_action
from fourwinds.protocol.table.views.rule_view import code
from fourwinds.protocol.table.views.view_types import ActionEntry

__all__ = ["Suggestion", "bot_entropy", "match_action", "offered", "same_choice", "suggest"]


@dataclass(frozen=True)
class Suggestion:
    """One entry of the view's ``legal_actions`` (a copy) and the tiles to choose with it
    (empty unless the entry asks the player to ``choose``), for table step ``step``."""

    entry: ActionEntry
    tiles: tuple[str, ...]
    step: int

    def plain(self) -> dict[str, Any]:
        """The local API's form: ``{"action": ACTION, "tiles": [...], "step": n}``."""
        return {"action": _copy(self.entry), "tiles": list(self.tiles), "step": self.step}


def _copy(entry: ActionEntry) -> ActionEntry:
    """An entry of its own (the view cache's entries are shared: never handed out)."""
    return {**entry, "tiles": list(entry["tiles"])}


def bot_entropy(seed: bytes, place: Seat, step: int) -> bytes:
    """The bot's random bytes for one decision (the harness's formula: same seed, place and
    step, same choice)."""
    return hashlib.sha256(seed + bytes([place]) + step.to_bytes(8, "big")).digest()


def offered(session: TableSession) -> list[ActionEntry]:
    """The ``legal_actions`` entries of our seat's view now (shared with the view cache:
    do not change them)."""
    return offered_entries(session)


def suggest(
    session: TableSession, seed: bytes, level: BotLevel = BotLevel.NORMAL
) -> Suggestion | None:
    """The built-in bot's choice for our seat, or None when the table awaits nothing of us
    (or the bot's action matches none of the offered ones: the caller decides another way).

    In the lobby's ready step it is the ready action, at a hand's end "next" (a bot does
    not keep the table waiting); during a hand, the rules adapter's ``choose`` on our engine
    state, with ``bot_entropy(seed, our place, step)`` (never "more time"), by the bot of
    ``level``."""
    s = session
    entries = offered(s)
    if not entries or s.me is None:
        return None
    if s.phase in (Phase.READY, Phase.HAND_END):  # ready; "next" at once at a hand's end
        kind = "ready" if s.phase is Phase.READY else "next"
        found = next((e for e in entries if e.get("type") == kind), None)
        return None if found is None else Suggestion(_copy(found), (), s.step)
    hand = s.hand
    if s.phase is not Phase.PLAY or s.rules is None or hand is None or hand.seating is None:
        return None
    wind = wind_of(hand.seating, s.me)
    action = s.rules.choose(hand.engine, wind, bot_entropy(seed, s.me, s.step), level)
    return match_action(s, action)


def match_action(session: TableSession, action: object) -> Suggestion | None:
    """The offered entry (with chosen tiles) that takes ``action``: one that resolves to it
    exactly if any, else the first that is the same choice (``same_choice``), else None."""
    s = session
    engine = None if s.hand is None else s.hand.engine
    if engine is None or s.rules is None:
        return None
    rules = s.rules
    fallback: Suggestion | None = None
    for entry in offered(s):
        tiles = _chosen(engine, entry, action)
        if tiles is None:
            continue
        try:
            resolved = resolve_action(s, int(entry["id"]), tiles, entry)
        except IllegalAction:
            continue
        if resolved == action:
            return Suggestion(_copy(entry), tiles, s.step)
        if fallback is None and same_choice(rules, engine, resolved, action):
            fallback = Suggestion(_copy(entry), tiles, s.step)
    return fallback


def _chosen(engine: Any, entry: ActionEntry, action: object) -> tuple[str, ...] | None:
    """The tiles to choose with ``entry`` for ``action``: none unless the entry chooses;
    then the codes of the first ``choose`` own tiles the action names (None: too few)."""
    want = entry.get("choose")
    if want is None:
        return ()
    slots = getattr(action, "tiles", None)
    if not isinstance(slots, tuple) or len(slots) < int(want):
        return None
    return tuple(code(engine.faces[x]) for x in slots[: int(want)])


def same_choice(rules: RulesAdapter, engine: Any, a: object, b: object) -> bool:
    """Whether two engine actions are the same decision for the player: equal, or of one
    type and the same once the rule set reads each as its player's choice
    (``RulesAdapter.choice_faces``: own tiles as their faces, and what else it counts)."""
    if a == b:
        return True
    if type(a) is not type(b):
        return False
    mine = rules.choice_faces(engine, a)
    return mine is not None and mine == rules.choice_faces(engine, b)
