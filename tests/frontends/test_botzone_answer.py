"""Judging a Botzone bot's answers (protocol/mcr/botzone/answer.py) against the legal actions of
real seat views: every legal move has its Botzone answer, which finds exactly that action;
answers the table does not allow are refused with the reason; garbage is told apart."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.mcr.botzone.answer import Fault, Question, judge, question
from fourwinds.protocol.mcr.botzone.story import Moment, Story, read_moment, tell
from fourwinds.protocol.mcr.botzone.tiles import to_botzone
from fourwinds.protocol.table.views.view_types import ActionEntry
from testkit.botzone_stream import HarnessStream
from tests.frontends.test_botzone_story import bold

Event = ViewEvent
Asked = tuple[Question, Story, Moment, ViewEvent]


def _questions() -> list[Asked]:
    """Every question of a few bold hands (each seen once), with its story and view."""
    found: list[Asked] = []
    for i in range(4):
        stream = HarnessStream(b"answer-%d" % i, auto_pass=False)
        rng = random.Random(i)
        story: Story | None = None
        for _ in range(5_000):
            events = stream.events(0)
            if any(e["view"]["phase"] == "match_over" for e in events):
                break
            for event in events:
                moment = read_moment(event)
                if moment is not None:
                    story = tell(story, moment) or story
                if not event["legal_actions"]:
                    continue
                if moment is not None and story is not None:
                    asked = question(story, moment, event)
                    if asked is not None:
                        found.append((asked, story, moment, event))
                assert stream.act(bold(rng, event))["ok"]
    return found


QUESTIONS = _questions()


def _of(kind: Question) -> list[Asked]:
    return [q for q in QUESTIONS if q[0] is kind]


def _legal(event: Event, kind: str) -> list[ActionEntry]:
    return [a for a in event["legal_actions"] if a["type"] == kind]


def test_real_hands_ask_every_question() -> None:
    kinds = Counter(q[0] for q in QUESTIONS)
    assert kinds[Question.DRAWN] >= 20 and kinds[Question.DISCARD] >= 40, kinds
    calls = Counter(
        a["label"].split()[1] for _, _, _, e in _of(Question.DISCARD) for a in _legal(e, "call")
    )
    assert calls["pung"] and calls["chow"], calls


def test_every_discard_and_kong_after_our_draw_has_its_answer() -> None:
    for asked, story, _, event in _of(Question.DRAWN):
        assert story.last.startswith("2 ")
        for action in _legal(event, "discard"):
            verdict = judge(f"PLAY {to_botzone(action['tiles'][0])}", asked, event, story)
            assert verdict.action == action and verdict.then is None
        for action in _legal(event, "kong"):
            verb = "GANG" if len(action["tiles"]) == 4 else "BUGANG"
            verdict = judge(f"{verb} {to_botzone(action['tiles'][0])}", asked, event, story)
            assert verdict.action == action
        wins = _legal(event, "mahjong")
        verdict = judge("HU", asked, event, story)
        assert verdict.action == (wins[0] if wins else None)
        if not wins:
            assert verdict.fault is Fault.ILLEGAL and "do not win" in verdict.problem


def test_answers_to_a_draw_the_table_does_not_allow() -> None:
    asked, story, _, event = _of(Question.DRAWN)[0]
    held = set(event["view"]["hand"])
    absent = next(t for t in ("1m", "2m", "3m", "4m", "5m", "1z") if t not in held)
    cases = {
        f"PLAY {to_botzone(absent)}": "not held",
        "PASS": "no answer to",
        "PENG W1": "no answer to",
        "PLAY": "takes 1 tile",
        "PLAY W1 W2": "takes 1 tile",
        f"GANG {to_botzone(absent)}": "no concealed kong",
        f"BUGANG {to_botzone(absent)}": "cannot add",
    }
    for line, why in cases.items():
        verdict = judge(line, asked, event, story)
        assert verdict.action is None and verdict.fault is Fault.ILLEGAL, line
        assert why in verdict.problem, (line, verdict.problem)


@pytest.mark.parametrize("line", ["", "hello", "play W1", "PLAY W0", "PLAY 1m", "{}"])
def test_garbage_is_told_from_an_illegal_answer(line: str) -> None:
    asked, story, _, event = _of(Question.DRAWN)[0]
    verdict = judge(line, asked, event, story)
    assert verdict.action is None and verdict.fault is Fault.GARBAGE, line


def test_every_claim_on_a_discard_has_its_answer() -> None:
    for asked, story, moment, event in _of(Question.DISCARD):
        assert moment.pending is not None
        tile = moment.pending[2]
        hand = Counter(event["view"]["hand"])
        assert judge("PASS", asked, event, story).action == _legal(event, "pass")[0]
        for action in _legal(event, "call"):
            tiles = action["tiles"]
            used = Counter(tiles) - Counter([tile])
            rest = sorted((hand - used).elements())
            if len(tiles) == 4:
                line, then = "GANG", None
            elif tiles == [tile] * 3:
                line, then = f"PENG {to_botzone(rest[0])}", rest[0]
            else:
                line, then = f"CHI {to_botzone(tiles[1])} {to_botzone(rest[-1])}", rest[-1]
            verdict = judge(line, asked, event, story)
            assert verdict.action == action and verdict.then == then, (line, verdict)


def test_claims_the_table_does_not_allow() -> None:
    asked, story, moment, event = next(
        q
        for q in _of(Question.DISCARD)
        if any(a["label"].startswith("Call pung") for a in _legal(q[3], "call"))
    )
    assert moment.pending is not None
    tile = moment.pending[2]
    hand = Counter(event["view"]["hand"])
    pair_only = next(t for t in ("1m", "2m", "3m", "4m", "5m", "1z", "2z") if not hand[t])
    cases = {
        f"PENG {to_botzone(pair_only)}": "cannot discard",
        f"PENG {to_botzone(tile)}": "cannot discard",  # both copies go into the pung
        "GANG": "no kong",
        "CHI B5 B1": "makes no chow",
        "HU": "do not win",
        "PLAY W1": "no answer to",
        "PENG": "takes 1 tile",
    }
    if hand[tile] >= 3:
        del cases["GANG"]
    if hand[tile] >= 3 and pair_only != tile:
        del cases[f"PENG {to_botzone(tile)}"]
    for line, why in cases.items():
        verdict = judge(line, asked, event, story)
        assert verdict.action is None and verdict.fault is Fault.ILLEGAL, line
        assert why in verdict.problem, (line, verdict.problem)
