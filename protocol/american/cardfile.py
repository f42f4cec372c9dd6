"""Reading card files (the format is documented in ``docs/CARD_FORMAT.md``).

One hand per line, seven fields separated by ``|``::

    id | category | value | X/C | numbers | pattern | note

Blank lines and lines starting with ``#`` are ignored; ``card: NAME`` names the card. Every
mistake raises ``CardError`` with the hand id (when known), the line, the 1-based column and the
reason, so a player transcribing their own card can find it at once.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import CardError
from .card import (
    FIXED_SUITS,
    NUMBER_SYMBOLS,
    PLAIN_SYMBOLS,
    SUIT_VARIABLES,
    SUITED_SYMBOLS,
    Card,
    CardHand,
    Category,
    Group,
    NumberRule,
    TileSpec,
)
from .compile import hand_variants

DECORATIONS = frozenset({"+", "=", "*", "x", "\u00d7"})  # printed operators, ignored
MAX_ALIKE = 6
HAND_SIZE = 14
_FIELDS = ("id", "category", "value", "X/C", "numbers", "pattern", "note")
_CATEGORY_CODES = {c.value: c for c in Category} | {c.name.lower(): c for c in Category}
_Fail = Callable[[str, int], CardError]
_NUMBER_RULES = {r.value: r for r in NumberRule} | {"fixed": NumberRule.FIXED}


def read_card(text: str, source: str = "<card>") -> Card:
    """Parse a whole card file; see the module docstring."""
    name = source
    hands: list[CardHand] = []
    seen: dict[str, int] = {}
    text = text.removeprefix("\ufeff")  # a byte-order mark left by some editors
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.lower().startswith("card:") and "|" not in stripped:
            name = stripped[5:].strip() or source
            continue
        hand = _read_hand(line, number, len(hands))
        if hand.id in seen:
            raise CardError(f"duplicate hand id (first on line {seen[hand.id]})", hand.id,
                            number, 1 + len(line) - len(line.lstrip()))
        seen[hand.id] = number
        hands.append(hand)
    if not hands:
        raise CardError(f"{source}: the card has no hands")
    return Card(name=name, hands=tuple(hands))


def _split_fields(line: str, number: int) -> list[tuple[str, int]]:
    """The fields of a hand line with the 1-based column where each one's text starts."""
    fields: list[tuple[str, int]] = []
    start = 0
    for index in range(len(_FIELDS)):
        end = len(line) if index == len(_FIELDS) - 1 else line.find("|", start)
        if end < 0:
            hand_id = fields[0][0] if fields else None
            raise CardError(f"expected {len(_FIELDS)} fields separated by '|' "
                            f"({' | '.join(_FIELDS)}), found {index + 1}",
                            hand_id or None, number, len(line) + 1)
        raw = line[start:end]
        lead = len(raw) - len(raw.lstrip())
        fields.append((raw.strip(), start + lead + 1))
        start = end + 1
    return fields


def _read_hand(line: str, number: int, index: int) -> CardHand:
    fields = _split_fields(line, number)
    (hand_id, id_col), (cat, cat_col), (value, value_col), (xc, xc_col) = fields[:4]
    (numbers, numbers_col), (pattern, pattern_col), (note, _) = fields[4:]
    if not hand_id or any(ch.isspace() for ch in hand_id):
        raise CardError("a hand id must be one word", hand_id or None, number, id_col)

    def fail(reason: str, column: int) -> CardError:
        return CardError(reason, hand_id, number, column)

    category = _CATEGORY_CODES.get(cat.lower())
    if category is None:
        codes = ", ".join(c.value for c in Category)
        raise fail(f"unknown category {cat!r} (one of {codes})", cat_col)
    if not value.isdigit() or int(value) <= 0:
        raise fail(f"value must be a positive whole number, not {value!r}", value_col)
    if xc.upper() not in ("X", "C"):
        raise fail(f"the X/C field must be X (exposed) or C (concealed), not {xc!r}", xc_col)
    rule = _NUMBER_RULES.get(numbers.lower())
    if rule is None:
        raise fail(f"numbers must be '-' (fixed), 'any' or 'step2', not {numbers!r}",
                   numbers_col)
    groups = _read_pattern(pattern, pattern_col, fail)
    if not groups:
        raise fail("the pattern has no groups", pattern_col)
    size = sum(group.size for group in groups)
    if size != HAND_SIZE:
        raise fail(f"the pattern has {size} tiles, a hand has {HAND_SIZE}", pattern_col)
    specs = [spec for group in groups for spec in group.specs]
    if rule is not NumberRule.FIXED and not any(spec.is_number for spec in specs):
        raise fail(f"numbers {numbers!r} but the pattern has no number tiles", numbers_col)
    letters = {spec.suit for spec in specs if spec.suit is not None}
    if len(letters) > 3:
        raise fail(f"{len(letters)} different suit letters ({''.join(sorted(letters))}) "
                   "but there are only 3 suits", pattern_col)
    hand = CardHand(id=hand_id, category=category, value=int(value), concealed=xc.upper() == "C",
                    text=pattern, note=note, groups=tuple(groups), numbers=rule, line=number)
    if not hand_variants(hand, index):
        raise fail("no set of tiles can make this hand (too many of one tile for the jokers "
                   "allowed, or the numbers leave 1-9)", pattern_col)
    return hand


def _tokens(pattern: str, column: int) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    index = 0
    while index < len(pattern):
        if pattern[index].isspace():
            index += 1
            continue
        start = index
        while index < len(pattern) and not pattern[index].isspace():
            index += 1
        out.append((pattern[start:index], column + start))
    return out


def _read_pattern(pattern: str, column: int, fail: _Fail) -> list[Group]:
    groups: list[Group] = []
    for token, col in _tokens(pattern, column):
        if token in DECORATIONS:
            continue
        groups.append(_read_group(token, col, fail))
    return groups


def _read_group(token: str, column: int, fail: _Fail) -> Group:
    body = token
    no_jokers = body.endswith("!")
    if no_jokers:
        body = body[:-1]
    suit: str | None = None
    if body and body[-1] in SUIT_VARIABLES + FIXED_SUITS:
        suit = body[-1]
        body = body[:-1]
    if not body:
        raise fail(f"group {token!r} has no tiles", column)
    for offset, char in enumerate(body):
        if char not in SUITED_SYMBOLS and char not in PLAIN_SYMBOLS:
            raise fail(f"{char!r} in {token!r} is not a card symbol (1-9, 0, N E W S, "
                       "X Y Z, R G D, F, then a suit letter a b c / m p s)", column + offset)
    suited = [char for char in body if char in SUITED_SYMBOLS]
    if suited and suit is None:
        what = "number" if suited[0] in NUMBER_SYMBOLS else "dragon D"
        raise fail(f"{what} {suited[0]!r} in {token!r} needs a suit letter "
                   "(a, b, c for the card's colours or m, p, s)", column + body.index(suited[0]))
    if suit is not None and not suited:
        raise fail(f"suit letter {suit!r} on {token!r}, which has no numbers or D",
                   column + len(body))
    specs = tuple(TileSpec(char, suit if char in SUITED_SYMBOLS else None) for char in body)
    group = Group(specs=specs, text=token, column=column, no_jokers=no_jokers)
    if group.alike and group.size > MAX_ALIKE:
        raise fail(f"{token!r}: a group holds at most {MAX_ALIKE} alike tiles", column)
    return group
