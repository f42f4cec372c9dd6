"""Which table `fourwinds leave` leaves, and when it asks first (pure: the daemon's table list
and the player's answers are given)."""

from __future__ import annotations

import pytest

from fourwinds.frontends.cli.commands.leave import confirmed, pick_table
from fourwinds.frontends.cli.commands.play import Mine
from fourwinds.protocol.errors import FourwindsError

KITCHEN = Mine("aa" * 16, "kitchen", "mcr", 2, "")
DEN = Mine(
    "bb" * 16,
    "den",
    "american",
    4,
    "the match at den has started: if you leave, Bob cannot go on (the table waits "
    "for your seat for ever)",
)


def test_at_several_tables_it_lists_them_and_asks_which() -> None:
    asked: list[str] = []

    def answer(prompt: str) -> str:
        asked.append(prompt)
        return "2"

    assert pick_table([KITCHEN, DEN], None, answer) is DEN
    assert "1. kitchen  (mcr, 2/4 seated, id aaaaaaaa)" in asked[0]
    assert asked[0].endswith("Leave which table (1-2 or its name)? ")
    assert pick_table([KITCHEN, DEN], None, lambda prompt: "kitchen") is KITCHEN
    with pytest.raises(FourwindsError, match=r"no table 'attic' among yours"):
        pick_table([KITCHEN, DEN], None, lambda prompt: "attic")


def test_without_a_terminal_it_names_them() -> None:
    with pytest.raises(
        FourwindsError,
        match=r"several tables \(kitchen, den\): fourwinds "
        r"leave TABLE",
    ):
        pick_table([KITCHEN, DEN], None, None)
    assert pick_table([KITCHEN], None, None) is KITCHEN
    assert pick_table([KITCHEN, DEN], "bbbb", None) is DEN  # the start of its id
    with pytest.raises(FourwindsError, match=r"you sit at no table$"):
        pick_table([], None, None)


def test_a_table_that_cannot_go_on_without_you_is_confirmed_or_forced() -> None:
    assert confirmed(KITCHEN, False, None)  # a lobby we joined: no question
    with pytest.raises(
        FourwindsError,
        match=r"cannot go on .*; to leave anyway: fourwinds "
        r"leave den --force",
    ):
        confirmed(DEN, False, None)
    assert confirmed(DEN, True, None)
    prompts: list[str] = []

    def no(prompt: str) -> str:
        prompts.append(prompt)
        return "n"

    assert not confirmed(DEN, False, no)
    assert prompts[0].startswith("The match at den has started")
    assert prompts[0].endswith("Leave den for good? [y/N] ")
    assert confirmed(DEN, False, lambda prompt: "y")
