"""A Botzone bot program, run the way the platform runs it: one hand is one Botzone game.

Each hand starts with a fresh run of the program on its first request (``0 ID QUAN``). A
program that answers and then prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` keeps running:
it is given every later request of the hand, one at a time, on the same process. Any other
program is run again, with the whole history, whenever a request wants a real answer
(``ask(..., decide=True)``); the requests in between are answered ``PASS`` in its history, as
the platform requires of every bot.

Every answer has ``time_limit`` seconds (or less: the caller's ``timeout``); a program that
is late, exits without answering or cannot be started is stopped and a fault is returned;
the next request that wants an answer starts it again with the whole history, until it has
failed ``max_failures`` times in a row in this hand (then it rests until the next hand). Its
stderr goes to the log file, beside the seat's notes, never to the terminal.

With ``end_input`` a fresh run's input is ended (its stdin closed) after the whole history,
for a bot that reads its input to the end: the platform's own C++ sample reads it with
jsoncpp's ``cin >> value`` (Python: ``sys.stdin.read()``) and would otherwise wait until it
is late. Such a bot cannot keep running; one that asks to is stopped after its answer and
run again, with the whole history, at the next request that wants an answer.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from fourwinds.frontends.bots.botzone_io import (
    KEEP_RUNNING,
    TIME_LIMIT,
    Mode,
    full_input,
    next_input,
    read_output,
)
from fourwinds.protocol.table.rules.botzone import Fault

__all__ = ["BotzoneProgram", "Reply"]

MAX_FAILURES = 3


@dataclass(frozen=True)
class Reply:
    """The program's response to one request (None: not asked, or a fault: ``fault`` and
    ``problem`` say what went wrong, ``line`` then holds what it printed, if anything)."""

    line: str | None
    fault: Fault | None = None
    problem: str = ""
    printed: str = ""


class BotzoneProgram:
    """One bot program (``argv``) speaking the Botzone protocol in ``mode``."""

    def __init__(
        self,
        argv: Sequence[str],
        mode: Mode,
        log_path: Path,
        *,
        time_limit: float = TIME_LIMIT,
        max_failures: int = MAX_FAILURES,
        end_input: bool = False,
    ) -> None:
        if not argv:
            raise ValueError("a Botzone bot needs a command")
        self.argv = list(argv)
        self.mode = mode
        self.time_limit = time_limit
        self.max_failures = max_failures
        self.end_input = end_input
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log: IO[str] = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.data = ""
        self.globaldata = ""
        self.failures = 0
        self.runs = 0  # processes started (for tests and the log)
        self.kept = False  # the current process keeps running
        self._process: subprocess.Popen[str] | None = None
        self._fresh = False  # the process has not been given its input yet
        self._lines: queue.Queue[str | None] = queue.Queue()

    # ------------------------------------------------------------------ the seat's calls

    def new_hand(self) -> None:
        """A new Botzone game: the running process (if any) ends, the history is emptied
        (``globaldata`` is kept, as the platform keeps it from game to game)."""
        self._stop()
        self.requests, self.responses, self.data, self.failures = [], [], "", 0

    def note(self, text: str) -> None:
        """A line of the seat's own in the log (a fault, a hand begun...)."""
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        self.log.write(f"{stamp} fourwinds: {text}\n")

    def ask(self, request: str, *, decide: bool, timeout: float | None = None) -> Reply:
        """Give the program ``request``; with ``decide`` (or when it keeps running, or for
        the hand's first request) read its response."""
        first = not self.requests
        self.requests.append(request)
        if self._process is None and not (decide or first):
            self.responses.append("PASS")
            return Reply(None)
        if self.failures >= self.max_failures:  # counted when it failed: not again
            self.responses.append("PASS")
            return Reply(
                None,
                None,
                f"the bot failed {self.failures} times in a row this "
                "hand: it rests until the next hand",
            )
        limit = min(self.time_limit, timeout) if timeout is not None else self.time_limit
        reply = self._turn(request, max(0.1, limit))
        self.responses.append(
            reply.line if reply.line is not None else (reply.printed.splitlines() or ["PASS"])[0]
        )
        self.failures = self.failures + 1 if reply.fault in (Fault.LATE, Fault.CRASH) else 0
        return reply

    def close(self) -> None:
        self._stop()
        self.log.close()

    # ------------------------------------------------------------------ one turn

    def _turn(self, request: str, limit: float) -> Reply:
        if self._process is not None:
            text = next_input(self.mode, request)
        else:
            problem = self._start()
            if problem:
                return Reply(None, Fault.CRASH, problem)
            text = full_input(
                self.mode,
                self.requests,
                self.responses,
                data=self.data,
                globaldata=self.globaldata,
                time_limit=self.time_limit,
            )
        if not self._write(text, end=self.end_input and self._fresh):
            return self._ended([], "the bot exited before reading its input")
        self._fresh = False
        reply = self._read(limit)
        if self.end_input and self.kept:  # its input is over: it cannot read another request
            self._stop()
        return reply

    def _start(self) -> str:
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=True,
            )  # its own group: stopping it stops its children
        except OSError as error:
            self._process = None
            return f"cannot start {self.argv[0]!r}: {error.strerror or error}"
        self.runs += 1
        self.kept = False
        self._fresh = True
        self._lines = queue.Queue()
        threading.Thread(target=_pump, args=(self._process, self._lines), daemon=True).start()
        return ""

    def _write(self, text: str, *, end: bool = False) -> bool:
        process = self._process
        if process is None or process.stdin is None:
            return False
        try:
            process.stdin.write(text)
            process.stdin.flush()
            if end:
                process.stdin.close()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def _read(self, limit: float) -> Reply:
        lines: list[str] = []
        end = time.monotonic() + limit
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                self._stop()
                return Reply(None, Fault.LATE, f"no answer within {limit:g} s", "\n".join(lines))
            if line is None:
                return self._ended(lines, "")
            lines.append(line)
            if line.strip() == KEEP_RUNNING:
                self.kept = True
                return self._answer(lines)

    def _ended(self, lines: list[str], why: str) -> Reply:
        """The process is over: its output is its answer, if it printed one."""
        process, self._process = self._process, None
        status = None
        if process is not None:
            try:
                status = process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                _kill(process)
                status = process.wait()
        if lines:
            return self._answer(lines)
        why = why or f"the bot exited (status {status}) without answering"
        return Reply(None, Fault.CRASH, why)

    def _answer(self, lines: list[str]) -> Reply:
        output = read_output(self.mode, lines)
        printed = "".join(lines).strip()
        if output.data is not None:
            self.data = output.data
        if output.globaldata is not None:
            self.globaldata = output.globaldata
        if output.response is None:
            return Reply(None, Fault.GARBAGE, output.problem, printed)
        return Reply(output.response, printed=printed)

    def _stop(self) -> None:
        process, self._process = self._process, None
        self.kept = False
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()
        try:
            process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            _kill(process)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)


def _pump(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Every line the process prints, then None at its end (a thread per process)."""
    stream = process.stdout
    assert stream is not None
    with contextlib.suppress(OSError, ValueError):
        for line in stream:
            lines.put(line)
    lines.put(None)


def _kill(process: subprocess.Popen[str]) -> None:
    """Stop a program we started, and the processes it started (its own group)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            process.kill()
