"""Key presses at the table: only legal actions are sent, selections are checked first."""

from __future__ import annotations

from fourwinds.frontends.table_keys import decision_key, handle_key, on_new_event
from fourwinds.frontends.table_view import UiState
from tests.frontends import sample_views


def test_enter_discards_the_tile_under_the_cursor() -> None:
    event = sample_views.play_event()
    ui = handle_key(event, UiState(), "h").ui  # cursor on the 8th tile: 8s
    result = handle_key(event, ui, "ENTER")
    action = next(a for a in event["legal_actions"] if a["id"] == result.request["action"])  # type: ignore[index]
    assert action["tiles"] == ["8s"] and action["type"] == "discard"
    assert result.request == {"type": "act", "table": "kitchen", "seq": 7,
                              "action": action["id"], "expected": action}


def test_arrows_move_the_cursor_within_the_rack() -> None:
    event = sample_views.play_event()
    ui = handle_key(event, UiState(), "LEFT").ui
    assert ui.cursor == 0
    for _ in range(20):
        ui = handle_key(event, ui, "RIGHT").ui
    assert ui.cursor == 13


def test_digit_runs_that_menu_action() -> None:
    event = sample_views.call_event()
    result = handle_key(event, UiState(), "1")
    assert result.request is not None and result.request["action"] == 0  # Pung 4p


def test_enter_in_a_call_window_takes_the_highlighted_action() -> None:
    event = sample_views.call_event()
    ui = on_new_event(None, event, UiState())
    assert ui.menu == 2  # the default (Pass) is highlighted first
    ui = handle_key(event, ui, "UP").ui
    result = handle_key(event, ui, "ENTER")
    assert result.request is not None and result.request["action"] == 1  # Kong


def test_charleston_needs_exactly_three_selected_tiles() -> None:
    event = sample_views.charleston_event()
    ui = UiState()
    for key in ("a", "c"):
        ui = handle_key(event, ui, key).ui
    refused = handle_key(event, ui, "1")
    assert refused.request is None
    assert "select 3 tile(s), you selected 2" in refused.ui.message
    ui = handle_key(event, ui, "f").ui
    sent = handle_key(event, ui, "1")
    assert sent.request is not None and sent.request.pop("expected")["id"] == 0
    assert sent.request == {"type": "act", "table": "kitchen", "seq": 3, "action": 0,
                            "tiles": ["1m", "3m", "6s"]}


def test_selection_of_a_tile_the_action_cannot_take_is_refused() -> None:
    event = sample_views.charleston_event()
    ui = UiState()
    for key in ("a", "b", "m"):  # m is the joker, not passable
        ui = handle_key(event, ui, key).ui
    result = handle_key(event, ui, "1")
    assert result.request is None and "J cannot be chosen" in result.ui.message


def test_letter_beyond_the_rack_is_refused() -> None:
    result = handle_key(sample_views.call_event(), UiState(), "z")
    assert result.request is None and "no tile 'z'" in result.ui.message


def test_no_action_number_beyond_the_menu() -> None:
    result = handle_key(sample_views.call_event(), UiState(), "7")
    assert result.request is None and result.ui.message == "no action 7"


def test_help_scores_hints_and_quit_keys() -> None:
    event = sample_views.play_event()
    assert handle_key(event, UiState(), "?").ui.screen == "help"
    assert handle_key(event, UiState(screen="help"), "x").ui.screen == "table"
    assert handle_key(event, UiState(), "S").ui.screen == "scores"
    assert handle_key(event, UiState(), "H").ui.show_hints is False
    assert handle_key(event, UiState(), "Q").quit


def test_new_view_drops_a_selection_when_the_rack_changed() -> None:
    old = sample_views.charleston_event()
    ui = UiState(selected=frozenset({1, 2}), cursor=12)
    same = on_new_event(old, sample_views.charleston_event(seq=4), ui)
    assert same.selected == frozenset({1, 2})
    new = sample_views.play_event()
    new["view"]["hand"] = ["1m", "2m"]
    changed = on_new_event(old, new, ui)
    assert changed.selected == frozenset() and changed.cursor == 1


def test_no_event_yet_sends_nothing() -> None:
    result = handle_key(None, UiState(), "ENTER")
    assert result.request is None and "no view" in result.ui.message


def test_no_second_act_for_a_view_already_answered() -> None:
    from dataclasses import replace

    event = sample_views.call_event()
    ui = replace(UiState(), answered=decision_key(event))
    result = handle_key(event, ui, "1")
    assert result.request is None and result.ui.message == "sent; waiting for the table"
    fresh = on_new_event(event, sample_views.call_event(seq=9), ui)
    assert fresh.answered is None
    assert handle_key(sample_views.call_event(seq=9), fresh, "1").request is not None


def test_one_decision_seen_in_two_views_is_answered_once() -> None:
    first = sample_views.call_event(seq=8)
    second = sample_views.call_event(seq=9)  # another seat answered; same question for us
    for event in (first, second):
        event["view"]["step"] = 45
    assert decision_key(first) == decision_key(second)
    later = sample_views.call_event(seq=12)
    later["view"]["step"] = 60  # the next call window, the same "Pass" offered again
    assert decision_key(later) != decision_key(first)
    assert decision_key(sample_views.call_event(seq=8)) != decision_key(
        sample_views.call_event(seq=9))  # no step in the view: the seq decides
