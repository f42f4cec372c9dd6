"""Key presses at the table: only legal actions are sent, selections are checked first."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fourwinds.frontends.client.acting import decision_key
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.frontends.terminal.table_keys import (
    RESULT_GUARD_S,
    handle_key,
    on_new_event,
)
from fourwinds.frontends.terminal.table_view import UiState, render
from tests.frontends import sample_views


def test_enter_discards_the_tile_under_the_cursor() -> None:
    event = sample_views.play_event()
    ui = handle_key(event, UiState(), "h").ui  # cursor on the 8th tile: 8s
    result = handle_key(event, ui, "ENTER")
    action = next(a for a in event["legal_actions"] if a["id"] == result.request["action"])  # type: ignore[index]
    assert action["tiles"] == ["8s"] and action["type"] == "discard"
    assert result.request == {
        "type": "act",
        "table": "kitchen",
        "seq": 7,
        "action": action["id"],
        "expected": action,
    }


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
    assert sent.request == {
        "type": "act",
        "table": "kitchen",
        "seq": 3,
        "action": 0,
        "tiles": ["1m", "3m", "6s"],
    }


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
    assert handle_key(event, UiState(), "H").ui.screen == "history"
    assert handle_key(event, UiState(), "TAB").ui.show_hints is False
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
        sample_views.call_event(seq=9)
    )  # no step in the view: the seq decides


# -- the end of a hand, more time, the screens of their own ----------------------------------

from fourwinds.frontends.client.daemon_link import DaemonTable  # noqa: E402
from fourwinds.frontends.terminal.curses_table import TableScreen  # noqa: E402
from tests.frontends.fake_api import FakeApi  # noqa: E402


def test_n_enter_and_N_send_next_on_the_end_of_hand_screen() -> None:
    event = sample_views.hand_over_event()
    ui = on_new_event(None, event, UiState())
    for key in ("n", "N", "ENTER"):
        result = handle_key(event, ui, key)
        assert result.request is not None and result.request["action"] == 0, key
        assert result.request["expected"]["type"] == "next"


def test_a_key_pressed_as_the_hand_ends_does_not_say_next() -> None:
    """Four friends' test, under load: a player's key for the last call window reached the
    result screen as it came up and said next for them; within RESULT_GUARD_S of the
    result's coming up Enter, n and the numbers are not taken, and the screen says why."""
    event = sample_views.hand_over_event()
    ui = on_new_event(None, event, UiState())
    for key in ("n", "ENTER", "1"):
        early = handle_key(event, replace(ui, on_screen=0.3), key)
        assert early.request is None and "hand has just ended" in early.ui.message, key
    later = handle_key(event, replace(ui, on_screen=RESULT_GUARD_S + 0.1), "n")
    assert later.request is not None and later.request["expected"]["type"] == "next"
    assert handle_key(event, replace(ui, on_screen=0.3), "S").ui.screen == "scores"


def test_n_picks_the_fourteenth_tile_while_the_rack_is_shown() -> None:
    event = sample_views.play_event()
    result = handle_key(event, UiState(), "n")
    assert result.request is None and result.ui.cursor == 13


def test_next_when_the_table_does_not_wait_for_us_says_so() -> None:
    event = sample_views.hand_over_event(waiting=(2, 3))
    result = handle_key(event, UiState(), "n")
    assert result.request is None and "not waiting for you" in result.ui.message


def test_t_asks_for_more_time_without_answering_the_call() -> None:
    event = sample_views.more_time_call_event()
    result = handle_key(event, UiState(), "t")
    assert result.request is not None and result.request["action"] == 3
    assert result.final is False
    refused = handle_key(sample_views.call_event(), UiState(), "T")
    assert refused.request is None and "more time is not offered" in refused.ui.message


def test_h_opens_the_history_only_where_it_is_no_tile() -> None:
    assert handle_key(sample_views.hand_over_event(), UiState(), "h").ui.screen == "history"
    on_rack = handle_key(sample_views.play_event(), UiState(), "h")
    assert on_rack.ui.screen == "table" and on_rack.ui.cursor == 7


def test_c_opens_the_sheet_and_asks_for_it_once() -> None:
    result = handle_key(sample_views.play_event(), UiState(), "C")
    assert result.ui.screen == "sheet" and result.fetch_sheet
    again = handle_key(sample_views.play_event(), UiState(sheet={"entries": []}), "C")
    assert not again.fetch_sheet


def test_scrolled_screens_scroll_and_any_other_key_goes_back() -> None:
    ui = UiState(screen="sheet")
    for key, want in (("DOWN", 1), ("PGDN", 11), ("UP", 10), ("PGUP", 0), ("UP", 0)):
        ui = handle_key(None, ui, key).ui
        assert ui.scroll == want and ui.screen == "sheet"
    back = handle_key(None, replace(ui, scroll=5), "x").ui
    assert back.screen == "table" and back.scroll == 0


def _screen_on(
    events: list[ViewEvent], sheet: dict[str, Any] | None = None
) -> tuple[TableScreen, FakeApi]:
    api = FakeApi(events, sheet=sheet)
    screen = TableScreen(DaemonTable(api, "kitchen", refresh=0.0), ascii_only=True)
    assert screen.poll(0.0)
    return screen, api


def test_pressing_n_sends_the_next_action_to_the_daemon() -> None:
    screen, api = _screen_on(
        [sample_views.hand_over_event(seq=1), sample_views.hand_over_event(seq=2, waiting=(2, 3))]
    )
    assert screen.press("n")  # at once: taken for a key meant for the last discard
    assert not [m for m in api.sent if m["type"] == "act"]
    screen.decision_shown -= RESULT_GUARD_S  # the player has looked at the result
    assert screen.press("n")
    acts = [m for m in api.sent if m["type"] == "act"]
    assert len(acts) == 1 and acts[0]["expected"]["type"] == "next" and acts[0]["seq"] == 1
    assert screen.ui.message == "sent: Next hand"
    screen.poll(0.0)
    assert "Waiting for West (Cy), North (Di)" in "\n".join(screen.lines(80, 24))


def test_more_time_leaves_the_call_open_for_an_answer() -> None:
    screen, _ = _screen_on(
        [sample_views.more_time_call_event(seq=1), sample_views.call_event(seq=2)]
    )
    screen.press("T")
    assert screen.ui.answered is None and screen.ui.message == "sent: More time"


def test_the_card_comes_from_the_daemons_sheet_request() -> None:
    screen, api = _screen_on([sample_views.play_event()], sheet=sample_views.sample_sheet())
    screen.press("C")
    assert {"type": "sheet", "table": "kitchen"} in api.sent
    lines = screen.lines(80, 24)
    assert lines[0] == "=== House card 2024: 32 hands ==="
    for _ in range(50):
        screen.press("PGDN")
    lines = screen.lines(80, 24)  # scrolled to the end, never past it
    assert any(line.startswith("  run-29") for line in lines) and screen.ui.scroll == 34 - 22
    older, _ = _screen_on([sample_views.play_event()], sheet=None)
    older.press("C")
    assert "The daemon did not send it: unknown request type 'sheet'" in older.lines(80, 24)


def test_the_lobby_reads_the_tables_members_as_a_safety_net() -> None:
    api = FakeApi([sample_views.lobby_event(seated=1)])
    api.tables[0]["members"] = [
        {"fingerprint": "36d8:4e7e", "alive": True, "player": "ada"},
        {"fingerprint": "9a1b:0c2d", "alive": True, "player": "bob"},
    ]
    link = DaemonTable(api, "kitchen", refresh=0.0)
    event = link.latest_event(0.0)
    assert event is not None and [m["player"] for m in event["members"]] == ["ada", "bob"]
    assert {"type": "tables"} in api.sent


def test_the_sent_line_goes_when_the_table_moves_to_another_phase() -> None:
    """ "sent: Ready to start" stayed into the Charleston and "sent: Discard 8p" onto the
    result screen (issue 22, 10): the line answers a decision of its own phase only."""
    ui = UiState(message="sent: Ready to start")
    lobby = sample_views.lobby_event(seated=4, ready=(0,))
    again = on_new_event(lobby, sample_views.lobby_event(seq=3, seated=4, ready=(0, 1)), ui)
    assert again.message == "sent: Ready to start"
    assert on_new_event(lobby, sample_views.charleston_event(), ui).message == ""
    discarded = replace(ui, message="sent: Discard 8p")
    play = sample_views.play_event()
    assert on_new_event(play, sample_views.result_event(), discarded).message == ""


def test_the_highlight_stays_while_the_same_decision_is_asked() -> None:
    """Up/down picked an action and the next view (another seat's answer, a countdown) put
    the highlight back on the default (issue 22, 15); a new decision starts at its default."""
    call = sample_views.call_event()
    call["view"]["step"] = 11  # the session's step names the decision
    ui = on_new_event(None, call, UiState())
    assert ui.menu == 2  # Pass, the default
    moved = handle_key(call, ui, "UP").ui
    assert moved.menu == 1
    again = sample_views.call_event(seq=9)  # the same question, a later view
    again["view"]["step"] = 11
    assert on_new_event(call, again, moved).menu == 1
    fresh = sample_views.call_event(seq=10)
    fresh["view"]["step"] = 12  # the next discard's window
    assert on_new_event(call, fresh, moved).menu == 2


def test_l_in_the_lobby_leaves_and_asks_first_when_the_others_cannot_go_on() -> None:
    """Issue 22, item 8: the lobby had no way to leave the table."""
    event = sample_views.lobby_event(seated=2)
    left = handle_key(event, UiState(), "L")
    assert left.leave and left.request == {"type": "leave", "table": "kitchen", "force": False}
    event["leave_warning"] = "you host kitchen, where Bob waits: leaving closes the table"
    armed = handle_key(event, UiState(), "L")
    assert armed.request is None and armed.ui.leave_armed
    assert armed.ui.message.endswith("press L again to leave for good")
    stays = handle_key(event, armed.ui, "UP")
    assert stays.request is None and not stays.ui.leave_armed and stays.ui.message == ""
    confirmed = handle_key(event, armed.ui, "L")
    assert confirmed.request == {"type": "leave", "table": "kitchen", "force": True}
    # at the table, L is no key (a match in progress is left with `fourwinds leave`)
    assert handle_key(sample_views.play_event(), UiState(), "L").request is None


def test_the_lobby_shows_a_place_freed_between_two_players() -> None:
    from fourwinds.frontends.terminal.table_lobby import lobby_lines

    event = sample_views.lobby_event(seated=1)
    members = [{"player": "Ada", "place": 0}, {"player": "Cy", "place": 2}]
    lines = lobby_lines(event["view"], members)
    assert lines[1] == "Places: 2 of 4 taken, 2 free"
    assert lines[3].strip() == "2. (free)" and lines[4].strip().startswith("3. Cy")


def test_a_table_the_daemon_left_says_so_on_the_screen() -> None:
    """The host closed the lobby (or `fourwinds leave` ran elsewhere): the daemon dropped the
    table, and the open screen said nothing, frozen on its last view."""
    api = FakeApi([sample_views.lobby_event(seated=2)])
    link = DaemonTable(api, "kitchen", refresh=0.0)
    assert link.latest_event(0.0) is not None
    link.table = "ab0cd-left"  # the daemon now answers "you are not seated at a table"
    event = link.latest_event(0.0)
    assert event is not None and event["gone"] and event["legal_actions"] == []
    text = "\n".join(render(event, UiState(), 100, 30, True))
    assert "This table is gone: its host closed it, or you left it elsewhere" in text


def test_a_new_turn_puts_the_cursor_on_the_default_discard() -> None:
    """Enter at once discards what the screen calls the default, not the leftmost tile (a
    player who pressed Enter at each turn threw away the rack from the left and never laid
    out a flower); the cursor a player moved stays while the same decision is asked."""
    play = sample_views.play_event()
    play["view"]["step"] = 20
    tiles = sample_views.play_event()["view"]["hand"]
    ui = on_new_event(None, play, UiState())
    default = next(a for a in play["legal_actions"] if a.get("default"))
    assert ui.cursor == max(i for i, t in enumerate(tiles) if t == default["tiles"][0])
    sent = handle_key(play, ui, "ENTER").request
    assert sent is not None and sent["action"] == default["id"]
    moved = handle_key(play, ui, "a").ui
    again = sample_views.play_event(seq=8)  # the same turn, a later view
    again["view"]["step"] = 20
    assert on_new_event(play, again, moved).cursor == 0
    call = sample_views.call_event()  # a call window: no discard, the cursor stays
    call["view"]["step"] = 21
    assert on_new_event(again, call, moved).cursor == 0


def test_enter_does_a_default_in_the_menu_until_the_cursor_moves() -> None:
    """Before: at a turn whose default is Mahjong (or a flower laid out) Enter discarded the
    tile under the cursor, so a player pressing Enter for the default threw the win away.
    Enter now does what the player last pointed at: the menu's default at first, the rack
    after a cursor move, the menu again after up/down."""
    win = sample_views.play_event()
    win["view"]["step"] = 30
    for action in win["legal_actions"]:
        action.pop("default", None)
    mahjong = next(a for a in win["legal_actions"] if a["type"] == "mahjong")
    mahjong["default"] = True
    ui = on_new_event(None, win, UiState())
    sent = handle_key(win, ui, "ENTER").request
    assert sent is not None and sent["action"] == mahjong["id"]
    aimed = handle_key(win, ui, "h").ui  # the cursor on 8s
    sent = handle_key(win, aimed, "ENTER").request
    assert sent is not None and sent["expected"]["tiles"] == ["8s"]
    back = handle_key(win, handle_key(win, aimed, "DOWN").ui, "UP").ui
    sent = handle_key(win, back, "ENTER").request
    assert sent is not None and sent["action"] == mahjong["id"]
    turn = sample_views.play_event()  # a discard is the default
    turn["view"]["step"] = 31
    ui = on_new_event(win, turn, aimed)
    sent = handle_key(turn, ui, "ENTER").request
    assert sent is not None and sent["expected"]["type"] == "discard"
