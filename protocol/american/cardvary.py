"""Reading the variation field of a format 2 card line and checking it against the pattern.

The field lists, separated by spaces: the line's main number variable (``any``, ``step2``,
``odd``, ``even``, a set such as ``3,6,9`` or ``1-5``), named variables (``k=even``,
``p=pos``) and the suit choice (``suits=1,2``); ``-`` when nothing varies. See
``docs/CARD_FORMAT.md`` for what each means.
"""

from __future__ import annotations

import re

from .card import NUMBER_SYMBOLS, Alternative, Group, NumberVariable, ValueRule
from .cardpattern import TAG_NAME, Fail, tokens

_WORDS = {
    "any": ValueRule.ANY,
    "step2": ValueRule.STEP2,
    "odd": ValueRule.ODD,
    "even": ValueRule.EVEN,
    "pos": ValueRule.POSITION,
}
_LISTED = re.compile(r"[1-9](-[1-9])?(,[1-9](-[1-9])?)*")
_EXPECTED = (
    "expected '-', any, step2, odd, even, a set of numbers such as 3,6,9 or 1-5, "
    "NAME=one of those, NAME=pos or suits=1,2"
)
SUITS = "suits"


def read_vary(
    text: str, column: int, fail: Fail
) -> tuple[tuple[NumberVariable, ...], tuple[int, ...]]:
    """The number variables and the allowed suit counts of a variation field."""
    if text in ("-", ""):
        return (), ()
    variables: list[NumberVariable] = []
    suit_counts: tuple[int, ...] = ()
    for token, col in tokens(text, column):
        name, equals, spec = token.partition("=")
        if not equals:
            name, spec = "", token
        elif name == SUITS:
            if suit_counts:
                raise fail("suits= is given twice (expected it once)", col)
            suit_counts = _suit_counts(spec, col + len(name) + 1, fail)
            continue
        elif not TAG_NAME.fullmatch(name):
            raise fail(
                f"{name!r} is not a variable name (expected a lowercase word such as "
                "n, k or p before '=')",
                col,
            )
        if any(v.name == name for v in variables):
            what = "the main number rule" if not name else f"variable {name!r}"
            raise fail(f"{what} is given twice (expected once)", col)
        rule, values = _rule(spec, col + (len(name) + 1 if equals else 0), fail)
        if rule is ValueRule.POSITION and not name:
            raise fail("pos needs a name (expected e.g. p=pos, with the run tagged 112345a@p)", col)
        variables.append(NumberVariable(name, rule, values, token, col))
    return tuple(variables), suit_counts


def _suit_counts(spec: str, column: int, fail: Fail) -> tuple[int, ...]:
    if not re.fullmatch(r"[123](,[123])*", spec):
        raise fail(
            f"suits={spec!r}: expected how many different suits the letters may be, "
            "from 1 to 3, e.g. suits=1,2 (any 1 or 2 suits)",
            column,
        )
    return tuple(sorted({int(n) for n in spec.split(",")}))


def _rule(spec: str, column: int, fail: Fail) -> tuple[ValueRule, tuple[int, ...]]:
    word = _WORDS.get(spec.lower())
    if word is not None:
        return word, ()
    if not _LISTED.fullmatch(spec):
        raise fail(f"{spec!r} is not a number rule ({_EXPECTED})", column)
    values: set[int] = set()
    for part in spec.split(","):
        low, _, high = part.partition("-")
        if high and int(high) < int(low):
            raise fail(f"{part!r}: expected the lower number first", column)
        values.update(range(int(low), int(high or low) + 1))
    return ValueRule.LISTED, tuple(sorted(values))


def value_tag(group: Group, variables: tuple[NumberVariable, ...]) -> str | None:
    """The value variable moving a group: its named value tag, else the main one (if the
    line has one), else None (the group's numbers are fixed)."""
    named = {v.name: v for v in variables}
    for tag in group.tags:
        if tag in named and not named[tag].position:
            return tag
    return "" if "" in named and any(s.is_number for s in group.specs) else None


def repeated_number(group: Group) -> int | None:
    """The index of the second copy of the one number written twice in a run (``112345a``)."""
    seen: set[str] = set()
    for index, spec in enumerate(group.specs):
        if spec.symbol in NUMBER_SYMBOLS:
            if spec.symbol in seen:
                return index
            seen.add(spec.symbol)
    return None


def check_variables(
    alternatives: tuple[Alternative, ...], variables: tuple[NumberVariable, ...], fail: Fail
) -> None:
    """Every tag is defined, every variable moves something, each position variable has
    exactly one run to move in, and a group has at most one value variable."""
    named = {v.name: v for v in variables if v.name}
    used: set[str] = set()
    for alternative in alternatives:
        runs: dict[str, int] = {}
        for group in alternative.groups:
            where = group.column + len(group.text)
            values = [t for t in group.tags if t in named and not named[t].position]
            for tag in group.tags:
                if tag not in named:
                    raise fail(
                        f"variable {tag!r} is not defined (expected {tag}=... in the "
                        "variation field)",
                        where,
                    )
                used.add(tag)
            if len(values) > 1:
                raise fail(
                    f"{group.text!r} is moved by two value variables "
                    f"({', '.join(values)}); expected one",
                    where,
                )
            for tag in group.tags:
                if named[tag].position and not group.alike:
                    if repeated_number(group) is None or _repeats(group) != 1:
                        raise fail(
                            f"{group.text!r}@{tag}: expected a run with exactly one "
                            "number written twice (e.g. 112345a@p)",
                            where,
                        )
                    runs[tag] = runs.get(tag, 0) + 1
            if value_tag(group, variables) == "":
                used.add("")
        for name, count in runs.items():
            if count > 1:
                raise fail(
                    f"variable {name!r} moves in {count} runs; expected one", alternative.column
                )
        for variable in named.values():
            mentioned = any(variable.name in g.tags for g in alternative.groups)
            if variable.position and mentioned and variable.name not in runs:
                raise fail(
                    f"{variable.name}=pos needs a run with one number written twice, "
                    f"tagged @{variable.name} (e.g. 112345a@{variable.name})",
                    variable.column,
                )
    for variable in variables:
        if variable.name not in used:
            what = (
                f"variable {variable.name!r} moves no group (expected groups tagged "
                f"@{variable.name})"
                if variable.name
                else f"numbers {variable.text!r} but the pattern has no number group to move"
            )
            raise fail(what, variable.column)


def _repeats(group: Group) -> int:
    numbers = [s.symbol for s in group.specs if s.symbol in NUMBER_SYMBOLS]
    return len(numbers) - len(set(numbers))
