"""`fourwinds tournament verify FILE` (issue 23): OK and the standings for an export made
with the real signing code; each refused record in one line naming its round and table, exit
1; a truncated, garbage or missing file one clear line, exit 2, never a traceback."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from fourwinds.frontends.cli import main
from fourwinds.protocol.table.wire.strict import pack
from fourwinds.protocol.tournament.check import check_event
from fourwinds.protocol.tournament.export import MAGIC, encode_export
from fourwinds.protocol.tournament.records import Penalty, Record, TableResult
from fourwinds.protocol.tournament.signing import signed
from testkit.tournament_event import EventMaker, synthetic_event


@pytest.fixture(scope="module")
def event() -> EventMaker:
    return synthetic_event(16, 3)


def verify(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["tournament", "verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_export_verifies_with_the_standings_recomputed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: EventMaker
) -> None:
    path = tmp_path / "event.fwt"
    path.write_bytes(encode_export(event.records))
    code, out, err = verify(capsys, path)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith('OK: "club night", mcr, 16 entrants, 3 of 3 round(s)')
    rows = check_event(event.records).standings
    shown = [line.split() for line in lines[2:18]]
    assert [int(r[0]) for r in shown] == [row.rank for row in rows]
    assert [" ".join(r[1:3]) for r in shown] == [f"player {row.player}" for row in rows]
    assert [int(r[4]) for r in shown] == [row.score for row in rows]


def test_one_score_changed_fails_naming_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: EventMaker
) -> None:
    records = list(event.records)
    at = next(
        i
        for i, r in enumerate(records)
        if isinstance(r.body, TableResult) and r.body.round == 2 and r.body.table == 1
    )
    body = records[at].body
    assert isinstance(body, TableResult)
    records[at] = Record(
        dataclasses.replace(body, scores=(*body.scores[:3], body.scores[3] + 1)),
        records[at].signatures,
    )
    path = tmp_path / "tampered.fwt"
    path.write_bytes(encode_export(records))
    code, out, err = verify(capsys, path)
    assert code == 1 and err == ""
    problems = [line for line in out.splitlines() if line.startswith("PROBLEM")]
    assert len(problems) == 1
    assert problems[0].startswith("PROBLEM round 3, table 2: a signature does not check")
    assert f"(record {at})" in problems[0]


def test_the_history_shows_a_penalty_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: EventMaker
) -> None:
    fine = Penalty(event.event, 1, event.players[2].public, Fraction(1), 0, "slow play\x1b[2J")
    path = tmp_path / "fined.fwt"
    path.write_bytes(encode_export([*event.records, signed(fine, event.director)]))
    code, out, _ = verify(capsys, path)
    assert code == 0
    assert out.splitlines()[-1].startswith("penalty: round 2, player 2: -1 points")
    assert "\x1b" not in out


@pytest.mark.parametrize(
    "damage, says",
    [
        (lambda data: data[: len(data) // 2], "cut short"),
        (lambda data: b"\x00garbage" * 40, "not a fourwinds tournament export"),
        (lambda data: b"", "empty"),
        (lambda data: pack([MAGIC, 9, []]), "export version 9"),
        (lambda data: pack([MAGIC, 1, [b"\x93\x01\x90\x90"]]), "the event's creation"),
    ],
)
def test_a_bad_file_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: EventMaker, damage: object, says: str
) -> None:
    path = tmp_path / "bad.fwt"
    path.write_bytes(damage(encode_export(event.records)))  # type: ignore[operator]
    code, out, err = verify(capsys, path)
    text = (out + err).strip()
    assert code in (1, 2) and len(text.splitlines()) == 1 and says in text, text
    assert "Traceback" not in text


def test_a_missing_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = verify(capsys, tmp_path / "nowhere.fwt")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_the_installed_command_verifies(tmp_path: Path, event: EventMaker) -> None:
    path = tmp_path / "event.fwt"
    path.write_bytes(encode_export(event.records))
    done = subprocess.run(
        [sys.executable, "-m", "fourwinds.frontends.cli", "tournament", "verify", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stdout.startswith("OK: "), done.stderr
    path.write_bytes(b"\x92")
    done = subprocess.run(
        [sys.executable, "-m", "fourwinds.frontends.cli", "tournament", "verify", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_verify_prints_a_substitute_and_a_new_director_in_the_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.protocol.tournament.test_new_director import _name
    from tests.protocol.tournament.test_substitutes import _event, _result_after, _substitute

    maker = _event()
    _substitute(maker, 0, 1, None, scores=(30, -10, -10, -10), hands=2)
    _result_after(maker, 0, 1, None, (-20, 60, -20, -20))
    maker.result(0, 1)
    _name(maker, maker.players[2], range(5))
    path = tmp_path / "event.fwt"
    path.write_bytes(encode_export(maker.records))
    code, out, _ = verify(capsys, path)
    assert code == 0, out
    assert "substitute: round 1, table 1, S: a bot for player" in out
    assert "after 2 hand(s) [30, -10, -10, -10]: her laptop died" in out
    assert "new director: " in out and "named by the entrants at record" in out


def test_one_altered_result_is_named_first_and_the_records_after_it_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], event: EventMaker
) -> None:
    records = list(event.records)
    at = next(
        i
        for i, r in enumerate(records)
        if isinstance(r.body, TableResult) and r.body.round == 0 and r.body.table == 0
    )
    body = records[at].body
    assert isinstance(body, TableResult)
    records[at] = Record(
        dataclasses.replace(
            body, scores=(body.scores[0] + 8, *body.scores[1:3], body.scores[3] - 8)
        ),
        records[at].signatures,
    )
    path = tmp_path / "altered.fwt"
    path.write_bytes(encode_export(records))
    every = check_event(records).problems
    assert len(every) > 2  # the rounds after it build on it: refused too
    code, out, err = verify(capsys, path)
    assert code == 1 and err == ""
    problems = [line for line in out.splitlines() if line.startswith("PROBLEM")]
    [first] = problems
    assert first.startswith("PROBLEM round 1, table 1: a signature does not check")
    assert first.endswith(f"(record {at})")
    counted = out.splitlines()[1]
    assert counted.startswith(f"and {len(every) - 1} later record(s) refused after it ("), out
    assert counted.endswith("; --all lists each")
    assert main(["tournament", "verify", "--all", str(path)]) == 1
    listed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("PROBLEM")]
    assert len(listed) == len(every) and listed[0] == first
