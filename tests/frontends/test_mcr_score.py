"""`fourwinds score mcr` / `fourwinds hint mcr` (issue 3 section 3)."""

from __future__ import annotations

import io
import json

import pytest

from fourwinds.frontends.cli import main
from fourwinds.protocol.mcr.score_text import score_json_line, score_jsonl


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_score_mcr_table_and_valid_win(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(["score", "mcr", "123m456m789m123p55p"], capsys)
    assert code == 0
    assert "Pure Straight" in out and "16" in out
    assert "Total" in out and "23" in out
    assert "Valid win" in out


def test_score_mcr_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        [
            "score",
            "mcr",
            "67m",
            "44z",
            "8m",
            "--melds",
            "234m",
            "567p",
            "888s",
            "--flowers",
            "2",
            "--self-drawn",
            "--wall-last",
        ],
        capsys,
    )
    assert code == 0
    assert "Last Tile Draw" in out and "Flower Tiles" in out
    assert "Self-Drawn" not in out


def test_score_mcr_winds_and_concealed_kong(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        [
            "score",
            "mcr",
            "67m44s8m",
            "--melds",
            "222z",
            "999p",
            "--concealed-kong",
            "5555z",
            "--seat-wind",
            "S",
            "--prevalent-wind",
            "W",
        ],
        capsys,
    )
    assert "Seat Wind" in out and "Prevalent Wind" not in out
    assert "Concealed Kong" in out and "All Types" in out
    assert code == 0  # All Types 6 + Dragon Pung 2 + Seat Wind 2 + Concealed Kong 2 + 1
    assert "Total                          13" in out


def test_score_mcr_win_tile_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(
        ["score", "mcr", "13m", "2m", "44z", "--win-tile", "2m", "--melds", "234m", "567p", "888s"],
        capsys,
    )
    assert "Closed Wait" in out
    assert code == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "mcr", "12x"], "bad tile"),
        (["score", "mcr", "123m", "--melds", "124m"], "chow 124m"),
        (["score", "mcr", "123m456m789m123p55p", "--win-tile", "9s"], "not among the tiles"),
        (["score", "mcr", "123m"], "got 3 tiles, needs 14"),
        (["score", "mcr", "123m456m789m123p55p", "--seat-wind", "X"], "bad wind"),
        (["score", "mcr", "123m456m789m123p55p", "--flowers", "9"], "--flowers"),
        (["score", "mcr"], "give the concealed tiles"),
        (["hint", "mcr", "123m"], "13 or 14 tiles"),
    ],
)
def test_score_mcr_user_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run(argv, capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_score_mcr_jsonl_exact_fields() -> None:
    line = json.dumps(
        {
            "melds": [{"type": "chow", "tiles": ["1p", "2p", "3p"], "concealed": False}],
            "hand": ["4m", "5m", "6m", "7m", "8m", "9m", "1m", "2m", "3m", "8p"],
            "win_tile": "8p",
            "self_drawn": False,
            "last_tile": False,
            "kong_related": False,
            "wall_last": False,
            "seat_wind": 0,
            "prevalent_wind": 0,
            "flowers": 1,
            "unknown_field": "ignored",
        }
    )
    answer = score_json_line(line)
    assert answer == {
        "fans": [
            ["Pure Straight", 16, 1],
            ["All Chows", 2, 1],
            ["Mixed Double Chow", 1, 1],
            ["One Voided Suit", 1, 1],
            ["Single Wait", 1, 1],
            ["Flower Tiles", 1, 1],
        ],
        "total": 22,
        "winning": True,
    }


def test_score_mcr_jsonl_continues_after_bad_lines() -> None:
    lines = [
        "not json",
        json.dumps({"hand": ["1m"], "win_tile": "1m"}),
        json.dumps({"hand": "1m", "win_tile": "1m"}),
        json.dumps([1, 2]),
        json.dumps({"hand": [], "win_tile": "1m", "seat_wind": 7}),
        json.dumps(
            {
                "melds": [{"type": "triple", "tiles": ["1m", "1m", "1m"]}],
                "hand": [],
                "win_tile": "1m",
            }
        ),
        "",
        json.dumps(
            {
                "hand": [
                    "1m",
                    "9m",
                    "1p",
                    "9p",
                    "1s",
                    "9s",
                    "1z",
                    "2z",
                    "3z",
                    "4z",
                    "5z",
                    "6z",
                    "7z",
                ],
                "win_tile": "7z",
                "self_drawn": True,
            }
        ),
    ]
    sink = io.StringIO()
    sink.writelines(f"{a}\n" for a in score_jsonl(io.StringIO("\n".join(lines) + "\n")))
    answers = [json.loads(a) for a in sink.getvalue().splitlines()]
    assert len(answers) == 7
    assert all("error" in a for a in answers[:6])
    assert "seat_wind" in answers[4]["error"]
    assert answers[6] == {
        "fans": [["Thirteen Orphans", 88, 1], ["Self-Drawn", 1, 1]],
        "total": 89,
        "winning": True,
    }


def test_score_mcr_jsonl_incomplete_hand_is_not_an_error() -> None:
    answer = score_json_line(
        json.dumps(
            {
                "hand": [
                    "1m",
                    "2m",
                    "3m",
                    "4m",
                    "5m",
                    "6m",
                    "7m",
                    "8m",
                    "9m",
                    "1p",
                    "2p",
                    "3p",
                    "5s",
                ],
                "win_tile": "7z",
            }
        )
    )
    assert answer == {"fans": [], "total": 0, "winning": False}


def test_score_mcr_jsonl_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"hand": [], "win_tile": "1m"}\n'))
    code, out, _err = run(["score", "mcr", "--jsonl"], capsys)
    assert code == 0
    assert "error" in json.loads(out)


def test_hint_mcr_tiles_to_win_and_fans(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(["hint", "mcr", "1112345678999m"], capsys)
    assert code == 0
    assert "Tiles to win: 123456789m" in out
    assert "Nine Gates 88" in out


def test_hint_mcr_fourteen_tiles_and_not_ready(capsys: pytest.CaptureFixture[str]) -> None:
    _code, out, _err = run(["hint", "mcr", "123m456m789m123p55p"], capsys)
    assert "Complete hand" in out and "discard 1m: wait on 147m" in out
    _code, out, _err = run(["hint", "mcr", "13579m2468p1357s"], capsys)
    assert "shanten 4" in out
