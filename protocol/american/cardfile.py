"""Reading card files (the formats are documented in ``docs/CARD_FORMAT.md``).

Format 1 (the default): one hand per line, seven fields separated by ``|``::

    id | category | value | X/C | numbers | pattern | note

Format 2 (selected by a ``format: 2`` line before the first hand): one printed line per line,
under ``section: NAME`` headings (free text), six fields::

    id | value | X/C | variation | pattern | note

where the pattern may offer alternatives ("... or ...") and the variation field names the
line's number variables and suit choice (:mod:`.cardvary`). Blank lines and lines starting
with ``#`` are ignored; ``card: NAME`` names the card. Every mistake raises ``CardError`` with
the hand id (when known), the line, the 1-based column and what was expected, so a player
transcribing their own card can find it at once.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from ..errors import CardError
from .card import (
    Card,
    CardHand,
    Category,
    Group,
    NumberRule,
    NumberVariable,
    ValueRule,
    section_category,
)
from .cardpattern import FORMAT1, FORMAT2, Fail, read_pattern
from .cardvary import check_variables, read_vary
from .compile import alternatives_made, hand_variants, values_made

_FIELDS = ("id", "category", "value", "X/C", "numbers", "pattern", "note")
_FIELDS2 = ("id", "value", "X/C", "variation", "pattern", "note")
_CATEGORY_CODES = {c.value: c for c in Category if c is not Category.OTHER} | {
    c.name.lower(): c for c in Category if c is not Category.OTHER
}
_NUMBER_RULES = {r.value: r for r in NumberRule} | {"fixed": NumberRule.FIXED}
_MAIN_RULES = {NumberRule.ANY: ValueRule.ANY, NumberRule.STEP2: ValueRule.STEP2}


def read_card(text: str, source: str = "<card>", problems: list[CardError] | None = None) -> Card:
    """Parse a whole card file; see the module docstring.

    With ``problems`` (``fourwinds card check``) a line with a mistake is left out and its
    error appended there instead of raised, so that every mistake is listed at once.
    """
    name = source
    version = 1
    section: str | None = None
    hands: list[CardHand] = []
    seen: dict[str, int] = {}
    text = text.removeprefix("\ufeff")  # a byte-order mark left by some editors
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = 1 + len(line) - len(line.lstrip())
        head, colon, rest = stripped.partition(":")
        keyword = head.strip().lower() if colon and "|" not in stripped else ""
        at = indent + len(head) + 1 + len(rest) - len(rest.lstrip())  # where the value starts
        try:
            if keyword == "card":
                name = rest.strip() or source
                continue
            if keyword == "format":
                version = _read_format(rest.strip(), bool(hands), number, at)
                continue
            if keyword == "section" and version == 2:
                section = rest.strip()
                if not section:
                    raise CardError(
                        "expected a section name after 'section:' (e.g. section: 2468)",
                        None,
                        number,
                        at,
                    )
                continue
            if version == 1:
                hand = _read_hand(line, number, len(hands))
            else:
                hand = _read_hand2(line, number, len(hands), section)
            if hand.id in seen:
                raise CardError(
                    f"duplicate hand id (first on line {seen[hand.id]})", hand.id, number, indent
                )
        except CardError as error:
            if problems is None:
                raise
            problems.append(error)
            continue
        seen[hand.id] = number
        hands.append(hand)
    if not hands:
        raise CardError(f"{source}: the card has no hands")
    return Card(name=name, hands=tuple(hands), format=version)


def parse_card(text: str, source: str = "<card>") -> Card:
    """Read a card file's text; raises ``CardError`` naming the hand, line, column and reason."""
    return read_card(text, source)


@cache
def house_card() -> Card:
    """fourwinds' own card, ``cards/house.card`` shipped in the ``fourwinds.cards`` package."""
    text = resources.files("fourwinds.cards").joinpath("house.card").read_text(encoding="utf-8")
    return parse_card(text, "house.card")


def _read_format(value: str, late: bool, number: int, column: int) -> int:
    if late:
        raise CardError("the 'format:' line must come before the first hand", None, number, 1)
    if value not in ("1", "2"):
        raise CardError(f"format {value!r}: expected 1 or 2", None, number, column)
    return int(value)


def _split_fields(
    line: str, number: int, names: tuple[str, ...] = _FIELDS
) -> list[tuple[str, int]]:
    """The fields of a hand line with the 1-based column where each one's text starts."""
    fields: list[tuple[str, int]] = []
    start = 0
    for index in range(len(names)):
        end = len(line) if index == len(names) - 1 else line.find("|", start)
        if end < 0:
            hand_id = fields[0][0] if fields else None
            raise CardError(
                f"expected {len(names)} fields separated by '|' "
                f"({' | '.join(names)}), found {index + 1}",
                hand_id or None,
                number,
                len(line) + 1,
            )
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
        codes = ", ".join(c.value for c in Category if c is not Category.OTHER)
        raise fail(f"unknown category {cat!r} (one of {codes})", cat_col)
    if not value.isdigit() or int(value) <= 0:
        raise fail(f"value must be a positive whole number, not {value!r}", value_col)
    if xc.upper() not in ("X", "C"):
        raise fail(f"the X/C field must be X (exposed) or C (concealed), not {xc!r}", xc_col)
    rule = _NUMBER_RULES.get(numbers.lower())
    if rule is None:
        raise fail(f"numbers must be '-' (fixed), 'any' or 'step2', not {numbers!r}", numbers_col)
    alternatives = read_pattern(pattern, pattern_col, fail, FORMAT1)
    specs = [spec for group in alternatives[0].groups for spec in group.specs]
    if rule is not NumberRule.FIXED and not any(spec.is_number for spec in specs):
        raise fail(f"numbers {numbers!r} but the pattern has no number tiles", numbers_col)
    _check_letters(alternatives[0].groups, pattern_col, fail)
    variables = (
        ()
        if rule is NumberRule.FIXED
        else (NumberVariable("", _MAIN_RULES[rule], (), numbers, numbers_col),)
    )
    hand = CardHand(
        id=hand_id,
        category=category,
        value=int(value),
        concealed=xc.upper() == "C",
        text=pattern,
        note=note,
        alternatives=alternatives,
        numbers=rule,
        line=number,
        variables=variables,
        vary=numbers,
    )
    if not hand_variants(hand, index):
        raise fail(
            "no set of tiles can make this hand (too many of one tile for the jokers "
            "allowed, or the numbers leave 1-9)",
            pattern_col,
        )
    return hand


def _check_letters(groups: tuple[Group, ...], column: int, fail: Fail) -> None:
    letters = {spec.suit for group in groups for spec in group.specs if spec.suit is not None}
    if len(letters) > 3:
        raise fail(
            f"{len(letters)} different suit letters ({''.join(sorted(letters))}) "
            "but there are only 3 suits",
            column,
        )


def _read_hand2(line: str, number: int, index: int, section: str | None) -> CardHand:
    fields = _split_fields(line, number, _FIELDS2)
    (hand_id, id_col), (value, value_col), (xc, xc_col) = fields[:3]
    (vary, vary_col), (pattern, pattern_col), (note, _) = fields[3:]
    if not hand_id or any(ch.isspace() for ch in hand_id):
        raise CardError("a hand id must be one word", hand_id or None, number, id_col)

    def fail(reason: str, column: int) -> CardError:
        return CardError(reason, hand_id, number, column)

    if section is None:
        raise fail(
            "expected a 'section: NAME' line before the first hand (format 2 hands "
            "sit under the card's section headings)",
            id_col,
        )
    if not value.isdigit() or int(value) <= 0:
        hint = (
            " (format 2 lines have no category field: id | value | X/C | variation | "
            "pattern | note)"
            if value.lower() in _CATEGORY_CODES
            else ""
        )
        raise fail(f"value must be a positive whole number, not {value!r}{hint}", value_col)
    if xc.upper() not in ("X", "C"):
        raise fail(f"the X/C field must be X (exposed) or C (concealed), not {xc!r}", xc_col)
    variables, suit_counts = read_vary(vary, vary_col, fail)
    alternatives = read_pattern(pattern, pattern_col, fail, FORMAT2)
    check_variables(alternatives, variables, fail)
    for alternative in alternatives:
        _check_letters(alternative.groups, alternative.column, fail)
    if suit_counts:
        most = max(
            len({s.suit for g in a.groups for s in g.specs if s.suit is not None})
            for a in alternatives
        )
        if most < 2 or max(suit_counts) > most:
            raise fail(
                f"suits={','.join(map(str, suit_counts))} but the pattern has "
                f"{most} suit letter{'s' if most != 1 else ''} (expected a letter "
                "per suit: suits=1,2 needs a and b)",
                vary_col,
            )
    main = next((v for v in variables if not v.name), None)
    rule = {ValueRule.ANY: NumberRule.ANY, ValueRule.STEP2: NumberRule.STEP2}.get(
        main.rule if main else ValueRule.LISTED, NumberRule.FIXED
    )
    hand = CardHand(
        id=hand_id,
        category=section_category(section),
        value=int(value),
        concealed=xc.upper() == "C",
        text=pattern,
        note=note,
        alternatives=alternatives,
        numbers=rule,
        line=number,
        variables=variables,
        suit_counts=suit_counts,
        section=section,
        vary=vary,
    )
    try:
        variants = hand_variants(hand, index)
    except ValueError as error:
        raise fail(
            f"{error} (expected fewer choices: split the line or narrow a variable)", vary_col
        ) from None
    values = values_made(hand, index)
    for variable in variables:
        missing = sorted(set(variable.values) - values.get(variable.name, set()))
        if variable.rule is ValueRule.LISTED and missing:
            listed = ", ".join(map(str, missing))
            raise fail(
                f"{variable.text!r}: {listed} would take a number out of 1-9 or make "
                "a hand no tiles can make (expected values every group can take)",
                variable.column,
            )
    if not variants:
        raise fail(
            "no set of tiles can make this hand (too many of one tile for the jokers "
            "allowed, or the numbers leave 1-9)",
            pattern_col,
        )
    made = alternatives_made(hand, index)
    for position, alternative in enumerate(alternatives):
        if position not in made:
            raise fail(
                f"no set of tiles can make alternative {position + 1} "
                f"({alternative.text!r}): too many of one tile for the jokers allowed, "
                "or the numbers leave 1-9",
                alternative.column,
            )
    return hand
