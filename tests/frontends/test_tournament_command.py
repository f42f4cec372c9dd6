"""`fourwinds tournament seating --players N --rounds R [--seed HEX] [--fill] --json`
(issue 23): exactly {"rounds": [[[E, S, W, N], ...], ...]}, players from 0, bots as null."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import combinations

import pytest

from fourwinds.frontends.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_seating_json_is_exactly_the_rounds_with_no_repeat(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys,
        "tournament",
        "seating",
        "--players",
        "16",
        "--rounds",
        "5",
        "--seed",
        "00ff",
        "--json",
    )
    assert code == 0 and err == ""
    printed = json.loads(out)
    assert list(printed) == ["rounds"]
    rounds = printed["rounds"]
    assert len(rounds) == 5
    met = set()
    for tables in rounds:
        assert len(tables) == 4 and all(len(table) == 4 for table in tables)
        assert sorted(p for table in tables for p in table) == list(range(16))
        for table in tables:
            for pair in combinations(sorted(table), 2):
                assert pair not in met
                met.add(pair)
    again = run(
        capsys,
        "tournament",
        "seating",
        "--players",
        "16",
        "--rounds",
        "5",
        "--seed",
        "00ff",
        "--json",
    )[1]
    assert again == out, "the same seed, the same seating"


def test_bot_seats_are_null_and_byes_sit_at_no_table(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "tournament", "seating", "--players", "15", "--rounds", "3", "--json")[1]
    for tables in json.loads(out)["rounds"]:
        assert [p for table in tables for p in table].count(None) == 1
    out = run(
        capsys,
        "tournament",
        "seating",
        "--players",
        "18",
        "--rounds",
        "3",
        "--fill",
        "byes",
        "--json",
    )[1]
    for tables in json.loads(out)["rounds"]:
        assert len([p for table in tables for p in table]) == 16


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--players", "3", "--rounds", "2", "--fill", "byes"], "fewer than four players"),
        (["--players", "0", "--rounds", "2"], "no players"),
        (["--players", "8", "--rounds", "0"], "at least one round"),
        (["--players", "8", "--rounds", "2", "--seed", "xyz"], "not hex"),
    ],
)
def test_impossible_seatings_say_why_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    code, out, err = run(capsys, "tournament", "seating", *argv)
    assert code == 2 and out == ""
    assert says in err and len(err.strip().splitlines()) == 1


def test_the_group_alone_names_its_commands_and_what_is_not_built(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "tournament")
    assert code == 2 and "create, list, join, start, status, standings" in err
    assert "`fourwinds play --tournament NAME`" in err


def test_the_installed_command_prints_the_json() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fourwinds.frontends.cli",
            "tournament",
            "seating",
            "--players",
            "8",
            "--rounds",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(json.loads(done.stdout)["rounds"]) == 2
