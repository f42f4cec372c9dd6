"""Four built-in bots play through the table protocol in memory, and table logs for humans.

``play_match_in_memory`` runs the four-seat harness (protocol/table/machine/harness.py): every move
is a signed message, every seat runs its own session, the tiles come from the practice deck
shuffled by the seats' commit-reveal seed. ``--transcript FILE`` in the demo commands saves
what was played, for ``fourwinds verify`` and ``fourwinds replay``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from fourwinds.frontends.cli import UsageError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import Harness, play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.state import (
    ActionTaken,
    EngineEvent,
    HandBegan,
    HandFinished,
    MatchFinished,
)
from fourwinds.protocol.table.machine.transcript import export_transcript
from fourwinds.protocol.table.rules.registry import rule_names, ruleset_named
from fourwinds.protocol.table.views.narration import WIND, Narration


def play_match_in_memory(
    rules: str,
    seed: int,
    hands: int,
    bots: Sequence[Seat] = SEATS,
    *,
    rules_text: str = "",
    transcript_path: str | Path | None = None,
    deck: str = "masked",
    out: Callable[[str], None] = print,
    quiet: bool = False,
    verbose: bool = False,
    engine_options: tuple[tuple[str, str | int | bool], ...] = (),
) -> Harness:
    """Play ``hands`` hands of ``rules`` ("american" or "mcr") with four built-in bots
    through the in-memory table on the ``deck`` ("masked": the mental-poker wall, or
    "practice"); print the log; save the transcript if a path is given."""
    if tuple(bots) != SEATS:
        raise UsageError("the in-memory table plays four built-in bots")
    if hands < 1:
        raise UsageError("--hands must be at least 1")
    try:
        deck_kind = DeckKind(deck)
    except ValueError:
        raise UsageError(f"unknown deck {deck!r} (masked or practice)") from None
    table_seed = hashlib.sha256(f"fourwinds-demo:{rules}:{seed}".encode()).digest()
    harness = play_match(
        rules,
        table_seed,
        rules_text=rules_text,
        options=TableOptions(hands=hands, deck=deck_kind, rules=engine_options),
    )
    for line in log_lines(harness.events[0], quiet=quiet, verbose=verbose):
        out(line)
    for place in SEATS:
        for problem in harness.problems[place]:
            out(f"!! seat {int(place)}: {problem.describe()}")
    if transcript_path is not None:
        try:
            Path(transcript_path).write_bytes(export_transcript(harness.sessions[0]))
        except OSError as error:
            raise UsageError(f"cannot write transcript {transcript_path}: {error}") from None
        out(f"transcript saved to {transcript_path}")
    return harness


def log_lines(events: Iterable[object], quiet: bool = False, verbose: bool = False) -> list[str]:
    """A table log from table events: who did what, in table words (``E discards 5p``).

    An action is told through the engine events it caused (they know who a tile came from);
    answers that change nothing ("no call", "pass", "flowers done") and private details
    (deals, draws, tiles received) appear only with ``verbose``, which also prefixes each
    action with its step. ``quiet`` keeps only the hand and match summaries."""
    lines: list[str] = []
    action: ActionTaken | None = None  # the action being told, and the events it caused
    caused: list[object] = []

    def tell() -> None:
        if quiet:
            return
        if action is None:  # events of no action: the deal
            lines.extend(line for e in caused for line in _event_lines(e, verbose))
        else:
            lines.extend(_action_lines(action, caused, verbose))

    for event in events:
        if isinstance(event, EngineEvent):
            caused.append(event.event)
        elif isinstance(event, (ActionTaken, HandBegan, HandFinished, MatchFinished)):
            tell()
            action, caused = (event if isinstance(event, ActionTaken) else None), []
            lines.extend(_summary_lines(event))
    tell()
    return lines


def _summary_lines(event: object) -> list[str]:
    if isinstance(event, HandBegan):
        who = ", ".join(f"{WIND[w]}=seat {int(p)}" for w, p in enumerate(event.seating))
        dice = "+".join(str(d) for d in event.dice)
        return [f"== Hand {event.hand_no + 1}: {who}; dice {dice}"]
    if isinstance(event, HandFinished):
        pay = ", ".join(f"{WIND[w]} {event.outcome.payments[w]:+d}" for w in SEATS)
        return [f"-- Hand {event.hand_no + 1}: {event.outcome.summary}; {pay}"]
    if isinstance(event, MatchFinished):
        return [
            "== Match over; scores "
            + ", ".join(f"seat {p} {score:+d}" for p, score in enumerate(event.scores))
        ]
    return []


def _action_lines(event: ActionTaken, caused: list[object], verbose: bool) -> list[str]:
    told = [line for e in caused for line in _event_lines(e, verbose)]
    late = " (timeout)" if event.timeout else ""
    if verbose:  # the action itself, numbered, then what it caused
        return [
            f"   [{event.step:4d}] {WIND[event.wind]} (seat {int(event.place)}) "
            f"{_action_words(event)}{late}",
            *told,
        ]
    if not told and not _engine_action(event.action):
        told = [f"   {WIND[event.wind]} {event.text}"]
    if told and late:
        told[0] += late
    return told


def _narrations() -> tuple[Narration, ...]:
    """Every rule set's narration (the registry's rule sets, in its order)."""
    return tuple(ruleset_named(name).narration for name in rule_names())


def _engine_action(action: object) -> bool:
    """Whether ``action`` is one of a rule set's engine actions: told through the events it
    causes (a call shows when the call window closes, a Charleston pass when all four have
    chosen), never as its own line."""
    return any(isinstance(action, n.actions) for n in _narrations())


def _action_words(event: ActionTaken) -> str:
    for narration in _narrations():
        words = narration.action_words(event.action)
        if words is not None:
            return words
    return event.text


def _event_lines(e: object, verbose: bool) -> list[str]:
    """Lines for one engine event (the rule set's narration); private and idle ones only
    verbose."""
    line = _first_line(e, public=True)
    if line is None and verbose:
        line = _first_line(e, public=False)
    return [] if line is None else [f"   {line}"]


def _first_line(e: object, *, public: bool) -> str | None:
    for narration in _narrations():
        line = narration.public_line(e) if public else narration.private_line(e)
        if line is not None:
            return line
    return None
