"""`fourwinds score american` and `fourwinds hint american`: what they print (pure).

``score`` lists the card hands that 14 tiles make, with value and payouts (docs/RULES.md A7);
``--jsonl`` answers one JSON object per input line (issue 2 section 5):
``{"tiles": [...], "exposures": [[...]], "self_drawn": false}`` ->
``{"matches": [{"id", "value", "jokerless", "alternative", "pattern"}...], "best": id | null}``
or ``{"error": ...}`` (``alternative``: which of the line's patterns, 1 = the first;
``pattern``: that pattern as printed). ``hint`` lists the nearest card hands, which of a
line's patterns is nearest, and the tiles they still miss. ``--card FILE`` reads a
card file (docs/CARD_FORMAT.md); the default is the house card. The frontend reads the file
and standard input and prints what these return (protocol/table/rules/commands.py).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from fourwinds.protocol.american.card import Card, CardHand, Category
from fourwinds.protocol.american.matcher import HandMatch, match_hand, nearest_hands
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.notation import TileParseError, format_tiles, parse_tile, parse_tiles
from fourwinds.protocol.table.rules.commands import CommandError
from fourwinds.protocol.tiles import Kind

HAND_SIZE = 14
_AMERICAN = frozenset([*(Kind(k) for k in range(34)), Kind.FLOWER, Kind.JOKER])
_JSONL_FIELDS = frozenset({"tiles", "exposures", "self_drawn"})


def check_tiles(
    concealed: Sequence[Kind], exposures: Sequence[Sequence[Kind]], sizes: tuple[int, ...]
) -> None:
    """Refuse tiles that no American table can hold, naming the problem (CommandError)."""
    every = [*concealed, *(k for group in exposures for k in group)]
    for kind in every:
        if kind not in _AMERICAN:
            raise CommandError(
                f"{format_tiles([kind])} is not an American tile (flowers are F, jokers J)"
            )
    for kind, count in Counter(every).items():
        limit = 8 if kind in (Kind.FLOWER, Kind.JOKER) else 4
        if count > limit:
            raise CommandError(f"{count} tiles {format_tiles([kind])}: the set has only {limit}")
    for group in exposures:
        real = {k for k in group if k != Kind.JOKER}
        if not 2 <= len(group) <= 6 or len(real) > 1:
            raise CommandError(f"exposure {format_tiles(group)} is not 2 to 6 alike tiles")
    if len(every) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise CommandError(f"{wanted} tiles needed (concealed and exposed), got {len(every)}")


def payouts(value: int, jokerless: bool, category: Category, self_drawn: bool) -> tuple[int, int]:
    """(what the discarder pays, what each other player pays) under docs/RULES.md A7."""
    factor = 2 if jokerless and category is not Category.SINGLES_PAIRS else 1
    if self_drawn:
        return 0, 2 * value * factor
    return 2 * value * factor, value * factor


def _read_tiles(
    tiles: Sequence[str], exposed: Sequence[str]
) -> tuple[list[Kind], list[list[Kind]]]:
    concealed = parse_tiles(" ".join(tiles))
    exposures = [parse_tiles(text) for text in exposed]
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


def score_lines(
    card: Card, tiles: Sequence[str], exposed: Sequence[str], self_drawn: bool
) -> tuple[list[str], int]:
    """What ``score american`` prints for these tiles, and its exit status (1: no hand)."""
    concealed, exposures = _read_tiles(tiles, exposed)
    check_tiles(concealed, exposures, (HAND_SIZE,))
    found = match_hand(card, concealed, exposures)
    if not found:
        return [f"no hand of {card.name} is made by these tiles"], 1
    lines = [line for match in found for line in _match_lines(match, self_drawn)]
    return [*lines, f"best: {found[0].hand.id} ({found[0].hand.value})"], 0


def _jsonl_request(line: str) -> tuple[list[Kind], list[list[Kind]]]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise CommandError(f"not JSON: {error.msg} at column {error.colno}") from None
    if not isinstance(data, dict):
        raise CommandError("expected a JSON object")
    unknown = sorted(set(data) - _JSONL_FIELDS)
    if unknown:
        raise CommandError(f"unknown field {unknown[0]!r} (fields: tiles, exposures, self_drawn)")
    tiles = data.get("tiles")
    exposures = data.get("exposures", [])
    if not isinstance(tiles, list) or not all(isinstance(t, str) for t in tiles):
        raise CommandError('"tiles" must be a list of tile strings')
    if not isinstance(exposures, list) or not all(
        isinstance(g, list) and all(isinstance(t, str) for t in g) for g in exposures
    ):
        raise CommandError('"exposures" must be a list of lists of tile strings')
    if not isinstance(data.get("self_drawn", False), bool):
        raise CommandError('"self_drawn" must be true or false')
    concealed = [parse_tile(t) for t in tiles]
    exposed = [[parse_tile(t) for t in group] for group in exposures]
    check_tiles(concealed, exposed, (HAND_SIZE,))
    return concealed, exposed


def score_jsonl(card: Card, source: Iterable[str]) -> Iterator[str]:
    """Answer each JSON line of ``source``, as it comes; a bad line gets ``{"error": ...}``."""
    for line in source:
        if not line.strip():
            continue
        try:
            concealed, exposures = _jsonl_request(line)
        except (CommandError, FourwindsError, TileParseError) as error:
            answer: dict[str, Any] = {"error": str(error)}
        else:
            found = match_hand(card, concealed, exposures)
            answer = {
                "matches": [
                    {
                        "id": m.hand.id,
                        "value": m.hand.value,
                        "jokerless": m.jokerless,
                        "alternative": m.alternative + 1,
                        "pattern": m.pattern,
                    }
                    for m in found
                ],
                "best": found[0].hand.id if found else None,
            }
        yield json.dumps(answer)


def hint_lines(
    card: Card, tiles: Sequence[str], exposed: Sequence[str], count: int
) -> tuple[list[str], int]:
    """What ``hint american`` prints: the ``count`` nearest card hands and what each misses,
    and the exit status (1: no hand can use these exposures)."""
    concealed, exposures = _read_tiles(tiles, exposed)
    check_tiles(concealed, exposures, (HAND_SIZE - 1, HAND_SIZE))
    if count < 1:
        raise CommandError("--count must be at least 1")
    near = nearest_hands(card, concealed, exposures, count)
    if not near:
        return [f"no hand of {card.name} can use these exposures"], 1
    lines = []
    for entry in near:
        hand = entry.hand
        kind = "C" if hand.concealed else "X"
        missing = " ".join(format_tiles([k]) for k in entry.missing) or "nothing: Mahjong"
        lines.append(
            f"{hand.id}  {hand.value} {kind}  {entry.pattern}  ({hand.note})"
            f"{_which(hand, entry.alternative)}"
        )
        lines.append(f"    needs {entry.distance}: {missing}")
    return lines, 0
