"""`fourwinds score american` and `fourwinds hint american`: the card from the command line.

``score`` lists the card hands that 14 tiles make, with value and payouts (RULES.md A7);
``--jsonl`` answers one JSON object per input line (issue 2 section 5):
``{"tiles": [...], "exposures": [[...]], "self_drawn": false}`` ->
``{"matches": [{"id", "value", "jokerless", "alternative", "pattern"}...], "best": id | null}``
or ``{"error": ...}`` (``alternative``: which of the line's patterns, 1 = the first;
``pattern``: that pattern as printed). ``hint`` lists the nearest card hands, which of a
line's patterns is nearest, and the tiles they still miss. ``--card FILE`` reads a
card file (docs/CARD_FORMAT.md); the default is the house card.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from typing import IO, Any

from fourwinds.frontends.cli import UsageError
from fourwinds.protocol.american.card import Card, CardHand, Category
from fourwinds.protocol.american.cardfile import house_card, parse_card
from fourwinds.protocol.american.matcher import HandMatch, match_hand, nearest_hands
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import TileParseError, format_tiles, parse_tile, parse_tiles
from fourwinds.protocol.tiles import Kind

HAND_SIZE = 14
_AMERICAN = frozenset([*(Kind(k) for k in range(34)), Kind.FLOWER, Kind.JOKER])
_JSONL_FIELDS = frozenset({"tiles", "exposures", "self_drawn"})


def add_score(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "american", help="which American card hands 14 tiles make, their value and payouts",
        description="Which hands of the card the tiles make (concealed tiles, winning tile "
                    "included, plus --exposed groups), their value and the payouts (A7). "
                    "Exit status 1 when no hand matches.")
    _common(parser)
    parser.add_argument("--self-drawn", action="store_true",
                        help="the winning tile was drawn from the wall (default: a discard)")
    parser.add_argument("--jsonl", action="store_true",
                        help='read {"tiles": [...], "exposures": [[...]], "self_drawn": false} '
                             "per line on stdin, answer one JSON object per line")
    parser.set_defaults(handler=run_score)


def add_hint(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "american", help="the nearest American card hands and the tiles they still need",
        description="The card hands nearest to these tiles (13 or 14 concealed tiles plus "
                    "--exposed groups), with what is missing; J = a slot only a joker can fill.")
    _common(parser)
    parser.add_argument("-n", "--count", type=int, default=5, metavar="N",
                        help="how many hands to list (default 5)")
    parser.set_defaults(handler=run_hint)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("tiles", nargs="*", metavar="TILES",
                        help="concealed tiles in notation, e.g. 222s 444s 6666s 8888s F J")
    parser.add_argument("--card", metavar="FILE", help="a card file (default: the house card)")
    parser.add_argument("--exposed", action="append", default=[], metavar="TILES",
                        help="an exposed group, e.g. 5p5pJ (repeat for each group)")


def read_card_text(path: str) -> str:
    """The text of a card file; a file that cannot be read is a one-line UsageError."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read card file {path}: {error}") from None


def load_card(path: str | None) -> Card:
    """The card named on the command line, or the house card."""
    if path is None:
        return house_card()
    return parse_card(read_card_text(path), path)


def check_tiles(concealed: Sequence[Kind], exposures: Sequence[Sequence[Kind]],
                sizes: tuple[int, ...]) -> None:
    """Refuse tiles that no American table can hold, naming the problem (UsageError)."""
    every = [*concealed, *(k for group in exposures for k in group)]
    for kind in every:
        if kind not in _AMERICAN:
            raise UsageError(f"{format_tiles([kind])} is not an American tile "
                             "(flowers are F, jokers J)")
    for kind, count in Counter(every).items():
        limit = 8 if kind in (Kind.FLOWER, Kind.JOKER) else 4
        if count > limit:
            raise UsageError(f"{count} tiles {format_tiles([kind])}: the set has only {limit}")
    for group in exposures:
        real = {k for k in group if k != Kind.JOKER}
        if not 2 <= len(group) <= 6 or len(real) > 1:
            raise UsageError(f"exposure {format_tiles(group)} is not 2 to 6 alike tiles")
    if len(every) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise UsageError(f"{wanted} tiles needed (concealed and exposed), got {len(every)}")


def payouts(value: int, jokerless: bool, category: Category,
            self_drawn: bool) -> tuple[int, int]:
    """(what the discarder pays, what each other player pays) under RULES.md A7."""
    factor = 2 if jokerless and category is not Category.SINGLES_PAIRS else 1
    if self_drawn:
        return 0, 2 * value * factor
    return 2 * value * factor, value * factor


def _read_args(args: argparse.Namespace) -> tuple[list[Kind], list[list[Kind]]]:
    concealed = parse_tiles(" ".join(args.tiles))
    exposures = [parse_tiles(text) for text in args.exposed]
    return concealed, exposures


def _section(hand: CardHand) -> str:
    """The category code (format 1), or the card's own heading for a section of its own."""
    return hand.heading if hand.category is Category.OTHER else hand.category.value


def _which(hand: CardHand, alternative: int) -> str:
    label = hand.alternative_label(alternative)
    return f"  [{label}]" if label else ""


def _match_lines(match: HandMatch, self_drawn: bool) -> list[str]:
    hand = match.hand
    kind = "C" if hand.concealed else "X"
    joker = "jokerless" if match.jokerless else "with jokers"
    discarder, others = payouts(hand.value, match.jokerless, hand.category, self_drawn)
    if self_drawn:
        pay = f"self-drawn: each player pays {others}"
    else:
        pay = f"on a discard: the discarder pays {discarder}, the others {others} each"
    return [
        f"{hand.id}  {hand.value} {kind}  {_section(hand)}  {match.pattern}  ({hand.note})"
        f"{_which(hand, match.alternative)}",
        f"    as {' '.join(format_tiles(g) for g in match.assignment)}  {joker}",
        f"    {pay}",
    ]


def run_score(args: argparse.Namespace) -> int:
    card = load_card(args.card)
    if args.jsonl:
        return score_jsonl(card, sys.stdin, sys.stdout)
    concealed, exposures = _read_args(args)
    check_tiles(concealed, exposures, (HAND_SIZE,))
    found = match_hand(card, concealed, exposures)
    if not found:
        print(f"no hand of {card.name} is made by these tiles")
        return 1
    for match in found:
        for line in _match_lines(match, args.self_drawn):
            print(line)
    print(f"best: {found[0].hand.id} ({found[0].hand.value})")
    return 0


def _jsonl_request(line: str) -> tuple[list[Kind], list[list[Kind]]]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise UsageError(f"not JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(data, dict):
        raise UsageError("expected a JSON object")
    unknown = sorted(set(data) - _JSONL_FIELDS)
    if unknown:
        raise UsageError(f"unknown field {unknown[0]!r} (fields: tiles, exposures, self_drawn)")
    tiles = data.get("tiles")
    exposures = data.get("exposures", [])
    if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
        raise UsageError('"tiles" must be a list of tile strings')
    if not isinstance(exposures, list) or not all(
            isinstance(g, list) and all(isinstance(t, str) for t in g) for g in exposures):
        raise UsageError('"exposures" must be a list of lists of tile strings')
    if not isinstance(data.get("self_drawn", False), bool):
        raise UsageError('"self_drawn" must be true or false')
    concealed = [parse_tile(t) for t in tiles]
    exposed = [[parse_tile(t) for t in group] for group in exposures]
    check_tiles(concealed, exposed, (HAND_SIZE,))
    return concealed, exposed


def score_jsonl(card: Card, source: IO[str], out: IO[str]) -> int:
    """Answer each JSON line of ``source`` on ``out``; a bad line gets ``{"error": ...}``."""
    for line in source:
        if not line.strip():
            continue
        try:
            concealed, exposures = _jsonl_request(line)
        except (UsageError, FourwindsError, TileParseError) as error:
            answer: dict[str, Any] = {"error": str(error)}
        else:
            found = match_hand(card, concealed, exposures)
            answer = {
                "matches": [{"id": m.hand.id, "value": m.hand.value, "jokerless": m.jokerless,
                             "alternative": m.alternative + 1, "pattern": m.pattern}
                            for m in found],
                "best": found[0].hand.id if found else None,
            }
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


def run_hint(args: argparse.Namespace) -> int:
    card = load_card(args.card)
    concealed, exposures = _read_args(args)
    check_tiles(concealed, exposures, (HAND_SIZE - 1, HAND_SIZE))
    if args.count < 1:
        raise UsageError("--count must be at least 1")
    near = nearest_hands(card, concealed, exposures, args.count)
    if not near:
        print(f"no hand of {card.name} can use these exposures")
        return 1
    for entry in near:
        hand = entry.hand
        kind = "C" if hand.concealed else "X"
        missing = " ".join(format_tiles([k]) for k in entry.missing) or "nothing: Mahjong"
        print(f"{hand.id}  {hand.value} {kind}  {entry.pattern}  ({hand.note})"
              f"{_which(hand, entry.alternative)}")
        print(f"    needs {entry.distance}: {missing}")
    return 0
