"""`fourwinds play` for real, under tmux: it starts the player's daemon, hosts an MCR table,
fills three seats with bot seats (each its own daemon on 127.0.0.1) and opens the curses table;
we press keys until a whole hand has been played, reading the screen back.

Only legal actions are offered and taken (the highlighted entry of the action menu); the
screen shows our rack and every seat from the daemon's contract seat view.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.client import connect
from tests.frontends.test_curses_tmux import TMUX, Tmux

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]


def _view(data_dir: Path) -> dict[str, Any]:
    client = connect(str(data_dir), subscribe=False)
    try:
        tables = client.request({"type": "tables"})["tables"]
        if not tables:
            return {}
        event = client.request({"type": "view", "table": tables[0]["table"]}).get("event") or {}
        view: dict[str, Any] = event.get("view") or {}
        return view
    finally:
        client.close()


def _stop_daemon(data_dir: Path) -> None:
    try:
        client = connect(str(data_dir), subscribe=False)
    except ConnectionError:
        return
    try:
        pid = int(client.request({"type": "status"})["pid"])
    finally:
        client.close()
    os.kill(pid, signal.SIGTERM)


def test_play_alone_against_three_bots_through_a_hand(tmp_path: Path) -> None:
    me = tmp_path / "me"
    command = (f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
               f"fourwinds.frontends.cli play --rules mcr --bots 3 --practice --ascii "
               f"--no-fallback --data-dir {me}; sleep 60")
    tmux = Tmux(command, 110, 45)
    try:
        started = time.monotonic()
        screen = tmux.wait_for("Your hand", timeout=90)  # dealt: our rack is on screen
        assert "Chinese Official (MCR)" in screen
        print(f"table up and playing after {time.monotonic() - started:.1f} s")
        seen: set[str] = set()
        refusals = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            view = _view(me)
            if int(view.get("hands_played") or 0) >= 1 or view.get("phase") == "match_over":
                break
            screen = tmux.screen()
            seen.update(word for word in ("Discard", "Pass", "sent:") if word in screen)
            if "refused:" in screen:  # only a race with the table moving on is acceptable
                assert any(race in screen for race in (
                    "moved on", "nothing for this seat to do", "no action")), screen
                refusals += 1
            tmux.keys("Enter")
            time.sleep(0.1)
        else:
            raise AssertionError(f"the hand did not end; screen:\n{tmux.screen()}")
        print(f"hand over after {time.monotonic() - started:.1f} s")
        assert {"Discard", "sent:"} <= seen
        assert refusals <= 5
        tmux.keys("Q")
        end = time.monotonic() + 20
        while "Phase:" in tmux.screen() and time.monotonic() < end:
            time.sleep(0.2)
        assert "Phase:" not in tmux.screen()
    finally:
        tmux.close()
        _stop_daemon(me)
