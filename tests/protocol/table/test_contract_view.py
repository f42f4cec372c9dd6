"""The local API seat view (docs/DESIGN.md, "The seat view frontends see"): whole hands of
both rule sets played by one seat through ``build_seat_view`` + ``resolve_action`` +
``local_action``, the other three seats being built-in bots, on the practice deck."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from fourwinds.protocol.american.actions import CharlestonPass, CourtesyPass
from fourwinds.protocol.errors import IllegalAction
from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.harness import drive as drive_moves
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.session import local_action
from fourwinds.protocol.table.machine.state import Phase, TableSession, evolve
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.tiles import Kind

VIEW_KEYS = {
    "rules",
    "ruleset",
    "table",
    "practice",
    "flowers",
    "hand_number",
    "hands_in_match",
    "seat",
    "dealer",
    "prevalent_wind",
    "phase",
    "phase_detail",
    "turn",
    "waiting_for",
    "deadline",
    "wall_remaining",
    "players",
    "hand",
    "drawn",
    "last_discard",
    "news",
    "received",
    "hints",
    "result",
    "windows",
    "next",
    "history",
    "standings",
    "unreachable",
    "waiting",
    "screen",
    "rack",
    "prompt",
    "live_wins",
}
PLAYER_KEYS = {
    "seat",
    "name",
    "wind",
    "score",
    "dead",
    "connected",
    "concealed_count",
    "exposures",
    "flowers",
    "discards",
    "ready",
    "thinking",
}
PHASES = {
    "lobby",
    "dice",
    "deal",
    "charleston",
    "courtesy",
    "play",
    "claim",
    "hand_over",
    "match_over",
}
RESULT_KEYS = {
    "kind",
    "winner",
    "hand",
    "tiles",
    "payouts",
    "audit",
    "winner_name",
    "winning_tile",
    "self_drawn",
    "from_seat",
    "from_name",
    "concealed",
    "exposures",
    "flowers",
    "payments",
    "scores",
    "hands",
    "hands_detail",
}
RULE_RESULT_KEYS = {"american": {"card_hand"}, "mcr": {"fans", "total"}}
CODE = re.compile(r"^([1-9][mpsz]|[1-8]f|F|J|\?)$")
ME = Seat(0)
THEN_SEEN: set[str] = set()  # what hand_over views' countdowns led to, over this module

Pick = Callable[[TableSession, list[dict[str, Any]]], dict[str, Any]]


def _plain(
    s: TableSession, now: float | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Our seat's VIEW and ACTIONs as a frontend reads them off the wire: plain maps, whose
    rule set's own keys a check may read too."""
    built = build_seat_view(s, now=now)
    return dict(built["view"]), [dict(a) for a in built["legal_actions"]]


def _audit(s: TableSession) -> str:
    result = build_seat_view(s)["view"]["result"]
    assert result is not None
    return result["audit"]


def pick_default(s: TableSession, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next((a for a in actions if a.get("default")), actions[0])


def pick_bold(s: TableSession, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """Mahjong whenever offered, then any call, exchange or kong, else the last action (going
    on with the Charleston, a blind pass, the largest courtesy offer...)."""
    for kind in ("mahjong", "call", "exchange", "kong"):
        for a in actions:
            if a["type"] == kind:
                return a
    return actions[-1]


def pick_bot(s: TableSession, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the built-in bot would do, found among the offered actions (the same action, or
    for a discard the same tile), so our seat plays well enough to win now and then."""
    if (
        s.phase is not Phase.PLAY
        or s.rules is None
        or s.hand is None
        or s.hand.seating is None
        or s.me is None
    ):
        return pick_default(s, actions)
    wind = wind_of(s.hand.seating, s.me)
    wanted = s.rules.choose(s.hand.engine, wind, bytes([s.step % 256]) * 32)
    face = getattr(wanted, "face", None)
    for a in actions:
        if "choose" in a:
            continue
        if resolve_action(s, a["id"]) == wanted:
            return a
        if a["type"] == "discard" and face is not None and a["tiles"] == [tile_code(face)]:
            return a
    return pick_default(s, actions)


def chosen_tiles(action: Mapping[str, Any]) -> list[str]:
    return list(action["tiles"])[: action["choose"]] if "choose" in action else []


def check_view(view: dict[str, Any], rules: str) -> None:
    """Every contract key with its type; plain JSON."""
    json.dumps(view)
    assert set(view) == VIEW_KEYS
    assert view["rules"] == rules
    assert isinstance(view["table"], str) and isinstance(view["practice"], bool)
    assert view["flowers"] is True or (rules == "mcr" and view["flowers"] is False)
    assert view["hand_number"] >= 1 and view["hands_in_match"] >= 1
    # no wind for us while the dice seat the hand (issue 22, 16b: our place shown as a wind)
    # nor while the masked deck's wall is built (MCR's "deal", laying out flowers, has one)
    if view["phase"] == "dice":
        assert view["seat"] is None
    if view["phase"] in ("dice", "deal") and view["seat"] is None:
        assert not view["hand"] and all(p["concealed_count"] == 0 for p in view["players"])
        assert view["screen"] == "dealing"  # the frontends draw no table from no seat
    else:
        assert view["seat"] in range(4)
    over = view["phase"] == "match_over" or (view["phase"] == "hand_over" and view["result"])
    assert view["screen"] == (
        "lobby"
        if view["phase"] == "lobby"
        else "result"
        if over
        else "dealing"
        if view["seat"] is None
        else "table"
    ), view["phase"]
    assert view["dealer"] in range(4)
    assert view["phase"] in PHASES and isinstance(view["phase_detail"], str)
    assert view["turn"] is None or view["turn"] in range(4)
    assert all(w in range(4) for w in view["waiting_for"])
    assert view["deadline"] is None or view["deadline"] >= 0
    assert isinstance(view["wall_remaining"], int)
    if rules == "mcr" and view["phase"] not in ("lobby", "dice", "deal"):
        assert view["prevalent_wind"] in range(4)
    if rules == "american":
        assert view["prevalent_wind"] is None
    assert [p["seat"] for p in view["players"]] == [0, 1, 2, 3]
    for p in view["players"]:
        assert set(p) == PLAYER_KEYS
        assert p["wind"] == "ESWN"[p["seat"]]
        assert isinstance(p["name"], str) and p["name"]
        assert isinstance(p["concealed_count"], int) and isinstance(p["score"], int)
        for meld in p["exposures"]:
            assert set(meld) == {"tiles", "label", "from"}
            assert meld["label"]
            if meld["label"].startswith("concealed"):
                assert meld["from"] is None
            else:  # made with a discard: whose
                assert meld["from"] in range(4) and meld["from"] != p["seat"], meld
            assert all(CODE.match(t) for t in meld["tiles"])
        assert all(CODE.match(t) and t != "?" for t in p["discards"] + p["flowers"])
    # a masked deck shows us a tile a little after it reaches us ("?" meanwhile)
    assert all(CODE.match(t) and (t != "?" or not view["practice"]) for t in view["hand"])
    assert view["hand"] == sorted(view["hand"], key=_kind_order)
    assert view["drawn"] is None or view["drawn"] in view["hand"]
    # the rack as drawn: the hand's tiles, the one just drawn at the right end (issue 22)
    assert Counter(view["rack"]) == Counter(view["hand"])
    if view["drawn"] is None:
        assert view["rack"] == view["hand"]
    else:
        assert view["rack"][-1] == view["drawn"]
        assert view["rack"][:-1] == sorted(view["rack"][:-1], key=_kind_order)
    if view["last_discard"] is not None:
        # the claimable tile, and where it lies: its place in the discarder's row (issue 22,
        # 16a: the page outlined the MCR discarder's previous discard)
        last = view["last_discard"]
        assert set(last) == {"seat", "tile", "index"}
        row = view["players"][last["seat"]]["discards"]
        assert last["index"] == len(row) - 1 and row[last["index"]] == last["tile"], (last, row)
    assert all(isinstance(h, str) for h in view["hints"])
    wins = view["live_wins"]
    if wins is not None:  # MCR, a ready hand: the live tiles of the waits that win
        assert rules == "mcr" and set(wins) == {"left", "tiles"}, wins
        assert wins["left"] >= 0 and all(CODE.match(t) for t in wins["tiles"]), wins
        assert all(any(t in h for h in view["hints"]) for t in wins["tiles"][:6]), (
            wins,
            view["hints"],
        )
    for hint in view["hints"]:
        if hint.startswith("wins on "):  # a wait that wins is counted
            assert wins is not None and hint.split(" ")[2] in wins["tiles"], (hint, wins)
    assert all(isinstance(n, str) and n for n in view["news"])
    assert all(code in view["hand"] for code in view["received"])
    assert set(view["windows"]) == {"call", "turn", "charleston", "next"}
    assert (view["next"] is not None) == (view["phase"] == "hand_over")
    if view["next"] is not None:  # what the countdown leads to, said by the view alone
        last = view["hand_number"] >= view["hands_in_match"]
        THEN_SEEN.add(view["next"]["then"])
        assert view["next"]["then"] == ("Final standings" if last else "Next hand"), view["next"]
    assert (view["standings"] is not None) == (view["phase"] == "match_over")
    assert all(
        isinstance(p["ready"], bool) and isinstance(p["thinking"], bool) for p in view["players"]
    )
    if view["result"] is not None:
        result = view["result"]
        assert set(result) == RESULT_KEYS | RULE_RESULT_KEYS[rules]
        assert len(result["payouts"]) == 4 and sum(result["payouts"]) == 0
        assert [p["amount"] for p in result["payments"]] == result["payouts"]
        assert (result["winner"] is None) == (result["winner_name"] is None)
        assert isinstance(result["hands_detail"], str)
        assert (result["hands"] is None) == bool(result["hands_detail"])
        if result["hands"] is not None:
            assert len(result["hands"]) == 4 and all(
                CODE.match(c) for tiles in result["hands"] for c in tiles
            )


_ORDER: dict[str, int] = {}


def _kind_order(code: str) -> int:
    if not _ORDER:
        _ORDER.update({tile_code(k): int(k) for k in Kind})
    return _ORDER[code]


def check_actions(actions: list[dict[str, Any]]) -> None:
    assert [a["id"] for a in actions] == list(range(len(actions)))
    assert sum(1 for a in actions if a.get("default")) <= 1
    for a in actions:
        assert isinstance(a["type"], str) and isinstance(a["label"], str) and a["label"]
        assert "slot" not in a["label"] and "=" not in a["label"], a["label"]
        assert all(CODE.match(t) for t in a["tiles"])
        if a["type"] == "discard":
            assert a["label"] == f"Discard {a['tiles'][0]}"
        if "choose" in a:
            assert 0 < a["choose"] <= len(a["tiles"]) and "J" not in a["tiles"]


PROMPTS = {"call", "turn", "charleston", "ready", "next"}


def check_prompt(view: dict[str, Any], actions: list[dict[str, Any]]) -> None:
    """``prompt`` names what the table asks of us: nothing without actions; "call" exactly
    when a discard (or a kong) may be claimed; "turn" on our own turn in play."""
    prompt = view["prompt"]
    if not [a for a in actions if a["type"] != "more_time"]:
        assert prompt is None, (prompt, actions)
        return
    assert prompt in PROMPTS, prompt
    assert (prompt == "call") == (view["phase"] == "claim"), (prompt, view["phase"])
    if any(a["type"] == "discard" for a in actions):
        assert prompt == "turn", prompt
    if any(a["type"] == "call" for a in actions):
        assert prompt == "call", prompt


def check_own_hand(s: TableSession, view: dict[str, Any]) -> None:
    """The rack is exactly our engine's concealed tiles; 13 or 14 tiles counting exposures."""
    assert s.hand is not None and s.hand.seating is not None and s.me is not None
    wind = wind_of(s.hand.seating, s.me)
    engine = s.hand.engine
    me = view["players"][wind]
    exposed = sum(len(m["tiles"]) for m in me["exposures"])
    if view["rules"] == "american":
        kinds = engine.concealed_kinds(wind)
        assert len(view["hand"]) + exposed in (13, 14)
    else:
        kinds = tuple(engine.faces[x] for x in engine.seats[wind].hand)
        kongs = sum(1 for m in me["exposures"] if len(m["tiles"]) == 4)
        # a flower not laid out yet still takes a place in the hand
        assert len(view["hand"]) + exposed - kongs in (13, 14)
    assert Counter(view["hand"]) == Counter(tile_code(k) for k in kinds)
    assert me["concealed_count"] == len(view["hand"])


def check_others_hidden(s: TableSession, view: dict[str, Any]) -> None:
    """Another seat shows only its count of concealed tiles (even tiles we passed to it and
    so know stay off the view), and the view never shows more of a kind than the set has."""
    assert s.hand is not None
    engine = s.hand.engine
    shown = Counter(view["hand"])
    for wind in SEATS:
        player = view["players"][wind]
        assert set(player) == PLAYER_KEYS  # no rack of theirs
        for meld in player["exposures"]:
            shown.update(t for t in meld["tiles"] if t != "?")
        shown.update(player["discards"] + player["flowers"])
        if wind == view["seat"]:
            continue
        theirs = engine.hands[wind] if view["rules"] == "american" else engine.seats[wind].hand
        assert player["concealed_count"] == len(theirs)
    for code, count in shown.items():
        limit = 8 if code in ("F", "J") else 1 if code.endswith("f") else 4
        assert count <= limit, code


def drive(
    rules: str,
    seed: bytes,
    pick: Pick,
    *,
    every: bool = True,
    seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] | None = None,
    deck: DeckKind = DeckKind.PRACTICE,
    auto_pass: bool = True,
    hands: int = 1,
) -> Harness:
    """Play one hand (or ``hands``): seat 0 through the contract view, the others by their
    bots. With ``every``, each offered action is resolved and checked to be accepted by the session;
    without ``auto_pass`` every discard is asked about, every legal call offered."""
    h = open_harness(rules, seed, options=TableOptions(hands=hands, deck=deck, auto_pass=auto_pass))
    for _ in range(40_000):
        if h.done():
            break
        s = h.sessions[ME]
        view, actions = _plain(s, now=h.now)
        if seen is not None and (not seen or seen[-1][0] != view):
            seen.append((view, actions))
        check_view(view, rules)
        check_actions(actions)
        if view["next"] is not None:  # the offer says where "next" leads, as the view does
            labels = [a["label"] for a in actions if a["type"] == "next"]
            final = view["next"]["then"] == "Final standings"
            assert labels in ([], ["See the final standings" if final else "Next hand"])
        check_prompt(view, actions)
        if actions and "?" in view["hand"]:
            raise AssertionError("actions offered before our tiles are known")
        if s.phase is Phase.PLAY and view["phase"] != "deal" and "?" not in view["hand"]:
            check_own_hand(s, view)
            check_others_hidden(s, view)
        if actions:
            if every:
                for a in actions:
                    local_action(s, resolve_action(s, a["id"], chosen_tiles(a)), h.now)
            a = pick(s, actions)
            h.take(ME, local_action(s, resolve_action(s, a["id"], chosen_tiles(a)), h.now))
            continue
        if any(bot_moves(h, p) for p in SEATS[1:]):
            continue
        if h.queue:
            deliver_one(h)
            continue
        h.now += 1.0
    assert h.done() and h.sessions[ME].phase is Phase.OVER
    return h


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_a_whole_hand_through_the_view_with_every_action_accepted(rules: str) -> None:
    seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    drive(rules, b"view-" + rules.encode(), pick_default, seen=seen, auto_pass=False)
    phases = {v["phase"] for v, _ in seen}
    assert {"lobby", "play", "claim", "match_over"} <= phases
    prompts = {v["prompt"] for v, _ in seen}
    assert {"ready", "turn", "call", None} <= prompts, prompts
    assert any(v["drawn"] is not None and v["rack"] != v["hand"] for v, _ in seen)
    final = seen[-1][0]
    assert final["result"] is not None and final["result"]["audit"] == "ok"
    assert final["hints"] == [] and final["waiting_for"] == []
    types = {a["type"] for _, actions in seen for a in actions}
    assert {"ready", "discard", "pass"} <= types
    hinted = [v for v, _ in seen if v["phase"] == "play" and v["hints"]]
    assert hinted, "no hints during play"


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_our_seat_declares_mahjong_through_the_view(rules: str) -> None:
    """Playing as the built-in bot would, our seat wins one of a few hands: the Mahjong
    offer resolves to a declaration the session accepts, and the result names our seat."""
    wins = 0
    # American: the seat wins at bot-10 with the house card of issue 16 (bot-5 until calls
    # that bring a hand no nearer to a card line were answered by auto_pass, issue 22). That
    # hand is tried first (ten hands fewer to play); the others stay, in case a change to the
    # bots moves the win to another hand.
    first = 10 if rules == "american" else 0
    for i in (first, *(i for i in range(11) if i != first)):
        seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        drive(rules, b"bot-%d" % i, pick_bot, every=False, seen=seen)
        final = seen[-1][0]
        offered = [a for _, actions in seen for a in actions if a["type"] == "mahjong"]
        assert final["result"] is not None
        if final["result"]["winner"] == final["seat"]:
            wins += 1
            assert offered and offered[-1]["label"].startswith("Mahjong!")
            assert final["result"]["kind"] == "mahjong" and final["result"]["hand"]
            assert final["result"]["payouts"][final["seat"]] > 0
            break
    assert wins == 1


@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_the_other_choice_each_time_also_plays_through(rules: str) -> None:
    seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    drive(rules, b"last-" + rules.encode(), pick_bold, every=False, seen=seen)
    assert seen[-1][0]["result"] is not None


def test_result_audit_names_misbehaviour_but_not_a_slow_seat() -> None:
    h = drive("mcr", b"audit", pick_default, every=False)
    s = h.sessions[ME]
    assert _audit(s) == "ok"
    slow = Problem(ProblemKind.STALLED, Seat(2), "no answer for 40 s")
    assert _audit(evolve(s, problems=(slow,))) == "ok"
    lie = Problem(ProblemKind.DIVERGENCE, Seat(1), "state hash differs from ours")
    audit = _audit(evolve(s, problems=(slow, lie)))
    assert "state hash differs from ours" in audit and "no answer" not in audit


@pytest.mark.slow
def test_a_hand_on_the_masked_deck_through_the_view() -> None:
    """With the fair (masked) deck our tiles show up a little after they arrive: no action is
    offered meanwhile, and the hand still plays through with every offer accepted."""
    seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    drive("american", b"masked", pick_default, every=False, seen=seen, deck=DeckKind.MASKED)
    assert not seen[-1][0]["practice"] and seen[-1][0]["result"]["audit"] == "ok"


def _first(
    rules: str, seed: bytes, phase: str
) -> tuple[Harness, dict[str, Any], list[dict[str, Any]]]:
    """Play seat 0 by default until its view is in ``phase`` with something to do."""
    h = open_harness(rules, seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    for _ in range(40_000):
        s = h.sessions[ME]
        view, actions = _plain(s, now=h.now)
        if actions and view["phase"] == phase:
            return h, view, actions
        if actions:
            a = pick_default(s, actions)
            h.take(ME, local_action(s, resolve_action(s, a["id"], chosen_tiles(a)), h.now))
        elif not any(bot_moves(h, p) for p in SEATS[1:]):
            if h.queue:
                deliver_one(h)
            else:
                h.now += 1.0
        assert not h.done()
    raise AssertionError(f"never reached {phase}")


def test_a4_charleston_offers_one_choose_three_pass_without_jokers() -> None:
    _, view, actions = _first("american", b"charleston", "charleston")
    assert view["phase_detail"].startswith("Charleston: first right")
    assert len(actions) == 1
    (a,) = actions
    assert a["type"] == "charleston" and a["choose"] == 3 and a["default"] is True
    assert "J" not in a["tiles"]
    assert Counter(a["tiles"]) == Counter(t for t in view["hand"] if t != "J")
    assert view["deadline"] == pytest.approx(60.0)


def test_a4_blind_pass_on_the_first_left() -> None:
    h, _, actions = _first("american", b"blind", "charleston")
    for _ in range(2):  # first right, first across
        s = h.sessions[ME]
        built = build_seat_view(s, now=h.now)
        if built["view"]["phase_detail"].startswith("Charleston: first left"):
            break
        a = built["legal_actions"][0]
        h.take(ME, local_action(s, resolve_action(s, a["id"], chosen_tiles(a)), h.now))
        while not build_seat_view(h.sessions[ME])["legal_actions"]:
            if not any(bot_moves(h, p) for p in SEATS[1:]):
                deliver_one(h)
    s = h.sessions[ME]
    _, actions = _plain(s)
    blind = [a for a in actions if "Blind" in a["label"]]
    assert [a.get("choose") for a in blind] == [2, 1, None]
    pick = blind[0]
    action = resolve_action(s, pick["id"], pick["tiles"][:2])
    assert isinstance(action, CharlestonPass)
    assert action.blind == 1 and len(action.tiles) == 3
    local_action(s, action, h.now)  # accepted


def test_a4_courtesy_proposals_zero_to_three() -> None:
    h, _, actions = _first("american", b"courtesy", "courtesy")
    assert [a.get("choose", 0) for a in actions] == [0, 1, 2, 3]
    assert actions[0]["default"] is True and actions[0]["tiles"] == []
    s = h.sessions[ME]
    two = actions[2]
    action = resolve_action(s, two["id"], two["tiles"][-2:])
    assert isinstance(action, CourtesyPass) and len(action.tiles) == 2
    local_action(s, action, h.now)


def test_resolve_action_refuses_bad_choices_with_the_reason() -> None:
    h, _, actions = _first("american", b"refuse", "charleston")
    s = h.sessions[ME]
    a = actions[0]
    with pytest.raises(IllegalAction, match="exactly 3"):
        resolve_action(s, a["id"], a["tiles"][:2])
    missing = next(c for c in ("1m", "2m", "3m", "4m", "5m", "6m", "7m") if c not in a["tiles"])
    with pytest.raises(IllegalAction, match="not one of the tiles"):
        resolve_action(s, a["id"], [*a["tiles"][:2], missing])
    with pytest.raises(IllegalAction, match="jokers are never passed"):
        resolve_action(s, a["id"], [*a["tiles"][:2], "J"])
    same = a["tiles"][0]
    if a["tiles"].count(same) == 1:
        with pytest.raises(IllegalAction):
            resolve_action(s, a["id"], [same, same, a["tiles"][1]])
    with pytest.raises(IllegalAction, match="no action 7"):
        resolve_action(s, 7)
    moved = {**a, "label": "Pass 3 tiles left"}
    with pytest.raises(IllegalAction, match="moved on"):
        resolve_action(s, a["id"], a["tiles"][:3], expected=moved)
    assert resolve_action(s, a["id"], a["tiles"][:3], expected=a) is not None


def test_b4_claim_window_pass_is_the_default_and_the_deadline_counts_down() -> None:
    h, view, actions = _first("mcr", b"claims", "claim")
    assert actions[0]["type"] == "pass" and actions[0]["default"] is True
    assert view["last_discard"] is not None
    assert "discarded" in view["phase_detail"]
    s = h.sessions[ME]
    later = build_seat_view(s, now=s.step_started + 1.0)["view"]
    assert later["deadline"] == pytest.approx(7.0)  # the default 8 s call window
    with pytest.raises(IllegalAction, match="takes no tiles"):
        resolve_action(s, actions[0]["id"], ["1m"])


def test_connected_flags_follow_the_places() -> None:
    h, view, _ = _first("mcr", b"connected", "claim")
    s = h.sessions[ME]
    assert all(p["connected"] for p in view["players"])
    assert s.hand is not None and s.hand.seating is not None
    gone = s.hand.seating[Seat.SOUTH]  # the place playing South this hand
    flags = [place != gone for place in range(4)]
    players = build_seat_view(s, connected=flags)["view"]["players"]
    assert [p["connected"] for p in players] == [True, False, True, True]


def test_an_observer_or_idle_seat_gets_no_actions() -> None:
    h = open_harness("mcr", b"idle", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    s = h.sessions[1]
    built = build_seat_view(s)
    assert built["legal_actions"] == [] and built["view"]["phase"] == "lobby"
    with pytest.raises(IllegalAction, match="nothing for this seat"):
        resolve_action(s, 0)


DISCARD_LOG = re.compile(r"^Discard slot=(\d+) ")


def test_a5_every_discard_and_called_tile_is_shown_under_the_seat_that_discarded_it() -> None:
    """The view's discard piles and each exposure's ``from`` against an independent record:
    the table log, which names the place behind every action applied."""
    h = open_harness("american", b"piles", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    checked = {"piles": 0, "called": 0}

    def check(h: Harness) -> bool:
        s = h.sessions[ME]
        hand = s.hand
        if s.phase is not Phase.PLAY or hand is None or hand.seating is None:
            return any(bot_moves(h, p) for p in SEATS)
        seating = hand.seating
        owner = {
            int(m.group(1)): wind_of(seating, place)
            for _, place, text in s.timeline
            if (m := DISCARD_LOG.match(text))
        }
        engine = hand.engine
        view = build_seat_view(s)["view"]
        for player in view["players"]:
            wind = Seat(player["seat"])
            assert player["discards"] == [
                tile_code(engine.faces[x]) for x in engine.discards if owner[x] == wind
            ]
            for exposure, laid in zip(player["exposures"], engine.exposures[wind], strict=True):
                called = [x for x in laid.slots if x in owner]
                assert exposure["from"] == (int(owner[called[0]]) if called else None)
                checked["called"] += bool(called)
        checked["piles"] += 1
        return any(bot_moves(h, p) for p in SEATS)

    drive_moves(h, check)
    assert h.done()
    assert checked["piles"] > 50 and checked["called"] > 0, checked


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_the_countdown_after_the_last_hand_leads_to_the_final_standings(rules: str) -> None:
    """After a hand that is not the match's last the view's countdown leads to the "Next
    hand"; after the last, to the "Final standings" (the curses table and the page said
    "Next hand in 59s" there): decided once, in the view, for every frontend."""
    seen: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    drive(rules, b"two hands", pick_default, every=False, seen=seen, hands=2)
    thens = {(v["hand_number"], v["next"]["then"]) for v, _ in seen if v["next"] is not None}
    assert thens == {(1, "Next hand"), (2, "Final standings")}
