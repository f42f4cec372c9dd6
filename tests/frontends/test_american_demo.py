"""`fourwinds demo american`: bots play seeded hands with a log and a summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from fourwinds.frontends.cli import main


def test_demo_american_plays_seeded_hands_with_a_log_and_a_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "american", "--seed", "7", "--hands", "2", "--engine-only"]) == 0
    out = capsys.readouterr().out
    assert "== Hand 1" in out and "== Hand 2" in out
    assert "First Charleston" in out and "Play begins" in out and "discards" in out
    assert out.count("payouts:") == 2 and out.count("running scores:") == 2
    assert "Match over: 2 hands" in out
    assert main(["demo", "american", "--seed", "7", "--hands", "2", "--engine-only"]) == 0
    assert capsys.readouterr().out == out  # the seed replays the match


def test_demo_american_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo", "american", "--hands", "0"]) == 2
    assert "--hands" in capsys.readouterr().err
    assert main(["demo", "american", "--card", str(tmp_path / "missing.card")]) == 2
    err = capsys.readouterr().err
    assert "cannot read card file" in err and "Traceback" not in err
    bad = tmp_path / "bad.card"
    bad.write_text("card: bad\nx | nope | 25 | X | - | 111a | n\n", encoding="utf-8")
    assert main(["demo", "american", "--card", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("fourwinds:")


def test_demo_american_runs_through_the_table_on_the_masked_deck(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    transcript = tmp_path / "american.fw"
    assert main(["demo", "american", "--seed", "3", "--transcript", str(transcript)]) == 0
    out = capsys.readouterr().out
    assert "== Hand 1" in out and "-- Hand 1:" in out and "Match over" in out
    assert main(["verify", str(transcript)]) == 0
    verified = capsys.readouterr().out
    assert "masked deck" in verified and "OK" in verified


def test_demo_engine_only_refuses_a_transcript(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo", "american", "--engine-only", "--transcript", str(tmp_path / "t.fw")]) == 2
    assert "--engine-only" in capsys.readouterr().err
