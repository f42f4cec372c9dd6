"""Reading the pattern field of a card line: groups, printed operators and, in format 2,
alternatives ("... or ..."), number-variable tags (``2222b@k``) and the any-dragon ``D``.

Every mistake is reported through the ``fail(reason, column)`` callback of the line being
read, so the ``CardError`` names the line, the hand id and the 1-based column.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import CardError
from .card import (
    FIXED_SUITS,
    NUMBER_SYMBOLS,
    PLAIN_SYMBOLS,
    SUIT_VARIABLES,
    SUITED_SYMBOLS,
    Alternative,
    Group,
    TileSpec,
)

DECORATIONS = frozenset({"+", "=", "*", "x", "\u00d7"})  # printed operators, ignored
OR_WORDS = frozenset({"or", "-or-"})  # format 2: between the alternatives of a line
MAX_ALIKE = 6
HAND_SIZE = 14
TAG_NAME = re.compile(r"[a-z][a-z0-9]*")
Fail = Callable[[str, int], CardError]


@dataclass(frozen=True)
class Syntax:
    """What a card format allows in a pattern beyond format 1."""

    alternatives: bool = False
    tags: bool = False
    any_dragon: bool = False


FORMAT1 = Syntax()
FORMAT2 = Syntax(alternatives=True, tags=True, any_dragon=True)


def tokens(text: str, column: int) -> list[tuple[str, int]]:
    """The whitespace-separated words of ``text`` with their 1-based columns."""
    return [(match.group(), column + match.start()) for match in re.finditer(r"\S+", text)]


def read_pattern(pattern: str, column: int, fail: Fail, syntax: Syntax) -> tuple[Alternative, ...]:
    """The alternatives of a pattern field (one for format 1), each of exactly 14 tiles."""
    chunks: list[list[tuple[str, int]]] = [[]]
    for token, col in tokens(pattern, column):
        if syntax.alternatives and token.lower() in OR_WORDS:
            if not chunks[-1]:
                raise fail(f"expected a pattern before {token!r}", col)
            chunks[-1].append((token, -col))  # marks where this alternative ends
            chunks.append([])
            continue
        chunks[-1].append((token, col))
    if len(chunks) > 1 and not chunks[-1]:
        end = -chunks[-2][-1][1]
        raise fail(f"expected a pattern after {chunks[-2][-1][0]!r}", end)
    out: list[Alternative] = []
    for chunk in chunks:
        words = [(token, col) for token, col in chunk if col > 0]
        if not words:
            raise fail("the pattern has no groups (expected groups such as 222a FF NEWS)", column)
        start = words[0][1] - column
        end = words[-1][1] - column + len(words[-1][0])
        groups = tuple(
            read_group(token, col, fail, syntax) for token, col in words if token not in DECORATIONS
        )
        if not groups:
            raise fail(
                "the pattern has no groups (expected groups such as 222a FF NEWS)", words[0][1]
            )
        alternative = Alternative(pattern[start:end], groups, words[0][1])
        check_size(alternative, words, fail)
        out.append(alternative)
    return tuple(out)


def check_size(alternative: Alternative, words: list[tuple[str, int]], fail: Fail) -> None:
    """A pattern has 14 tiles; a lone capital ``X`` is probably a times sign, and says so."""
    size = sum(group.size for group in alternative.groups)
    if size == HAND_SIZE:
        return
    reason = f"the pattern has {size} tiles, a hand has {HAND_SIZE}"
    times = [col for token, col in words if token == "X"]
    if times:
        reason += (
            f" (the capital X at column {times[0]} is read as a single wind; if it is "
            "the card's times sign, write it as x or \u00d7)"
        )
    raise fail(reason, alternative.column)


def read_group(token: str, column: int, fail: Fail, syntax: Syntax) -> Group:
    """One group such as ``3333a``, ``NEWS``, ``DDDb!`` or (format 2) ``2222b@k``."""
    body, *tag_texts = token.split("@") if syntax.tags else (token,)
    tags: list[str] = []
    at = column + len(body)
    for text in tag_texts:
        if not TAG_NAME.fullmatch(text):
            raise fail(
                f"expected a variable name after '@' in {token!r} (a lowercase word "
                "such as n, k or p)",
                at,
            )
        if text in tags:
            raise fail(f"{token!r} names variable {text!r} twice", at)
        tags.append(text)
        at += 1 + len(text)
    group_text = body
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
            raise fail(
                f"{char!r} in {token!r} is not a card symbol (1-9, 0, N E W S, "
                "X Y Z, R G D, F, then a suit letter a b c / m p s)",
                column + offset,
            )
    suited = [char for char in body if char in SUITED_SYMBOLS]
    if suited and suit is None:
        numbers = [char for char in suited if char in NUMBER_SYMBOLS]
        if numbers or not syntax.any_dragon:
            first = numbers[0] if numbers else suited[0]
            what = "number" if first in NUMBER_SYMBOLS else "dragon D"
            raise fail(
                f"{what} {first!r} in {token!r} needs a suit letter "
                "(a, b, c for the card's colours or m, p, s)",
                column + body.index(first),
            )
    if suit is not None and not suited:
        raise fail(
            f"suit letter {suit!r} on {token!r}, which has no numbers or D", column + len(body)
        )
    if tags and not any(char in NUMBER_SYMBOLS for char in body):
        raise fail(
            f"{token!r} has no numbers for variable {tags[0]!r} to move",
            column + len(group_text) + 1,
        )
    specs = tuple(TileSpec(char, suit if char in SUITED_SYMBOLS else None) for char in body)
    group = Group(
        specs=specs, text=group_text, column=column, no_jokers=no_jokers, tags=tuple(tags)
    )
    if group.alike and group.size > MAX_ALIKE:
        raise fail(f"{token!r}: a group holds at most {MAX_ALIKE} alike tiles", column)
    return group
