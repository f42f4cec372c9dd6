"""The JSON-lines bot adapter: valid answers, refusals with reasons, defaults, exiting programs."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fourwinds.frontends.bots.bot_seat import ExecBrain, FunctionBrain, play_seat
from fourwinds.frontends.bots.exec_bot import (
    default_action,
    default_request,
    event_line,
    judge_answer,
    needs_answer,
)
from fourwinds.frontends.bots.view_bot import choose_request
from fourwinds.frontends.client.view_shapes import ViewEvent, view_event
from tests.frontends import sample_views
from tests.frontends.scripted_table import ScriptedTable, sample_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = ROOT / "examples" / "bot.py"


def _id_of(event: ViewEvent, kind: str) -> int:
    return int(next(a["id"] for a in event["legal_actions"] if a["type"] == kind))


def test_valid_answer_becomes_the_act_request() -> None:
    event = sample_views.call_event()
    decision = judge_answer('{"action": 0}\n', event)
    assert decision.error is None
    assert decision.request is not None and decision.request.pop("expected")["id"] == 0
    assert decision.request == {"type": "act", "table": "kitchen", "seq": 8, "action": 0}


def test_valid_choose_answer_carries_its_tiles() -> None:
    event = sample_views.charleston_event()
    decision = judge_answer('{"action": 0, "tiles": ["1m", "2m", "F"]}', event)
    assert decision.error is None
    assert decision.request is not None and decision.request["tiles"] == ["1m", "2m", "F"]


def test_invalid_answers_are_refused_with_the_reason_and_the_default_taken() -> None:
    event = sample_views.call_event()
    default = {"type": "act", "table": "kitchen", "seq": 8, "action": 2}  # Pass [default]
    cases = {
        "nonsense": "not JSON",
        "[1, 2]": "must be a JSON object",
        '{"act": 1}': 'needs "action"',
        '{"action": true}': 'needs "action"',
        '{"action": 9}': "action 9 is not legal now (legal ids: [0, 1, 2])",
        '{"action": 0, "tiles": "4p"}': '"tiles" must be a list',
        "": "empty answer",
    }
    for line, reason in cases.items():
        decision = judge_answer(line, event)
        assert decision.error is not None and reason in decision.error, line
        assert decision.request is not None and decision.request.pop("expected")["id"] == 2
        assert decision.request == default, line


def test_choose_answer_with_wrong_tiles_is_refused() -> None:
    event = sample_views.charleston_event()
    short = judge_answer('{"action": 0, "tiles": ["1m"]}', event)
    assert short.error is not None and "select 3 tile(s), you selected 1" in short.error
    joker = judge_answer('{"action": 0, "tiles": ["1m", "2m", "J"]}', event)
    assert joker.error is not None and "J cannot be chosen" in joker.error


def test_default_prefers_the_marked_action_then_pass_then_the_first_listed() -> None:
    call = default_action(sample_views.call_event())
    assert call is not None and call[0]["label"] == "Pass"
    play = sample_views.play_event()
    marked = default_action(play)
    assert marked is not None and marked[0].get("default")  # the view's decision
    for action in play["legal_actions"]:
        action.pop("default", None)
    chosen = default_action(play)
    # no rule of the bot runner's own (it took the tile just drawn, a joker at times)
    assert chosen is not None and chosen[0] == play["legal_actions"][0]
    charleston = default_action(sample_views.charleston_event())
    assert charleston is not None and len(charleston[1]) == 3
    nothing = view_event({"type": "view", "table": "t", "view": {}, "legal_actions": []})
    assert default_request(nothing) is None


def test_only_views_with_legal_actions_need_an_answer() -> None:
    assert needs_answer(sample_views.call_event())
    assert not needs_answer(sample_views.result_event(match_over=True))
    line = event_line(sample_views.call_event())
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert json.loads(line)["legal_actions"][2]["default"] is True


def test_view_bot_answers_legally_everywhere() -> None:
    for event in sample_script():
        request = choose_request(event)
        if not event["legal_actions"]:
            assert request is None
            continue
        assert request is not None
        assert (
            judge_answer(
                json.dumps({"action": request["action"], "tiles": request.get("tiles", [])}), event
            ).error
            is None
        )
    event = sample_views.play_event()
    play = choose_request(event)
    assert play is not None and play["action"] == _id_of(event, "mahjong")  # legal: take it


def test_example_bot_plays_the_scripted_hand() -> None:
    table = ScriptedTable(sample_script())
    brain = ExecBrain([sys.executable, str(EXAMPLE_BOT)], answer_timeout=10)
    assert play_seat(table, brain, poll=0.01) == 0
    assert [r["seq"] for r in table.requests] == [1, 2, 3]
    charleston, mahjong, call = table.requests
    assert len(charleston["tiles"]) == 3 and "J" not in charleston["tiles"]
    assert mahjong["action"] == _id_of(sample_views.play_event(), "mahjong")
    assert call["action"] == 2  # passes on the call
    assert brain.exit_status() == 0


def _program(tmp_path: Path, body: str) -> list[str]:
    script = tmp_path / "prog.py"
    script.write_text("import sys, json\n" + body)
    return [sys.executable, str(script), str(tmp_path / "seen.jsonl")]


def test_bad_program_is_told_why_and_the_default_is_taken(tmp_path: Path) -> None:
    argv = _program(
        tmp_path,
        (
            "seen = open(sys.argv[1], 'w')\n"
            "for line in sys.stdin:\n"
            "    seen.write(line); seen.flush()\n"
            "    if json.loads(line)['type'] == 'view':\n"
            "        print('{\"action\": 99}', flush=True)\n"
        ),
    )
    table = ScriptedTable(sample_script())
    assert play_seat(table, ExecBrain(argv, answer_timeout=10), poll=0.01) == 0
    seen = [json.loads(line) for line in (tmp_path / "seen.jsonl").read_text().splitlines()]
    errors = [m for m in seen if m["type"] == "error"]
    assert len(errors) == 3
    assert all("action 99 is not legal now" in m["error"] for m in errors)
    assert seen[-1] == {"type": "end", "reason": "match over"}
    assert table.requests[2]["action"] == 2  # the call window's default: Pass
    assert len(table.requests[0]["tiles"]) == 3  # a default Charleston pass


def test_program_that_exits_stops_the_seat_after_the_default(tmp_path: Path) -> None:
    argv = _program(tmp_path, "sys.exit(3)\n")
    table = ScriptedTable(sample_script())
    assert play_seat(table, ExecBrain(argv, answer_timeout=10), poll=0.01) == 1
    assert len(table.requests) == 1 and len(table.requests[0]["tiles"]) == 3


def test_silent_program_times_out_to_the_default(tmp_path: Path) -> None:
    argv = _program(tmp_path, "import time\ntime.sleep(30)\n")
    event = sample_views.call_event()
    event["view"]["deadline"] = 0.5
    brain = ExecBrain(argv)
    decision = brain.decide(event)
    assert decision.error == "no answer within 0s" or "no answer within" in (decision.error or "")
    assert decision.request is not None and decision.request["action"] == 2
    brain.process.kill()
    brain.close()


class RefusingTable(ScriptedTable):
    """Refuses any request for action 0 (as a daemon refuses a stale or illegal act)."""

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if request.get("action") == 0 and request.get("seq") == 3:
            self.requests.append(dict(request))
            return {"ok": False, "error": "too late: the window closed"}
        return super().act(request)


def test_daemon_refusal_is_reported_and_the_default_sent() -> None:
    refusals: list[str] = []

    class Recording(FunctionBrain):
        def refused(self, reason: str) -> None:
            refusals.append(reason)

    def always_first(event: ViewEvent) -> dict[str, Any] | None:
        return (
            choose_request(event)
            if event["seq"] != 3
            else {"type": "act", "table": "kitchen", "seq": 3, "action": 0}
        )

    table = RefusingTable(sample_script())
    assert play_seat(table, Recording(always_first), poll=0.01) == 0
    assert refusals == ["too late: the window closed"]
    assert [r["action"] for r in table.requests if r["seq"] == 3] == [0, 2]
