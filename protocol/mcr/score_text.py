"""`fourwinds score mcr` and `fourwinds hint mcr`: what the MCR fan calculator prints (pure).

``score`` lists the fans of a winning hand with their points and the total, and says whether
it is a valid win (8 points before flowers). The concealed tiles are given WITH the winning
tile (the last one unless ``--win-tile`` names it); ``--melds`` are the sets on the table.
``--jsonl`` answers one JSON object per input line (issue 3 section 3)::

    {"melds": [{"type": "chow", "tiles": ["1p","2p","3p"], "concealed": false}],
     "hand": [concealed tiles, without the winning tile], "win_tile": "8p",
     "self_drawn": false, "last_tile": false, "kong_related": false, "wall_last": false,
     "seat_wind": 0, "prevalent_wind": 0, "flowers": 0}
    -> {"fans": [["Fan Name", points, count], ...], "total": N, "winning": true|false}
       or {"error": "..."}

``hint`` lists the tiles that complete a waiting hand and the fans each gives (or, for a
14-tile hand, the discards that leave it ready). The frontend reads standard input and prints
what these return (protocol/table/rules/commands.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.mcr.hand import InvalidHand, Meld, MeldType, meld
from fourwinds.protocol.mcr.scoring import (
    FanScore,
    WinContext,
    is_complete,
    score_hand,
    shanten,
    tiles_to_win,
)
from fourwinds.protocol.notation import (
    TileParseError,
    format_tiles,
    parse_tile,
    parse_tiles,
    tile_code,
)
from fourwinds.protocol.table.rules.commands import CommandError
from fourwinds.protocol.tiles import MCR_BONUS, Kind

WIND_NAMES = ("East", "South", "West", "North")
_WIND_WORDS = {
    "e": 0,
    "east": 0,
    "1z": 0,
    "0": 0,
    "s": 1,
    "south": 1,
    "2z": 1,
    "1": 1,
    "w": 2,
    "west": 2,
    "3z": 2,
    "2": 2,
    "n": 3,
    "north": 3,
    "4z": 3,
    "3": 3,
}
_BOOL_FIELDS = ("self_drawn", "last_tile", "kong_related", "wall_last")


# --- parsing -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandArgs:
    """A hand as the command line gives it: the concealed ``tiles`` and ``--melds``,
    ``--concealed-kong``, ``--seat-wind``, ``--prevalent-wind``, ``--flowers``."""

    tiles: Sequence[str]
    melds: Sequence[str] = ()
    concealed_kong: Sequence[str] = ()
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: int = 0


def check_mcr_tiles(tiles: Sequence[Kind], flowers: str = "--flowers N") -> None:
    """Refuse, in words, a tile that can be part of no MCR hand: a joker, a flower (counted
    apart, with ``flowers``) or a hidden tile."""
    for kind in tiles:
        if kind is Kind.JOKER:
            raise CommandError("a joker (J) is not an MCR tile: MCR is played without jokers")
        if kind is Kind.FLOWER or kind in MCR_BONUS:
            raise CommandError(
                f"a flower ({tile_code(kind)}) is not part of an MCR hand: "
                f"count the flowers with {flowers}"
            )
        if kind is Kind.HIDDEN:
            raise CommandError("? (a hidden tile) cannot be scored: name every tile")


def _count_error(tiles: int, sets: int) -> str:
    """What `score mcr` got and needs: 14 tiles counting 3 per set, the winning tile in."""
    need = 14 - 3 * sets
    if not sets:
        return (
            f"got {tiles} tile{'s' if tiles != 1 else ''}, needs 14: the 13 of the hand "
            "plus the winning tile (the last one, or --win-tile)"
        )
    return (
        f"got {tiles} tile{'s' if tiles != 1 else ''} beside {sets} set"
        f"{'s' if sets != 1 else ''}, needs {need}: a winning hand is 14 tiles counting 3 "
        "per set, the winning tile included (the last one, or --win-tile)"
    )


def parse_wind(text: str) -> int:
    """E/S/W/N, a wind name, 1z-4z or 0-3 -> 0-3."""
    wind = _WIND_WORDS.get(text.strip().lower())
    if wind is None:
        raise CommandError(f"bad wind {text!r}: use E, S, W or N")
    return wind


def parse_meld(text: str, concealed: bool = False) -> Meld:
    """A set in notation: 3 in a row (chow), 3 alike (pung) or 4 alike (kong)."""
    tiles = sorted(parse_tiles(text))
    check_mcr_tiles(tiles)
    if len(tiles) == 4:
        kind = MeldType.KONG
    elif len(tiles) == 3 and len(set(tiles)) == 1:
        kind = MeldType.PUNG
    elif len(tiles) == 3:
        kind = MeldType.CHOW
    else:
        raise CommandError(f"bad set {text!r}: a set is 3 or 4 tiles, e.g. 123m, 555z, 8888s")
    if concealed and kind is not MeldType.KONG:
        raise CommandError(f"bad concealed kong {text!r}: a kong is 4 alike")
    return meld(kind, tiles, concealed)


def _melds(args: HandArgs) -> list[Meld]:
    result = [parse_meld(text) for text in args.melds]
    result.extend(parse_meld(text, concealed=True) for text in args.concealed_kong)
    if len(result) > 4:
        raise CommandError(f"a hand has at most 4 sets on the table, not {len(result)}")
    return result


def _context(args: HandArgs, win: Kind, **flags: bool) -> WinContext:
    if not 0 <= args.flowers <= 8:
        raise CommandError(f"--flowers must be 0-8, not {args.flowers}")
    return WinContext(
        win,
        seat_wind=parse_wind(args.seat_wind),
        prevalent_wind=parse_wind(args.prevalent_wind),
        flowers=args.flowers,
        **flags,
    )


# --- score ---------------------------------------------------------------------------------


def score_lines(
    args: HandArgs,
    win_tile: str | None = None,
    *,
    self_drawn: bool = False,
    last_tile: bool = False,
    kong: bool = False,
    wall_last: bool = False,
) -> tuple[list[str], int]:
    """What ``score mcr`` prints for a hand (``win_tile``: the winning tile, by default the
    last of ``args.tiles``) and its exit status (1: not a valid win)."""
    if not args.tiles:
        raise CommandError("give the concealed tiles, winning tile included (or use --jsonl)")
    melds = _melds(args)
    tiles = parse_tiles(" ".join(args.tiles))
    check_mcr_tiles(tiles)
    if len(tiles) + 3 * len(melds) != 14:
        raise CommandError(_count_error(len(tiles), len(melds)))
    if win_tile is not None:
        win = parse_tile(win_tile)
        if win not in tiles:
            raise CommandError(f"the winning tile {format_tiles([win])} is not among the tiles")
    else:
        win = tiles[-1]
    hand = list(tiles)
    hand.remove(win)
    ctx = _context(
        args,
        win,
        self_drawn=self_drawn,
        last_tile=last_tile,
        kong_related=kong,
        wall_last=wall_last,
    )
    result = score_hand(melds, hand, ctx)
    return [describe_hand(melds, hand, ctx), score_table(result)], 0 if result.winning else 1


def describe_hand(melds: Sequence[Meld], hand: Sequence[Kind], ctx: WinContext) -> str:
    """One line: the tiles, the melds and how the hand was won."""
    sets = " ".join(
        ("[" + format_tiles(m.tiles) + "]") if m.concealed else format_tiles(m.tiles) for m in melds
    )
    how = "self-drawn" if ctx.self_drawn else "on a discard"
    extras = [
        name
        for name, on in (
            ("last of its kind", ctx.last_tile),
            ("kong", ctx.kong_related),
            ("last tile of the wall", ctx.wall_last),
        )
        if on
    ]
    line = f"Hand: {format_tiles(sorted(hand))} + {format_tiles([ctx.win_tile])} {how}"
    if extras:
        line += " (" + ", ".join(extras) + ")"
    if sets:
        line += f"; melds {sets}"
    return line + f"; seat {WIND_NAMES[ctx.seat_wind]}, prevalent {WIND_NAMES[ctx.prevalent_wind]}"


def score_table(result: FanScore) -> str:
    """The fans in a readable table with the total and the verdict."""
    if not result.fans:
        return "Not a complete hand: no fans, not a valid win."
    width = max(len(name) for name, _p, _c in result.fans) + 2
    lines = []
    for name, points, count in result.fans:
        times = f" x{count}" if count > 1 else ""
        lines.append(f"  {name:<{width}}{points * count:>4}{times}")
    lines.append(f"  {'Total':<{width}}{result.total:>4}")
    flowers = next((c for n, _p, c in result.fans if n == "Flower Tiles"), 0)
    base = result.total - flowers
    if result.winning:
        lines.append(f"Valid win: {base} points before flowers (8 needed).")
    else:
        lines.append(f"Not a valid win: {base} points before flowers, 8 needed.")
    return "\n".join(lines)


def score_jsonl(source: Iterable[str]) -> Iterator[str]:
    """Answer each JSON line, as it comes, with its score or an error; a bad line never stops
    the loop."""
    for line in source:
        if not line.strip():
            continue
        yield json.dumps(score_json_line(line))


def score_json_line(line: str) -> dict[str, object]:
    """One JSONL answer: ``{"fans", "total", "winning"}`` or ``{"error"}``."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error.msg} at column {error.colno}"}
    try:
        melds, hand, ctx = _hand_from_json(data)
        result = score_hand(melds, hand, ctx)
    except (FourwindsError, TileParseError, CommandError, ValueError) as error:
        return {"error": str(error)}
    return {
        "fans": [[name, points, count] for name, points, count in result.fans],
        "total": result.total,
        "winning": result.winning,
    }


def _tile(value: object, where: str) -> Kind:
    if not isinstance(value, str):
        raise InvalidHand(f'{where}: a tile is a string like "5p", not {value!r}')
    return parse_tile(value)


def _tiles(value: object, where: str) -> list[Kind]:
    if not isinstance(value, list):
        raise InvalidHand(f'{where} must be a list of tiles like ["1p", "2p"]')
    return [_tile(item, where) for item in value]


def _hand_from_json(data: object) -> tuple[list[Meld], list[Kind], WinContext]:
    if not isinstance(data, dict):
        raise InvalidHand("each line must be a JSON object")
    melds: list[Meld] = []
    raw_melds = data.get("melds", [])
    if not isinstance(raw_melds, list):
        raise InvalidHand("melds must be a list")
    for index, item in enumerate(raw_melds):
        where = f"melds[{index}]"
        if not isinstance(item, dict):
            raise InvalidHand(f"{where} must be an object with type, tiles, concealed")
        kind = item.get("type")
        if kind not in ("chow", "pung", "kong"):
            raise InvalidHand(f"{where}.type must be chow, pung or kong, not {kind!r}")
        concealed = item.get("concealed", False)
        if not isinstance(concealed, bool):
            raise InvalidHand(f"{where}.concealed must be true or false")
        tiles = _tiles(item.get("tiles"), f"{where}.tiles")
        check_mcr_tiles(tiles, flowers='"flowers": N')
        melds.append(meld(kind, tiles, concealed))
    if len(melds) > 4:
        raise InvalidHand(f"a hand has at most 4 melds, not {len(melds)}")
    if "hand" not in data or "win_tile" not in data:
        raise InvalidHand("hand and win_tile are required")
    hand = _tiles(data["hand"], "hand")
    win = _tile(data["win_tile"], "win_tile")
    check_mcr_tiles([*hand, win], flowers='"flowers": N')
    flags: dict[str, bool] = {}
    for name in _BOOL_FIELDS:
        value = data.get(name, False)
        if not isinstance(value, bool):
            raise InvalidHand(f"{name} must be true or false, not {value!r}")
        flags[name] = value
    numbers: dict[str, int] = {}
    for name, low, high in (("seat_wind", 0, 3), ("prevalent_wind", 0, 3), ("flowers", 0, 8)):
        value = data.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidHand(f"{name} must be an integer {low}-{high}, not {value!r}")
        numbers[name] = value
    need = 13 - 3 * len(melds)
    if len(hand) != need:
        raise InvalidHand(
            f"hand has {len(hand)} tiles, needs {need} with {len(melds)} "
            "meld(s): 13 counting 3 per meld, the winning tile apart in win_tile"
        )
    return (
        melds,
        hand,
        WinContext(
            win,
            self_drawn=flags["self_drawn"],
            last_tile=flags["last_tile"],
            kong_related=flags["kong_related"],
            wall_last=flags["wall_last"],
            seat_wind=numbers["seat_wind"],
            prevalent_wind=numbers["prevalent_wind"],
            flowers=numbers["flowers"],
        ),
    )


# --- hint ----------------------------------------------------------------------------------


def hint_text(args: HandArgs) -> str:
    """What ``hint mcr`` prints: the tiles that complete a waiting hand and their fans, the
    discards that leave a 14-tile hand ready, or how far the hand is from ready."""
    if not args.tiles:
        raise CommandError("give the concealed tiles")
    melds = _melds(args)
    tiles = list(parse_tiles(" ".join(args.tiles)))
    check_mcr_tiles(tiles)
    size = 3 * len(melds) + len(tiles)
    if size == 14:
        return _hint_fourteen(melds, tiles, args)
    if size != 13:
        raise CommandError(f"a hand has 13 or 14 tiles counting melds (3 per set), not {size}")
    return _hint_waiting(melds, tiles, args)


def _hint_waiting(melds: list[Meld], tiles: list[Kind], args: HandArgs) -> str:
    wins = tiles_to_win(melds, tiles)
    if not wins:
        away = shanten(melds, tiles)
        if away == 0:
            return "Ready, but every tile it waits on is already in the hand: no tile wins."
        return f"Not ready: {away} tile(s) from ready (shanten {away})."
    lines = [f"Tiles to win: {format_tiles(wins)}"]
    for win in wins:
        on_discard = score_hand(melds, tiles, _context(args, win))
        drawn = score_hand(melds, tiles, _context(args, win, self_drawn=True))
        fans = ", ".join(f"{name} {points * count}" for name, points, count in on_discard.fans)
        verdict = "" if on_discard.winning else " (under 8 on a discard: not a valid win)"
        lines.append(
            f"  {format_tiles([win])}: {on_discard.total} on a discard, "
            f"{drawn.total} self-drawn{verdict}"
        )
        lines.append(f"      {fans}")
    return "\n".join(lines)


def _hint_fourteen(melds: list[Meld], tiles: list[Kind], args: HandArgs) -> str:
    lines = []
    if is_complete(melds, tiles):
        lines.append("Complete hand: score it with `fourwinds score mcr`.")
    ready = []
    for discard in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(discard)
        wins = tiles_to_win(melds, rest)
        if wins:
            ready.append(f"  discard {format_tiles([discard])}: wait on {format_tiles(wins)}")
    if ready:
        lines.append("Discards that leave the hand ready:")
        lines.extend(ready)
    elif not lines:
        away = shanten(melds, tiles)
        lines.append(f"No discard makes it ready: {away} tile(s) from ready (shanten {away}).")
    return "\n".join(lines)
