"""What a Botzone bot is asked at our seat, and whether its answer is one the table allows.

Three requests want a real answer (every other one is answered ``PASS``):

* ``2 X``, our draw: ``PLAY Y`` (discard Y), ``GANG Y`` (concealed kong of Y), ``BUGANG Y``
  (add Y to our pung), ``HU`` (self-drawn Mahjong);
* another seat's ``PLAY X`` / ``PENG .. X`` / ``CHI .. X``: ``PASS``, ``HU``, ``GANG`` (a kong
  on X), ``PENG Y`` (pung X, then discard Y), ``CHI M Y`` (chow X into the run whose middle
  is M, then discard Y);
* another seat's ``BUGANG X``: ``PASS`` or ``HU`` (rob the kong).

``judge`` reads the answer line and finds the entry of the view's ``legal_actions`` it means;
a combined claim also names the discard to make once the claim is taken (``Verdict.then``).
Anything else is refused with the reason, and the seat's default action (the one the view
marks, as a timeout would take it: ``exec_bot.default_action``) is taken instead. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any

from fourwinds.protocol.table.rules.botzone import Fault, Verdict
from fourwinds.protocol.table.views.view_types import ActionEntry

from .story import Flow, Moment, Step, Story
from .tiles import TileNameError, from_botzone, is_flower

__all__ = ["Fault", "Question", "Verdict", "judge", "question"]

Event = Mapping[str, Any]
Action = ActionEntry  # one of the view event's legal actions


class Question(Enum):
    """The three requests that want a real answer."""

    DRAWN = "drawn"  # our draw
    DISCARD = "discard"  # another seat's discard
    KONG = "kong"  # another seat's added kong


_ANSWERS = {
    Question.DRAWN: ("PLAY", "GANG", "BUGANG", "HU"),
    Question.DISCARD: ("PASS", "HU", "GANG", "PENG", "CHI"),
    Question.KONG: ("PASS", "HU"),
}
_VERBS = frozenset({"PASS", "PLAY", "GANG", "BUGANG", "HU", "PENG", "CHI"})


def question(story: Story | None, moment: Moment, event: Event) -> Question | None:
    """What the bot is asked about this view: None when the seat answers by itself (no
    question, a flower to lay out, the discard after a claim, a view out of step)."""
    legal = [a for a in event.get("legal_actions") or () if a.get("type") != "more_time"]
    if story is None or story.sat_out or not legal:
        return None
    if any(a.get("type") == "flower" for a in legal):
        return None
    flow: Flow = story.flow
    if flow.seat == story.me:
        mine = flow.step is Step.TURN and not flow.claim and story.last.startswith("2 ")
        return Question.DRAWN if mine else None
    if flow.step is Step.CLAIMS and moment.pending == (flow.seat, flow.index, flow.tile):
        return Question.DISCARD
    if flow.step is Step.ROB and moment.robbing:
        return Question.KONG
    return None


def judge(line: str, asked: Question, event: Event, story: Story) -> Verdict:
    """The legal action the bot's answer ``line`` means, or why it is refused."""
    words = line.split()
    if not words or words[0] not in _VERBS:
        return Verdict(fault=Fault.GARBAGE, problem="not a Botzone response")
    verb, args = words[0], words[1:]
    if verb not in _ANSWERS[asked]:
        return _illegal(f"{verb} is no answer to {story.last!r}")
    try:
        tiles = [from_botzone(word) for word in args]
    except TileNameError as error:
        return Verdict(fault=Fault.GARBAGE, problem=str(error))
    legal = [a for a in event.get("legal_actions") or () if a.get("type") != "more_time"]
    hand = [str(t) for t in (event.get("view") or {}).get("hand") or ()]
    if asked is Question.DRAWN:
        return _on_draw(verb, tiles, legal)
    if verb in ("PASS", "HU"):
        return _simple(verb, tiles, legal)
    return _claim(verb, tiles, legal, hand, story.flow.tile)


def _illegal(problem: str) -> Verdict:
    return Verdict(fault=Fault.ILLEGAL, problem=problem)


def _find(legal: Sequence[Action], kind: str, tiles: Sequence[str] | None = None) -> Action | None:
    return next(
        (
            a
            for a in legal
            if a.get("type") == kind
            and (tiles is None or list(a.get("tiles") or ()) == list(tiles))
        ),
        None,
    )


def _found(action: Action | None, problem: str, then: str | None = None) -> Verdict:
    return Verdict(action, then) if action is not None else _illegal(problem)


def _count(tiles: Sequence[str], want: int) -> str | None:
    return None if len(tiles) == want else f"takes {want} tile(s), not {len(tiles)}"


def _simple(verb: str, tiles: Sequence[str], legal: Sequence[Action]) -> Verdict:
    wrong = _count(tiles, 0)
    if wrong:
        return _illegal(f"{verb} {wrong}")
    kind = "pass" if verb == "PASS" else "mahjong"
    return _found(
        _find(legal, kind),
        "the tiles do not win now (no Mahjong offered)"
        if verb == "HU"
        else "passing is not offered",
    )


def _on_draw(verb: str, tiles: Sequence[str], legal: Sequence[Action]) -> Verdict:
    if verb == "HU":
        return _simple(verb, tiles, legal)
    wrong = _count(tiles, 1)
    if wrong:
        return _illegal(f"{verb} {wrong}")
    tile = tiles[0]
    if verb == "PLAY":
        return _found(_find(legal, "discard", [tile]), f"cannot discard {tile} (not held)")
    if verb == "GANG":
        return _found(_find(legal, "kong", [tile] * 4), f"no concealed kong of {tile} now")
    return _found(_find(legal, "kong", [tile]), f"cannot add {tile} to a pung now")


def _claim(
    verb: str, tiles: Sequence[str], legal: Sequence[Action], hand: Sequence[str], discard: str
) -> Verdict:
    if verb == "GANG":
        if tiles and tiles != [discard]:
            return _illegal(f"GANG on {discard} takes no other tile")
        return _found(_find(legal, "call", [discard] * 4), f"no kong on {discard} now")
    if verb == "PENG":
        wrong = _count(tiles, 1)
        if wrong:
            return _illegal(f"PENG {wrong}")
        used, action = [discard] * 2, _find(legal, "call", [discard] * 3)
        why = f"no pung on {discard} now"
    else:
        wrong = _count(tiles, 2)
        if wrong:
            return _illegal(f"CHI {wrong}")
        run = _run(tiles[0])
        if run is None or discard not in run:
            return _illegal(f"{discard} makes no chow with middle tile {tiles[0]}")
        used = list(run)
        used.remove(discard)
        action, why = _find(legal, "call", run), f"no chow {' '.join(run)} now"
    then = tiles[-1]
    if action is None:
        return _illegal(why)
    left = Counter(hand) - Counter(used)
    if is_flower(then) or left[then] == 0:
        return _illegal(f"cannot discard {then} after the claim (not held)")
    return Verdict(action, then)


def _run(middle: str) -> list[str] | None:
    """The chow whose middle tile is ``middle`` (our codes), or None."""
    rank, suit = middle[:-1], middle[-1]
    if suit not in "mps" or not rank.isdigit() or not 2 <= int(rank) <= 8:
        return None
    return [f"{int(rank) + step}{suit}" for step in (-1, 0, 1)]
