"""A Botzone bot at our table: what the seat needs of the game it plays, rule set by rule set.

Botzone (botzone.org.cn) runs bots for many games; its framing (a bot program's input and
output: the whole history in JSON or simple lines, keeping running) is the platform's and
lives with the seat (frontends/bots/botzone_*.py). The game's own language, which requests tell a
hand and which answers a bot may give, is one rule set's: "Chinese-Standard-Mahjong" is MCR's
(protocol/mcr/botzone/). A rule set that speaks a Botzone game offers it as its optional
``botzone`` member (a ``BotzoneGame``); the seat asks the table's rule set for it and refuses a
table whose rules speak none (``botzone_game``, ``botzone_refusal``). Pure.

The game's own types (its moment of a view, its story, its question) pass through the seat
untouched: the seat reads only what ``Told`` lists of a story.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from fourwinds.protocol.table.rules.registry import rule_names, ruleset_named
from fourwinds.protocol.table.views.view_types import ActionEntry

Event = Mapping[str, Any]
Action = ActionEntry  # one of the view event's legal actions, as the daemon sent it


class Fault(Enum):
    """Why an answer of the bot was not played (each is counted and logged)."""

    GARBAGE = "garbage"  # no Botzone response at all (not the protocol's words)
    ILLEGAL = "illegal"  # a response, but not one the table allows now
    LATE = "late"  # no answer within the time allowed
    CRASH = "crash"  # the bot program exited without answering
    REFUSED = "refused"  # the daemon refused the action it meant


@dataclass(frozen=True)
class Verdict:
    """The legal action an answer means (``then``: our tile to discard once the claim is
    taken), or why it is refused."""

    action: Action | None = None
    then: str | None = None
    fault: Fault | None = None
    problem: str = ""


class Told(Protocol):
    """What the seat reads of the game's story of a hand (the requests told so far)."""

    @property
    def hand(self) -> int:
        """The hand's number."""
        ...

    @property
    def me(self) -> int:
        """Our seat, as the game numbers its players."""
        ...

    @property
    def requests(self) -> tuple[str, ...]:
        """Every request told in this hand, in order (what the bot program is given)."""
        ...

    @property
    def sat_out(self) -> bool:
        """The hand was under way when the seat first saw it: the seat plays its defaults."""
        ...

    @property
    def last(self) -> str:
        """The last request told ("" before the first)."""
        ...

    @property
    def over(self) -> bool:
        """The hand is over: nothing more is told."""
        ...

    @property
    def discard_after_claim(self) -> bool:
        """Our turn after our claim was taken: the discard the bot named with it is due."""
        ...


class BotzoneGame(Protocol):
    """One Botzone game as a rule set speaks it: seat views in, requests out, answers
    judged against the view's legal actions."""

    @property
    def game(self) -> str:
        """The game's name on Botzone ("Chinese-Standard-Mahjong")."""
        ...

    def read_moment(self, event: Event) -> Any:
        """What a view event shows, in the game's terms (None: nothing to tell)."""
        ...

    def tell(self, story: Any, moment: Any) -> Told | None:
        """The story after ``moment`` (a new one for a new hand; None before a hand)."""
        ...

    def question(self, story: Any, moment: Any, event: Event) -> Any:
        """What the view asks our seat that the bot answers (None: nothing it is asked)."""
        ...

    def judge(self, line: str, asked: Any, event: Event, story: Any) -> Verdict:
        """The legal action the bot's answer ``line`` means, or why it is refused."""
        ...

    def may_ask(self, request: str, me: int) -> bool:
        """A request that may want a real answer from seat ``me``: held back until the view
        shows whether it does."""
        ...


def game_of(ruleset: object) -> BotzoneGame | None:
    """The Botzone game a rule set speaks (its optional ``botzone``), or None."""
    game: BotzoneGame | None = getattr(ruleset, "botzone", None)
    return game


def botzone_game(rules: str) -> BotzoneGame | None:
    """The Botzone game of a table of ``rules``; None when they speak none (or are
    unknown here)."""
    try:
        return game_of(ruleset_named(rules))
    except KeyError:
        return None


def botzone_refusal(rules: str) -> str:
    """Why a Botzone bot does not sit at a table of ``rules``, naming the rule sets it
    plays."""
    speaking = [
        ruleset_named(name).short_title
        for name in rule_names()
        if game_of(ruleset_named(name)) is not None
    ]
    return f"a Botzone bot plays {' or '.join(speaking)} tables; this one plays {rules}"
