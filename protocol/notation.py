"""Reading and writing tiles: compact notation, Unicode glyphs and plain names.

Compact notation (used on every command line and in every file format):
  ``123m`` craks, ``55p`` dots, ``789s`` bams: digits then the suit letter;
  ``1z``..``7z`` East, South, West, North, White, Green, Red;
  ``1f``..``8f`` MCR flowers 1-4 and seasons 1-4;
  ``F`` an American flower, ``J`` a joker, ``?`` a tile whose face is hidden.
Tokens may be run together (``123m55p``) or separated by spaces or commas. The Unicode
Mahjong Tiles block (U+1F000-U+1F02B) is accepted and produced for display.
"""

from __future__ import annotations

from collections.abc import Iterable

from .tiles import Kind, Suit, rank_of, suit_of


class TileParseError(ValueError):
    """A tile string could not be read; names the bad token and its 1-based column."""

    def __init__(self, text: str, token: str, column: int, reason: str) -> None:
        self.text = text
        self.token = token
        self.column = column
        self.reason = reason
        super().__init__(f"bad tile {token!r} at column {column}: {reason}")


_NEEDS_SUIT = "digits must be followed by m, p, s, z or f"
_SUIT_LETTERS = {"m": 0, "p": 9, "s": 18}
_HONOR_BASE = 27
_BONUS_BASE = 34

_GLYPHS: dict[Kind, str] = {
    Kind.EAST: "\U0001f000",
    Kind.SOUTH: "\U0001f001",
    Kind.WEST: "\U0001f002",
    Kind.NORTH: "\U0001f003",
    Kind.RED: "\U0001f004",
    Kind.GREEN: "\U0001f005",
    Kind.WHITE: "\U0001f006",
    Kind.JOKER: "\U0001f02a",
    Kind.HIDDEN: "\U0001f02b",
    Kind.FLOWER: "\U0001f022",
}
for _rank in range(1, 10):
    _GLYPHS[Kind(_rank - 1)] = chr(0x1F007 + _rank - 1)  # characters
    _GLYPHS[Kind(18 + _rank - 1)] = chr(0x1F010 + _rank - 1)  # bamboos
    _GLYPHS[Kind(9 + _rank - 1)] = chr(0x1F019 + _rank - 1)  # circles
for _i in range(8):
    _GLYPHS[Kind(_BONUS_BASE + _i)] = chr(0x1F022 + _i)
_FROM_GLYPH: dict[str, Kind] = {glyph: kind for kind, glyph in _GLYPHS.items()}
_FROM_GLYPH[_GLYPHS[Kind.FLOWER_1]] = Kind.FLOWER_1  # plum: MCR flower 1 wins over American F

_HONOR_NAMES = {
    Kind.EAST: "East Wind",
    Kind.SOUTH: "South Wind",
    Kind.WEST: "West Wind",
    Kind.NORTH: "North Wind",
    Kind.WHITE: "White Dragon",
    Kind.GREEN: "Green Dragon",
    Kind.RED: "Red Dragon",
    Kind.FLOWER: "Flower",
    Kind.JOKER: "Joker",
    Kind.HIDDEN: "Hidden tile",
}
_SUIT_NAMES = {Suit.CRAKS: "Crak", Suit.DOTS: "Dot", Suit.BAMS: "Bam"}
_BONUS_NAMES = ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")


def parse_tiles(text: str) -> list[Kind]:
    """Read tiles in compact notation or glyphs, in the order written.

    Raises ``TileParseError`` naming the first bad token and where it starts.
    """
    result: list[Kind] = []
    digits: list[tuple[int, int]] = []  # (digit, column) waiting for their suit letter
    for index, char in enumerate(text):
        column = index + 1
        if char.isdigit():
            digits.append((int(char), column))
            continue
        if char in _SUIT_LETTERS or char in "zf":
            if not digits:
                raise TileParseError(text, char, column, "a suit letter needs digits before it")
            for digit, digit_column in digits:
                result.append(_kind_for(text, char, digit, digit_column))
            digits = []
            continue
        if digits:
            token = "".join(str(d) for d, _ in digits)
            raise TileParseError(text, token, digits[0][1], _NEEDS_SUIT)
        if char in " \t\n,":
            continue
        if char == "F":
            result.append(Kind.FLOWER)
        elif char == "J":
            result.append(Kind.JOKER)
        elif char == "?":
            result.append(Kind.HIDDEN)
        elif char in _FROM_GLYPH:
            result.append(_FROM_GLYPH[char])
        else:
            raise TileParseError(text, char, column, "not a tile")
    if digits:
        token = "".join(str(d) for d, _ in digits)
        raise TileParseError(text, token, digits[0][1], _NEEDS_SUIT)
    return result


def parse_tile(text: str) -> Kind:
    """Read exactly one tile."""
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise TileParseError(text, text, 1, f"expected one tile, found {len(kinds)}")
    return kinds[0]


def _kind_for(text: str, letter: str, digit: int, column: int) -> Kind:
    if letter in _SUIT_LETTERS:
        if not 1 <= digit <= 9:
            raise TileParseError(text, f"{digit}{letter}", column, "number tiles are 1 to 9")
        return Kind(_SUIT_LETTERS[letter] + digit - 1)
    if letter == "z":
        if not 1 <= digit <= 7:
            raise TileParseError(text, f"{digit}z", column, "honors are 1z to 7z")
        return Kind(_HONOR_BASE + digit - 1)
    if not 1 <= digit <= 8:
        raise TileParseError(text, f"{digit}f", column, "flowers and seasons are 1f to 8f")
    return Kind(_BONUS_BASE + digit - 1)


def tile_code(kind: int) -> str:
    """One tile in compact notation, e.g. ``3m``, ``5z``, ``F``, ``J``."""
    kind = Kind(kind)
    suit = suit_of(kind)
    if suit in _SUIT_NAMES:
        return f"{rank_of(kind)}{suit.value}"
    if suit in (Suit.WIND, Suit.DRAGON):
        return f"{kind - _HONOR_BASE + 1}z"
    if kind == Kind.FLOWER:
        return "F"
    if suit is Suit.FLOWER:
        return f"{kind - _BONUS_BASE + 1}f"
    if kind == Kind.JOKER:
        return "J"
    return "?"


def format_tiles(kinds: Iterable[int], *, compact: bool = True) -> str:
    """Tiles in notation, in the order given. Compact merges runs of one suit: ``123m5p``."""
    codes = [tile_code(k) for k in kinds]
    if not compact:
        return " ".join(codes)
    out: list[str] = []
    pending = ""
    pending_letter = ""
    for code in codes:
        letter = code[-1]
        if len(code) == 2 and code[0].isdigit():
            if letter != pending_letter and pending:
                out.append(pending + pending_letter)
                pending = ""
            pending += code[0]
            pending_letter = letter
            continue
        if pending:
            out.append(pending + pending_letter)
            pending, pending_letter = "", ""
        out.append(code)
    if pending:
        out.append(pending + pending_letter)
    return "".join(out)


def tile_glyph(kind: int) -> str:
    """The Unicode Mahjong Tiles glyph for a kind."""
    return _GLYPHS[Kind(kind)]


def tile_name(kind: int) -> str:
    """A plain English name: ``3 Crak``, ``East Wind``, ``Plum`` (MCR flower 1), ``Joker``."""
    kind = Kind(kind)
    suit = suit_of(kind)
    if suit in _SUIT_NAMES:
        return f"{rank_of(kind)} {_SUIT_NAMES[suit]}"
    if kind in _HONOR_NAMES:
        return _HONOR_NAMES[kind]
    return _BONUS_NAMES[kind - _BONUS_BASE]
