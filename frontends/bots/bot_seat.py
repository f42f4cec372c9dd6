"""A bot seat: a loop acting on view events through a ``TableClient``, with a pluggable brain.

Brains: ``ExecBrain`` (any program speaking the JSON lines of ``exec_bot.py``), and
``FunctionBrain`` around a function from an event to an act request (the built-in bots).
A refusal, from the brain's own checks or from the daemon, is reported to the brain with its
reason and the seat's default action is sent instead, so a broken bot never stalls the table.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fourwinds.frontends.bots.bot_pause import pause_for
from fourwinds.frontends.bots.exec_bot import (
    Decision,
    default_request,
    end_line,
    error_line,
    event_line,
    judge_answer,
    needs_answer,
    refuse,
)
from fourwinds.frontends.client.acting import decision_key
from fourwinds.frontends.client.daemon_link import TableClient
from fourwinds.frontends.client.view_shapes import ViewEvent

log = logging.getLogger(__name__)
Event = ViewEvent
ANSWER_TIMEOUT = 30.0  # seconds a program may think when the view gives no deadline
END_PHASES = ("match_over", "over", "halted")  # the contract's name, and the session's


class Brain(Protocol):
    """Decides one action per view event that asks for one."""

    def decide(self, event: Event) -> Decision: ...

    def refused(self, reason: str) -> None: ...

    def end(self, reason: str) -> None: ...

    @property
    def alive(self) -> bool: ...


class FunctionBrain:
    """A brain around ``choose(event) -> request``; refusals are logged. ``fallback``: another
    chooser, asked when the daemon refuses ``choose``'s request (before the default)."""

    def __init__(
        self,
        choose: Callable[[Event], dict[str, Any] | None],
        fallback: Callable[[Event], dict[str, Any] | None] | None = None,
    ) -> None:
        self.choose = choose
        self.fallback = fallback

    def decide(self, event: Event) -> Decision:
        return Decision(self.choose(event))

    def refused(self, reason: str) -> None:
        # routine: the table moved on between the view and the act (a call window closed,
        # another seat's claim won); the seat tries its fall-back and the default next, and
        # says more only when none of them is taken (``_send``)
        log.info("bot action refused: %s", reason)

    def end(self, reason: str) -> None:
        log.info("match over: %s", reason)

    @property
    def alive(self) -> bool:
        return True


class ExecBrain:
    """A bot program on the other end of a pipe (JSON lines, see exec_bot.py)."""

    def __init__(self, argv: Sequence[str], *, answer_timeout: float = ANSWER_TIMEOUT) -> None:
        self.answer_timeout = answer_timeout
        try:
            self.process = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise OSError(f"cannot start bot program {argv[0]!r}: {error.strerror}") from error
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._exited = False

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    @property
    def alive(self) -> bool:
        return not self._exited

    def exit_status(self) -> int | None:
        return self.process.poll()

    def _send(self, text: str) -> bool:
        if self._exited or self.process.stdin is None:
            return False
        try:
            self.process.stdin.write(text)
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._exited = True
            return False
        return True

    def decide(self, event: Event) -> Decision:
        if not self._send(event_line(event)):
            return refuse(self._exit_reason(), event)
        deadline = event["view"].get("deadline")
        timeout = float(deadline) if deadline else self.answer_timeout
        try:
            line = self.lines.get(timeout=max(0.5, timeout))
        except queue.Empty:
            decision = refuse(f"no answer within {timeout:.0f}s", event)
            self._send(error_line(decision.error or ""))
            return decision
        if line is None:
            self._exited = True
            return refuse(self._exit_reason(), event)
        decision = judge_answer(line, event)
        if decision.error:
            self._send(error_line(decision.error))
        return decision

    def _exit_reason(self) -> str:
        try:
            status = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            status = None
        self._exited = True
        return f"the bot program exited (status {status})"

    def refused(self, reason: str) -> None:
        self._send(error_line(reason))

    def end(self, reason: str) -> None:
        self._send(end_line(reason))
        self.close()

    def close(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            with contextlib.suppress(BrokenPipeError, OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def play_seat(client: TableClient, brain: Brain, *, poll: float = 0.2, pause: float = 0.0) -> int:
    """Act on every view event that asks for it until the match ends or the brain dies.

    ``pause``: seconds to let pass between a view asking and the seat's act, at a table
    with a person (bot_pause.py decides how much of it each decision takes; 0: none).
    Returns 0 at the end of the match, 1 when the bot program exited first (its pending
    decision was still answered with the default action).
    """
    answered: set[object] = set()
    while True:
        event = client.latest_event(poll)
        if event is None:
            continue
        asked = time.monotonic()
        view = event["view"]
        if view.get("phase") in END_PHASES:
            brain.end("match over" if view.get("phase") != "halted" else "table halted")
            return 0
        if event.get("gone"):  # our daemon left it (a tournament table gone on under
            brain.end("table gone")  # another id after a substitute: the caller's next)
            return 0
        if not needs_answer(event) or decision_key(event) in answered:
            log.debug("view %s: nothing to answer", event.get("seq"))
            continue
        log.debug("view %s: deciding %s", event.get("seq"), decision_key(event))
        decision = brain.decide(event)
        if decision.error:
            log.warning("bot answer refused: %s (default action taken)", decision.error)
        wait = pause_for(event, pause) - (time.monotonic() - asked)
        if wait > 0:
            time.sleep(wait)
        if _send(client, brain, event, decision.request):
            answered.add(decision_key(event))  # refused: the next view of it is answered
        if not brain.alive:
            log.error("the bot program exited; its seat falls back to the table's timeouts")
            return 1


def _send(client: TableClient, brain: Brain, event: Event, request: dict[str, Any] | None) -> bool:
    """Send the brain's request; when the daemon refuses it, the brain's fall-back choice (a
    ``FunctionBrain``'s ``fallback``), then the default. True if one of them was accepted."""
    if request is None:
        return False
    answer = client.act(request)
    if answer.get("ok"):
        return True
    reason = str(answer.get("error") or "refused without a reason")
    brain.refused(reason)
    tried = [request]
    second = brain.fallback if isinstance(brain, FunctionBrain) else None
    for fallback in (second(event) if second is not None else None, default_request(event)):
        if fallback is None or fallback in tried:
            continue
        tried.append(fallback)
        if client.act(fallback).get("ok"):
            return True
    log.warning(
        "view %s: the daemon took none of the seat's answers (%s); the next view is answered",
        event.get("seq"),
        reason,
    )
    return False
