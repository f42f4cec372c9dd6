"""`fourwinds demo american`: four built-in bots play American hands, shown turn by turn.

The wall is a seeded practice shuffle (``random.Random(seed)``, fine here in frontends/, never
in protocol/): the same seed replays the same match.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.demo_options import (
    add_table_options,
    check_table_options,
    run_through_table,
)
from fourwinds.protocol.american.bots import AmericanBot, run_hand
from fourwinds.protocol.american.card import Card
from fourwinds.protocol.american.cardfile import house_card, parse_card
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

WIND = {Seat.EAST: "E", Seat.SOUTH: "S", Seat.WEST: "W", Seat.NORTH: "N"}
MAX_HANDS = 10_000


def add_demo(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "american", help="four bots play American Mahjong at an in-memory table")
    parser.add_argument("--seed", type=int, default=1, help="shuffle seed (default 1)")
    parser.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    parser.add_argument("--card", metavar="FILE", help="card file (default: the house card)")
    parser.add_argument("--quiet", action="store_true", help="only the per-hand summaries")
    add_table_options(parser)
    parser.set_defaults(handler=run_demo)


def load_card(path: str | None) -> Card:
    if path is None:
        return house_card()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read card file {path}: {error}") from None
    return parse_card(text, source=path)


def deal(rng: random.Random) -> tuple[list[Any], tuple[int, int]]:
    """A practice wall (faces by slot) and East's two dice."""
    faces = list(AMERICAN_TILES)
    rng.shuffle(faces)
    return faces, (rng.randint(1, 6), rng.randint(1, 6))


def play_match(card: Card, seed: int, hands: int,
               out: Callable[[str], None] = print, quiet: bool = False) -> MatchState:
    """Play ``hands`` hands with four bots, printing the log; the final match state."""
    rng = random.Random(seed)
    match = MatchState()
    for number in range(1, hands + 1):
        faces, dice = deal(rng)
        state, _ = new_hand(card, faces, dice)
        bots = [AmericanBot(seat, card, rng) for seat in SEATS]
        players = ", ".join(f"{WIND[s]}=player {match.player_at(s) + 1}" for s in SEATS)
        out(f"== Hand {number}: {players}; dice {dice[0]}+{dice[1]}")
        state, events = run_hand(state, bots)
        if not quiet:
            for line in describe(state, events):
                out(f"   {line}")
        assert state.result is not None
        match = match.after(state.result)
        for line in summary(state.result, match, number):
            out(line)
    mahjongs = match.hands_played - match.wall_games
    out(f"== Match over: {match.hands_played} hands, {mahjongs} Mahjong, "
        f"{match.wall_games} wall games; scores "
        + ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in range(4)))
    return match


def describe(state: AmericanState, events: Iterable[AmericanEvent]) -> list[str]:
    """One line per thing that happened, as a player at the table would say it."""
    lines: list[str] = ["First Charleston"]
    passes: dict[CharlestonStep, list[str]] = {}
    for event in events:
        if isinstance(event, PassMade):
            blind = f" ({event.blind} blind)" if event.blind else ""
            passes.setdefault(event.step, []).append(
                f"{WIND[event.seat]}>{WIND[event.to]} {event.count}{blind}")
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
            lines.append(f"{WIND[event.seat]} draws {tile_code(state.faces[event.slot])} "
                         f"({event.remaining} left)")
        elif isinstance(event, Discarded):
            note = "" if event.callable else " (a joker: nobody may call it)"
            lines.append(f"{WIND[event.seat]} discards {tile_code(event.face)}{note}")
        elif isinstance(event, Called):
            what = "Mahjong" if event.mahjong else f"exposes {format_tiles(sorted(event.kinds))}"
            lines.append(f"{WIND[event.seat]} calls {tile_code(state.faces[event.slot])}: "
                         f"{what}")
        elif isinstance(event, JokerExchanged):
            whose = "own" if event.owner == event.seat else f"{WIND[event.owner]}'s"
            lines.append(f"{WIND[event.seat]} gives {tile_code(event.face)} for a joker "
                         f"from {whose} exposure")
        elif isinstance(event, SeatDead):
            lines.append(f"{WIND[event.seat]} is dead: {event.reason}")
        elif isinstance(event, MahjongDeclared):
            how = "self-drawn" if event.self_drawn else "on a discard"
            laid = " ".join(format_tiles(sorted(group))
                            for group in state.exposure_kinds(event.seat))
            shown = format_tiles(sorted(event.faces)) + (f" | exposed {laid}" if laid else "")
            lines.append(f"{WIND[event.seat]} declares Mahjong {how} with "
                         f"{event.hand_id}{event.made}: {shown}")
    return lines


def summary(result: HandResult, match: MatchState, number: int) -> list[str]:
    if result.winner is None:
        head = f"-- Hand {number}: wall game, no payment"
    else:
        how = "self-drawn" if result.self_drawn else (
            f"on {WIND[result.discarder]}'s discard" if result.discarder is not None else "")
        bonus = ", jokerless" if result.jokerless else ""
        head = (f"-- Hand {number}: Mahjong by {WIND[result.winner]} with {result.hand_id} "
                f"(value {result.value}{bonus}) {how}")
    pays = ", ".join(f"{WIND[s]} {result.payments[s]:+d}" for s in SEATS)
    scores = ", ".join(f"player {p + 1} {match.scores[p]:+d}" for p in range(4))
    return [head, f"   payouts: {pays}", f"   running scores: {scores}"]


def run_demo(args: argparse.Namespace) -> int:
    if not 1 <= args.hands <= MAX_HANDS:
        raise UsageError(f"--hands must be 1 to {MAX_HANDS}, not {args.hands}")
    check_table_options(args)
    card = load_card(args.card)
    if not args.engine_only:
        card_text = "" if args.card is None else Path(args.card).read_text(encoding="utf-8")
        return run_through_table("american", args, card_text)
    play_match(card, args.seed, args.hands, quiet=args.quiet)
    return 0
