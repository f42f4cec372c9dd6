"""What the table screen shows for hand-written views, in Unicode and ASCII, large and small."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.frontends.table_view import UiState, menu_actions, render
from fourwinds.frontends.tile_text import fit, text_width, tile_cell
from tests.frontends import sample_views


def _screen(event: object, width: int = 100, height: int = 40, ascii_only: bool = True,
            ui: UiState | None = None) -> str:
    lines = render(event, ui or UiState(), width, height, ascii_only)  # type: ignore[arg-type]
    return "\n".join(lines)


def test_rack_shows_every_tile_with_its_letter_in_ascii() -> None:
    screen = _screen(sample_views.play_event())
    assert "1m 2m 3m 4p 4p 6s 7s 8s 1z 1z 5z F  J  J" in screen
    assert "a  b  c  d  e  f  g  h  i  j  k  l  m  n" in screen
    assert "drew 6s" in screen


def test_unicode_rack_shows_glyphs_and_codes() -> None:
    screen = _screen(sample_views.play_event(), ascii_only=False)
    assert "\U0001f007" in screen  # 1 Crak glyph
    assert "\U0001f02a" in screen  # joker glyph
    assert "1m 2m 3m" in screen  # codes under the glyphs on a large screen


def test_ascii_screen_has_no_non_ascii_character() -> None:
    for event in (sample_views.play_event(), sample_views.result_event(match_over=True)):
        for width, height in ((100, 40), (60, 18)):
            assert _screen(event, width, height).isascii()


def test_every_seat_shows_exposures_and_discards_in_turn_order() -> None:
    screen = _screen(sample_views.play_event())
    assert "[5p 5p J pung<E]" in screen  # South's pung, called from East
    assert "discards: 1m 2m 7z F" in screen  # South
    assert "discards: 3p 6s 6s" in screen  # West
    lines = screen.splitlines()
    order = [next(i for i, line in enumerate(lines) if line.startswith(f"{w} ")) for w in "SWNE"]
    assert order == sorted(order)  # right, across, left, then us


def test_header_shows_wall_turn_countdown_and_phase() -> None:
    screen = _screen(sample_views.call_event(), ui=UiState(elapsed=3.2))
    assert "wall 71" in screen
    assert "time 5s" in screen  # 8 s deadline, 3.2 s elapsed
    assert "Phase: South discarded 4p: call or pass" in screen
    assert "turn: South (Bob)" in screen
    assert "last discard 4p by South (Bob)" in screen


def test_seat_flags_offline_dead_dealer_and_you() -> None:
    screen = _screen(sample_views.play_event())
    assert "[OFFLINE]" in screen
    assert "[dead hand]" in screen
    assert "[you, dealer, <- turn]" in screen


def test_call_prompt_lists_only_the_legal_calls_and_the_default() -> None:
    screen = _screen(sample_views.call_event())
    assert ">1 Pung 4p" in screen
    assert " 2 Kong 4p" in screen
    assert " 3 Pass [default]" in screen
    assert "Chow" not in screen


def test_discards_are_not_listed_one_by_one_in_the_menu() -> None:
    event = sample_views.play_event()
    menu = menu_actions(event["legal_actions"])
    assert [a["type"] for a in menu] == ["exchange", "mahjong"]
    screen = _screen(event)
    assert "Discard: move to a tile and press Enter (default 6s)" in screen
    assert "Discard 1m" not in screen


def test_charleston_asks_to_select_three() -> None:
    screen = _screen(sample_views.charleston_event(), ui=UiState(selected=frozenset({0, 4, 9})))
    assert "Pass right (select 3 tiles, then this)" in screen
    marks = next(line for line in screen.splitlines() if line.strip().startswith("*"))
    assert [i for i, c in enumerate(marks) if c == "*"] == [0, 12, 27]  # tiles a, e, j


def test_cursor_marker_sits_under_the_cursor_tile() -> None:
    lines = _screen(sample_views.play_event(), ui=UiState(cursor=5)).splitlines()
    rack = next(i for i, line in enumerate(lines) if line.startswith("1m 2m"))
    pointer = lines[rack + 2]
    assert pointer.index("^") == lines[rack].index("6s")


def test_hints_panel_and_toggle() -> None:
    assert "2468-1 needs 2m 4m" in _screen(sample_views.play_event())
    assert "2468-1 needs" not in _screen(sample_views.play_event(), ui=UiState(show_hints=False))


def test_wide_screen_puts_hints_beside_the_seats() -> None:
    lines = _screen(sample_views.play_event(), width=140).splitlines()
    row = next(line for line in lines if "Hints:" in line)
    assert row.startswith("S Bob")


def test_end_of_hand_screen_shows_winner_payouts_and_audit() -> None:
    screen = _screen(sample_views.result_event())
    assert "=== Hand 2 over: Mahjong by South (Bob) ===" in screen
    assert "Hand: 2468-1" in screen
    assert "South (Bob) +100" in screen and "East (Ada) -50" in screen
    assert "Audit: ok" in screen
    assert "Ready for the next hand" in screen


def test_failed_audit_is_shown_with_its_reason() -> None:
    event = sample_views.result_event()
    event["view"]["result"]["audit"] = "West's reveal does not match its commitment"
    assert "Audit: FAILED - West's reveal does not match its commitment" in _screen(event)


def test_match_over_shows_the_scoreboard_best_first() -> None:
    screen = _screen(sample_views.result_event(match_over=True), height=60)
    lines = screen.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("=== Scoreboard")))
    assert lines[start + 1].startswith("1. Ada")
    assert lines[start + 4].startswith("4. Bob")
    assert "The match is over." in screen


def test_scoreboard_and_help_screens() -> None:
    event = sample_views.play_event()
    assert _screen(event, ui=UiState(screen="scores")).startswith("=== Scoreboard")
    helptext = _screen(event, ui=UiState(screen="help"))
    assert "=== fourwinds: help ===" in helptext
    assert "Press any key to go back" in helptext


def test_keys_are_on_screen_at_every_size() -> None:
    for width, height in ((120, 50), (80, 24), (50, 14)):
        lines = render(sample_views.play_event(), UiState(), width, height, True)
        assert "Q quit" in lines[-1] or "Q qu" in lines[-1]


def test_small_screen_keeps_rack_actions_and_keys() -> None:
    lines = render(sample_views.call_event(), UiState(), 60, 16, True)
    screen = "\n".join(lines)
    assert len(lines) <= 16
    assert "1m 2m 3m" in screen
    assert "Pass [default]" in screen
    assert "S Bob" in screen and "d:1m 2m 7z F" in screen  # one line a seat, latest discards


def test_tiny_window_says_so() -> None:
    assert render(sample_views.play_event(), UiState(), 15, 4, True)[:2] == ["window", "too small"]


def test_no_event_yet_waits() -> None:
    assert "Waiting for the table..." in _screen(None)


def test_refusal_message_shown_above_keys() -> None:
    lines = render(sample_views.play_event(), UiState(message="refused: stale view"), 100, 40,
                   True)
    assert lines[-2] == "! refused: stale view"


def test_unknown_tile_code_is_shown_not_crashed() -> None:
    assert tile_cell("9x", False) == "9x "


@settings(max_examples=60)
@given(st.integers(min_value=1, max_value=200), st.integers(min_value=1, max_value=80),
       st.booleans(), st.sampled_from(["play", "call", "charleston", "result"]))
def test_screen_always_fits_the_window(width: int, height: int, ascii_only: bool,
                                       which: str) -> None:
    event = {
        "play": sample_views.play_event,
        "call": sample_views.call_event,
        "charleston": sample_views.charleston_event,
        "result": sample_views.result_event,
    }[which]()
    lines = render(event, UiState(), width, height, ascii_only)
    assert 1 <= len(lines) <= height
    assert all(text_width(line) <= width for line in lines)


def test_fit_cuts_wide_characters_by_columns() -> None:
    assert text_width(fit("\U0001f004" * 10, 7)) <= 7


def test_long_menu_shows_a_window_around_the_highlight() -> None:
    event = sample_views.call_event()
    event["legal_actions"] = [
        {"id": f"x{i}", "type": "charleston", "label": f"Pass combination {i}"}
        for i in range(200)
    ]
    screen = _screen(event, ui=UiState(menu=100))
    assert "Actions (200, up/down to see all):" in screen
    assert ">  Pass combination 100" in screen
    assert "... 94 more above" in screen and "... 94 more below" in screen
    small = render(event, UiState(menu=199), 60, 16, True)
    assert any(">  Pass combination 199" in line for line in small)


def test_without_a_rack_discards_are_menu_entries_with_the_default_first() -> None:
    from fourwinds.frontends.table_keys import handle_key, on_new_event

    event = sample_views.play_event()
    event["view"]["hand"] = []
    screen = _screen(event)
    assert "Discard: move to a tile" not in screen
    assert "Discard 6s [default]" in screen
    ui = on_new_event(None, event, UiState())
    result = handle_key(event, ui, "ENTER")
    sent = next(a for a in event["legal_actions"] if a["id"] == result.request["action"])  # type: ignore[index]
    assert sent["tiles"] == ["6s"]


def test_a_hand_number_in_place_of_the_rack_is_not_a_rack() -> None:
    event = sample_views.play_event()
    event["view"]["hand"] = 3  # the table session's raw view names the hand number "hand"
    screen = _screen(event)
    assert "(no tiles)" in screen and "Discard 6s [default]" in screen
