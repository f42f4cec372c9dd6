"""The Botzone story of real MCR hands (protocol/mcr/botzone/story.py): whole hands of the real
engine, our seat seen through its seat views; whenever the view asks our seat something a
Botzone bot is asked, the requests told so far add up (tests/frontends/botzone_referee.py,
a bot's own reading of them) to exactly the table the view shows: every seat's discards,
exposures and flowers, and our tiles. Also when views are coalesced (one view showing several
steps), and on the fair (masked) deck, where our own tiles show a moment after they come."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from fourwinds.frontends.bots.exec_bot import default_action
from fourwinds.frontends.client.acting import act_request
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.protocol.mcr.botzone.answer import Question, question
from fourwinds.protocol.mcr.botzone.story import (
    Board,
    Meld,
    Moment,
    Step,
    Story,
    read_moment,
    tell,
)
from fourwinds.protocol.table.machine.options import DeckKind
from testkit.botzone_stream import HarnessStream
from tests.frontends.botzone_referee import Referee

Event = ViewEvent


def bold(rng: random.Random, event: Event) -> dict[str, Any]:
    """Mahjong when offered; mostly a claim or a kong when one is; else the default: so
    the hands hold pungs, chows and kongs of ours as well as the others'."""
    legal = [a for a in event["legal_actions"] if a["type"] != "more_time"]
    wins = [a for a in legal if a["type"] == "mahjong"]
    bold = [a for a in legal if a["type"] in ("call", "kong")]
    if wins:
        return act_request(event, wins[0])
    if bold and rng.random() < 0.8:
        return act_request(event, rng.choice(bold))
    chosen = default_action(event)
    assert chosen is not None
    return act_request(event, chosen[0], chosen[1])


def _verb(request: str) -> str:
    """``DRAW``, ``PLAY``... for a ``3`` request; the request's number for the others."""
    words = request.split()
    return words[2] if words[0] == "3" else words[0]


def play(
    seed: bytes,
    *,
    skip: float = 0.0,
    hands: int = 1,
    deck: DeckKind = DeckKind.PRACTICE,
    seen: Counter[str] | None = None,
    flowers: bool = True,
    told: list[str] | None = None,
) -> Counter[str]:
    """Play ``hands`` hands boldly; check the story at every question; what was checked,
    (in ``seen``) every verb told and (in ``told``) the last hand's requests."""
    stream = HarnessStream(
        seed, hands=hands, deck=deck, auto_pass=False, skip=skip, flowers=flowers
    )
    rng = random.Random(seed)
    story: Story | None = None
    checked: Counter[str] = Counter()
    for _ in range(5_000):
        for event in stream.events(0):
            moment = read_moment(event)
            if moment is not None:
                story = tell(story, moment) or story
            if event["view"]["phase"] == "match_over":
                assert story is not None and story.flow.step is Step.OVER
                if seen is not None:
                    seen.update(_verb(r) for r in story.requests)
                if told is not None:
                    told.extend(story.requests)
                return checked
            if not event["legal_actions"]:
                continue
            if moment is not None and story is not None:
                asked = question(story, moment, event)
                if asked is not None:
                    referee = Referee()
                    for request in story.requests:
                        referee.hear(request)
                    robbing = moment.turn if asked is Question.KONG else None
                    referee.check(event["view"], robbing=robbing)
                    checked[asked.value] += 1
            assert stream.act(bold(rng, event))["ok"]
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("skip", [0.0, 0.5, 0.95])
def test_the_story_adds_up_to_the_view_at_every_question(skip: float) -> None:
    seen: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for i in range(8):
        total += play(b"story-%d" % i, skip=skip, seen=seen)
    assert total["drawn"] >= 30 and total["discard"] >= 60, total
    # every kind of event was told (the last request of each hand: ours and the others')
    assert {"0", "1", "2", "DRAW", "PLAY", "PENG", "CHI", "BUHUA"} <= set(seen), seen


@pytest.mark.parametrize("skip", [0.0, 0.9])
def test_kongs_are_told(skip: float) -> None:
    """Hands with a kong on a discard or concealed (``GANG``) and a pung made a kong
    (``BUGANG``), found by trying seeds."""
    seen: Counter[str] = Counter()
    for seed in (b"kong-8", b"kong-13"):
        play(seed, skip=skip, seen=seen)
    assert seen["GANG"] >= 2 and seen["BUGANG"] >= 2, seen


def test_several_hands_and_the_fair_deck() -> None:
    """A new hand starts a new story (requests 0 and 1 again); on the masked deck our own
    draw is told once its face is known to us."""
    checked = play(b"story-masked", hands=2, deck=DeckKind.MASKED)
    assert checked["drawn"] >= 10, checked


def test_request_1_tells_no_flowers_at_a_fair_table_without_flowers() -> None:
    """MCR without flowers (the table option): request 1 says 0 flowers at every seat and
    lists none, and no BUHUA is ever told; the story still adds up at every question."""
    seen: Counter[str] = Counter()
    for i in range(3):
        told: list[str] = []
        checked = play(
            b"no-flowers-%d" % i,
            deck=DeckKind.MASKED if i == 0 else DeckKind.PRACTICE,
            seen=seen,
            flowers=False,
            told=told,
        )
        assert checked["discard"] >= 5, checked
        first = told[1].split()
        assert first[:5] == ["1", "0", "0", "0", "0"] and len(first) == 5 + 13, told[1]
        assert not any(t.startswith("H") for t in first[5:])
    assert "BUHUA" not in seen and {"0", "1", "DRAW", "PLAY"} <= set(seen), seen


def test_a_hand_under_way_when_the_seat_starts_is_sat_out() -> None:
    """The first view we see comes after our seat has played: nothing can be told (we do
    not know our first 13 tiles), so the story sits the hand out; the next hand is told."""
    stream = HarnessStream(b"late-start", hands=2)
    rng = random.Random(0)
    first: Story | None = None
    events: list[ViewEvent] = []
    while first is None:
        for event in stream.events(0):
            events.append(event)
            moment = read_moment(event)
            view, seat = event["view"], event["view"]["seat"]
            if moment is not None and seat is not None and view["players"][seat]["discards"]:
                first = tell(None, moment)
            if event["legal_actions"]:
                assert stream.act(bold(rng, event))["ok"]
    assert first.sat_out and first.requests == () and first.flow.step is Step.OVER
    later = first
    for _ in range(2_000):
        for event in stream.events(0):
            moment = read_moment(event)
            if moment is not None:
                later = tell(later, moment) or later
            if event["legal_actions"]:
                assert stream.act(bold(rng, event))["ok"]
        if later.hand == 2 and len(later.requests) > 2:
            break
    assert not later.sat_out and later.requests[0].startswith("0 ")


def test_views_outside_a_hand_tell_nothing() -> None:
    assert read_moment({"view": {"rules": "american", "seat": 0}}) is None
    assert read_moment({"view": {"rules": "mcr", "seat": None, "phase": "dice"}}) is None


def _moment(me: int, **changes: Any) -> Moment:
    """A hand-made moment of a hand in play (``rows``, ``melds`` by seat and the rest)."""
    rows = changes.pop("rows", ((),) * 4)
    melds = changes.pop("melds", ((),) * 4)
    board = Board(tuple(tuple(r) for r in rows), tuple(tuple(m) for m in melds), ((),) * 4)
    base: dict[str, Any] = {
        "hand": 1,
        "me": me,
        "quan": 0,
        "phase": "play",
        "turn": 0,
        "board": board,
        "tiles": tuple(["1m"] * 13),
        "drawn": None,
    }
    base.update(changes)
    return Moment(**base)


def test_a_claim_that_lost_is_never_told() -> None:
    """We (South) asked to chow East's 4m; West's pung took it: the story goes from East's
    discard straight to West's pung and discard, as the platform tells it."""
    story = tell(None, _moment(1))
    assert story is not None and story.requests[0] == "0 1 0"
    story = tell(story, _moment(1, phase="claim", rows=(("4m",), (), (), ()), pending=(0, 0, "4m")))
    assert story is not None and story.requests[-2:] == ("3 0 DRAW", "3 0 PLAY W4")
    pung = Meld("pung", ("4m", "4m", "4m"), 0)
    story = tell(
        story,
        _moment(
            1,
            phase="claim",
            turn=2,
            rows=((), (), ("9p",), ()),
            melds=((), (), (pung,), ()),
            pending=(2, 0, "9p"),
        ),
    )
    assert story is not None and story.requests[-1] == "3 2 PENG B9"
    assert not any(r.startswith("3 1") for r in story.requests)
