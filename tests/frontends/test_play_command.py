"""`fourwinds play`: falls back clearly to the offline demo; processes it starts are stopped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.commands import play
from fourwinds.frontends.local_seats import Started, fourwinds_command
from fourwinds.protocol.errors import FourwindsError


def _args(*argv: str) -> object:
    return cli.build_parser().parse_args(["play", "--data-dir", _DIR[0], *argv])


_DIR = [""]


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path) -> None:
    _DIR[0] = str(tmp_path / "data")


def test_play_falls_back_to_the_demo_with_the_reason(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))

    def no_table(*_: object) -> tuple[object, str]:
        raise FourwindsError("no table session in this build")

    ran: list[list[str]] = []

    def fake_main(argv: list[str] | None = None) -> int:
        ran.append(list(argv or []))
        return 0

    monkeypatch.setattr(play, "_sit_down", no_table)
    monkeypatch.setattr(cli, "main", fake_main)
    assert play.cmd_play(_args("--rules", "mcr")) == 0  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert "the networked table is not available here yet (no table session" in err
    assert "fourwinds demo mcr" in err
    assert ran == [["demo", "mcr"]]


def test_play_no_fallback_and_join_report_the_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))

    def no_table(*_: object) -> tuple[object, str]:
        raise FourwindsError("cannot join kitchen: table is full")

    monkeypatch.setattr(play, "_sit_down", no_table)
    for argv in (("--no-fallback",), ("--join", "kitchen")):
        with pytest.raises(FourwindsError, match="table is full"):
            play.cmd_play(_args(*argv))  # type: ignore[arg-type]


def test_play_defaults_come_from_the_config(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('rules = "mcr"\nbots = 1\n')
    monkeypatch.setenv("FOURWINDS_CONFIG", str(config))
    seen: list[tuple[str, int]] = []

    def record(args: object, rules: str, bots: int, started: Started) -> tuple[object, str]:
        seen.append((rules, bots))
        raise FourwindsError("stop here")

    monkeypatch.setattr(play, "_sit_down", record)
    with pytest.raises(FourwindsError):
        play.cmd_play(_args("--no-fallback"))  # type: ignore[arg-type]
    with pytest.raises(FourwindsError):
        play.cmd_play(_args("--no-fallback", "--rules", "american", "--bots", "3"))  # type: ignore[arg-type]
    assert seen == [("mcr", 1), ("american", 3)]


def test_bots_option_is_checked() -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["play", "--bots", "5"])


def test_started_processes_are_stopped_by_pid() -> None:
    started = Started()
    process = started.add(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
    started.stop()
    assert process.poll() is not None and started.processes == []


def test_subprocesses_run_this_same_fourwinds() -> None:
    done = subprocess.run(fourwinds_command("--version"), capture_output=True, text=True,
                          timeout=30, check=True)
    assert done.stdout.startswith("fourwinds ")
