"""The American card: hands as written on an NMJL-style card, before any variable is expanded.

A ``Card`` holds ``CardHand``s, one per printed line. A line has one or more ``Alternative``
patterns (format 2: "... or ..."), each a list of ``Group``s of ``TileSpec``s. A tile spec is
a symbol as printed on a card (``1``-``9``, ``0`` = White Dragon used as zero, ``N E W S``,
``X Y Z`` any wind, ``R G`` dragons, ``D`` the dragon of a suit, or any dragon without a suit
letter in format 2, ``F`` flower) plus, for numbers and ``D``, a suit letter: ``a``/``b``/``c``
are suit *variables* (the colours of the printed card) and ``m``/``p``/``s`` fixed suits
(craks, dots, bams). A line's ``NumberVariable``s say how its numbers may vary and its
``suit_counts`` how many different suits its letters may stand for. The file format is read
by :mod:`.cardfile` (``parse_card``, ``house_card``) and documented in
``docs/CARD_FORMAT.md``; variables are expanded into concrete variants by :mod:`.compile`.
This module is the card's model only: it imports none of them, they all build on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from ..memo import Memo


class Category(Enum):
    """The sections of the card (docs/RULES.md A6). The value is the code used in card files."""

    YEAR = "year"
    EVENS_2468 = "2468"
    LIKE_NUMBERS = "like"
    ADDITION = "addition"
    QUINTS = "quints"
    CONSECUTIVE = "run"
    ODDS_13579 = "13579"
    WINDS_DRAGONS = "winds"
    THREE_SIX_NINE = "369"
    SINGLES_PAIRS = "sp"
    OTHER = "other"  # format 2: a section of the card's own ("Lucky Numbers"...)


SECTION_NAMES = {
    "year": "Year",
    "2468": "2468",
    "like": "Any like numbers",
    "addition": "Addition hands",
    "quints": "Quints",
    "run": "Consecutive run",
    "13579": "13579",
    "winds": "Winds - dragons",
    "369": "369",
    "sp": "Singles and pairs",
    "other": "Other hands",
}
"""The card's section headings, by the category code of a format 1 card file."""

_SECTION_ALIASES: dict[str, Category] = {}
for _category, _names in (
    (Category.YEAR, ("year", "years")),
    (Category.EVENS_2468, ("2468", "evens", "evens 2468")),
    (Category.LIKE_NUMBERS, ("like", "any like numbers", "like numbers", "any like number")),
    (
        Category.ADDITION,
        (
            "addition",
            "addition hands",
            "multiplication",
            "addition and multiplication",
            "addition multiplication",
        ),
    ),
    (Category.QUINTS, ("quints", "quint")),
    (Category.CONSECUTIVE, ("run", "consecutive run", "consecutive runs", "consecutive", "runs")),
    (Category.ODDS_13579, ("13579", "odds", "odds 13579")),
    (Category.WINDS_DRAGONS, ("winds", "winds dragons", "winds and dragons", "dragons")),
    (Category.THREE_SIX_NINE, ("369",)),
    (Category.SINGLES_PAIRS, ("sp", "singles and pairs", "s and p", "singles pairs")),
):
    for _name in _names:
        _SECTION_ALIASES[_name] = _category
    _SECTION_ALIASES[_category.name.lower().replace("_", " ")] = _category
_YEAR = re.compile(r"(19|20)\d\d")


def section_category(name: str) -> Category:
    """The A6 category a section heading names (format 2: headings are free text; the ten
    of docs/RULES.md A6 are known by their usual names, a year such as "2026" is the Year
    section, and any other heading is ``Category.OTHER``)."""
    words = re.sub(r"[^a-z0-9]+", " ", name.lower().replace("&", " and ")).strip()
    if words in _SECTION_ALIASES:
        return _SECTION_ALIASES[words]
    if _YEAR.fullmatch(words):
        return Category.YEAR
    return Category.OTHER


class NumberRule(Enum):
    """How the numbers printed in a hand may vary (docs/RULES.md A6 "variable hands").

    ``FIXED``: these numbers only. ``ANY``: every number tile moves up or down by the same
    amount, staying within 1-9 ("any like numbers", "any N consecutive numbers"). ``STEP2``: the
    same but by an even amount, so odds stay odd and evens stay even ("any 3 consecutive odd
    numbers").
    """

    FIXED = "-"
    ANY = "any"
    STEP2 = "step2"


class ValueRule(Enum):
    """The values a number variable takes (format 2; format 1's ``any``/``step2`` are the
    first two). ``ANY``, ``STEP2``, ``ODD``, ``EVEN`` and ``LISTED`` move the variable's
    groups together so that their lowest written number takes each allowed value (numbers
    must stay within 1-9; ``STEP2`` keeps the written parity, ``LISTED`` is an explicit set such
    as "3, 6 or 9"). ``POSITION`` moves the repeated number of a run (``112345a``) to each
    number of that run, and the other groups tagged with it by as much."""

    ANY = "any"
    STEP2 = "step2"
    ODD = "odd"
    EVEN = "even"
    LISTED = "listed"
    POSITION = "pos"


@dataclass(frozen=True)
class NumberVariable:
    """One number variable of a line. ``name`` is "" for the line's main variable (it moves
    every number group not tagged with a named value variable); named ones move the groups
    tagged ``@name``. ``values`` lists the allowed values of a ``LISTED`` rule."""

    name: str
    rule: ValueRule
    values: tuple[int, ...] = ()
    text: str = ""
    column: int = 0

    @property
    def position(self) -> bool:
        return self.rule is ValueRule.POSITION


SUIT_VARIABLES = "abc"
FIXED_SUITS = "mps"  # craks, dots, bams (the notation's suit letters)
NUMBER_SYMBOLS = "123456789"
SUITED_SYMBOLS = NUMBER_SYMBOLS + "D"
WIND_VARIABLES = "XYZ"  # any wind; different letters are different winds
PLAIN_SYMBOLS = "0NEWSRGF" + WIND_VARIABLES  # need no suit letter


@dataclass(frozen=True)
class TileSpec:
    """One printed tile: ``symbol`` and, for numbers and ``D``, its suit letter."""

    symbol: str
    suit: str | None = None

    @property
    def is_number(self) -> bool:
        return self.symbol in NUMBER_SYMBOLS


@dataclass(frozen=True)
class Group:
    """One group of a hand as printed: ``text`` at ``column`` of its line.

    A group of identical specs is a single, pair, pung, kong, quint or sextet; a group of
    different specs (``NEWS``, ``2026a``, ``123a``) is a run of singles. ``no_jokers`` is an
    explicit ``!`` in the file; :attr:`jokers_allowed` adds the rules of docs/RULES.md A2.
    """

    specs: tuple[TileSpec, ...]
    text: str
    column: int = 0
    no_jokers: bool = False
    tags: tuple[str, ...] = ()  # format 2: the named number variables moving it (``@k``)

    @property
    def size(self) -> int:
        return len(self.specs)

    @property
    def alike(self) -> bool:
        """All tiles of the group are the same tile (pair, pung, kong...)."""
        return all(spec == self.specs[0] for spec in self.specs)

    @property
    def jokers_allowed(self) -> bool:
        """A2: jokers only in groups of 3-6 identical tiles; never singles, pairs, runs."""
        return self.alike and self.size >= 3 and not self.no_jokers


@dataclass(frozen=True)
class Alternative:
    """One of the patterns a printed line offers ("... or ..."): its text and groups."""

    text: str
    groups: tuple[Group, ...]
    column: int = 0


@dataclass(frozen=True)
class CardHand:
    """One printed line of the card: one hand id, one or more alternative patterns.

    ``id`` is stable and unique within the card (hint output, transcripts and the JSON lines of
    ``fourwinds score`` name hands by it). ``text`` is the pattern field as written in the
    file (alternatives joined by "or"). ``variables`` say how the numbers vary (format 1's
    ``numbers`` rule is the main variable); ``suit_counts`` lists how many different suits the
    letters may stand for (empty: as many as there are letters, A6). ``section`` is the
    card's heading for the line (format 2; format 1 takes it from the category).
    """

    id: str
    category: Category
    value: int
    concealed: bool
    text: str
    note: str
    alternatives: tuple[Alternative, ...] = ()
    numbers: NumberRule = NumberRule.FIXED
    line: int = 0
    variables: tuple[NumberVariable, ...] = ()
    suit_counts: tuple[int, ...] = ()
    section: str = ""
    vary: str = "-"  # the line's variation field as written

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups of the first (for most lines the only) pattern."""
        return self.alternatives[0].groups if self.alternatives else ()

    @property
    def heading(self) -> str:
        """The section heading the line is printed under."""
        return self.section or SECTION_NAMES[self.category.value]

    @property
    def jokers_allowed(self) -> bool:
        """A2: Singles-and-Pairs hands use no jokers at all."""
        return self.category is not Category.SINGLES_PAIRS

    def group_jokers_allowed(self, index: int, alternative: int = 0) -> bool:
        return self.jokers_allowed and self.alternatives[alternative].groups[index].jokers_allowed

    def alternative_label(self, index: int) -> str:
        """How hints and results name an alternative: "" for a line with one pattern, else
        e.g. "alternative 2 of 3"."""
        count = len(self.alternatives)
        return f"alternative {index + 1} of {count}" if count > 1 else ""


@dataclass(frozen=True)
class Card:
    """A whole card: its name and hands, in card order."""

    name: str
    hands: tuple[CardHand, ...]
    format: int = 1
    _by_id: dict[str, CardHand] = field(default_factory=dict, compare=False, repr=False, hash=False)
    memo: Memo = field(default_factory=Memo, init=False, compare=False, hash=False, repr=False)
    """Answers derived from this card (its compiled form, hints, call checks): memo.py."""

    def __post_init__(self) -> None:
        self._by_id.update({hand.id: hand for hand in self.hands})

    def hand(self, hand_id: str) -> CardHand:
        """The hand with this id; ``KeyError`` naming it if the card has none."""
        try:
            return self._by_id[hand_id]
        except KeyError:
            raise KeyError(f"no hand {hand_id!r} on card {self.name!r}") from None
