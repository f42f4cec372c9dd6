"""From what a user typed (`fourwinds discard 3m`, `fourwinds call kong`) to one legal action.

Pure: the scriptable CLI reads the seat's current view event, then picks among its
``legal_actions`` by action type, words of the label and tiles. Nothing here knows the rules;
when the words fit no legal action, or several, the error lists what is legal right now.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from fourwinds.frontends.bots.exec_bot import default_action
from fourwinds.frontends.client.acting import act_request, check_choice
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import format_tiles, parse_tiles
from fourwinds.protocol.table.views.view_types import ActionEntry

Event = ViewEvent
Action = ActionEntry


class NoSuchAction(FourwindsError):
    """What the user asked for is not (exactly one) legal action now; says what is."""


def normalize_tiles(words: Iterable[str]) -> list[str]:
    """Tile codes from user words in any accepted notation (``123m``, glyphs, ``J``)."""
    kinds = [kind for word in words for kind in parse_tiles(word)]
    return [format_tiles([kind]) for kind in kinds]


def describe_legal(event: Event) -> str:
    """The legal actions in one line, for error messages."""
    legal = list(event.get("legal_actions") or ())
    if not legal:
        return "nothing is legal for you right now"
    labels = [f"{a.get('id')}: {a.get('label') or a.get('type')}" for a in legal]
    return "legal now: " + "; ".join(labels)


def pick_action(
    event: Event,
    types: Sequence[str],
    *,
    words: Sequence[str] = (),
    tiles: Sequence[str] = (),
    what: str,
) -> tuple[Action, list[str]]:
    """The one legal action of one of ``types`` matching ``words`` (in its label) and ``tiles``.

    For an action that chooses tiles, ``tiles`` are the chosen ones (checked here); otherwise
    they must all be among the action's tiles. Returns the action and the chosen tiles.
    """
    legal: list[Action] = [a for a in event.get("legal_actions") or () if a.get("type") in types]
    if not legal:
        raise NoSuchAction(f"you cannot {what} now ({describe_legal(event)})")
    wanted = [w.lower() for w in words]
    matches = [a for a in legal if all(w in str(a.get("label", "")).lower() for w in wanted)]
    if tiles:
        matches = [a for a in matches if "choose" in a or _has_tiles(a, tiles)]
    if not matches:
        asked = " ".join([*words, *tiles])
        raise NoSuchAction(f"no legal way to {what} {asked!s} ({describe_legal(event)})".strip())
    if len(matches) > 1 and tiles:
        exact = [a for a in matches if Counter(a.get("tiles") or ()) == Counter(tiles)]
        sized = [a for a in matches if int(a.get("choose", -1)) == len(tiles)]
        matches = exact or sized or matches  # (e.g. a courtesy pass of 1, 2 or 3 tiles)
    if len(matches) > 1:
        options = "; ".join(str(a.get("label") or a.get("type")) for a in matches)
        raise NoSuchAction(f"several ways to {what}: {options}; say which (e.g. a word of it)")
    action = matches[0]
    chosen = list(tiles) if "choose" in action else []
    if "choose" in action:
        problem = check_choice(action, chosen)
        if problem:
            raise NoSuchAction(problem)
    return action, chosen


def _has_tiles(action: Action, tiles: Sequence[str]) -> bool:
    have = Counter(str(t) for t in action.get("tiles") or ())
    return all(have[code] >= count for code, count in Counter(tiles).items())


def pick_by_id_or_label(
    event: Event, choice: str, tiles: Sequence[str]
) -> tuple[Action, list[str]]:
    """`fourwinds act ID|LABEL|default`: any legal action by its id or words of its label;
    ``default`` is the seat's default action (what a timeout would do)."""
    legal: list[Action] = list(event.get("legal_actions") or ())
    if choice == "default":
        fallback = default_action(event)
        if fallback is None:
            raise NoSuchAction("nothing is legal for you right now")
        return fallback[0], fallback[1]
    if choice.isdigit():
        action = next((a for a in legal if a.get("id") == int(choice)), None)
        if action is None:
            raise NoSuchAction(f"no legal action {choice} ({describe_legal(event)})")
        chosen = list(tiles) if "choose" in action else []
        problem = check_choice(action, chosen) if "choose" in action else None
        if problem:
            raise NoSuchAction(problem)
        return action, chosen
    types = sorted({str(a.get("type")) for a in legal})
    return pick_action(event, types, words=choice.split(), tiles=tiles, what="do")


def request_for(event: Event, action: Action, chosen: Sequence[str]) -> dict[str, Any]:
    """The act request (the same one the curses table sends)."""
    return act_request(event, action, chosen)
