"""`fourwinds demo american --engine-only`: four built-in bots play American hands, told turn
by turn.

The wall is a practice shuffle of the random source the frontend seeds (``random.Random(seed)``;
protocol/ makes no randomness of its own): the same seed replays the same match.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

from fourwinds.protocol.american.bots import AmericanBot, run_hand
from fourwinds.protocol.american.card import Card
from fourwinds.protocol.american.engine import new_hand
from fourwinds.protocol.american.events import (
    AmericanEvent,
    Called,
    Discarded,
    Drew,
    JokerExchanged,
    MahjongDeclared,
    PassMade,
    SeatDead,
    StepStarted,
)
from fourwinds.protocol.american.match import MatchState
from fourwinds.protocol.american.state import AmericanState, CharlestonStep, HandResult
from fourwinds.protocol.american.tileset import AMERICAN_TILES
from fourwinds.protocol.notation import format_tiles, tile_code
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.rules.commands import Random, told

WIND = {Seat.EAST: "E", Seat.SOUTH: "S", Seat.WEST: "W", Seat.NORTH: "N"}
MAX_HANDS = 10_000


def deal(rng: Random) -> tuple[list[Any], tuple[int, int]]:
    """A practice wall (faces by slot) and East's two dice."""
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    return faces, (rng.randint(1, 6), rng.randint(1, 6))


def play_match(
    card: Card, rng: Random, hands: int, out: Callable[[str], None], quiet: bool = False
) -> MatchState:
    """Play ``hands`` hands with four bots, telling ``out`` the log; the final match state."""
    return told(match_log(card, rng, hands, quiet), out)


def match_log(
    card: Card, rng: Random, hands: int, quiet: bool = False
) -> Generator[str, None, MatchState]:
    """The log of ``hands`` hands played by four bots, line by line as they play (a long
    match is printed as it goes); the final match state is the generator's return value."""
    match = MatchState()
    for number in range(1, hands + 1):
        faces, dice = deal(rng)
        state, _ = new_hand(card, faces, dice)
        bots = [AmericanBot(seat, card, rng) for seat in SEATS]
        players = ", ".join(f"{WIND[s]}=player {match.player_at(s) + 1}" for s in SEATS)
        yield f"== Hand {number}: {players}; dice {dice[0]}+{dice[1]}"
        state, events = run_hand(state, bots)
        if not quiet:
            for line in describe(state, events):
                yield f"   {line}"
        assert state.result is not None
        match = match.after(state.result)
        yield from summary(state.result, match, number)
    mahjongs = match.hands_played - match.wall_games
    yield (
        f"== Match over: {match.hands_played} hands, {mahjongs} Mahjong, "
        f"{match.wall_games} wall games; scores "
        + ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in range(4))
    )
    return match


def describe(state: AmericanState, events: Iterable[AmericanEvent]) -> list[str]:
    """One line per thing that happened, as a player at the table would say it."""
    lines: list[str] = ["First Charleston"]
    passes: dict[CharlestonStep, list[str]] = {}
    for event in events:
        if isinstance(event, PassMade):
            blind = f" ({event.blind} blind)" if event.blind else ""
            passes.setdefault(event.step, []).append(
                f"{WIND[event.seat]}>{WIND[event.to]} {event.count}{blind}"
            )
        elif isinstance(event, StepStarted):
            for step, said in passes.items():
                lines.append(f"{step.value} pass: " + ", ".join(said))
            passes = {}
            if event.step is CharlestonStep.PLAY:
                lines.append("Play begins: East discards first")
            elif event.step is CharlestonStep.SECOND_LEFT:
                lines.append("Nobody stopped: second Charleston")
            elif event.step is CharlestonStep.COURTESY:
                lines.append("Courtesy pass")
        elif isinstance(event, Drew):
            lines.append(
                f"{WIND[event.seat]} draws {tile_code(state.faces[event.slot])} "
                f"({event.remaining} left)"
            )
        elif isinstance(event, Discarded):
            note = "" if event.callable else " (a joker: nobody may call it)"
            lines.append(f"{WIND[event.seat]} discards {tile_code(event.face)}{note}")
        elif isinstance(event, Called):
            what = "Mahjong" if event.mahjong else f"exposes {format_tiles(sorted(event.kinds))}"
            lines.append(f"{WIND[event.seat]} calls {tile_code(state.faces[event.slot])}: {what}")
        elif isinstance(event, JokerExchanged):
            whose = "own" if event.owner == event.seat else f"{WIND[event.owner]}'s"
            lines.append(
                f"{WIND[event.seat]} gives {tile_code(event.face)} for a joker "
                f"from {whose} exposure"
            )
        elif isinstance(event, SeatDead):
            lines.append(f"{WIND[event.seat]} is dead: {event.reason}")
        elif isinstance(event, MahjongDeclared):
            how = "self-drawn" if event.self_drawn else "on a discard"
            laid = " ".join(
                format_tiles(sorted(group)) for group in state.exposure_kinds(event.seat)
            )
            shown = format_tiles(sorted(event.faces)) + (f" | exposed {laid}" if laid else "")
            lines.append(
                f"{WIND[event.seat]} declares Mahjong {how} with "
                f"{event.hand_id}{event.made}: {shown}"
            )
    return lines


def summary(result: HandResult, match: MatchState, number: int) -> list[str]:
    if result.winner is None:
        head = f"-- Hand {number}: wall game, no payment"
    else:
        how = (
            "self-drawn"
            if result.self_drawn
            else (f"on {WIND[result.discarder]}'s discard" if result.discarder is not None else "")
        )
        bonus = ", jokerless" if result.jokerless else ""
        head = (
            f"-- Hand {number}: Mahjong by {WIND[result.winner]} with {result.hand_id} "
            f"(value {result.value}{bonus}) {how}"
        )
    pays = ", ".join(f"{WIND[s]} {result.payments[s]:+d}" for s in SEATS)
    scores = ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in range(4))
    return [head, f"   payouts: {pays}", f"   running scores: {scores}"]
