"""``--bot-level``: accepted for play, web and bot --rules, refused with the known levels
named, read from the config file, and carried to the daemon's suggest request and to the
bot seats play starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.bots.bot_level_option import chosen_level
from fourwinds.frontends.bots.suggest_bot import suggest_request
from fourwinds.frontends.cli.player_config import ConfigError, parse_config
from fourwinds.frontends.client.view_shapes import view_event
from fourwinds.protocol.bot_level import BotLevel, parse_level
from fourwinds.protocol.errors import FourwindsError


def test_levels_parse_by_name_and_unknown_ones_are_refused() -> None:
    assert [parse_level(n) for n in ("easy", " Normal ", "STRONG")] == list(BotLevel)
    with pytest.raises(
        ValueError, match="unknown bot level 'hard': choose one of easy, normal, strong"
    ):
        parse_level("hard")


def test_the_level_comes_from_the_option_else_the_config() -> None:
    assert parse_config("").bot_level == "normal"
    assert parse_config('bot_level = "strong"').bot_level == "strong"
    assert chosen_level(None, "strong") is BotLevel.STRONG
    assert chosen_level(BotLevel.EASY, "strong") is BotLevel.EASY
    with pytest.raises(ConfigError, match="'bot_level': unknown bot level 'hard'"):
        parse_config('bot_level = "hard"')
    with pytest.raises(FourwindsError, match="config bot_level"):
        chosen_level(None, "hard")


def test_the_suggest_request_names_a_level_other_than_normal() -> None:
    event = view_event({"type": "view", "table": "t1", "view": {}, "legal_actions": []})
    assert suggest_request(event) == {"type": "suggest", "table": "t1"}
    assert suggest_request(event, BotLevel.STRONG) == {
        "type": "suggest",
        "table": "t1",
        "level": "strong",
    }


def test_an_unknown_level_is_refused_on_the_command_line_before_anything_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from fourwinds.frontends import cli
    from fourwinds.frontends.client.local_seats import is_running

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    data = ["--data-dir", str(tmp_path / "d")]
    for argv in (
        ["bot", "--rules", "mcr", "--bot-level", "hard"],
        ["play", "--bot-level", "hard"],
        ["web", "--bot-level", "hard"],
    ):
        with pytest.raises(SystemExit) as stopped:
            cli.main([*argv, *data])
        assert stopped.value.code == 2
        assert (
            "argument --bot-level: unknown bot level 'hard': choose one of easy, normal, strong"
        ) in capsys.readouterr().err
    assert cli.main(["bot", "--exec", "./b", "--bot-level", "strong", *data]) == 2
    assert "--bot-level is for the built-in bot (--rules)" in capsys.readouterr().err
    assert not is_running(str(tmp_path / "d"))  # no daemon was started


def test_the_bot_seats_get_the_level_and_keep_it_for_a_return(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from fourwinds.frontends.client import local_seats

    started: list[dict[str, Any]] = []
    monkeypatch.setattr(local_seats, "start_bot_seat", lambda *a, **k: started.append(k))
    local_seats.seat_new_bots(
        local_seats.Started(),
        tmp_path,
        table="ab" * 16,
        rules="mcr",
        count=2,
        host_port=1,
        host_key="k",
        level=BotLevel.STRONG,
        say=lambda text: None,
    )
    assert [k["level"] for k in started] == [BotLevel.STRONG] * 2
    seats = local_seats.load_bot_seats(tmp_path, "ab" * 16)
    assert seats is not None and seats.level is BotLevel.STRONG
    local_seats.resume_bot_seats(local_seats.Started(), seats, host_port=1, say=lambda text: None)
    assert [k["level"] for k in started[2:]] == [BotLevel.STRONG] * 2
