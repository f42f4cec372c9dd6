"""The help, the README and the key handler agree (issue 22, item 9).

Every key ``table_help.SECTIONS`` lists is pressed through the real ``handle_key`` on sample
screens of its section; what the handler did is read from its result (not from the table),
and must be one of the outcomes the binding lists, each of which must happen on some sample.
The README's key section must be the one ``readme_keys`` makes, and the ``?`` screen the one
``help_lines`` makes, so the three cannot drift apart again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from fourwinds.frontends.client.acting import rack_tiles
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.frontends.terminal.table_help import (
    SECTIONS,
    Binding,
    Outcome,
    Where,
    help_lines,
    readme_keys,
    readme_section,
)
from fourwinds.frontends.terminal.table_keys import KeyResult, handle_key
from fourwinds.frontends.terminal.table_view import (
    UiState,
    is_tile_bound,
    menu_actions,
    render,
    shows_rack,
)
from fourwinds.protocol.table.views.view_types import ActionEntry
from tests.frontends import sample_views

Event = ViewEvent
README = Path(__file__).resolve().parents[2] / "README.md"


def _chosen(event: Event) -> UiState:
    """Three tiles selected, as a Charleston pass needs."""
    return UiState(selected=frozenset({0, 1, 2}))


def _lobby_ready() -> Event:
    return sample_views.lobby_event(seated=4)


def _on_page(screen: str) -> Callable[[Event], UiState]:
    """A page (help, card...) scrolled down a little, so a scroll either way shows."""

    def start(event: Event) -> UiState:
        return UiState(screen=screen, scroll=5)

    return start


def _plain(event: Event) -> UiState:
    return UiState()


Sample = tuple[Callable[[], Event], Callable[[Event], UiState]]
PLAIN = _plain
SAMPLES: dict[Where, tuple[Sample, ...]] = {
    Where.PLAY: (
        (sample_views.play_event, PLAIN),
        (sample_views.call_event, PLAIN),
        (sample_views.more_time_call_event, PLAIN),
    ),
    Where.CHOOSE: ((sample_views.charleston_event, _chosen),),
    Where.LOBBY: ((_lobby_ready, PLAIN), (sample_views.lobby_event, PLAIN)),
    Where.RESULT: ((sample_views.hand_over_event, PLAIN),),
    Where.ANY: (
        (sample_views.play_event, PLAIN),
        (sample_views.lobby_event, PLAIN),
        (sample_views.hand_over_event, PLAIN),
    ),
    Where.PAGES: tuple(
        (sample_views.play_event, _on_page(screen))
        for screen in ("help", "sheet", "history", "scores")
    ),
}
OPENS = {
    "help": Outcome.HELP,
    "sheet": Outcome.SHEET,
    "history": Outcome.HISTORY,
    "scores": Outcome.SCORES,
}


def outcome(event: Event, ui: UiState, key: str, result: KeyResult) -> Outcome | None:
    """What the handler did with ``key``, read from its result alone (None: nothing but,
    perhaps, a line saying why not)."""
    after = result.ui
    if result.quit:
        return Outcome.QUIT
    request = result.request
    if request is not None:
        if request.get("type") == "leave":
            return Outcome.LEAVE
        action: ActionEntry = request["expected"]
        kind = action.get("type")
        typed = {"more_time": Outcome.MORE_TIME, "next": Outcome.NEXT, "ready": Outcome.READY}
        if kind in typed:
            return typed[kind]
        rack = rack_tiles(event["view"]) if shows_rack(event) else []
        menu = menu_actions(event["legal_actions"], rack)
        if (
            is_tile_bound(action, rack)
            and rack[min(ui.cursor, len(rack) - 1)] == action["tiles"][0]
        ):
            return Outcome.DISCARD
        if key.isdigit() and menu[int(key) - 1] == action:
            return Outcome.ACT_NUMBERED
        if menu[ui.menu] == action:
            return Outcome.ACT_HIGHLIGHTED
        raise AssertionError(f"{key}: sent {action} for no reason the help names")
    if after.screen != ui.screen:
        return Outcome.BACK if after.screen == "table" else OPENS[after.screen]
    if after.scroll != ui.scroll:
        return Outcome.SCROLL
    if after.show_hints != ui.show_hints:
        return Outcome.HINTS
    if after.selected != ui.selected:
        return Outcome.SELECT
    if after.cursor != ui.cursor:
        return Outcome.CURSOR
    if after.menu != ui.menu:
        return Outcome.HIGHLIGHT
    return None


def outcomes_of(where: Where, binding: Binding) -> dict[Outcome, list[str]]:
    """Every outcome the binding's keys had on the section's samples (from two cursors, so
    a key that moves the cursor to where it already is still shows it)."""
    seen: dict[Outcome, list[str]] = {}
    for make, start in SAMPLES[where]:
        for key in binding.keys:
            for cursor in (0, 13):
                event = make()
                ui = replace(start(event), cursor=cursor)
                got = outcome(event, ui, key, handle_key(event, ui, key))
                if got is not None:
                    seen.setdefault(got, []).append(f"{key} on {make.__name__}")
    return seen


CASES = [
    pytest.param(section.where, binding, id=f"{section.where.name}:{binding.shown}")
    for section in SECTIONS
    for binding in section.bindings
]


@pytest.mark.parametrize(("where", "binding"), CASES)
def test_every_key_the_help_lists_does_what_it_says(where: Where, binding: Binding) -> None:
    seen = outcomes_of(where, binding)
    wrong = {o: keys for o, keys in seen.items() if o not in binding.outcomes}
    assert not wrong, (
        f"{binding.shown} ({where.value}): the help says {binding.does!r}, "
        f"but the handler did {wrong}"
    )
    missing = binding.outcomes - set(seen)
    assert not missing, f"{binding.shown} ({where.value}) never did {missing}"


def test_letters_select_in_the_charleston_and_only_move_the_cursor_in_play() -> None:
    """The old help said the letters move the cursor; in a Charleston pass they select."""
    charleston = next(
        b for s in SECTIONS if s.where is Where.CHOOSE for b in s.bindings if "a" in b.keys
    )
    assert charleston.outcomes == {Outcome.SELECT} and "select" in charleston.does
    play = next(b for s in SECTIONS if s.where is Where.PLAY for b in s.bindings if "a" in b.keys)
    assert play.outcomes == {Outcome.CURSOR}


def test_the_help_screen_is_made_from_the_key_table() -> None:
    shown = "\n".join(render(sample_views.play_event(), UiState(screen="help"), 100, 200, True))
    for line in help_lines(True)[1:]:
        assert line.rstrip() in shown
    text = "\n".join(help_lines(False))
    for section in SECTIONS:
        for binding in section.bindings:
            assert binding.shown in text
    assert "play --join TABLE` brings" not in text  # what it said, and was wrong
    assert "codes (3m, 5z, J...) beside them" not in text
    assert all(len(line) <= 80 for line in help_lines(False))


def test_the_readme_key_section_is_the_generated_one() -> None:
    """Fails when the README's keys and the key table disagree: paste the output of
    ``python -m fourwinds.frontends.terminal.table_help`` into the README."""
    section = readme_section(README.read_text(encoding="utf-8"))
    assert section is not None, "README.md has no generated key section"
    assert section == readme_keys(), (
        "README.md's keys differ from table_help.SECTIONS: run "
        "`python -m fourwinds.frontends.terminal.table_help` and paste its output"
    )


def test_the_pages_help_is_the_same_key_table() -> None:
    """The browser's help page (the bridge's ``keys`` answer) lists the same keys, in the
    page's words where they differ (Q goes back to the lobby there)."""
    from fourwinds.frontends.terminal.table_help import page_sections

    sections = page_sections()
    assert [len(s["keys"]) for s in sections] == [len(s.bindings) for s in SECTIONS]
    quits = [k for s in sections for k in s["keys"] if k[0] == "Q"]
    assert quits == [["Q", "back to the lobby (your daemon keeps your seat)"]]
