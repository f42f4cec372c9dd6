"""Botzone's "Chinese-Standard-Mahjong" as the seat of `fourwinds bot --botzone` asks for it.

The MCR rule set offers ``GAME`` (``RULESET.botzone``): the generic seat (frontends/
botzone_seat.py) reads every view event through it, gives the bot program the requests it
tells and plays the answers it judges (protocol/table/rules/botzone.py, ``BotzoneGame``). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from fourwinds.protocol.table.rules.botzone import Event, Verdict

from .answer import Question, judge, question
from .story import Moment, Story, read_moment, tell


@dataclass(frozen=True)
class ChineseStandardMahjong:
    """The game's moments, story, questions and answers (story.py, answer.py)."""

    game: str = "Chinese-Standard-Mahjong"

    def read_moment(self, event: Event) -> Moment | None:
        return read_moment(event)

    def tell(self, story: Story | None, moment: Moment) -> Story | None:
        return tell(story, moment)

    def question(self, story: Story | None, moment: Moment, event: Event) -> Question | None:
        return question(story, moment, event)

    def judge(self, line: str, asked: Question, event: Event, story: Story) -> Verdict:
        return judge(line, asked, event, story)

    def may_ask(self, request: str, me: int) -> bool:
        """Our draw, or another seat's discard or added kong: a request that may want a real
        answer from our seat, held back until the view shows whether it does."""
        words = request.split()
        if words[0] == "2":
            return True
        return (
            words[0] == "3"
            and int(words[1]) != me
            and words[2] in ("PLAY", "PENG", "CHI", "BUGANG")
        )


GAME = ChineseStandardMahjong()
"""What ``RULESET.botzone`` offers."""
