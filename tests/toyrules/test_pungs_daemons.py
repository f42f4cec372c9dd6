"""A whole hand of the toy rule set at real daemons: four ``fourwinds daemon`` processes on
127.0.0.1 (and a fifth without it), each loading it through the registry line alone
(``FOURWINDS_RULESETS``); our seat played by `fourwinds host --rules pungs`, `fourwinds status
--wait --json` and `fourwinds act` / `fourwinds mahjong`, the other three by `fourwinds bot
--rules pungs` seats. Along the way: a daemon without the rule set refuses to join its table
and says why; the terminal's table and the page's data (the daemon's view, its rule set list
and its sheet) name it by what the view says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.cli.rule_plugins import VARIABLE
from fourwinds.frontends.client.local_seats import Started, start_bot_seat
from fourwinds.frontends.client.view_shapes import view_event
from fourwinds.frontends.terminal.table_view import UiState, render
from testkit.cli_seat import play_hand_by_cli
from testkit.procs import ROOT, DaemonProcess, request

from .conftest import MODULE

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"


def test_a_whole_hand_of_the_toy_rules_at_four_daemons(
    pungs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delenv(VARIABLE, raising=False)
    plain = DaemonProcess(tmp_path / "plain", "plain", session_module=REAL)
    plain.spawn()  # started without the toy rule set
    monkeypatch.setenv(VARIABLE, MODULE)
    me = DaemonProcess(tmp_path / "me", "scripted", session_module=REAL)
    me.spawn()
    started = Started()
    data = ["--data-dir", str(me.data_dir)]
    try:
        me.wait_ready()
        plain.wait_ready()
        assert cli.main(["host", "toy", "--rules", pungs, "--practice", "--json", *data]) == 0
        table = json.loads(capsys.readouterr().out)["table"]
        client = me.client(subscribe=False)
        key = request(client, type="whoami")["public_key"]
        listed = request(client, type="rulesets")
        assert [r["name"] for r in listed["rulesets"]] == ["american", "mcr", pungs]
        assert listed["rulesets"][2]["title"] == "Pungs and a pair" and listed["refused"] == []
        sheet = request(client, type="sheet", table=table)["sheet"]
        assert (sheet["unit"], [e["id"] for e in sheet["entries"]]) == ("fans", ["All Pungs"])

        other = plain.client(subscribe=False)
        refused = other.request(
            {
                "type": "join",
                "table": table,
                "host": "127.0.0.1",
                "port": me.port,
                "public_key": key,
            }
        )
        other.close()
        assert not refused.get("ok")
        assert "plays the rules 'pungs', which this daemon does not have (american, mcr;" in str(
            refused.get("error")
        ), refused

        for index in (1, 2, 3):
            start_bot_seat(
                started,
                base=tmp_path,
                index=index,
                rules=pungs,
                table=table,
                host_port=me.port,
                host_key=key,
            )
        played = play_hand_by_cli(data, capsys, timeout=90)
        event, view = played.event, played.event["view"]
        assert played.moves >= 5 and "play" in played.phases, played
        assert view["problems"] == [] and view["rules"] == pungs
        assert view["ruleset"]["title"] == "Pungs and a pair"
        assert view["flowers"] is False and len(view["history"]) == 1
        result = view["result"]
        assert result["kind"] in ("mahjong", "draw") and sum(result["payouts"]) == 0
        assert result["fans"] == (
            [] if result["kind"] == "draw" else [{"name": "All Pungs", "points": 8, "count": 1}]
        )
        screen = "\n".join(render(view_event(event), UiState(), 100, 30, True))
        assert "Pungs and a pair" in screen, screen
        client.close()
    finally:
        started.stop()
        me.stop()
        plain.stop()
