"""The toy rule set at a table in memory (four sessions, protocol/table/machine/harness.py): loaded
through the registry line alone, played by the built-in bots to the end of its match, and
shown by the seat view every frontend reads."""

from __future__ import annotations

import functools
import io
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from fourwinds.frontends.cli.rule_plugins import VARIABLE, add_rulesets, load_named_rulesets
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    drive,
    open_harness,
    play_match,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import state_hash
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.rules import registry
from fourwinds.protocol.table.rules.rotation import rotate
from fourwinds.protocol.table.rules.ruleset import PlayedHand
from fourwinds.protocol.table.views.contract_view import build_seat_view
from fourwinds.protocol.table.views.sheet import rules_sheet

from .conftest import MODULE
from .ruleset import BUST


def test_the_registry_line_makes_it_a_rule_set_like_the_others(pungs: str) -> None:
    assert registry.rule_names() == ("american", "mcr", "pungs")
    ruleset = registry.ruleset_named(pungs)
    assert ruleset.title == "Pungs and a pair"
    table = registry.rules_for(pungs, "")
    assert registry.ruleset_of(table) is ruleset  # by its name
    assert rules_sheet(pungs)["entries"][0]["id"] == "All Pungs"
    assert add_rulesets([MODULE]) == ()  # loaded once: again is no problem


@pytest.mark.parametrize(
    ("seed", "deck"), [(b"toy-1", DeckKind.PRACTICE), (b"toy-2", DeckKind.MASKED)]
)
def test_four_bots_play_its_whole_match_and_every_seat_agrees(
    pungs: str, seed: bytes, deck: DeckKind
) -> None:
    h = play_match(pungs, seed, options=TableOptions(deck=deck))
    assert all(s.phase is Phase.OVER for s in h.sessions), [s.phase for s in h.sessions]
    assert len({state_hash(s) for s in h.sessions}) == 1
    scores = h.sessions[0].scores
    assert sum(scores) == 0 and all(p == [] for p in h.problems)
    view = build_seat_view(h.sessions[2])["view"]
    assert view["rules"] == pungs and view["phase"] == "match_over"
    assert view["ruleset"] == {
        "title": "Pungs and a pair",
        "short_title": "Pungs",
        "hints_title": "Your pungs",
    }
    assert view["flowers"] is False and len(view["history"]) == 1
    assert view["history"][0]["kind"] in ("mahjong", "draw")
    assert [s["score"] for s in view["standings"] or []] == sorted(scores, reverse=True)


def _bust_after(outcomes: Sequence[PlayedHand]) -> bool:
    scores = [0, 0, 0, 0]
    for _, outcome, seating in outcomes:
        for wind, place in enumerate(seating):
            scores[place] += outcome.payments[wind]
    return min(scores) <= -BUST


def _bots_noting_what_comes_next(then: dict[int, str], h: Harness) -> bool:
    """The bots play; at each hand's end, what seat 1's view says comes next is noted."""
    s = h.sessions[1]
    if s.phase is Phase.HAND_END and s.hand is not None:
        countdown = build_seat_view(s)["view"]["next"]
        if countdown is not None:
            then.setdefault(s.hand.hand_no, countdown["then"])
    return any(bot_moves(h, place) for place in SEATS)


def test_its_match_ends_when_a_player_is_bust_not_only_after_its_hands(pungs: str) -> None:
    """The rule set decides when its match ends (``match_over``): a 12-hand table of the toy
    stops after the first hand that leaves a player at -24 or below, every seat alike, and
    the seat view's hand end already says the final standings come next."""
    ended_early = 0
    for n in range(6):
        then: dict[int, str] = {}  # by hand: what the hand end's view says comes next
        h = drive(
            open_harness(
                pungs, b"bust-%d" % n, options=TableOptions(deck=DeckKind.PRACTICE, hands=12)
            ),
            functools.partial(_bots_noting_what_comes_next, then),
        )
        assert all(x.phase is Phase.OVER for x in h.sessions)
        assert len({state_hash(x) for x in h.sessions}) == 1
        played = h.sessions[1].outcomes
        assert not any(_bust_after(played[:k]) for k in range(1, len(played)))
        assert len(played) == 12 or _bust_after(played)
        assert [then[k] for k in range(len(played))] == (
            ["Next hand"] * (len(played) - 1) + ["Final standings"]
        )
        ended_early += len(played) < 12
    assert ended_early, "no match of six reached a bust: the test shows nothing"


def test_options_it_does_not_have_are_refused(pungs: str) -> None:
    with pytest.raises(Exception, match="the pungs rules take no options"):
        play_match(
            pungs, b"x", options=TableOptions(deck=DeckKind.PRACTICE, rules=(("flowers", False),))
        )


def _module(folder: Path, name: str, text: str) -> str:
    (folder / f"{name}.py").write_text(text)
    return name


def test_a_module_that_is_not_a_rule_set_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "_ADDED", {})
    monkeypatch.setattr(registry, "_REFUSED", [])
    monkeypatch.syspath_prepend(str(tmp_path))
    broken = _module(tmp_path, "toy_broken", "raise RuntimeError('half written')\n")
    bare = _module(tmp_path, "toy_bare", "X = 1\n")
    wrong = _module(tmp_path, "toy_wrong", "RULESET = 42\n")
    taken = _module(
        tmp_path,
        "toy_taken",
        "from tests.toyrules.ruleset import RULESET as R\n"
        "from dataclasses import replace\n"
        "RULESET = replace(R, name='mcr')\n",
    )
    problems = add_rulesets(["no.such.module", broken, bare, wrong, taken, MODULE])
    assert len(problems) == 5
    assert problems[0].startswith("rule set module 'no.such.module': cannot be imported")
    assert "'toy_broken': cannot be imported (RuntimeError: half written)" in problems[1]
    assert "'toy_bare': has no RULESET" in problems[2]
    assert "'toy_wrong': its RULESET is not a rule set: int has no " in problems[3]
    assert "'toy_taken': the rules name 'mcr' is a built-in rule set's" in problems[4]
    assert registry.rule_names() == ("american", "mcr", "pungs")  # the good one loaded
    assert registry.refused_rulesets() == problems
    for name in (broken, bare, wrong, taken):
        sys.modules.pop(name, None)


def test_a_rule_set_whose_tiles_are_not_a_tile_set_is_refused_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tile set is checked where it enters: a ``tile_set`` that is no ``walls.TileSet``
    is refused by the registry, and a ``TileSet`` that cannot deal (here 132 tiles, not four
    equal sides of stacks) stops its module's import, so that module is refused too."""
    monkeypatch.setattr(registry, "_ADDED", {})
    monkeypatch.setattr(registry, "_REFUSED", [])
    monkeypatch.syspath_prepend(str(tmp_path))
    start = "from dataclasses import replace\nfrom tests.toyrules.ruleset import RULESET as R\n"
    loose = _module(
        tmp_path, "toy_loose_tiles", start + "RULESET = replace(R, name='loose', tile_set=42)\n"
    )
    short = _module(
        tmp_path,
        "toy_short_wall",
        start + "from tests.toyrules.table_rules import TILES\n"
        "RULESET = replace(R, name='short',"
        " tile_set=replace(TILES, kinds=TILES.kinds[:-4]))\n",
    )
    problems = add_rulesets([loose, short])
    assert len(problems) == 2
    assert (
        "'toy_loose_tiles': its RULESET is not a rule set: its tile_set (the tiles and"
        " wall it plays) is not a walls.TileSet"
    ) in problems[0]
    assert (
        "'toy_short_wall': cannot be imported (ValueError: the Pungs and a pair wall"
        " needs four sides of stacks of two"
    ) in problems[1]
    assert registry.rule_names() == ("american", "mcr")
    for name in (loose, short):
        sys.modules.pop(name, None)


def test_its_own_wall_deals_every_break_as_the_mcr_wall_without_flowers(pungs: str) -> None:
    """The toy declares its tile set in its folder (``table_rules.TILES``); it used to
    borrow MCR's without flowers, and every deal is what that one's was, so its tables play
    the same hands from the same seeds."""
    own = registry.rules_for(pungs, "").tile_set
    mcr = registry.ruleset_named("mcr").tile_set.played(flowers=False)
    assert own.kinds == mcr.kinds and own.played(flowers=False) is own
    for dice in itertools.product(range(1, 7), repeat=4):
        ours, theirs = own.plan(dice), mcr.plan(dice)
        assert (ours.break_stack, ours.deal, ours.live) == (
            theirs.break_stack,
            theirs.deal,
            theirs.live,
        )


def test_the_environment_names_the_modules_and_each_refusal_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_ADDED", {})
    monkeypatch.setattr(registry, "_REFUSED", [])
    err = io.StringIO()
    problems = load_named_rulesets({VARIABLE: f" {MODULE} , no_such_rules ,"}, err)
    assert registry.rule_names() == ("american", "mcr", "pungs")
    assert err.getvalue().splitlines() == [f"fourwinds: {problems[0]}; {VARIABLE} skips it"]
    assert "'no_such_rules': cannot be imported (ModuleNotFoundError" in problems[0]
    assert load_named_rulesets({}, err) == ()


def test_the_dealer_keeps_the_deal_after_a_win_through_the_seating_seam(pungs: str) -> None:
    """The toy rule set's house rule (its ruleset.py): after a hand East won, the same
    seating deals again; after any other, the deal passes to the right. The seam
    (``seating_for_hand(first, hand_no, before)``) reads the match's hands so far, and every
    seat derives the same seatings from them."""
    h = play_match(pungs, b"deal-0", options=TableOptions(deck=DeckKind.PRACTICE, hands=4))
    assert len({state_hash(s) for s in h.sessions}) == 1
    played = h.sessions[0].outcomes
    assert len(played) == 4
    kept = 0
    for (_, outcome, seating), (_, _, after) in itertools.pairwise(played):
        if outcome.winner is Seat.EAST:
            assert after == seating
            kept += 1
        else:
            assert after == rotate(seating, 1)
    assert kept >= 1  # this wall's first hand is East's: the rule was exercised
