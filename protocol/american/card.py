"""The American card: hands as written on an NMJL-style card, before any variable is expanded.

A ``Card`` holds ``CardHand``s; each hand is a list of ``Group``s of ``TileSpec``s. A tile spec
is a symbol as printed on a card (``1``-``9``, ``0`` = White Dragon used as zero, ``N E W S``,
``X Y Z`` any wind, ``R G`` dragons, ``D`` the dragon of a suit, ``F`` flower) plus, for
numbers and ``D``, a suit letter: ``a``/``b``/``c`` are suit *variables* (the colours of the
printed card: different letters are different suits) and ``m``/``p``/``s`` fixed suits (craks,
dots, bams). The file format is read by :mod:`.cardfile` and documented in
``docs/CARD_FORMAT.md``; variables are expanded into concrete variants by :mod:`.compile`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from importlib import resources


class Category(Enum):
    """The sections of the card (RULES.md A6). The value is the code used in card files."""

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


class NumberRule(Enum):
    """How the numbers printed in a hand may vary (RULES.md A6 "variable hands").

    ``FIXED``: these numbers only. ``ANY``: every number tile moves up or down by the same
    amount, staying within 1-9 ("any like numbers", "any N consecutive numbers"). ``STEP2``: the
    same but by an even amount, so odds stay odd and evens stay even ("any 3 consecutive odd
    numbers").
    """

    FIXED = "-"
    ANY = "any"
    STEP2 = "step2"


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
    explicit ``!`` in the file; :attr:`jokers_allowed` adds the rules of RULES.md A2.
    """

    specs: tuple[TileSpec, ...]
    text: str
    column: int = 0
    no_jokers: bool = False

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
class CardHand:
    """One hand of the card.

    ``id`` is stable and unique within the card (hint output, transcripts and the JSON lines of
    ``fourwinds score`` name hands by it). ``text`` is the pattern as written in the file.
    """

    id: str
    category: Category
    value: int
    concealed: bool
    text: str
    note: str
    groups: tuple[Group, ...] = ()
    numbers: NumberRule = NumberRule.FIXED
    line: int = 0

    @property
    def jokers_allowed(self) -> bool:
        """A2: Singles-and-Pairs hands use no jokers at all."""
        return self.category is not Category.SINGLES_PAIRS

    def group_jokers_allowed(self, index: int) -> bool:
        return self.jokers_allowed and self.groups[index].jokers_allowed


@dataclass(frozen=True)
class Card:
    """A whole card: its name and hands, in card order."""

    name: str
    hands: tuple[CardHand, ...]
    _by_id: dict[str, CardHand] = field(default_factory=dict, compare=False, repr=False,
                                        hash=False)

    def __post_init__(self) -> None:
        self._by_id.update({hand.id: hand for hand in self.hands})

    def hand(self, hand_id: str) -> CardHand:
        """The hand with this id; ``KeyError`` naming it if the card has none."""
        try:
            return self._by_id[hand_id]
        except KeyError:
            raise KeyError(f"no hand {hand_id!r} on card {self.name!r}") from None


def parse_card(text: str, source: str = "<card>") -> Card:
    """Read a card file's text; raises ``CardError`` naming the hand, line, column and reason."""
    from .cardfile import read_card  # the parser needs this module's classes

    return read_card(text, source)


@cache
def house_card() -> Card:
    """fourwinds' own card, ``cards/house.card`` shipped in the ``fourwinds.cards`` package."""
    text = resources.files("fourwinds.cards").joinpath("house.card").read_text(encoding="utf-8")
    return parse_card(text, "house.card")
