"""`fourwinds card check|show FILE`, and `score` / `hint` naming a format 2 line's
alternative (issue 16)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fourwinds.frontends.cli import build_parser, main
from fourwinds.frontends.cli.completion_scripts import command_tree
from fourwinds.protocol.american.cardfile import house_card

HOUSE = Path(__file__).resolve().parents[2] / "cards" / "house.card"
FORMAT1 = HOUSE.with_name("house-format1.card")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_card_check_counts_each_lines_variations(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "card", "check", str(HOUSE))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"{house_card().name}: format 2, {len(house_card().hands)} lines")
    assert lines[-1] == "OK"
    row = next(line for line in lines if line.split()[0] == "369-8")
    assert row.split()[3:5] == ["9", "variations"]
    row = next(line for line in lines if line.split()[0] == "add-7")
    assert "(alternative 1: 3, alternative 2: 3, alternative 3: 3)" in row
    code, out, _ = run(capsys, "card", "check", str(FORMAT1))
    assert code == 0 and "format 1, 74 lines" in out


def test_card_check_lists_every_mistake_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.card"
    path.write_text(
        "format: 2\ncard: mine\nsection: Lucky\n"
        "ok-1 | 25 | X | - | NNNN EEE WWW SSSS | fine\n"
        "x-1 | 25 | X | any | FF 1111a 2222b 333Qc | n\n"
        "x-2 | 25 | X | - | FFFF 5555a X 5555b 22c | n\n"
        "x-3 | 25 | X | - | NN NN NN EE WW SS FF | n\n"
    )
    code, out, _ = run(capsys, "card", "check", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{path}: line 5, hand x-1, column 40: 'Q' in '333Qc'")
    assert "line 6, hand x-2, column 20" in lines[1]
    assert "capital X at column 31" in lines[1] and "times sign" in lines[1]
    assert "line 7, hand x-3" in lines[2] and "no set of tiles can make" in lines[2]
    assert "mine: format 2, 1 line, 1 variation" in out
    assert lines[-1] == "3 mistakes: the card is refused until they are fixed"


def test_card_check_of_a_file_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "card", "check", str(tmp_path / "none.card"))
    assert code == 2 and out == "" and "cannot read card file" in err


def test_card_show_prints_sections_patterns_alternatives_and_variables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "card", "show", str(HOUSE))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == house_card().name
    assert "Four Winds" in lines and "Singles and Pairs" in lines
    at = next(i for i, line in enumerate(lines) if line.startswith("add-7 "))
    assert lines[at].split()[1:] == ["FF", "2222a", "+", "7777a", "=", "9999a", "X", "30"]
    assert lines[at + 1].strip() == "or  FF 3333a + 6666a = 9999a"
    assert lines[at + 2].strip() == "or  FF 4444a + 5555a = 9999a"
    row = next(line for line in lines if line.startswith("369-8 "))
    assert lines[lines.index(row) + 1].endswith("[numbers 3, 6 or 9]")
    row = next(line for line in lines if line.startswith("run-11 "))
    assert lines[lines.index(row) + 1].endswith("[numbers any; any 1 or 2 suits]")


def test_card_commands_complete_file_names() -> None:
    tree = command_tree(build_parser())
    card = tree.commands["card"]
    assert set(card.commands) == {"check", "show"}
    assert card.commands["check"].file_positional and card.commands["show"].file_positional


def test_score_names_the_alternative_and_the_concrete_tiles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "score", "american", "FF 3333p 6666p 9999p")
    assert code == 0
    head = next(line for line in out.splitlines() if line.startswith("add-7 "))
    assert "FF 3333a + 6666a = 9999a" in head and head.endswith("[alternative 2 of 3]")
    assert "    as FF 3333p 6666p 9999p  jokerless" in out


def test_score_jsonl_gives_the_alternative(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = json.dumps({"tiles": ["F", "F"] + ["4m"] * 4 + ["5m"] * 4 + ["9m"] * 4})
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    code, out, _ = run(capsys, "score", "american", "--jsonl")
    assert code == 0
    answer = json.loads(out)
    (match,) = [m for m in answer["matches"] if m["id"] == "add-7"]
    assert match["alternative"] == 3 and match["pattern"] == "FF 4444a + 5555a = 9999a"


def test_hint_names_the_line_and_its_nearest_alternative(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "hint", "american", "FF 2222s 777s 9999s", "-n", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("add-7  30 X  FF 2222a + 7777a = 9999a")
    assert lines[0].endswith("[alternative 1 of 3]")
    assert lines[1].strip() == "needs 1: 7s"
