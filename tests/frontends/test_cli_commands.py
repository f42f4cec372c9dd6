"""The scriptable CLI against a fake daemon: requests sent, human and --json output, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli import cli_common
from fourwinds.frontends.cli.action_pick import NoSuchAction, pick_action, pick_by_id_or_label
from fourwinds.frontends.client.daemon_link import DaemonUnavailable
from fourwinds.frontends.client.view_shapes import ViewEvent
from tests.frontends import sample_views
from tests.frontends.fake_api import FakeApi
from tests.frontends.scripted_table import sample_script


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeApi]:
    fake = FakeApi(sample_script())
    monkeypatch.setattr(cli_common, "connect", lambda data_dir=None, subscribe=False: fake)
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    yield fake


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    out = capsys.readouterr().out
    assert out.count("\n") == 1, out  # exactly one JSON object
    value = json.loads(out)
    assert isinstance(value, dict)
    return value


def test_charleston_discard_call_round_trip(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["charleston", "1m", "3m", "6s", "--json"]) == 0
    out = _json(capsys)
    assert out["ok"] is True and out["seq"] == 1 and out["tiles"] == ["1m", "3m", "6s"]
    assert cli.main(["discard", "8s"]) == 0
    assert capsys.readouterr().out.strip() == "Discard 8s: done"
    assert cli.main(["call", "pung"]) == 0
    assert [r["seq"] for r in api.table.requests] == [1, 2, 3]
    assert api.table.requests[2]["action"] == 0


def test_status_json_is_the_view_event(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["status", "--json"]) == 0
    out = _json(capsys)
    assert out["type"] == "view" and out["seq"] == 1
    assert set(out) >= {"view", "legal_actions", "table"}


def test_status_human_lists_seats_hand_and_legal_ids(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    api.table.index = 2  # the call window
    assert cli.main(["status"]) == 0
    out = capsys.readouterr().out
    assert "phase: South discarded 4p: call or pass (8s left)" in out
    assert "South Bob" in out and "exposed: 5p 5p J (pung)" in out
    assert "hand: 1m 2m 3m" in out
    assert "  2: Pass [default]" in out


def test_hand_json_shape(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    api.table.index = 1
    assert cli.main(["hand", "--json"]) == 0
    out = _json(capsys)
    assert set(out) == {
        "table",
        "seq",
        "hand",
        "drawn",
        "hints",
        "phase",
        "result",
        "next",
        "history",
        "standings",
    }
    assert out["drawn"] == "6s" and out["table"] == "kitchen" and out["result"] is None


def test_a_hands_end_in_the_cli_shows_the_result_and_next_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    over = sample_views.hand_over_event()
    fake = FakeApi([over, sample_views.match_over_event()])
    monkeypatch.setattr(cli_common, "connect", lambda data_dir=None, subscribe=False: fake)
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    assert cli.main(["hand", "--json"]) == 0
    out = _json(capsys)
    assert out["phase"] == "hand_over" and out["result"] == over["view"]["result"]
    assert out["next"] == over["view"]["next"]
    assert cli.main(["status"]) == 0
    text = capsys.readouterr().out
    assert "Mahjong by" in text and "Bob" in text and "Payments:" in text
    assert cli.main(["next"]) == 0
    assert fake.table.requests[-1]["action"] == 0  # the view's `next` action
    assert cli.main(["more-time"]) == 2  # nothing to think about at a hand's end
    assert "cannot ask for more time now" in capsys.readouterr().err


def test_illegal_move_exits_2_listing_the_legal_ones(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    api.table.index = 2
    assert cli.main(["discard", "3m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "you cannot discard now (legal now: 0: Pung 4p; 1: Kong 4p; 2: Pass)" in err
    assert api.table.requests == []


def test_bad_tile_is_a_usage_error(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    api.table.index = 1
    assert cli.main(["discard", "10m"]) == 2
    assert "bad tile" in capsys.readouterr().err


def test_ambiguous_call_asks_which(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    api.table.index = 2
    assert cli.main(["call"]) == 2
    assert "several ways to call: Pung 4p; Kong 4p" in capsys.readouterr().err
    assert cli.main(["call", "kong", "--json"]) == 0
    assert _json(capsys)["action"] == {
        "id": 1,
        "type": "call",
        "label": "Kong 4p",
        "tiles": ["4p", "4p", "4p", "J"],
    }


def test_pass_and_act_by_id(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    api.table.index = 2
    assert cli.main(["pass"]) == 0
    sent = dict(api.table.requests[-1])
    assert sent.pop("expected")["label"] == "Pass"
    assert sent == {"type": "act", "table": "kitchen", "seq": 3, "action": 2}
    api.table.index = 2
    assert cli.main(["act", "1"]) == 0
    assert api.table.requests[-1]["action"] == 1


def test_table_must_be_named_when_there_are_several(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fake = FakeApi(sample_script(), tables=2)
    monkeypatch.setattr(cli_common, "connect", lambda data_dir=None, subscribe=False: fake)
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    assert cli.main(["status"]) == 2
    assert "several tables (kitchen, t1): say --table NAME" in capsys.readouterr().err
    assert cli.main(["status", "--table", "kitchen", "--json"]) == 0


def test_host_sends_create_with_options(
    api: FakeApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = tmp_path / "my.card"
    card.write_text("# a card\n")
    assert (
        cli.main(["host", "den", "--rules", "american", "--card", str(card), "--private", "--json"])
        == 0
    )
    assert _json(capsys)["code"] == "7-tiger"
    create = api.sent[-1]
    assert create == {
        "type": "create",
        "name": "den",
        "rules": "american",
        "private": True,
        "options": {
            "hands": 0,
            "deck": "masked",
            "auto_pass": True,
            "card_text": "# a card\n",
            "card_name": "my",
        },
    }


def test_host_no_auto_pass_asks_every_player_about_every_discard(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["host", "den", "--rules", "mcr", "--no-auto-pass", "--json"]) == 0
    assert api.sent[-1]["options"]["auto_pass"] is False


def test_card_with_mcr_is_refused(
    api: FakeApi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    card = tmp_path / "my.card"
    card.write_text("x")
    assert cli.main(["host", "--rules", "mcr", "--card", str(card)]) == 2
    assert "--card is for American tables" in capsys.readouterr().err


def test_join_seat_ready(api: FakeApi, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["join", "kitchen", "--code", "7-tiger"]) == 0
    assert api.sent[-1] == {"type": "join", "table": "kitchen", "code": "7-tiger"}
    assert cli.main(["seat", "north"]) == 0
    assert api.sent[-1] == {"type": "seat", "table": "kitchen", "seat": 3}
    api.table.index = 3  # hand over: no ready action listed, a ready request is sent
    assert cli.main(["ready", "--json"]) == 0
    assert api.sent[-1] == {"type": "ready", "table": "kitchen"}


def test_no_daemon_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(data_dir: str | None = None, subscribe: bool = False) -> FakeApi:
        raise DaemonUnavailable(
            "no fourwinds daemon is running (start one with `fourwinds daemon`)"
        )

    monkeypatch.setattr(cli_common, "connect", refuse)
    assert cli.main(["status"]) == 2
    err = capsys.readouterr().err
    assert err == "fourwinds: no fourwinds daemon is running (start one with `fourwinds daemon`)\n"


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (
        "play",
        "host",
        "join",
        "seat",
        "ready",
        "status",
        "hand",
        "discard",
        "stop",
        "call",
        "pass",
        "exchange",
        "mahjong",
        "charleston",
        "act",
        "bot",
        "completion",
        "config",
    ):
        with pytest.raises(SystemExit) as done:
            cli.main([command, "--help"])
        assert done.value.code == 0
        assert f"usage: fourwinds {command}" in capsys.readouterr().out


def test_pick_action_tiles_and_words() -> None:
    event = sample_views.play_event()
    action, chosen = pick_action(event, ["exchange"], tiles=["5p"], what="exchange")
    assert action["type"] == "exchange" and chosen == []
    with pytest.raises(NoSuchAction, match="no legal way to exchange 3m"):
        pick_action(event, ["exchange"], tiles=["3m"], what="exchange")
    with pytest.raises(NoSuchAction, match="no legal action 99"):
        pick_by_id_or_label(event, "99", [])
    action, _ = pick_by_id_or_label(event, "mahjong", [])
    assert action["type"] == "mahjong"


def test_act_default_takes_what_a_timeout_would(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    api.table.index = 2
    assert cli.main(["act", "default", "--json"]) == 0
    assert _json(capsys)["action"]["label"] == "Pass"  # type: ignore[index]
    assert api.table.index == 3  # the match is over: nothing to do
    assert cli.main(["act", "default"]) == 2
    assert "nothing is legal for you right now" in capsys.readouterr().err


class _WaitingApi(FakeApi):
    """The daemon as a real one behaves: views name the table by its id (``ab0cd``), not by
    the name the command was given; the seat's turn comes in the second event streamed."""

    def __init__(self) -> None:
        waiting: ViewEvent = {
            **sample_views.play_event(seq=1),
            "table": "ab0cd",
            "legal_actions": [],
        }
        # from the wire, as the daemon streams them: another table's turn, then ours
        other: dict[str, Any] = {**sample_views.play_event(seq=2), "table": "ffff00"}
        turn: dict[str, Any] = {**sample_views.play_event(seq=3), "table": "ab0cd"}
        super().__init__([waiting])
        self.stream = [other, turn]

    def next_event(self, timeout: float) -> dict[str, Any] | None:
        return self.stream.pop(0) if self.stream else None


def test_status_wait_returns_the_view_that_gives_the_seat_a_turn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = _WaitingApi()
    monkeypatch.setattr(cli_common, "connect", lambda data_dir=None, subscribe=False: fake)
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    assert cli.main(["status", "--wait", "30", "--table", "kitchen", "--json"]) == 0
    out = _json(capsys)
    assert out["seq"] == 3 and out["table"] == "ab0cd" and out["legal_actions"]
    assert fake.stream == []  # the other table's view was read and passed over


def test_host_sends_the_table_timers_given(
    api: FakeApi, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["host", "den", "--call-window", "15", "--next-window", "0", "--json"]) == 0
    options = api.sent[-1]["options"]
    assert (options["call_window"], options["next_window"]) == (15.0, 0.0)
    assert "turn_window" not in options and "exchange_window" not in options


def test_daemon_reads_the_config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from fourwinds.daemon import main as daemon_main

    config = tmp_path / "config.toml"
    config.write_text(
        f'name = "Bob"\npeers = ["10.0.4.17:7420"]\nport = 7500\ndata_dir = "{tmp_path / "data"}"\n'
    )
    monkeypatch.setenv("FOURWINDS_CONFIG", str(config))
    seen: list[Any] = []
    monkeypatch.setattr(daemon_main, "main", lambda settings: _record(seen, settings))
    assert cli.main(["daemon"]) == 0
    assert cli.main(["daemon", "--name", "Ann", "--port", "0", "--peer", "10.0.4.18:7420"]) == 0
    first, second = seen
    assert (first.name, first.port, first.peers, first.data_dir) == (
        "Bob",
        7500,
        (("10.0.4.17", 7420),),
        str(tmp_path / "data"),
    )
    assert (second.name, second.port) == ("Ann", 0)
    assert second.peers == (("10.0.4.17", 7420), ("10.0.4.18", 7420))


def test_daemon_name_defaults_to_the_login_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import getpass

    from fourwinds.daemon import main as daemon_main

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setattr(getpass, "getuser", lambda: "ada")
    seen: list[Any] = []
    monkeypatch.setattr(daemon_main, "main", lambda settings: _record(seen, settings))
    assert cli.main(["daemon"]) == 0
    assert (seen[0].name, seen[0].port) == ("ada", 7420)


def test_whoami_shows_the_fingerprint_and_the_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('name = "Bob"\n')
    monkeypatch.setenv("FOURWINDS_CONFIG", str(config))
    assert cli.main(["whoami", "--data-dir", str(tmp_path / "d")]) == 0
    fingerprint, name = capsys.readouterr().out.splitlines()
    assert len(fingerprint.split(":")) == 4 and name == "name: Bob"


def test_stop_without_a_daemon_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    assert cli.main(["stop", "--data-dir", str(tmp_path / "d")]) == 0
    assert capsys.readouterr().out == "no daemon is running\n"


@pytest.mark.slow
def test_tables_starts_the_daemon_and_stop_stops_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fourwinds.frontends.client.local_seats import is_running, running_info

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    data = str(tmp_path / "d")
    try:
        assert cli.main(["tables", "--data-dir", data, "--port", "0", "--wait", "0"]) == 0
        out, err = capsys.readouterr()
        assert "started your daemon (`fourwinds stop` stops it)" in err
        assert out.startswith("You sit at no table.\n")
        info = running_info(data) or {}
        assert info["listen"] == "0.0.0.0" and info["mdns"] is True  # on the network
        assert cli.main(["tables", "--data-dir", data, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["tables"] == []
    finally:
        assert cli.main(["stop", "--data-dir", data]) == 0
    assert capsys.readouterr().out.startswith("stopped your daemon (pid ")
    assert not is_running(data)
    assert cli.main(["stop", "--data-dir", data]) == 0
    assert capsys.readouterr().out == "no daemon is running\n"


def _record(seen: list[Any], value: Any) -> int:
    seen.append(value)
    return 0


class _TablesApi:
    """The daemon's ``tables`` answer: one table of ours and two seen, as the daemon words
    their rules (``rules_label``); one from an older daemon without it."""

    def request(self, message: Any) -> dict[str, Any]:
        seen = {
            "free": 2,
            "private": False,
            "compatible": True,
            "version": 5,
            "host": "10.0.0.9",
            "port": 7420,
            "player": "Ann",
        }
        return {
            "ok": True,
            "peers": [],
            "tables": [
                {
                    "table": "ab" * 16,
                    "name": "kitchen",
                    "rules": "mcr",
                    "flowers": False,
                    "rules_label": "MCR, no flowers",
                    "seated": 2,
                }
            ],
            "seen": [
                {
                    **seen,
                    "table": "cd" * 16,
                    "name": "den",
                    "rules": "mcr",
                    "flowers": False,
                    "rules_label": "MCR, no flowers",
                },
                {**seen, "table": "ef" * 16, "name": "old", "rules": "american"},
            ],
        }

    def close(self) -> None:
        pass


def test_tables_says_which_table_plays_without_flowers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fourwinds.frontends.cli.commands import tables

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setattr(tables, "ensure_daemon", lambda plan: (_TablesApi(), None))
    monkeypatch.setattr(tables, "runs_solo", lambda data_dir: False)
    assert cli.main(["tables", "--data-dir", str(tmp_path), "--wait", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("  kitchen              MCR, no flowers 2/4 seated"), out
    assert out[3].startswith("  den                  MCR, no flowers 2 free"), out
    assert out[4].startswith("  old                  american        2 free"), out  # aligned
