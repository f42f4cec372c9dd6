"""What the table screen shows for hand-written views, in Unicode and ASCII, large and small."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.frontends.terminal.table_view import UiState, menu_actions, render
from fourwinds.frontends.terminal.tile_text import fit, text_width, tile_cell
from fourwinds.protocol.table.views.reveal import AUDIT_RUNNING
from fourwinds.protocol.table.views.view_types import HandResult, NextEntry, PlayerEntry
from tests.frontends import sample_views


def _screen(
    event: ViewEvent | None,
    width: int = 100,
    height: int = 40,
    ascii_only: bool = True,
    ui: UiState | None = None,
) -> str:
    lines = render(event, ui or UiState(), width, height, ascii_only)
    return "\n".join(lines)


def _result(event: ViewEvent) -> HandResult:
    """The event's result (a sample at a hand's end has one)."""
    result = event["view"]["result"]
    assert result is not None
    return result


def _next(event: ViewEvent) -> NextEntry:
    """The event's ``next`` (a sample at a hand's end has one)."""
    nxt = event["view"]["next"]
    assert nxt is not None
    return nxt


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


def test_the_last_hands_countdown_says_it_leads_to_the_final_standings() -> None:
    """The view says what the countdown after a hand leads to; the table shows its words."""
    event = sample_views.hand_over_event()
    _next(event)["then"] = "Final standings"
    screen = _screen(event, ui=UiState(elapsed=3.2))
    assert "Final standings in 12s" in screen and "Next hand in" not in screen
    assert "when you are ready for the final standings." in screen
    keys = screen.splitlines()[-1]
    assert "final standings" in keys and "next hand" not in keys


def test_the_keys_line_after_an_ordinary_hand_says_next_hand() -> None:
    screen = _screen(sample_views.hand_over_event(), ui=UiState(elapsed=3.2))
    assert "next hand" in screen.splitlines()[-1]


def test_failed_audit_is_shown_with_its_reason() -> None:
    event = sample_views.result_event()
    _result(event)["audit"] = "West's reveal does not match its commitment"
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
    helptext = _screen(event, ui=UiState(screen="help"), height=80)
    assert "=== fourwinds: help ===" in helptext
    assert "Press any key to go back" in helptext
    longer = _screen(event, ui=UiState(screen="help"), height=24)  # scrolled, with the keys
    assert "any other key: back to the table" in longer


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
    lines = render(sample_views.play_event(), UiState(message="refused: stale view"), 100, 40, True)
    assert lines[-2] == "! refused: stale view"


def test_unknown_tile_code_is_shown_not_crashed() -> None:
    assert tile_cell("9x", False) == "9x "


@settings(max_examples=60)
@given(
    st.integers(min_value=1, max_value=200),
    st.integers(min_value=1, max_value=80),
    st.booleans(),
    st.sampled_from(["play", "call", "charleston", "result"]),
)
def test_screen_always_fits_the_window(
    width: int, height: int, ascii_only: bool, which: str
) -> None:
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
    event["legal_actions"] = [  # off the contract: ids that are not numbers, no tiles
        {"id": f"x{i}", "type": "charleston", "label": f"Pass combination {i}"}  # type: ignore[typeddict-item]
        for i in range(200)
    ]
    screen = _screen(event, ui=UiState(menu=100))
    assert "Actions (200, up/down to see all):" in screen
    assert ">  Pass combination 100" in screen
    assert "... 94 more above" in screen and "... 94 more below" in screen
    small = render(event, UiState(menu=199), 60, 16, True)
    assert any(">  Pass combination 199" in line for line in small)


def test_without_a_rack_discards_are_menu_entries_with_the_default_first() -> None:
    from fourwinds.frontends.terminal.table_keys import handle_key, on_new_event

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
    event["view"]["hand"] = 3  # type: ignore[typeddict-item]  # the table session's raw view names the hand number "hand"
    screen = _screen(event)
    assert "(no tiles)" in screen and "Discard 6s [default]" in screen


# -- readable at 80x24 and up: every tile of every seat, wrapping, no overlap ----------------

import re  # noqa: E402
from collections.abc import Callable  # noqa: E402

import pytest  # noqa: E402

from fourwinds.frontends.terminal.table_layout import Panel, overlaps  # noqa: E402
from fourwinds.frontends.terminal.table_view import layout  # noqa: E402

SIZES = [(80, 24), (120, 40)]
MODES = [True, False]  # --ascii, glyphs
_CODE = re.compile(r"(?<![\w-])([1-9][mpsf]|[1-7]z|F|J)(?![\w-])")


def _codes(text: str) -> list[str]:
    return _CODE.findall(text)


def _seat_tiles(player: PlayerEntry) -> list[str]:
    """A seat's tiles in the order the screen lists them: exposures, flowers, discards."""
    tiles = [str(t) for meld in player["exposures"] for t in meld["tiles"]]
    return tiles + [str(t) for t in player["flowers"]] + [str(t) for t in player["discards"]]


def _panel(panels: list[Panel], name: str) -> Panel:
    return next(p for p in panels if p.name == name)


SEAT_EVENTS = {
    "late": sample_views.late_play_event,
    "call": sample_views.more_time_call_event,
    "play": sample_views.play_event,
}


@pytest.mark.parametrize("which", sorted(SEAT_EVENTS))
@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("ascii_only", MODES)
def test_every_tile_of_every_seat_is_on_screen_as_a_code(
    which: str, width: int, height: int, ascii_only: bool
) -> None:
    event = SEAT_EVENTS[which]()
    panels = layout(event, UiState(), width, height, ascii_only)
    seats = "\n".join(_panel(panels, "seats").lines)
    players = {p["seat"]: p for p in event["view"]["players"]}
    expected = [code for seat in (1, 2, 3, 0) for code in _seat_tiles(players[seat])]
    assert _codes(seats) == expected, seats
    assert "\u2026" not in seats and "~" not in seats and ".." not in seats  # nothing cut
    lines = render(event, UiState(), width, height, ascii_only)
    assert len(lines) <= height and all(text_width(line) <= width for line in lines)


def test_a_long_discard_row_wraps_and_its_newest_tile_is_visible() -> None:
    event = sample_views.late_play_event()
    lines = render(event, UiState(), 80, 24, True)
    west = next(i for i, line in enumerate(lines) if line.startswith("W Cy"))
    assert lines[west + 1].startswith("    ") and lines[west + 1].endswith(" 5z")  # the newest
    assert lines[west].endswith("d:3s 1m")  # the oldest, on the seat's first line


def test_glyph_mode_shows_other_seats_tiles_with_their_codes_on_a_big_screen() -> None:
    screen = "\n".join(render(sample_views.late_play_event(), UiState(), 120, 40, False))
    assert "\U0001f019 1p" in screen or "\U0001f021 9p" in screen  # a glyph with its code
    assert "\U0001f021 9p" in screen  # South's pung of 9 Dots, as glyphs with codes


ALL_EVENTS: dict[str, Callable[[], ViewEvent]] = {
    **SEAT_EVENTS,
    "charleston": sample_views.charleston_event,
    "old_result": sample_views.result_event,
    "hand_over": sample_views.hand_over_event,
    "hand_over_mcr": lambda: sample_views.hand_over_event(rules="mcr", self_drawn=True),
    "wall": sample_views.wall_game_event,
    "match_over": sample_views.match_over_event,
    "lobby": sample_views.lobby_event,
    "lobby_full": lambda: sample_views.lobby_event(seated=4, ready=(1, 2)),
}


@pytest.mark.parametrize("which", sorted(ALL_EVENTS))
@pytest.mark.parametrize(("width", "height"), [*SIZES, (60, 16), (140, 45)])
@pytest.mark.parametrize("ascii_only", MODES)
def test_no_two_panels_write_the_same_cell(
    which: str, width: int, height: int, ascii_only: bool
) -> None:
    event = ALL_EVENTS[which]()
    ui = UiState(message="refused: stale view")
    panels = layout(event, ui, width, height, ascii_only)
    assert overlaps(panels) == []
    cells = [cell for panel in panels for cell in panel.cells()]
    assert len(cells) == len(set(cells))
    assert all(0 <= row < height and 0 <= col < width for row, col in cells)
    lines = render(event, ui, width, height, ascii_only)
    assert lines[-1].endswith("Q quit") or "Q quit" in lines[-1]  # the keys, always
    if ascii_only:
        assert "\n".join(lines).isascii()


def test_wide_hints_sit_beside_the_seats_wrapped_never_cut() -> None:
    event = sample_views.more_time_call_event()
    event["view"]["hints"].append("a very long hint " * 6 + "ENDMARK")
    panels = layout(event, UiState(), 140, 45, True)
    hints = _panel(panels, "hints")
    seats = _panel(panels, "seats")
    assert hints.row == seats.row and hints.col > seats.col + seats.width - 1
    text = " ".join(line.strip() for line in hints.lines)
    assert "ENDMARK" in text and "2468-1 (222 4444 666 8888, 25): needs 4p 6p 8p" in text


def test_the_countdown_is_on_the_first_line_and_runs_down() -> None:
    event = sample_views.more_time_call_event()
    assert render(event, UiState(), 80, 24, True)[0].startswith("time 8s | ")
    assert render(event, UiState(elapsed=3.4), 80, 24, True)[0].startswith("time 5s | ")
    event["view"]["deadline"] = None
    assert "time " not in render(event, UiState(), 80, 24, True)[0]


def test_a_thinking_seat_and_the_more_time_action_are_shown() -> None:
    screen = "\n".join(render(sample_views.more_time_call_event(), UiState(), 80, 24, True))
    assert "North (Di) is thinking" in screen
    assert "4 More time (T)" in screen  # listed last, with its key


def test_no_utf8_names_become_question_marks_in_ascii_mode() -> None:
    event = sample_views.play_event()
    event["view"]["players"][1]["name"] = "Zoë"
    screen = "\n".join(render(event, UiState(), 80, 24, True))
    assert "Zo?" in screen and screen.isascii()


# -- the end of a hand, of the match; history; the lobby; the card ---------------------------


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("ascii_only", MODES)
def test_end_of_hand_screen_american(width: int, height: int, ascii_only: bool) -> None:
    event = sample_views.hand_over_event()
    screen = "\n".join(render(event, UiState(elapsed=3.2), width, height, ascii_only))
    assert "=== Hand 2 over: Mahjong by South (Bob) ===" in screen
    assert "Winning tile: 8m (8 Crak), discarded by East (Ada)" in screen
    result = _result(event)
    hand = screen.split("Winning hand (concealed, then each exposure):")[1].split("Flowers:")[0]
    assert _codes(hand) == result["concealed"] + result["exposures"][0]
    assert "Flowers: " in screen and "F" in _codes(screen.split("Flowers: ")[1])
    assert "Card hand: 2468-1  222 4444 666 8888  value 25" in screen
    for payment in ("East (Ada) -50", "South (Bob) +100", "West (Cy) -25", "North (Di) -25"):
        assert payment in screen
    assert "Scores:   East (Ada) -25   South (Bob) 90   West (Cy) -25   North (Di) -40" in screen
    assert "Next hand in 12s" in screen and screen.startswith("time 12s")
    assert "Waiting for West (Cy), North (Di)" in screen
    assert ">1 Next hand (n) [default]" in screen


def test_a_card_hand_too_wide_for_the_screen_keeps_its_value() -> None:
    """A long card line at 80 columns (the add-6 line with its tiles) once lost its value to
    the screen's edge: the value comes first and the pattern wraps under it."""
    event = sample_views.hand_over_event()
    pattern = "11a 66a 77a 11b 66b 77b FF as 11m 66m 77m 11p 66p 77p FF"
    _result(event)["card_hand"] = {"id": "add-6", "pattern": pattern, "value": 50}  # type: ignore[typeddict-unknown-key]
    lines = render(event, UiState(elapsed=3.2), 80, 24, False)
    assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
    at = next(i for i, line in enumerate(lines) if line.startswith("Card hand: add-6"))
    assert lines[at] == "Card hand: add-6  value 50"
    end = next(i for i, line in enumerate(lines) if line.startswith("Every seat's tiles:"))
    under = lines[at + 1 : end]
    assert " ".join(" ".join(under).split()) == pattern


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("ascii_only", MODES)
@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_end_of_hand_screen_shows_every_seats_tiles(
    width: int, height: int, ascii_only: bool, rules: str
) -> None:
    event = sample_views.hand_over_event(rules=rules)
    lines = render(event, UiState(elapsed=3.2), width, height, ascii_only)
    screen = "\n".join(lines)
    assert len(lines) <= height and "Every seat's tiles:" in screen
    below = screen.split("Every seat's tiles:")[1].split("Payments:")[0].splitlines()[1:]
    names = ["East (Ada)", "South (Bob)", "West (Cy)", "North (Di)"]
    starts = [
        next(i for i, line in enumerate(below) if line.strip().startswith(name + ":"))
        for name in names
    ]
    ends = [*starts[1:], len(below)]
    for seat, (start, end) in enumerate(zip(starts, ends, strict=True)):
        rows = "\n".join(below[start:end]).replace(names[seat] + ":", "")
        assert _codes(rows) == (_result(event).get("hands") or [])[seat], (seat, screen)
    assert ">1 Next hand (n) [default]" in screen  # the way on is never cut for them


def test_a_window_too_small_for_every_seats_tiles_says_they_are_there() -> None:
    lines = render(sample_views.hand_over_event(), UiState(), 60, 16, True)
    assert "Every seat's tiles are shown in a taller window" in "\n".join(lines)


def test_the_hands_not_shown_yet_are_said_so() -> None:
    event = sample_views.hand_over_event()
    _result(event)["hands"] = None
    _result(event)["hands_detail"] = AUDIT_RUNNING
    screen = "\n".join(render(event, UiState(), 100, 40, True))
    assert AUDIT_RUNNING in screen and "Every seat's tiles:" not in screen


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_end_of_hand_screen_mcr_fans_with_points(width: int, height: int) -> None:
    event = sample_views.hand_over_event(rules="mcr", self_drawn=True)
    screen = "\n".join(render(event, UiState(), width, height, False))
    assert "Winning tile: 8m (8 Crak), self-drawn" in screen
    assert re.search(r"Full Flush\s+24", screen) and re.search(r"All Pungs\s+6", screen)
    # (at 80x24 the fans are packed, to leave room for every seat's tiles)
    assert re.search(r"Flower Tiles\s+1 x2", screen) and re.search(r"Total:?\s+32 points", screen)
    assert "South (Bob) +150" in screen
    assert "Flowers: " in screen


def test_compact_fans_still_list_every_fan_with_its_points() -> None:
    event = sample_views.hand_over_event(rules="mcr")
    lines = render(event, UiState(message="x"), 60, 16, True)
    screen = "\n".join(lines)
    assert "Fans: Full Flush 24, All Pungs 6, Flower Tiles 1 x2" in screen.replace("\n      ", " ")
    assert "Total: 32 points" in screen


def test_wall_game_and_draw_say_so() -> None:
    screen = "\n".join(render(sample_views.wall_game_event(), UiState(), 80, 24, True))
    assert "=== Hand 2 over: Wall game (no winner) ===" in screen
    assert "Winning tile" not in screen and "East (Ada) +0" in screen
    event = sample_views.wall_game_event()
    _result(event)["kind"] = "draw"
    assert "Draw (the wall ran out, no winner)" in "\n".join(render(event, UiState(), 80, 24, True))


def test_end_of_hand_without_a_time_limit_says_who_it_waits_for() -> None:
    event = sample_views.hand_over_event(waiting=(2,))
    event["view"]["deadline"] = None
    _next(event)["deadline"] = None
    screen = "\n".join(render(event, UiState(), 80, 24, True))
    assert "Waiting for West (Cy) (no time limit)" in screen
    assert "Next hand in" not in screen and "Nothing to do" not in screen


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_match_over_shows_the_final_standings(width: int, height: int) -> None:
    lines = render(sample_views.match_over_event(), UiState(), width, height, True)
    start = lines.index("=== Final standings ===")
    assert [line.split()[1] for line in lines[start + 1 : start + 5]] == ["Cy", "Bob", "Di", "Ada"]
    assert lines[start + 4].endswith("-135  (you)")
    assert any(line.startswith("The match is over.") for line in lines)
    assert "next hand" not in lines[-1]


def test_history_lists_every_finished_hand_with_its_payments() -> None:
    event = sample_views.match_over_event()
    screen = "\n".join(render(event, UiState(screen="history"), 80, 24, True))
    assert "=== Hands of this match: 4 finished of 4 ===" in screen
    assert "Hand 1: Wall game" in screen
    assert "Hand 2: Mahjong by Bob, off Ada's discard - 2468-1, 25" in screen
    assert "Hand 3: Mahjong by Cy, self-drawn - 369-2, 30" in screen
    assert "Ada -60   Bob -60   Cy +180   Di -60" in screen


def test_lobby_shows_names_free_places_ready_and_timers() -> None:
    screen = "\n".join(render(sample_views.lobby_event(), UiState(), 80, 24, True))
    assert "Places: 2 of 4 taken, 2 free" in screen
    assert "1. Ada (you, host)" in screen and "2. Bob" in screen
    assert "3. (free)" in screen and "4. (free)" in screen
    assert "Timers: call 8s, turn 30s, Charleston 60s, next hand 20s" in screen
    full = "\n".join(
        render(sample_views.lobby_event(seated=4, ready=(1,)), UiState(), 80, 24, True)
    )
    assert re.search(r"2\. Bob\s+ready", full) and re.search(r"3\. Cy\s+not ready yet", full)
    assert ">1 Ready to start [default]" in full


def test_a_table_without_flowers_says_so_in_the_lobby_and_the_header() -> None:
    event = sample_views.lobby_event()
    event["view"]["flowers"] = False
    screen = "\n".join(render(event, UiState(), 80, 24, True))
    assert "Played without flowers and seasons: 136 tiles, no flower points" in screen
    assert " no flowers" in screen.splitlines()[0]
    usual = "\n".join(render(sample_views.lobby_event(), UiState(), 80, 24, True))
    assert "flowers" not in usual


def test_lobby_shows_an_admitted_member_the_view_does_not_name_yet() -> None:
    event = sample_views.lobby_event(seated=1)
    event["members"] = [
        {"fingerprint": "36d8:4e7e", "alive": True, "player": "ada"},
        {"fingerprint": "9a1b:0c2d", "alive": True, "player": "bob"},
    ]
    screen = "\n".join(render(event, UiState(), 80, 24, True))
    assert "2. bob" in screen and "Places: 2 of 4 taken, 2 free" in screen


def test_card_sheet_lists_every_line_and_scrolls() -> None:
    sheet = sample_views.sample_sheet()
    top = render(sample_views.play_event(), UiState(screen="sheet", sheet=sheet), 80, 24, True)
    assert top[0] == "=== House card 2024: 32 hands ==="
    assert any(re.match(r"  2468-3\s+22 44 666 888 DDDD\s+30  concealed$", line) for line in top)
    assert top[-1].startswith("lines 1-22 of 34")
    later = render(
        sample_views.play_event(), UiState(screen="sheet", sheet=sheet, scroll=99), 80, 24, True
    )
    assert any(line.startswith("  run-29") for line in later)  # the last line, reached
    fans = "\n".join(
        render(
            sample_views.play_event(),
            UiState(screen="sheet", sheet=sample_views.sample_sheet("mcr")),
            80,
            24,
            True,
        )
    )
    assert re.search(r"Big Four Winds\s+88 pts", fans)
    missing = "\n".join(
        render(
            sample_views.play_event(),
            UiState(screen="sheet", sheet_problem="unknown request"),
            80,
            24,
            True,
        )
    )
    assert "The daemon did not send it: unknown request" in missing


def test_help_lists_every_key_the_screen_reads() -> None:
    from fourwinds.frontends.terminal.table_keys import COMMAND_LETTERS, SCREEN_KEYS

    helptext = "\n".join(render(None, UiState(screen="help"), 100, 60, True))
    documented = {key for line in helptext.splitlines() for key in line[:21].split()}
    for key in [
        *SCREEN_KEYS,
        *COMMAND_LETTERS,
        *COMMAND_LETTERS.values(),
        "Tab",
        "Q",
        "Enter",
        "space",
        "1-9",
        "up",
        "down",
    ]:
        assert key in documented, key


def test_a_private_tables_host_sees_its_code_in_the_lobby() -> None:
    """The host of a --private table saw its code only in `fourwinds tables` (issue 22, 2)."""
    event = sample_views.lobby_event(seated=2)
    event["code"] = "K7QX2M"
    text = "\n".join(render(event, UiState(), 100, 40, True))
    assert "code K7QX2M" in text and "--code K7QX2M" in text
    del event["code"]
    assert "code" not in "\n".join(render(event, UiState(), 100, 40, True)).lower()


def test_a_hand_being_dealt_is_said_not_drawn_from_a_seat_we_do_not_have() -> None:
    """While the dice seat a hand the view has no seat of ours and its ``screen`` says
    "dealing" (protocol/table/views/screens.py): the terminal says what the table does, as the page
    does, instead of a table drawn from East's side with no "you" (issue 22, 16b)."""
    event = sample_views.play_event()
    view = event["view"]
    view.update(
        {
            "phase": "dice",
            "phase_detail": "Rolling the dice for the seats",
            "seat": None,
            "screen": "dealing",
            "hand": [],
            "drawn": None,
        }
    )
    screen = _screen(event)
    assert "Hand 2 of 4: Rolling the dice for the seats" in screen, screen
    assert "Your hand" not in screen and "you" not in screen.split("\n")[0]
    assert "Q quit" in screen


def _drawn_apart_event() -> ViewEvent:
    """The play event as today's daemon sends it: ``rack`` with the drawn tile (6s) last."""
    from fourwinds.protocol.table.views.contract_view import rack_order

    event = sample_views.play_event()
    view = event["view"]
    view["rack"] = rack_order(view["hand"], view["drawn"])
    return event


def test_the_drawn_tile_is_set_apart_at_the_right_end_of_the_rack() -> None:
    """Issue 22: the tile just drawn stands apart at the right end (one empty cell before
    it) on every layout, its letter is the last, the cursor sits under it, the screen reader
    reads it as the drawn tile, and its letter then Enter discards it."""
    from fourwinds.frontends.terminal.table_keys import handle_key
    from testkit.screen import rack

    event = _drawn_apart_event()
    for width, height, ascii_only in (
        (100, 40, True),
        (100, 40, False),
        (80, 24, True),
        (80, 15, True),
        (60, 18, True),
    ):
        screen = _screen(event, width, height, ascii_only, ui=UiState(cursor=13))
        assert "drew 6s (far right)" in screen, screen
        tiles = rack(screen)
        assert [t.letter for t in tiles] == list("abcdefghijklmn"), screen
        assert tiles[-1].same("6s") and tiles[-1].drawn, screen
        assert not any(t.drawn for t in tiles[:-1]), screen
        lines = screen.splitlines()
        letters = next(line for line in lines if line.lstrip().startswith("a  b"))
        # the letters two columns apart, the drawn tile's after one more empty cell
        assert "l  m     n" in letters.replace("*", " ").replace("^", " "), letters
    ui = handle_key(event, UiState(), "n").ui
    sent = handle_key(event, ui, "ENTER").request
    assert sent is not None and sent["expected"]["tiles"] == ["6s"], sent


def test_a_rack_without_a_drawn_tile_has_no_gap() -> None:
    event = _drawn_apart_event()
    event["view"]["drawn"] = None
    event["view"]["rack"] = list(event["view"]["hand"])
    screen = _screen(event)
    assert "a  b  c  d  e  f  g  h  i  j  k  l  m  n" in screen
    from testkit.screen import rack

    assert not any(t.drawn for t in rack(screen))


def test_the_live_tiles_that_win_are_counted_in_the_header() -> None:
    """Issue 22: the view's ``live_wins`` (MCR, a ready hand) is said on the table screen at
    every size: "5 live tiles win for you: 6p 9p"; nothing without it."""
    event = sample_views.call_event()
    event["view"]["live_wins"] = {"left": 5, "tiles": ["6p", "9p"]}
    for width, height in ((100, 40), (80, 24), (60, 18)):
        screen = _screen(event, width, height)
        assert "5 live tiles win for you: 6p 9p" in " ".join(screen.split()), screen
    event["view"]["live_wins"] = {"left": 1, "tiles": ["6p"]}
    assert "1 live tile wins for you: 6p" in _screen(event)
    event["view"]["live_wins"] = None
    assert "live tile" not in _screen(event)
