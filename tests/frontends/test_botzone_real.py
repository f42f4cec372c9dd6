"""A whole MCR match at real daemons with a Botzone bot in one seat: `fourwinds bot --botzone`
runs examples/botzone_bot.py (JSON, keeping running) on our daemon; three built-in bot seats,
each on its own daemon; the fair (masked) deck, where our tiles show a moment after they
come; two hands, so the bot plays a Botzone game a hand. Every answer of the bot was played:
no fault, no problem at the table, and its stderr went to its log, not to the terminal."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from fourwinds.frontends.client.local_seats import Started, start_bot_seat
from testkit.procs import DaemonProcess, host_by_cli, request, start_logged

pytestmark = pytest.mark.slow
REAL = "fourwinds.daemon.table_runtimes.real_session"
HANDS = 2


def test_a_botzone_bot_plays_a_whole_match_at_real_daemons(tmp_path: Path) -> None:
    me = DaemonProcess(tmp_path / "me", "botzone", session_module=REAL)
    started = Started()
    me.start()
    client = me.client(subscribe=False)
    try:
        table, key = host_by_cli(me, "botzone", "--hands", str(HANDS))
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
        out = tmp_path / "botzone-seat.out"
        botlog = tmp_path / "botzone-bot.log"
        seat = start_logged(
            started,
            out,
            "-v",
            "bot",
            "--botzone",
            f"{sys.executable} examples/botzone_bot.py --keep-running",
            "--data-dir",
            str(me.data_dir),
            "--table",
            table,
            "--botzone-log",
            str(botlog),
        )
        deadline = time.monotonic() + 300
        view: dict[str, object] = {}
        while time.monotonic() < deadline and seat.poll() is None:
            view = request(client, type="view", table=table)["event"]["view"]
            # sleep-ok: poll interval of a bounded wait
            time.sleep(0.5)
        assert seat.poll() == 0, (
            f"the seat did not finish: {view.get('phase')} "
            f"{view.get('phase_detail')}; {out.read_text()[-1500:]}; "
            f"{botlog.read_text()[-1500:] if botlog.exists() else ''}"
        )
        view = request(client, type="view", table=table)["event"]["view"]
        assert view["phase"] == "match_over" and view["hands_played"] == HANDS
        assert view["practice"] is False  # the fair deck
        assert view["problems"] == []
        log = botlog.read_text()
        assert f"match over: {HANDS} hands played by the bot; faults: none" in log, log
        assert "hand 1: seat" in log and "hand 2: seat" in log
        assert "faults" not in out.read_text()  # nothing to warn about on the terminal
    finally:
        started.stop()
        client.close()
        me.stop()
