"""The view at a hand's end and the match's end: the enriched result (American card line,
MCR fans, wall games and draws), the match's history, the final standings, the table's
timers, the scoring sheet, and MCR's flowers round asking nothing of a seat without one."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.mcr.fans import FAN_POINTS, Fan
from fourwinds.protocol.notation import parse_tiles
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, open_harness
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.session import local_action
from fourwinds.protocol.table.machine.state import Phase, TableSession
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view, resolve_action
from fourwinds.protocol.table.views.sheet import table_sheet
from fourwinds.protocol.tiles import Kind

from .hand_end_helpers import (
    AMERICAN_DISCARD_WIN,
    AMERICAN_SELF_DRAWN,
    AMERICAN_WALL_GAME,
    MCR_DISCARD_WIN,
    MCR_DRAW,
    MCR_SELF_DRAWN,
    all_at_hand_end,
    deliver_all,
    play_until,
    say_next,
    to_hand_end,
)
from .toy_rules import ToyRules  # noqa: F401  (registers the "toy" rules)


def _view(s: TableSession) -> dict[str, Any]:
    view: dict[str, Any] = dict(build_seat_view(s)["view"])
    return view


def _names_by_wind(s: TableSession) -> list[str]:
    return [p["name"] for p in _view(s)["players"]]


def _common(s: TableSession, result: dict[str, Any]) -> None:
    """What every result says, checked against the engine's outcome."""
    assert s.hand is not None and s.hand.outcome is not None
    names = _names_by_wind(s)
    payouts = list(s.hand.outcome.payments)
    assert result["payouts"] == payouts and sum(payouts) == 0
    assert result["payments"] == [
        {"seat": w, "name": names[w], "amount": payouts[w]} for w in range(4)
    ]
    assert result["scores"] == payouts  # the first hand: the match's totals are its payments
    winner = result["winner"]
    assert result["winner_name"] == (None if winner is None else names[winner])
    if result["self_drawn"] or winner is None:
        assert result["from_seat"] is None and result["from_name"] is None
    else:
        assert result["from_name"] == names[result["from_seat"]]
        assert result["from_seat"] != winner


def test_american_mahjong_on_a_discard() -> None:
    h = to_hand_end("american", AMERICAN_DISCARD_WIN)
    s = h.sessions[0]
    r = s.hand.engine.result  # type: ignore[union-attr]
    result = _view(s)["result"]
    _common(s, result)
    assert result["kind"] == "mahjong" and result["winner"] == int(r.winner)
    assert result["self_drawn"] is False and result["from_seat"] == int(r.discarder)
    line = house_card().hand(r.hand_id)
    card_hand = result["card_hand"]
    assert {k: card_hand[k] for k in ("id", "printed", "value", "jokerless", "section")} == {
        "id": line.id,
        "printed": line.text,
        "value": r.value,
        "jokerless": r.jokerless,
        "section": line.heading,
    }
    assert card_hand["alternative"] is None  # the line has one pattern
    assert card_hand["pattern"] == f"{line.text} as {card_hand['as']}"
    made = Counter(t for group in card_hand["as"].split() for t in parse_tiles(group))
    held = Counter(parse_tiles(" ".join(result["tiles"])))
    jokers = held.pop(Kind.JOKER, 0)
    assert sum(made.values()) == 14 and not held - made  # jokers shown as what they stand for
    assert sum((made - held).values()) == jokers
    assert card_hand["section"]
    assert result["winning_tile"] in result["concealed"]
    exposed = [t for group in result["exposures"] for t in group]
    assert sorted(result["concealed"] + exposed) == sorted(result["tiles"])
    assert len(result["tiles"]) == 14 and result["flowers"] == []


def test_american_self_drawn_mahjong() -> None:
    h = to_hand_end("american", AMERICAN_SELF_DRAWN)
    s = h.sessions[0]
    result = _view(s)["result"]
    _common(s, result)
    assert result["kind"] == "mahjong" and result["self_drawn"] is True
    assert result["from_seat"] is None and result["winning_tile"] in result["concealed"]
    winner = result["winner"]
    assert result["payments"][winner]["amount"] > 0
    assert all(p["amount"] < 0 for p in result["payments"] if p["seat"] != winner)


@pytest.mark.slow
def test_american_wall_game() -> None:
    h = to_hand_end("american", AMERICAN_WALL_GAME)
    s = h.sessions[0]
    result = _view(s)["result"]
    _common(s, result)
    assert result["kind"] == "wall_game" and result["winner"] is None
    assert result["card_hand"] is None and result["winning_tile"] is None
    assert [p["amount"] for p in result["payments"]] == [0, 0, 0, 0]
    # the history line says why nobody won, not the kind's name twice ("Wall game - wall game")
    last = _view(s)["history"][-1]
    assert last["kind"] == "wall_game" and last["summary"] == "no winner: the wall is exhausted"


@pytest.mark.parametrize("seed", [MCR_SELF_DRAWN, MCR_DISCARD_WIN])
def test_the_scores_at_a_hands_end_are_the_results_everywhere(seed: bytes) -> None:
    """While the table waits for "next" the players' scores (the Scores page, S), the
    result's scores and the history command's scores are one figure (issue 22, 6: the
    Scores page said 120/-30/-30/-60 beside a result of 300/-90/-90/-120)."""
    from fourwinds.frontends.cli.commands.history import _result

    h = to_hand_end("mcr", seed)
    s = h.sessions[0]
    view = _view(s)
    by_seat = {p["seat"]: p["score"] for p in view["players"]}
    assert [by_seat[w] for w in range(4)] == view["result"]["scores"]
    assert any(view["result"]["scores"]) and s.scores == (0, 0, 0, 0)  # not counted yet
    state, _hand, line = _result(s, _names_by_place(s))
    assert state == "in progress" and "over" in line
    for place, name in enumerate(_names_by_place(s)):
        assert f"{name} {s.match_scores[place]:+d}" in line


def _names_by_place(s: TableSession) -> list[str]:
    from fourwinds.frontends.cli.commands.history import player_names

    return player_names(s)


@pytest.mark.parametrize("seed", [MCR_SELF_DRAWN, MCR_DISCARD_WIN])
def test_mcr_win_lists_its_fans_and_total(seed: bytes) -> None:
    h = to_hand_end("mcr", seed)
    s = h.sessions[0]
    r = s.hand.engine.result  # type: ignore[union-attr]
    result = _view(s)["result"]
    _common(s, result)
    assert result["kind"] == "mahjong" and result["self_drawn"] is r.self_drawn
    assert result["fans"] == [{"name": n, "points": p, "count": c} for n, p, c in r.fans]
    assert result["total"] == r.total >= 8
    assert result["total"] == sum(f["points"] * f["count"] for f in result["fans"])
    assert result["winning_tile"] in result["concealed"]
    flowers = next((f["count"] for f in result["fans"] if f["name"] == "Flower Tiles"), 0)
    assert len(result["flowers"]) == flowers


def test_mcr_draw() -> None:
    h = to_hand_end("mcr", MCR_DRAW)
    s = h.sessions[0]
    result = _view(s)["result"]
    _common(s, result)
    assert result["kind"] == "draw" and result["fans"] == [] and result["total"] == 0


@pytest.mark.slow
def test_history_grows_by_one_per_hand_and_the_standings_close_the_match() -> None:
    h = open_harness("mcr", b"history", options=TableOptions(deck=DeckKind.PRACTICE, hands=3))
    for hand in range(3):
        play_until(h, all_at_hand_end)
        s = h.sessions[1]
        view = _view(s)
        history = view["history"]
        assert len(history) == hand + 1 and [e["hand_number"] for e in history] == list(
            range(1, hand + 2)
        )
        last = history[-1]
        assert last["summary"] and last["kind"] in ("mahjong", "draw")
        names = [n for n, _ in last["payments"]]
        assert names == ["seat 0", "seat 1", "seat 2", "seat 3"]  # table-place order
        assert sum(a for _, a in last["payments"]) == 0
        assert s.hand is not None and s.hand.outcome is not None
        assert [a for _, a in last["payments"]] == [
            s.hand.outcome.payments[wind_of(s.hand.seating, p)]  # type: ignore[arg-type]
            for p in SEATS
        ]
        if last["kind"] == "mahjong":
            assert last["winner"] in names and last["summary"].endswith(
                view["result"]["hand"].split(": ", 1)[1]
            )
        assert view["standings"] is None
        for place in SEATS:
            say_next(h, place)
        deliver_all(h)
    s = h.sessions[1]
    assert s.phase is Phase.OVER
    view = _view(s)
    assert view["phase"] == "match_over" and len(view["history"]) == 3
    assert s.hand is not None and s.hand.seating is not None
    seating = s.hand.seating
    assert view["result"] is not None
    assert view["result"]["scores"] == [s.scores[seating[w]] for w in SEATS]
    standings = view["standings"]
    assert [e["score"] for e in standings] == sorted(s.scores, reverse=True)
    assert {e["name"] for e in standings} == {"seat 0", "seat 1", "seat 2", "seat 3"}
    assert standings[0]["rank"] == 1
    for before, after in itertools.pairwise(standings):
        assert after["rank"] == (
            before["rank"] if after["score"] == before["score"] else standings.index(after) + 1
        )
    assert view["next"] is None and build_seat_view(s)["legal_actions"] == []


def test_the_windows_are_in_every_view_from_the_lobby_on() -> None:
    options = TableOptions(
        deck=DeckKind.PRACTICE, hands=1, call_window=5, next_window=45, turn_window=90
    )
    h = open_harness("mcr", b"windows", options=options)
    s = h.sessions[0]
    assert s.phase is Phase.LOBBY
    expected = {"call": 5.0, "turn": 90.0, "charleston": 60.0, "next": 45.0}
    assert _view(s)["windows"] == expected
    play_until(h, all_at_hand_end)
    assert _view(h.sessions[2])["windows"] == expected


def test_ready_marks_the_seats_that_said_ready() -> None:
    h = open_harness("mcr", b"ready", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    deliver_all(h)  # the joins and the seating, nobody ready yet
    assert all(s.phase is Phase.READY for s in h.sessions)
    s = h.sessions[0]
    assert [p["ready"] for p in _view(s)["players"]] == [False] * 4
    assert bot_moves(h, Seat(2))
    deliver_all(h)
    players = _view(h.sessions[0])["players"]
    assert [p["ready"] for p in players] == [False, False, True, False]  # places = seats


PRACTICE = TableOptions(deck=DeckKind.PRACTICE)


def test_the_sheets_of_both_rule_sets() -> None:
    h = open_harness("american", b"sheet", options=PRACTICE)
    sheet = table_sheet(h.sessions[0])
    card = house_card()
    assert sheet["rules"] == "american" and sheet["title"] == card.name
    assert len(sheet["entries"]) == len(card.hands)
    first = sheet["entries"][0]
    assert first == {
        "id": "year-1",
        "section": "2026",
        "pattern": "FFF 2026a 222b 2222c",
        "value": 25,
        "concealed": False,
    }
    assert any(e["concealed"] for e in sheet["entries"])
    mcr = table_sheet(open_harness("mcr", b"sheet", options=PRACTICE).sessions[0])
    assert mcr["rules"] == "mcr" and len(mcr["entries"]) == len(Fan)
    assert mcr["entries"][0] == {
        "id": "Big Four Winds",
        "section": "",
        "pattern": "",
        "value": 88,
        "concealed": False,
    }
    assert {e["id"]: e["value"] for e in mcr["entries"]}["Flower Tiles"] == FAN_POINTS[
        Fan.FLOWER_TILES
    ]
    values = [e["value"] for e in mcr["entries"]]
    assert values == sorted(values, reverse=True)
    with pytest.raises(LocalProtocolError, match="no scoring sheet"):
        table_sheet(open_harness("toy", b"sheet", options=PRACTICE).sessions[0])


def test_american_hints_name_the_card_line_and_its_pattern() -> None:
    h = open_harness("american", b"hints", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    play_until(h, lambda h: bool(_view(h.sessions[0])["hints"]))
    card = house_card()
    for hint in _view(h.sessions[0])["hints"]:
        hand_id, rest = hint.split(" (", 1)
        line = card.hand(hand_id)
        assert rest.startswith(f"{line.text}, {line.value}): needs "), hint


_OVER = (Phase.HAND_END, Phase.OVER)


@pytest.mark.slow
def test_american_hints_say_how_many_of_the_needed_tiles_are_still_unseen() -> None:
    """Issue 22 ("the count of live tiles"): each American hint that needs tiles says how
    many of each are still unseen: the tile set (4 of a kind, 8 flowers) less what the view
    shows us: every discard, every exposure and our own rack (counted here from the view)."""
    h = open_harness("american", b"hints", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    checked = 0
    for _ in range(40):
        view = _view(h.sessions[0])
        if view["phase"] == "play" and view["hints"]:
            seen = Counter(view["hand"])
            for player in view["players"]:
                seen.update(player["discards"])
                for meld in player["exposures"]:
                    seen.update(meld["tiles"])
            for hint in view["hints"]:
                needs = hint.split("): needs ", 1)[1]
                if needs.startswith("nothing"):
                    assert "unseen" not in hint, hint
                    continue
                tiles, unseen = needs.split("; unseen: ")
                counts = dict(item.split(" ") for item in unseen.split(", "))
                assert set(counts) == set(tiles.split()), hint
                for tile, left in counts.items():
                    assert int(left) == (8 if tile == "F" else 4) - seen[tile], (hint, seen)
                checked += 1
        before = h.sessions[0].step
        play_until(
            h,
            lambda h, before=before: (
                h.sessions[0].step > before + 8 or h.sessions[0].phase in _OVER
            ),
        )
        if h.sessions[0].phase in _OVER:
            break
    assert checked >= 3, checked


def test_mcr_never_asks_a_seat_to_say_no_more_flowers() -> None:
    """A seat holding no flower says "no more flowers" by itself; one holding a flower is
    offered to lay it out, and then says the rest by itself too."""
    laid = 0
    for i in range(6):
        h = open_harness(
            "mcr", b"flowers-%d" % i, options=TableOptions(deck=DeckKind.PRACTICE, hands=1)
        )
        for _ in range(100_000):
            s = h.sessions[0]
            if (
                s.phase is Phase.PLAY
                and s.hand is not None
                and s.hand.engine.phase.value != "flowers"
            ):
                break
            built = build_seat_view(s)
            labels = [a["label"] for a in built["legal_actions"]]
            assert "No more flowers" not in labels
            if labels:
                assert all(
                    label.startswith("Lay out flower") or label == "Ready to start"
                    for label in labels
                ), labels
                laid += labels[0].startswith("Lay out flower")
                h.take(Seat(0), local_action(s, resolve_action(s, 0), h.now))
                continue
            if any(bot_moves(h, p) for p in SEATS[1:]):
                continue
            assert h.queue, "the flowers round stopped"
            deliver_one(h)
    assert laid > 0


def test_the_hosts_lobby_names_a_joiner_as_soon_as_it_is_admitted() -> None:
    from fourwinds.protocol.table.machine.session import handle_message, join_table, new_table

    opened = new_table("kitchen", "mcr", bytes(range(32)), b"e" * 32, 0.0, player="Ada")
    open_payload = opened.outgoing[0].payload
    joined = join_table(open_payload, Seat(1), bytes(range(1, 33)), b"f" * 32, 0.0, player="Bob")
    host = opened.session
    for out in joined.outgoing:
        host = handle_message(host, out.payload, 1.0).session
    assert host.phase is Phase.LOBBY
    names = [p["name"] for p in _view(host)["players"]]
    assert names == ["Ada", "Bob", "seat 2", "seat 3"]


def test_names_reach_the_view_without_control_characters() -> None:
    """A seat's name is signed text of its own choosing: an escape sequence in it must not
    reach the other players' terminals."""
    from fourwinds.protocol.table.machine.session import handle_message, join_table, new_table

    opened = new_table(
        "k\x1b[2Jitchen", "mcr", bytes(range(32)), b"g" * 32, 0.0, player="Ada\x1b]0;owned\x07"
    )
    joined = join_table(
        opened.outgoing[0].payload,
        Seat(1),
        bytes(range(1, 33)),
        b"f" * 32,
        0.0,
        player="B\u202eob" + "x" * 100,
    )
    host = opened.session
    for out in joined.outgoing:
        host = handle_message(host, out.payload, 1.0).session
    view = _view(host)
    names = [p["name"] for p in view["players"]]
    assert names[0] == "Ada ]0;owned"
    assert names[1] == "B ob" + "x" * 28
    assert view["table"] == "k [2Jitchen"
    assert all(ch.isprintable() for name in names for ch in name)
