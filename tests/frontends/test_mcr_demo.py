"""`fourwinds demo mcr`: four bots play a seeded match with a log and per-hand summaries."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from fourwinds.frontends.cli import main
from fourwinds.protocol.mcr.demo_log import play_match


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_mcr_logs_turns_and_summarises_each_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "mcr", "--seed", "4", "--hands", "2", "--engine-only")
    assert code == 0
    assert out.count("== Hand ") == 2
    assert re.search(r"^   [ESWN] discards \d?[mpsz]", out, re.M)
    assert out.count("running scores:") == 2
    assert "payments:" in out and "== Match over: 2 hands" in out
    summaries = re.findall(r"^-- Hand \d+: (won by [ESWN] .*|draw .*)$", out, re.M)
    assert len(summaries) == 2
    if "won by" in out:
        assert re.search(
            r"declares Mahjong (self-drawn|on [ESWN]'s discard): \S.* \+ \d?[mpsz]", out
        )
    for line in out.splitlines():
        if line.startswith("   fans:"):
            assert re.search(r"[A-Z][a-z]+.* \d+", line)


def test_demo_mcr_same_seed_same_match() -> None:
    a: list[str] = []
    b: list[str] = []
    first = play_match(random.Random(9), 2, out=a.append)
    second = play_match(random.Random(9), 2, out=b.append)
    assert a == b and first.scores == second.scores
    assert sum(first.scores) == 0


def test_demo_mcr_quiet_prints_only_summaries(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "mcr", "--seed", "2", "--quiet", "--engine-only")
    assert code == 0 and " discards " not in out and "-- Hand 1:" in out


def test_demo_mcr_rejects_a_bad_hand_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "demo", "mcr", "--hands", "0")
    assert code == 2 and "--hands must be 1 to 16" in err and len(err.strip().splitlines()) == 1


def test_demo_mcr_runs_through_the_table_and_saves_a_verifiable_transcript(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    transcript = tmp_path / "mcr.fw"
    code, out, _ = run(
        capsys, "demo", "mcr", "--seed", "5", "--deck", "practice", "--transcript", str(transcript)
    )
    assert code == 0 and "== Hand 1" in out and "-- Hand 1:" in out
    assert main(["verify", str(transcript)]) == 0
    assert "OK" in capsys.readouterr().out


def test_demo_mcr_without_flowers_lays_out_none_and_verify_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    transcript = tmp_path / "mcr-nf.fw"
    code, out, _ = run(
        capsys, "demo", "mcr", "--seed", "5", "--no-flowers", "--transcript", str(transcript)
    )
    assert code == 0 and "-- Hand 1:" in out
    assert "flower replacement" not in out and " exposes " not in out
    assert main(["verify", str(transcript)]) == 0
    checked = capsys.readouterr().out
    assert "mcr without flowers, masked deck" in checked and "OK" in checked
    code, out, _ = run(capsys, "demo", "mcr", "--seed", "5", "--no-flowers", "--engine-only")
    assert code == 0 and "flower replacement" not in out and " exposes " not in out
    code, out, _ = run(capsys, "demo", "mcr", "--seed", "5", "--engine-only")
    assert "flower replacement" in out and " exposes " in out  # the same seed, with flowers
