"""`fourwinds score american` / `fourwinds hint american` (issue 2 section 5)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fourwinds.frontends.cli import main
from fourwinds.protocol.american.card import Category
from fourwinds.protocol.american.score_text import payouts


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *extra: str,
) -> list[dict[str, object]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code, out, _ = run(capsys, "score", "american", "--jsonl", *extra)
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


def test_score_names_the_hand_value_and_discard_payouts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "american", "222s", "444s", "6666s", "8888s")
    assert code == 0
    assert "2468-1  25 X" in out
    assert "jokerless" in out
    assert "the discarder pays 100, the others 50 each" in out  # A7 jokerless: 4V and 2V
    assert out.strip().endswith("best: 2468-1 (25)")


def test_score_with_exposures_and_self_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "score", "american", "222s444s8888s", "--exposed", "6s6s6sJ", "--self-drawn"
    )
    assert code == 0
    assert "with jokers" in out
    assert "self-drawn: each player pays 50" in out


def test_score_without_a_hand_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "american", "123456789m12345p")
    assert code == 1
    assert "no hand of fourwinds house card 2026" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["222s"], "14 tiles needed (concealed and exposed), got 3"),
        (["22x"], "bad tile"),
        (["1f", "222s444s6666s888s"], "1f is not an American tile"),
        (["22222s444s6666s8s"], "5 tiles 2s: the set has only 4"),
        (["222s444s888s8s", "--exposed", "6s7s6s"], "exposure 676s is not 2 to 6 alike"),
    ],
)
def test_score_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "score", "american", *argv)
    assert code == 2 and out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_score_reads_a_card_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.card"
    path.write_text("card: mine\nwinds-1 | winds | 40 | C | - | NNNN EEE WWW SSSS | n\n")
    code, out, _ = run(
        capsys, "score", "american", "--card", str(path), "4z4z4z4z1z1z1z3z3z3z2z2z2z2z"
    )
    assert code == 0 and "winds-1  40 C" in out


def test_score_bad_card_file_exits_2_naming_hand_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.card"
    path.write_text("x-1 | run | 25 | X | any | 111a 2222a 333a 444Qa | n\n")
    code, _, err = run(capsys, "score", "american", "--card", str(path), "1m")
    assert code == 2
    assert "line 1, hand x-1, column 47" in err and "'Q'" in err
    code, _, err = run(capsys, "score", "american", "--card", str(tmp_path / "none"), "1m")
    assert code == 2 and "cannot read card file" in err


def test_score_jsonl_answers_every_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    win = {
        "tiles": ["2s"] * 3 + ["4s"] * 3 + ["8s"] * 4,
        "exposures": [["6s", "6s", "6s", "J"]],
        "self_drawn": False,
    }
    clean = {"tiles": ["2s"] * 3 + ["4s"] * 3 + ["6s"] * 4 + ["8s"] * 4}
    answers = jsonl(
        monkeypatch,
        capsys,
        [
            json.dumps(win),
            "not json",
            json.dumps({"tiles": ["2s"]}),
            "",
            json.dumps(clean),
            json.dumps({"tiles": ["Q"] * 14}),
            json.dumps({"tile": []}),
            json.dumps({"tiles": ["1m"] * 2 + ["3p"] * 12}),
            "[1, 2]",
            json.dumps(win | {"self_drawn": "yes"}),
        ],
    )
    line = {"id": "2468-1", "value": 25, "alternative": 1, "pattern": "222a 444a 6666a 8888a"}
    assert answers[0] == {"matches": [line | {"jokerless": False}], "best": "2468-1"}
    assert "not JSON" in str(answers[1]["error"])
    assert "14 tiles needed" in str(answers[2]["error"])
    assert answers[3] == {"matches": [line | {"jokerless": True}], "best": "2468-1"}
    assert "bad tile 'Q'" in str(answers[4]["error"])
    assert "unknown field 'tile'" in str(answers[5]["error"])
    assert "the set has only 4" in str(answers[6]["error"])
    assert "expected a JSON object" in str(answers[7]["error"])
    assert "self_drawn" in str(answers[8]["error"])
    assert len(answers) == 9


def test_score_jsonl_no_match_is_best_null(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps(
        {
            "tiles": [
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
                "4p",
                "5p",
            ],
            "exposures": [],
        }
    )
    assert jsonl(monkeypatch, capsys, [line]) == [{"matches": [], "best": None}]


def test_hint_lists_nearest_hands_with_missing_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "american", "222s444s6666s888s", "-n", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("2468-1  25 X")
    assert lines[1].strip() == "needs 1: 8s"
    assert len(lines) == 4


def test_hint_shows_joker_only_slots(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "hint", "american", "FFFFF 4z4z4z4z 9999m", "-n", "1")
    assert code == 0
    assert "quint-1" in out and "needs 1: J" in out


def test_hint_bad_count_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "hint", "american", "222s")
    assert code == 2 and "13 or 14 tiles needed" in err


@pytest.mark.parametrize(
    ("value", "jokerless", "category", "self_drawn", "expected"),
    [
        (25, False, Category.EVENS_2468, False, (50, 25)),
        (25, False, Category.EVENS_2468, True, (0, 50)),
        (25, True, Category.EVENS_2468, False, (100, 50)),
        (25, True, Category.EVENS_2468, True, (0, 100)),
        (50, True, Category.SINGLES_PAIRS, False, (100, 50)),
    ],
)
def test_a7_payout_table(
    value: int, jokerless: bool, category: Category, self_drawn: bool, expected: tuple[int, int]
) -> None:
    assert payouts(value, jokerless, category, self_drawn) == expected
