"""The scriptable CLI plays a whole hand against three bot seats at a real table: our seat is
driven only by `fourwinds status --wait --json`, `fourwinds mahjong` and `fourwinds act
default` (in-process, each a fresh connection to the daemon, as a shell script's commands
would be); the bots are `fourwinds bot` seats, each on its own daemon on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fourwinds.frontends import cli
from fourwinds.frontends.client.local_seats import Started, start_bot_seat
from testkit.cli_seat import play_hand_by_cli
from testkit.procs import DaemonProcess, request

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"


def test_cli_script_plays_a_whole_hand_against_three_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    me = DaemonProcess(tmp_path / "me", "scripted", session_module=REAL)
    started = Started()
    me.start()
    data = ["--data-dir", str(me.data_dir)]
    try:
        assert cli.main(["host", "shell", "--rules", "mcr", "--practice", "--json", *data]) == 0
        table = json.loads(capsys.readouterr().out)["table"]
        client = me.client(subscribe=False)
        key = request(client, type="whoami")["public_key"]
        client.close()
        for index in (1, 2, 3):
            start_bot_seat(
                started,
                base=tmp_path,
                index=index,
                rules="mcr",
                table=table,
                host_port=me.port,
                host_key=key,
            )
        played = play_hand_by_cli(data, capsys, timeout=120)
        # ready, flowers, discards and call-window answers, all from the CLI
        assert played.moves >= 10
        assert played.event["view"]["problems"] == []
    finally:
        started.stop()
        me.stop()
