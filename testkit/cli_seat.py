"""Our seat played by the scriptable CLI alone, as a shell script plays it (the tests of whole
hands at real daemons): `fourwinds status --wait --json`, then `fourwinds mahjong` when it is
offered, else `fourwinds act default`; each command in-process, a fresh connection to the
daemon."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from fourwinds.frontends import cli

RACED = ("not one of your legal actions now", "not waiting for this seat")
"""What a command that raced the table is told (the table moved on meanwhile): not a fault."""


@dataclass
class Played:
    """What the CLI saw: the last event, how many moves it sent, each view phase it saw."""

    event: dict[str, Any] = field(default_factory=dict)
    moves: int = 0
    phases: set[str] = field(default_factory=set)


def play_hand_by_cli(data: list[str], capsys: pytest.CaptureFixture[str], timeout: float) -> Played:
    """Play our seat of the daemon ``data`` names (``["--data-dir", DIR]``) until a hand has
    been played; ``AssertionError`` when it is not within ``timeout`` seconds."""
    played = Played()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert cli.main(["status", "--wait", "5", "--json", *data]) == 0
        played.event = event = json.loads(capsys.readouterr().out)
        played.phases.add(str(event["view"].get("phase")))
        if int(event["view"].get("hands_played") or 0) >= 1:
            return played
        if not event["legal_actions"]:
            continue
        mahjong = any(a["type"] == "mahjong" for a in event["legal_actions"])
        if (
            cli.main(["mahjong" if mahjong else "act", *([] if mahjong else ["default"]), *data])
            != 0
        ):
            refusal = capsys.readouterr().err
            assert any(said in refusal for said in RACED), refusal
        capsys.readouterr()
        played.moves += 1
    raise AssertionError(f"the hand did not finish within {timeout:.0f} s")
