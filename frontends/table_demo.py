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
from fourwinds.protocol.american import actions as AA
from fourwinds.protocol.american import events as AE
from fourwinds.protocol.mcr import actions as MA
from fourwinds.protocol.mcr import events as ME
from fourwinds.protocol.notation import tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.harness import Harness, play_match
from fourwinds.protocol.table.options import DeckKind, TableOptions
from fourwinds.protocol.table.state import (
    ActionTaken,
    EngineEvent,
    HandBegan,
    HandFinished,
    MatchFinished,
)
from fourwinds.protocol.table.transcript import export_transcript
from fourwinds.protocol.tiles import Kind

WIND = "ESWN"


def play_match_in_memory(rules: str, seed: int, hands: int,
                         bots: Sequence[Seat] = SEATS, *, card_text: str = "",
                         transcript_path: str | Path | None = None, deck: str = "masked",
                         out: Callable[[str], None] = print, quiet: bool = False,
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
    harness = play_match(rules, table_seed, card_text=card_text,
                         options=TableOptions(hands=hands, deck=deck_kind,
                                              rules=engine_options))
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


def log_lines(events: Iterable[object], quiet: bool = False,
              verbose: bool = False) -> list[str]:
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
        return ["== Match over; scores " + ", ".join(
            f"seat {p} {score:+d}" for p, score in enumerate(event.scores))]
    return []


def _action_lines(event: ActionTaken, caused: list[object], verbose: bool) -> list[str]:
    told = [line for e in caused for line in _event_lines(e, verbose)]
    late = " (timeout)" if event.timeout else ""
    if verbose:  # the action itself, numbered, then what it caused
        return [f"   [{event.step:4d}] {WIND[event.wind]} (seat {int(event.place)}) "
                f"{_action_words(event)}{late}", *told]
    if not told and not isinstance(event.action, ENGINE_ACTIONS):
        told = [f"   {WIND[event.wind]} {event.text}"]
    if told and late:
        told[0] += late
    return told


ENGINE_ACTIONS = (*AA.Action.__args__, *MA.Action.__args__)
"""Actions of the built-in engines: told through the events they cause (a call shows when the
call window closes, a Charleston pass when all four have chosen), never as their own line."""


def _action_words(event: ActionTaken) -> str:  # one case per action
    a = event.action
    if isinstance(a, AA.NoCall):
        return "no call"
    if isinstance(a, MA.Pass):
        return "no claim"
    if isinstance(a, MA.FlowersDone):
        return "flowers done"
    if isinstance(a, AA.StopVote):
        return "votes to stop the Charleston" if a.stop else "votes to go on"
    if isinstance(a, AA.CharlestonPass):
        blind = f" ({a.blind} blind)" if a.blind else ""
        return f"chooses {len(a.tiles)} tiles to pass{blind}"
    if isinstance(a, AA.CourtesyPass):
        return f"offers {len(a.tiles)} tiles across (courtesy)"
    if isinstance(a, AA.PoolIn):
        return f"chooses {len(a.tiles)} tiles for the pool"
    if isinstance(a, AA.PoolTake):
        return "chooses from the pool"
    if isinstance(a, AA.Call):
        return f"calls the discard with {_tiles(a.faces)}"
    if isinstance(a, AA.CallMahjong):
        return "calls the discard for Mahjong"
    if isinstance(a, (MA.ClaimChow, MA.ClaimPung, MA.ClaimKong)):
        kind = type(a).__name__.removeprefix("Claim").lower()
        return f"claims {kind} with {_tiles(a.faces)}"
    if isinstance(a, MA.ClaimWin):
        return "claims the discard for Mahjong"
    return event.text


def _tiles(faces: Iterable[int]) -> str:
    shown = tuple(faces)
    if any(f == Kind.HIDDEN for f in shown):  # faces the deck had not shown yet
        return f"{len(shown)} tile{'s' * (len(shown) != 1)}"
    return " ".join(tile_code(f) for f in shown)


_SET_NAMES = {2: "pair", 3: "pung", 4: "kong", 5: "quint", 6: "sextet"}


def _event_lines(e: object, verbose: bool) -> list[str]:
    """Lines for one engine event (American or MCR); private and idle ones only verbose."""
    line = _public_line(e)
    if line is None and verbose:
        line = _private_line(e)
    return [] if line is None else [f"   {line}"]


def _public_line(e: object) -> str | None:
    if isinstance(e, (AE.Discarded, ME.Discarded)):
        return f"{WIND[e.seat]} discards {tile_code(e.face)}"
    if isinstance(e, AE.PassMade):
        blind = f", {e.blind} blind" if e.blind else ""
        return (f"{WIND[e.seat]} passes {e.count} tile{'s' * (e.count != 1)} to "
                f"{WIND[e.to]} ({e.step.value}{blind})")
    if isinstance(e, AE.Pooled):
        return (f"{WIND[e.seat]} puts {_tiles(e.faces)} into the pool" if e.faces else None)
    if isinstance(e, AE.PoolTaken):
        n = len(e.slots)
        return f"{WIND[e.seat]} takes {n} tile{'s' * (n != 1)} from the pool" if n else None
    if isinstance(e, AE.Called):
        if e.mahjong:
            return f"{WIND[e.seat]} calls {tile_code(e.kinds[0])} for Mahjong" if e.kinds \
                else f"{WIND[e.seat]} calls for Mahjong"
        name = _SET_NAMES.get(len(e.kinds), "set")
        return f"{WIND[e.seat]} calls {name} {_tiles(e.kinds)}"
    if isinstance(e, AE.JokerExchanged):
        return f"{WIND[e.seat]} exchanges {tile_code(e.face)} for a joker from {WIND[e.owner]}"
    if isinstance(e, AE.SeatDead):
        return f"{WIND[e.seat]} is dead: {e.reason}"
    if isinstance(e, AE.MahjongDeclared):
        how = "self-drawn" if e.self_drawn else "on a discard"
        extra = ", jokerless" if e.jokerless else ""
        return (f"{WIND[e.seat]} declares Mahjong: {e.hand_id}{e.made} ({e.value}{extra}, "
                f"{how}): {_tiles(e.faces)}")
    if isinstance(e, ME.FlowerExposed):
        return f"{WIND[e.seat]} exposes flower {tile_code(e.face)}"
    if isinstance(e, ME.MeldMade):
        if e.concealed:
            return f"{WIND[e.seat]} declares a concealed {e.type.value}"
        source = f" from {WIND[e.claimed_from]}" if e.claimed_from is not None else ""
        return f"{WIND[e.seat]} calls {e.type.value} {_tiles(e.faces)}{source}"
    if isinstance(e, ME.KongAdded):
        return f"{WIND[e.seat]} adds {tile_code(e.face)} to a pung: kong"
    if isinstance(e, ME.KongRobbed):
        return f"{WIND[e.winner]} robs the kong of {WIND[e.robbed]}"
    if isinstance(e, ME.FalseDeclaration):
        return (f"{WIND[e.seat]} declares a false win: {e.reason} "
                f"(pays {e.penalty_each} to each)")
    if isinstance(e, ME.HandWon):
        fans = ", ".join(f"{name} {points}" + (f" x{count}" if count > 1 else "")
                         for name, points, count in e.fans)
        how = (f"on {WIND[e.discarder]}'s discard" if e.discarder is not None
               else "self-drawn")
        return f"{WIND[e.seat]} declares Mahjong ({how}): {fans}; total {e.total}"
    return None


def _private_line(e: object) -> str | None:
    if isinstance(e, AE.Dealt):
        return f"{WIND[e.seat]} is dealt {_tiles(e.faces)}"
    if isinstance(e, ME.TilesSeen):
        return f"{WIND[e.seat]} sees {_tiles(e.faces)}"
    if isinstance(e, AE.TilesReceived):
        return f"{WIND[e.seat]} receives {_tiles(e.faces)}"
    if isinstance(e, AE.Drew):
        return f"{WIND[e.seat]} draws ({e.remaining} left)"
    if isinstance(e, ME.TileDrawn):
        where = "" if e.source is ME.DrawSource.WALL else f" ({e.source.value} replacement)"
        return f"{WIND[e.seat]} draws{where}"
    if isinstance(e, AE.TileSeen):
        return f"{WIND[e.seat]} draws {tile_code(e.face)}"
    if isinstance(e, AE.StepStarted):
        return f"-- {e.step.value}"
    if isinstance(e, ME.Answered):
        if e.claim is ME.AnswerKind.PASS:
            return f"{WIND[e.seat]} no claim"
        return f"{WIND[e.seat]} claims {e.claim.value}"
    if isinstance(e, ME.FlowersFinished):
        return f"{WIND[e.seat]} flowers done"
    return None
