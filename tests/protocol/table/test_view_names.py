"""The seat view names each player by the name they go by now (issue 22, item 7): the caller's
``names`` (by table place: the daemon's config name for its own seat, each peer's latest
Hello) replace the names signed in the Open and the Joins everywhere the view names a player,
in the places, the result, the history and the waiting line; a place left out keeps its signed
name, and a free place in the lobby stays free."""

from __future__ import annotations

from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.session import new_table
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.contract_view import build_seat_view, signed_names

from .hand_end_helpers import MCR_DISCARD_WIN, to_hand_end


def test_a_new_name_replaces_the_signed_one_everywhere_the_view_names_that_player() -> None:
    h = to_hand_end("mcr", MCR_DISCARD_WIN)
    s = h.sessions[0]
    assert s.hand is not None and s.hand.seating is not None
    assert signed_names(s) == ("seat 0", "seat 1", "seat 2", "seat 3")
    before = build_seat_view(s)["view"]
    assert before["result"] is not None and before["result"]["winner"] is not None
    winner = before["result"]["winner"]
    place = int(s.hand.seating[Seat(winner)])  # rename the winner: named in most places
    view = build_seat_view(s, names={place: "Robert"})["view"]
    wind = int(wind_of(s.hand.seating, Seat(place)))
    assert wind == winner
    assert [p["name"] for p in view["players"]] == [
        "Robert" if w == wind else before["players"][w]["name"] for w in range(4)
    ]
    result = view["result"]
    assert result is not None and result["winner_name"] == "Robert"
    assert [p["name"] for p in result.get("payments", [])] == [p["name"] for p in view["players"]]
    assert view["history"][-1]["winner"] == "Robert"
    assert "Robert" in [name for name, _ in view["history"][-1]["payments"]]
    assert "seat " + str(place) not in str(view["players"]) + str(result) + str(view["history"])
    # the view of the same session without names still shows the signed ones (no cache mix)
    again = build_seat_view(s)["view"]["result"]
    assert again is not None and again["winner_name"] == f"seat {place}"


def test_a_free_place_stays_free_whatever_names_the_caller_gives() -> None:
    opened = new_table("kitchen", "mcr", bytes(range(32)), b"e" * 32, 0.0, player="Ada")
    view = build_seat_view(opened.session, names={0: "Annie", 1: "Bob"})["view"]
    assert [p["name"] for p in view["players"]] == ["Annie", "seat 1", "seat 2", "seat 3"]
    assert signed_names(opened.session)[0] == "Ada"
