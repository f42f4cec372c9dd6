"""Call prompts per American hand for a seat holding two jokers (issue 22, item 11), before
and after the rule that offers only the calls bringing the hand nearer to a card line.

Four built-in bots play whole hands on seeded deals (the house card, the full Charleston);
the seat dealt exactly two jokers is watched. At each discard it answers, the table asks
its player when an answer other than the default is offered (``auto_pass`` answers the
rest at once): *before* counts the discards where the rules allow any call (the old test
in ``steps._only_pass``: more than one legal answer), *after* those where the adapter's
``offered_actions`` leaves more than the pass. Both are counted in the same hands, so the
figures compare the rules and nothing else. Pure and deterministic: no daemons, no clock
(the bench's time is its own line's ``bench_s``).
"""

from __future__ import annotations

import random
import statistics
import time

from benchmarks.timing import result
from fourwinds.protocol.american import engine
from fourwinds.protocol.american.bots import AmericanBot
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, Stage
from fourwinds.protocol.american.table_rules import AmericanRules
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

NAME = "call_prompts_two_jokers"
HANDS, QUICK_HANDS = 20, 3
TARGET = 5.0  # prompts per hand at most (issue 22 saw 38, each holding the table up to 8 s)
DICE = (3, 4)


def _deal(seed: int) -> tuple[AmericanState, Seat] | None:
    """The hand of ``seed`` and the seat dealt exactly two jokers (None: no such seat)."""
    faces = list(AMERICAN_TILES)
    random.Random(seed).shuffle(faces)
    state, _ = engine.new_hand(house_card(), faces, DICE)
    jokers = [sum(1 for x in state.hands[s] if state.faces[x] == Kind.JOKER) for s in SEATS]
    return (state, SEATS[jokers.index(2)]) if 2 in jokers else None


def _count(seed: int, state: AmericanState, me: Seat) -> tuple[int, int, int]:
    """(discards answered, prompts before, prompts after) for ``me`` over the whole hand."""
    card = state.card
    bots = [AmericanBot(s, card, random.Random(seed * 4 + int(s))) for s in SEATS]
    rules = AmericanRules()
    windows = before = after = 0
    while state.result is None:
        if (
            state.step is CharlestonStep.PLAY
            and state.stage is Stage.CALLS
            and state.pending[me] is None
        ):
            windows += 1
            before += len(rules.legal_actions(state, me)) > 1
            after += len(rules.offered_actions(state, me)) > 1
        for seat in engine.seats_to_act(state):
            action = bots[seat].act(state)
            if action is None:
                continue
            state, _ = engine.apply(state, action)
            if state.result is not None:
                break
    return windows, before, after


def bench_call_prompts(quick: bool) -> list[dict[str, object]]:
    started = time.monotonic()
    wanted = QUICK_HANDS if quick else HANDS
    seeds: list[int] = []
    counts: list[tuple[int, int, int]] = []
    seed = 0
    while len(counts) < wanted:
        dealt = _deal(seed)
        if dealt is not None:
            seeds.append(seed)
            counts.append(_count(seed, *dealt))
        seed += 1
    before = statistics.mean(c[1] for c in counts)
    after = statistics.mean(c[2] for c in counts)
    return [
        result(
            NAME,
            after,
            "prompts/hand",
            before=round(before, 2),
            target=f"<= {TARGET:g} per hand",
            met=after <= TARGET,
            before_max=max(c[1] for c in counts),
            after_max=max(c[2] for c in counts),
            discards_answered_per_hand=round(statistics.mean(c[0] for c in counts), 1),
            hands=len(counts),
            seeds=seeds,
            card="house",
            players="4 built-in bots",
            bench_s=round(time.monotonic() - started, 1),
        )
    ]
