"""Four built-in bots play through the table protocol in memory, and table logs for humans.

``play_match_in_memory`` runs the four-seat harness (protocol/table/harness.py): every move is
a signed message, every seat runs its own session, the tiles come from the practice deck
shuffled by the seats' commit-reveal seed. ``--transcript FILE`` in the demo commands saves
what was played, for ``fourwinds verify`` and ``fourwinds replay``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from fourwinds.frontends.cli import UsageError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.harness import Harness, play_match
from fourwinds.protocol.table.options import DeckKind, TableOptions
from fourwinds.protocol.table.state import ActionTaken, HandBegan, HandFinished, MatchFinished
from fourwinds.protocol.table.transcript import export_transcript

WIND = "ESWN"


def play_match_in_memory(rules: str, seed: int, hands: int,
                         bots: Sequence[Seat] = SEATS, *, card_text: str = "",
                         transcript_path: str | Path | None = None, deck: str = "masked",
                         out: Callable[[str], None] = print, quiet: bool = False) -> Harness:
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
    harness = play_match(rules, table_seed, card_text=card_text,
                         options=TableOptions(hands=hands, deck=deck_kind))
    for line in log_lines(harness.events[0], quiet=quiet):
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


def log_lines(events: Iterable[object], quiet: bool = False) -> list[str]:
    """A turn-by-turn log from table events (ActionTaken, HandBegan, HandFinished...)."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, HandBegan):
            who = ", ".join(f"{WIND[w]}=seat {int(p)}" for w, p in enumerate(event.seating))
            dice = "+".join(str(d) for d in event.dice)
            lines.append(f"== Hand {event.hand_no + 1}: {who}; dice {dice}")
        elif isinstance(event, ActionTaken) and not quiet:
            late = " (timeout)" if event.timeout else ""
            lines.append(f"   [{event.step:4d}] {WIND[event.wind]} (seat {int(event.place)}) "
                         f"{event.text}{late}")
        elif isinstance(event, HandFinished):
            pay = ", ".join(f"{WIND[w]} {event.outcome.payments[w]:+d}" for w in SEATS)
            lines.append(f"-- Hand {event.hand_no + 1}: {event.outcome.summary}; {pay}")
        elif isinstance(event, MatchFinished):
            lines.append("== Match over; scores " + ", ".join(
                f"seat {p} {score:+d}" for p, score in enumerate(event.scores)))
    return lines
