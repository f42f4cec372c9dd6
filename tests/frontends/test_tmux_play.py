"""The screen reading of tmux_play (used by the `play` tmux tests) against screens the real
``table_view.render`` draws: call entries of the menu, our seat's rows, exposure text; in the
full layout and the compact ones."""

from __future__ import annotations

from collections import Counter

import pytest

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.frontends.terminal.table_view import UiState, render
from tests.frontends.sample_views import call_event
from tests.frontends.tmux_play import best_offer, call_offers, exposure_text, our_rows

SIZES = [(110, 45), (80, 24), (60, 16)]  # full, one line a seat, bare


def _mcr_call() -> ViewEvent:
    event = call_event()
    event["view"]["rules"] = "mcr"
    event["view"]["players"][0]["exposures"] = [
        {"tiles": ["1z", "1z", "1z"], "label": "pung", "from": 2}
    ]
    event["legal_actions"] = [
        {"id": 0, "type": "pass", "label": "Pass", "tiles": [], "default": True},
        {"id": 1, "type": "call", "label": "Call chow 3p 4p 5p", "tiles": ["3p", "4p", "5p"]},
        {"id": 2, "type": "call", "label": "Call pung 4p", "tiles": ["4p", "4p", "4p"]},
    ]
    return event


def _american_call() -> ViewEvent:
    event = call_event()
    event["legal_actions"] = [
        {"id": 0, "type": "pass", "label": "Pass", "tiles": [], "default": True},
        {"id": 1, "type": "call", "label": "Call pung 4p (2 jokers)", "tiles": ["J", "J", "4p"]},
        {
            "id": 2,
            "type": "call",
            "label": "Call kong 4p (1 joker)",
            "tiles": ["4p", "4p", "J", "4p"],
        },
    ]
    return event


def _screen(event: ViewEvent, width: int, height: int) -> str:
    return "\n".join(render(event, UiState(), width, height, ascii_only=True))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_call_entries_are_read_with_their_menu_number(width: int, height: int) -> None:
    offers = call_offers(_screen(_mcr_call(), width, height))
    assert [(o.key, o.label, o.kind) for o in offers] == [
        ("2", "Call chow 3p 4p 5p", "chow"),
        ("3", "Call pung 4p", "pung"),
    ]
    assert offers[0].meld_tiles() == Counter(["3p", "4p", "5p"])
    assert best_offer(offers).kind == "pung"  # a pung outranks another seat's chow


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_american_calls_with_jokers_read_as_their_label(width: int, height: int) -> None:
    offers = call_offers(_screen(_american_call(), width, height))
    assert [(o.key, o.label) for o in offers] == [
        ("2", "Call pung 4p (2 jokers)"),
        ("3", "Call kong 4p (1 joker)"),
    ]
    assert offers[0].meld_tiles() == Counter({"J": 2, "4p": 1})
    assert offers[1].meld_tiles() == Counter({"4p": 3, "J": 1})


def test_no_call_entry_on_a_screen_without_calls() -> None:
    event = _mcr_call()
    event["legal_actions"] = event["legal_actions"][:1]
    assert call_offers(_screen(event, 110, 45)) == []


@pytest.mark.parametrize(("width", "height"), SIZES[:2])
def test_our_exposure_is_found_in_our_rows_only(width: int, height: int) -> None:
    screen = _screen(_mcr_call(), width, height)
    ours = exposure_text({"tiles": ["1z", "1z", "1z"], "label": "pung", "from": 2})
    bobs = exposure_text({"tiles": ["5p", "5p", "J"], "label": "pung", "from": 0})
    assert ours == "[1z 1z 1z pung<W]" and bobs == "[5p 5p J pung<E]"
    rows = our_rows(screen)
    assert any(ours in row for row in rows), screen
    assert bobs in screen and not any(bobs in row for row in rows), screen
