"""`fourwinds bot --tournament EVENT` starts its daemon when none runs, as `play` and the
tournament commands do (issue 38, defect 9): on a player's machine with no daemon, the bot
entrant's command reaches a daemon it started, which answers for the event."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.machines import Machine, one_player

pytestmark = pytest.mark.slow


@pytest.fixture
def kim() -> Iterator[Machine]:
    with one_player("Kim") as machine:
        with machine.config_file.open("a", encoding="utf-8") as config:
            config.write("port = 0\n")  # other tests may hold 7420 on this loopback
        yield machine


def test_a_bot_entrant_starts_its_daemon_when_none_runs(kim: Machine) -> None:
    assert kim.daemon_pid() is None
    done = kim.run("fourwinds bot --rules mcr --tournament club", timeout=60)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no event 'club' here" in done.stderr, done.stderr  # the started daemon's answer
    assert "Traceback" not in done.stderr
    assert kim.daemon_pid() is not None
