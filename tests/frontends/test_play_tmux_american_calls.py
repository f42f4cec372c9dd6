"""`fourwinds play --rules american` under tmux (issue 22, item 11): a call prompt comes only
for a call that brings our hand nearer to a card line, and says which lines it keeps open.

Before, any legal call was a prompt (with two jokers nearly every discard), and the menu said
only "Call pung 5p (2 jokers)". Here every prompt of a few hands against three bots is read
off the screen and checked against the daemon's seat view: each call entry of the menu says
"keeps open <line>", the view's ACTION carries those ``lines``, and the rule of the core
(``call_offers.lines_kept_open``, from the view's rack and exposures) agrees: after the call
those lines need fewer tiles than the nearest line needs if we pass. Every prompt is passed
(Enter: the default), so the hands go on as the bots play them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.client.client import connect
from fourwinds.protocol.american.call_offers import lines_kept_open
from fourwinds.protocol.american.cardfile import house_card
from fourwinds.protocol.notation import parse_tiles
from testkit.machines import TEST_BOT_PAUSE
from testkit.views import our_exposures
from tests.frontends.test_curses_tmux import TMUX
from tests.frontends.tmux_play import PlayTable, call_offers

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.slow,
    pytest.mark.screen,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install -y tmux)"),
]
PROMPTS_WANTED = 2
LIMIT_S = 420.0


def _event(data_dir: Path) -> dict[str, Any]:
    """Our seat's whole view event (view and legal actions) of the daemon's first table."""
    client = connect(str(data_dir), subscribe=False)
    try:
        tables = client.request({"type": "tables"})["tables"]
        if not tables:
            return {}
        event = client.request({"type": "view", "table": tables[0]["table"]}).get("event")
        return event if isinstance(event, dict) else {}
    finally:
        client.close()


def _check_prompt(event: dict[str, Any], screen: str) -> list[str]:
    """The call entries of a prompt, checked against the view and the core's rule."""
    view = event["view"]
    calls = [a for a in event.get("legal_actions") or () if a.get("type") == "call"]
    assert calls, (event.get("legal_actions"), screen)
    concealed = [k for code in view["hand"] for k in parse_tiles(code)]
    exposures = [
        [k for code in meld for k in parse_tiles(code)]
        for meld in (m.get("tiles") or () for m in our_exposures(view))
    ]
    discard = parse_tiles(view["last_discard"]["tile"])[0]
    for action in calls:
        lines = action.get("lines")
        assert lines, f"a call that keeps no card line open was offered: {action}"
        assert f"keeps open {', '.join(lines)}" in action["label"], action
        faces = [k for code in action["tiles"][:-1] for k in parse_tiles(code)]
        assert list(lines_kept_open(house_card(), concealed, exposures, faces, discard)) == lines, (
            action,
            view["hand"],
        )
    assert "keeps open" in screen, screen
    return [str(a["label"]) for a in calls]


def test_american_call_prompts_name_the_card_lines_each_call_keeps_open(
    tmp_path: Path,
) -> None:
    me = tmp_path / "me"
    command = (
        f"cd {ROOT} && FOURWINDS_CONFIG=/nonexistent {sys.executable} -m "
        f"fourwinds.frontends.cli play --rules american --bots 3 --practice --ascii "
        f"--bot-pause {TEST_BOT_PAUSE:g} "
        f"--hands 8 --data-dir {me}; sleep 60"
    )
    with PlayTable(me, command, 140, 50) as table:
        started = time.monotonic()
        tmux, _ = table.start("Charleston: first right")
        prompts: list[list[str]] = []
        answered: set[tuple[Any, ...]] = set()
        while len(prompts) < PROMPTS_WANTED:
            assert time.monotonic() - started < LIMIT_S, (
                f"{len(prompts)} call prompts in {LIMIT_S:.0f} s; screen:\n{tmux.screen()}"
            )
            screen = tmux.screen()
            if "Match over" in screen:
                break
            if "(select 3 tiles, then this)" in screen and "sent:" not in screen.splitlines()[-3]:
                tmux.keys("a", "b", "c", "1")
                # sleep-ok: a person's pace: the screen redraws before the next look
                time.sleep(0.3)
                continue
            if call_offers(screen):
                event = _event(me)
                view = event.get("view") or {}
                key = (view.get("step"), view.get("hand_number"))
                if (
                    view.get("phase") == "claim"
                    and key not in answered
                    and any(a.get("type") == "call" for a in event.get("legal_actions") or ())
                ):
                    prompts.append(_check_prompt(event, tmux.screen()))
                    answered.add(key)
                    print(
                        f"prompt {len(prompts)} after {time.monotonic() - started:.0f} s: "
                        f"{prompts[-1]}"
                    )
            tmux.keys("Enter")  # the default: pass on a prompt, the default discard
            # sleep-ok: a person's pace: the screen redraws before the next look
            time.sleep(0.3)
        assert prompts, f"no call prompt in the match; screen:\n{tmux.screen()}"
        tmux.keys("Q")
