"""`fourwinds demo mcr --engine-only`: four built-in bots play an MCR match, told turn by turn.

The wall is a practice shuffle of the random source the frontend seeds (``random.Random(seed)``;
protocol/ makes no randomness of its own), as are the dice and the seat-wind draw: the same
seed replays the same match.
``--hands`` plays the first N hands of the 16-hand match (a timed end agreed in hands).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable

from fourwinds.protocol.mcr.bots import choose
from fourwinds.protocol.mcr.config import TableOptions
from fourwinds.protocol.mcr.events import (
    Discarded,
    DrawSource,
    Event,
    FalseDeclaration,
    FlowerExposed,
    HandDrawn,
    HandStarted,
    HandWon,
    KongAdded,
    KongRobbed,
    MeldMade,
    TileDrawn,
)
from fourwinds.protocol.mcr.match import (
    HandRecord,
    MatchState,
    new_match,
    play,
    seat_winds,
    standings,
    start_hand,
    winds_from_rolls,
)
from fourwinds.protocol.mcr.state import HandState
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.notation import format_tiles, tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.rules.commands import Random, told
from fourwinds.protocol.tiles import Kind

WIND = "ESWN"
ROUND = ("East", "South", "West", "North")


def deal(rng: Random, flowers: bool = True) -> tuple[list[Kind], tuple[int, int, int, int]]:
    """A practice wall (faces by slot; ``flowers=False``: the 136 tiles without flowers) and
    the four dice of the wall break."""
    faces = list(MCR_SET.played(flowers=flowers).kinds)
    rng.shuffle(faces)
    return faces, (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))


def play_match(
    rng: Random, hands: int, out: Callable[[str], None], quiet: bool = False, flowers: bool = True
) -> MatchState:
    """Play ``hands`` hands of a match with four bots, telling ``out`` the log."""
    return told(match_log(rng, hands, quiet, flowers), out)


def match_log(
    rng: Random, hands: int, quiet: bool = False, flowers: bool = True
) -> Generator[str, None, MatchState]:
    """The log of ``hands`` hands of a match played by four bots, line by line as they play;
    the final match state is the generator's return value."""
    rolls = [rng.randint(1, 6) for _ in range(64)]
    match = new_match(TableOptions(max_hands=hands, flowers=flowers), winds_from_rolls(rolls))
    yield "Seat winds drawn: " + ", ".join(
        f"player {p + 1} {WIND[match.drawn_winds[p]]}" for p in range(4)
    )
    while not match.finished:
        faces, dice = deal(rng, flowers)
        number = match.hands_played
        winds = seat_winds(match, number)
        seats = ", ".join(f"{WIND[s]}=player {winds.index(s) + 1}" for s in SEATS)
        yield (
            f"== Hand {number + 1} ({ROUND[number // 4]} round): {seats}; "
            f"dice {'+'.join(str(d) for d in dice)}"
        )
        match, events = start_hand(match, faces, dice)
        while match.hand is not None:
            hand = match.hand
            for seat in SEATS:
                action = choose(hand, seat, rng)
                if action is not None:
                    break
            else:  # pragma: no cover - the engine always has someone to act
                raise RuntimeError("no seat can act")
            match, events = play(match, action)
            if not quiet:
                for line in describe(hand, events):
                    yield f"   {line}"
        yield from summary(match.records[-1], match)
    wins = sum(1 for r in match.records if r.result.winner is not None)
    yield (
        f"== Match over: {match.hands_played} hands, {wins} won, "
        f"{match.hands_played - wins} drawn; final scores "
        + ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in standings(match))
    )
    return match


def describe(before: HandState, events: Iterable[Event]) -> list[str]:
    """One line per public happening (a full-information demo may show drawn tiles)."""
    lines: list[str] = []
    faces = before.faces
    for event in events:
        if isinstance(event, HandStarted):
            continue
        if isinstance(event, TileDrawn):
            how = {
                DrawSource.WALL: "",
                DrawSource.FLOWER_REPLACEMENT: " (flower replacement)",
                DrawSource.KONG_REPLACEMENT: " (kong replacement)",
            }[event.source]
            lines.append(f"{WIND[event.seat]} draws {tile_code(faces[event.slot])}{how}")
        elif isinstance(event, FlowerExposed):
            lines.append(f"{WIND[event.seat]} exposes {tile_code(event.face)}")
        elif isinstance(event, Discarded):
            lines.append(f"{WIND[event.seat]} discards {tile_code(event.face)}")
        elif isinstance(event, MeldMade):
            if event.concealed:
                lines.append(f"{WIND[event.seat]} declares a concealed kong")
            else:
                src = "" if event.claimed_from is None else f" from {WIND[event.claimed_from]}"
                lines.append(
                    f"{WIND[event.seat]} {event.type.value}s "
                    f"{format_tiles(sorted(event.faces))}{src}"
                )
        elif isinstance(event, KongAdded):
            lines.append(f"{WIND[event.seat]} adds {tile_code(event.face)} to its pung")
        elif isinstance(event, KongRobbed):
            lines.append(f"{WIND[event.winner]} robs {WIND[event.robbed]}'s kong")
        elif isinstance(event, FalseDeclaration):
            lines.append(
                f"{WIND[event.seat]} false Mahjong ({event.reason}): pays "
                f"{event.penalty_each} to each, hand dead"
            )
        elif isinstance(event, HandWon):
            how = (
                "self-drawn" if event.discarder is None else f"on {WIND[event.discarder]}'s discard"
            )
            lines.append(
                f"{WIND[event.seat]} declares Mahjong {how}: "
                f"{winning_hand(before, event.seat, event.discarder is None)}"
            )
        elif isinstance(event, HandDrawn):
            lines.append("The wall is exhausted")
    return lines


def winning_hand(before: HandState, seat: Seat, self_drawn: bool) -> str:
    """The winner's tiles as shown: melds, concealed tiles and the winning tile."""
    own = before.seats[seat]
    win = before.drawn if self_drawn else before.pending
    faces = before.faces
    concealed = sorted(faces[s] for s in own.hand if s != win)
    melds = [format_tiles(sorted(faces[s] for s in m.slots)) for m in own.melds]
    parts = [*melds, format_tiles(concealed)]
    tile = tile_code(faces[win]) if win is not None else "?"
    return " ".join(parts) + f" + {tile}"


def summary(record: HandRecord, match: MatchState) -> list[str]:
    result = record.result
    who = {s: record.seat_of.index(s) + 1 for s in SEATS}
    if result.winner is None:
        head = f"-- Hand {record.number + 1}: draw (wall exhausted)"
    else:
        how = (
            "self-drawn"
            if result.self_drawn
            else f"on {WIND[result.discarder or Seat.EAST]}'s discard"
        )
        head = (
            f"-- Hand {record.number + 1}: won by {WIND[result.winner]} "
            f"(player {who[result.winner]}) {how}, {result.total} points"
        )
    lines = [head]
    if result.fans:
        lines.append(
            "   fans: "
            + "; ".join(
                f"{name} {pts}" + (f" x{n}" if n > 1 else "") for name, pts, n in result.fans
            )
        )
    lines.append(
        "   payments: "
        + ", ".join(f"{WIND[s]} (player {who[s]}) {result.payments[s]:+d}" for s in SEATS)
    )
    lines.append(
        "   running scores: " + ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in range(4))
    )
    return lines
