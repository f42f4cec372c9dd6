"""The Botzone bot's input and output text, in both of the platform's formats. Pure.

A Botzone bot is run once per turn with the whole history (requests and its own earlier
responses), unless it asks to keep running:

* **JSON**: one line in, ``{"requests": [...], "responses": [...], "data": ..., "globaldata":
  ..., "time_limit": S, "memory_limit": MB}``; out, ``{"response": "PLAY W1", "debug": ...,
  "data": ..., "globaldata": ...}`` (only ``response`` is needed), on one line or indented
  over several (as jsoncpp prints it).
* **simple**: the turn number n, then the 2n-1 lines of the history (request 1, response 1,
  ..., request n), then the ``data`` line and ``globaldata``; out, the response on the first
  line (then ``debug``, ``data``, ``globaldata``, each optional).

A bot that prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its output keeps running:
from then on it is given only each new request (simple: the request line; JSON: the request
as a JSON value, here a string) and answers as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "KEEP_RUNNING",
    "TIME_LIMIT",
    "Mode",
    "Output",
    "full_input",
    "next_input",
    "read_output",
]

TIME_LIMIT = 6.0  # seconds a step, as the platform gives a Python bot

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MEMORY_LIMIT_MB = 256


class Mode(Enum):
    """How the bot reads its input (set by the user: the platform asks it when a bot is
    uploaded); keeping running is the bot's own choice, seen in its output."""

    JSON = "json"
    SIMPLE = "simple"


def full_input(
    mode: Mode,
    requests: Sequence[str],
    responses: Sequence[str],
    *,
    data: str = "",
    globaldata: str = "",
    time_limit: float = 6.0,
) -> str:
    """The whole history, for a bot started afresh (``len(requests) == len(responses) + 1``)."""
    if len(requests) != len(responses) + 1:
        raise ValueError("a bot is started with one request more than it gave responses")
    if mode is Mode.JSON:
        return (
            json.dumps(
                {
                    "requests": list(requests),
                    "responses": list(responses),
                    "data": data,
                    "globaldata": globaldata,
                    "time_limit": time_limit,
                    "memory_limit": MEMORY_LIMIT_MB,
                },
                ensure_ascii=False,
                separators=(",", ":"),
            )
            + "\n"
        )
    lines = [str(len(requests))]
    for index, request in enumerate(requests):
        lines.append(request)
        if index < len(responses):
            lines.append(responses[index])
    lines.append(_one_line(data))
    lines.append(globaldata)
    return "\n".join(lines) + "\n"


def next_input(mode: Mode, request: str) -> str:
    """What a bot that keeps running is given for a new request."""
    if mode is Mode.JSON:
        return json.dumps(request, ensure_ascii=False) + "\n"
    return request + "\n"


@dataclass(frozen=True)
class Output:
    """What one run (or one turn of a running bot) printed: its ``response`` (None when
    there is none to read: ``problem`` says why), its ``data`` and ``globaldata`` for the next
    turn (None: unchanged) and whether it keeps running."""

    response: str | None
    data: str | None = None
    globaldata: str | None = None
    keep_running: bool = False
    problem: str = ""


def read_output(mode: Mode, lines: Sequence[str]) -> Output:
    """Read the lines a bot printed for one turn (up to its keep-running line, if any)."""
    text = [line.rstrip("\r\n") for line in lines]
    keep = KEEP_RUNNING in (line.strip() for line in text)
    if keep:
        text = text[: [line.strip() for line in text].index(KEEP_RUNNING)]
    if mode is Mode.SIMPLE:
        if not text:
            return Output(None, keep_running=keep, problem="no output")
        data = text[2] if len(text) > 2 else None
        glob = "\n".join(text[3:]) if len(text) > 3 else None
        return Output(_one_line(text[0]).strip(), data, glob, keep)
    # one JSON line, as most bots print; else the whole output as one JSON value: a bot
    # built on jsoncpp (the platform's own C++ sample) prints its object indented over lines
    for candidate in [*text, "\n".join(text)]:
        try:
            found = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(found, dict) and "response" in found:
            response = found["response"]
            return Output(
                _one_line(str(response)).strip() if response is not None else "",
                _text(found.get("data")),
                _text(found.get("globaldata")),
                keep,
            )
    shown = " | ".join(line for line in text if line.strip())[:200]
    return Output(
        None,
        keep_running=keep,
        problem=f'no JSON line with a "response" in the output: {shown!r}'
        if shown
        else "no output",
    )


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _one_line(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ")
