"""The Botzone bot's input and output (frontends/bots/botzone_io.py): the whole history in JSON and
in simple interaction, one request at a time once a bot keeps running, and every way a bot's
output is read."""

from __future__ import annotations

import json

import pytest

from fourwinds.frontends.bots.botzone_io import (
    KEEP_RUNNING,
    Mode,
    full_input,
    next_input,
    read_output,
)

REQUESTS = ["0 1 0", "1 0 1 0 0 W1 W2 W3 B1 B2 B3 T1 T2 T3 F1 F1 J1 J2 H3", "2 T4"]
RESPONSES = ["PASS", "PASS"]


def test_json_input_is_one_line_with_the_whole_history() -> None:
    text = full_input(Mode.JSON, REQUESTS, RESPONSES, data="d", globaldata="g", time_limit=3)
    assert text.endswith("\n") and text.count("\n") == 1
    assert json.loads(text) == {
        "requests": REQUESTS,
        "responses": RESPONSES,
        "data": "d",
        "globaldata": "g",
        "time_limit": 3,
        "memory_limit": 256,
    }


def test_simple_input_interleaves_requests_and_responses() -> None:
    text = full_input(Mode.SIMPLE, REQUESTS, RESPONSES, data="saved\nline")
    assert text.split("\n") == [
        "3",
        REQUESTS[0],
        "PASS",
        REQUESTS[1],
        "PASS",
        REQUESTS[2],
        "saved line",
        "",
        "",
    ]


def test_the_history_must_end_with_a_request() -> None:
    with pytest.raises(ValueError):
        full_input(Mode.JSON, REQUESTS, [*RESPONSES, "PASS"])


def test_a_bot_that_keeps_running_gets_only_the_new_request() -> None:
    assert next_input(Mode.SIMPLE, "3 2 PLAY W1") == "3 2 PLAY W1\n"
    assert json.loads(next_input(Mode.JSON, "3 2 PLAY W1")) == "3 2 PLAY W1"


def test_json_output() -> None:
    out = read_output(Mode.JSON, ['{"response": "PLAY W1", "data": "x", "debug": "hi"}\n'])
    assert (out.response, out.data, out.globaldata, out.keep_running) == (
        "PLAY W1",
        "x",
        None,
        False,
    )
    # debug text before the line, data that is not text, and the keep-running line after
    out = read_output(
        Mode.JSON,
        [
            "thinking...\n",
            '{"response": "PASS", "data": {"n": 1}}\n',
            KEEP_RUNNING + "\n",
            "ignored\n",
        ],
    )
    assert (out.response, out.data, out.keep_running) == ("PASS", '{"n": 1}', True)


def test_json_output_indented_over_lines_as_jsoncpp_prints_it() -> None:
    """The platform's C++ sample bot (jsoncpp's ``cout << value``) prints its object over
    several indented lines; it was read as garbage (found running that bot, issue 24)."""
    out = read_output(Mode.JSON, ["{\n", '\t"response" : "PLAY W9"\n', "}\n"])
    assert (out.response, out.keep_running) == ("PLAY W9", False)
    out = read_output(
        Mode.JSON,
        ["{\n", '  "response" : "PASS",\n', '  "data" : "k"\n', "}\n", KEEP_RUNNING + "\n"],
    )
    assert (out.response, out.data, out.keep_running) == ("PASS", "k", True)


@pytest.mark.parametrize(
    "lines", [[], ["PLAY W1\n"], ["{\n", '"response": "PASS"\n'], ['{"answer": 1}\n'], ["[1, 2]\n"]]
)
def test_json_output_without_a_response(lines: list[str]) -> None:
    out = read_output(Mode.JSON, lines)
    assert out.response is None and out.problem


def test_simple_output() -> None:
    out = read_output(Mode.SIMPLE, ["PENG T3\n", "debug\n", "data\n", "glob 1\n", "glob 2\n"])
    assert (out.response, out.data, out.globaldata) == ("PENG T3", "data", "glob 1\nglob 2")
    out = read_output(Mode.SIMPLE, ["  HU \r\n", KEEP_RUNNING + "\n"])
    assert (out.response, out.data, out.keep_running) == ("HU", None, True)
    assert read_output(Mode.SIMPLE, []).response is None
    assert read_output(Mode.SIMPLE, [KEEP_RUNNING]).response is None
