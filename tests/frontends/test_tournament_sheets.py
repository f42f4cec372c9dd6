"""The director's sheets (frontends/cli/commands/tournament_sheets.py): a CSV cell a
spreadsheet would run as a formula is written as text, numbers stay numbers, and a round's
seating sheet lists every player alphabetically with table and wind, then each table."""

from __future__ import annotations

import pytest

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.commands.tournament_sheets import (
    csv_cell,
    scoresheet_lines,
    seating_lines,
)


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("x")', '\'=HYPERLINK("x")'),
        ("+cmd", "'+cmd"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-30", "-30"),
        (-30, "-30"),
        ("6.5", "6.5"),
        ("Ann", "Ann"),
    ],
)
def test_a_cell_that_would_be_a_formula_is_written_as_text(value: object, cell: str) -> None:
    assert csv_cell(value) == cell


EVENT = {
    "name": "club night",
    "round": {
        "round": 2,
        "tables": [["zoe", "Ann", "bob", None], ["Cy", "Dee", "Eve", "Fay"]],
        "byes": ["Gus"],
    },
}


def test_a_seating_sheet_lists_players_alphabetically_then_by_table() -> None:
    lines = seating_lines(EVENT, None)
    assert lines[0] == "club night, round 2: by name"
    names = [line.split()[0] for line in lines[1:8]]
    assert names == ["Ann", "bob", "Cy", "Dee", "Eve", "Fay", "zoe"]
    assert lines[1].endswith("table  1  South") and lines[7].endswith("table  1  East")
    assert lines[8] == "  a bye: Gus"
    assert lines[9] == "club night, round 2: by table"
    assert lines[10] == "  table  1:  East zoe   South Ann   West bob   North (bot)"
    with pytest.raises(UsageError, match="round under way, round 2"):
        seating_lines(EVENT, 1)


def test_a_scoresheet_per_table_has_a_row_a_hand_the_totals_and_the_result_command() -> None:
    lines = scoresheet_lines({**EVENT, "length": "hands", "amount": 4})
    assert lines[0] == "club night, round 2, table 1: scoresheet"
    assert lines[1].split() == ["hand", "E", "zoe", "S", "Ann", "W", "bob", "N", "(bot)"]
    assert [line.split()[0] for line in lines[2:7]] == ["1", "2", "3", "4", "total"]
    assert lines[7].startswith(
        "  entered with: fourwinds tournament result 'club night' --table 1 --scores E,S,W,N"
    )
    assert lines[8] == "club night, round 2, table 2: scoresheet"
    timed = scoresheet_lines({**EVENT, "length": "minutes", "amount": 90})
    assert sum(1 for line in timed if line.strip().split()[0].isdigit()) == 2 * 16
