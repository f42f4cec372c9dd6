"""The American rule set's commands: ``score american``, ``hint american``, ``demo american``,
``card check|show`` and ``charleston``, declared as data for the frontends
(protocol/table/rules/commands.py).

Each ``run`` gets the parsed arguments and the card file's text the frontend read (``--card
FILE``, ``card check FILE``) and returns the lines to print with the exit status; the text
itself is made in ``score_text.py``, ``demo_log.py`` and ``rules_text.py``.
"""

from __future__ import annotations

from fourwinds.protocol.table.rules.commands import (
    Argument,
    CommandError,
    Given,
    Lines,
    Outcome,
    RuleCommand,
    RuleCommands,
    TableAct,
    TableDemo,
)

from .card import Card
from .card_text import check_lines, show_lines
from .cardfile import house_card, parse_card, read_card
from .demo_log import MAX_HANDS, match_log
from .score_text import hint_lines, score_jsonl, score_lines
from .tileset import AMERICAN_SET

NAME = AMERICAN_SET.name
CARD_FILE = "card file"


def _card(given: Given) -> Card:
    """The card of ``--card FILE`` (its text, read by the frontend), or the house card."""
    text = given.files.get("card")
    return house_card() if text is None else parse_card(text, given.arg("card", str))


def _run_score(given: Given) -> Outcome:
    card = _card(given)
    if given.arg("jsonl", bool):
        return Lines(score_jsonl(card, given.stdin), answers=True)
    lines, status = score_lines(
        card, given.arg("tiles", list), given.arg("exposed", list), given.arg("self_drawn", bool)
    )
    return Lines(lines, status)


def _run_hint(given: Given) -> Outcome:
    lines, status = hint_lines(
        _card(given), given.arg("tiles", list), given.arg("exposed", list), given.arg("count", int)
    )
    return Lines(lines, status)


def _run_demo(given: Given) -> Outcome:
    hands = given.arg("hands", int)
    if not 1 <= hands <= MAX_HANDS:
        raise CommandError(f"--hands must be 1 to {MAX_HANDS}, not {hands}")
    card = _card(given)
    if not given.arg("engine_only", bool):
        return TableDemo(rules_text=given.files.get("card", ""))
    rng = given.seeded(given.arg("seed", int))
    return Lines(match_log(card, rng, hands, quiet=given.arg("quiet", bool)))


def _run_check(given: Given) -> Outcome:
    path = given.arg("file", str)
    lines, ok = check_lines(given.files["file"], path)
    return Lines(lines, 0 if ok else 1)


def _run_show(given: Given) -> Outcome:
    path = given.arg("file", str)
    return Lines(show_lines(read_card(given.files["file"], path)))


COURTESY_HOW = (
    "a courtesy pass offers 0 to 3 tiles to the player across: name them "
    "(fourwinds charleston --courtesy 3m 7p), or offer none with "
    "`fourwinds charleston --courtesy none`"
)


def _run_charleston(given: Given) -> Outcome:
    """A Charleston pass (the tiles, or the pass the label's words pick), the vote on a
    second Charleston, or the courtesy pass."""
    words = tuple(given.arg("label", str).split())
    tiles = tuple(str(tile) for tile in given.arg("tiles", list))
    vote = given.args.get("vote")
    if isinstance(vote, str):
        return TableAct(("stop_vote",), "vote", words=(vote,))
    if given.arg("courtesy", bool):
        return _courtesy(words, tiles)
    return TableAct(("charleston",), "make a charleston pass", words=words, tiles=tiles)


def _courtesy(words: tuple[str, ...], tiles: tuple[str, ...]) -> TableAct:
    """The courtesy pass: the tiles named, or none when the only word is ``none`` (or 0).
    With neither, say what to give instead of listing every size of pass as ambiguous."""
    if [tile.lower() for tile in tiles] in (["none"], ["0"]):
        return TableAct(("courtesy",), "offer no courtesy pass", words=(*words, "no courtesy"))
    if not tiles and not words:
        raise CommandError(COURTESY_HOW)
    if len(tiles) > 3:
        raise CommandError(f"{len(tiles)} tiles named: {COURTESY_HOW}")
    return TableAct(("courtesy",), "make a courtesy pass", words=words, tiles=tiles)


_TILES = Argument(
    ("tiles",),
    {
        "nargs": "*",
        "metavar": "TILES",
        "help": "concealed tiles in notation, e.g. 222s 444s 6666s 8888s F J",
    },
)
_CARD = Argument(
    ("--card",),
    {"metavar": "FILE", "help": "a card file (default: the house card)"},
    reads=CARD_FILE,
)
_EXPOSED = Argument(
    ("--exposed",),
    {
        "action": "append",
        "default": [],
        "metavar": "TILES",
        "help": "an exposed group, e.g. 5p5pJ (repeat for each group)",
    },
)
_FILE = Argument(("file",), {"metavar": "FILE", "help": "the card file"}, reads=CARD_FILE)

SCORE = RuleCommand(
    "score",
    NAME,
    "which American card hands 14 tiles make, their value and payouts",
    _run_score,
    description="Which hands of the card the tiles make (concealed tiles, winning tile "
    "included, plus --exposed groups), their value and the payouts (A7). "
    "Exit status 1 when no hand matches.",
    arguments=(
        _TILES,
        _CARD,
        _EXPOSED,
        Argument(
            ("--self-drawn",),
            {
                "action": "store_true",
                "help": "the winning tile was drawn from the wall (default: a discard)",
            },
        ),
        Argument(
            ("--jsonl",),
            {
                "action": "store_true",
                "help": 'read {"tiles": [...], "exposures": [[...]], '
                '"self_drawn": false} per line on stdin, answer '
                "one JSON object per line",
            },
        ),
    ),
)

HINT = RuleCommand(
    "hint",
    NAME,
    "the nearest American card hands and the tiles they still need",
    _run_hint,
    description="The card hands nearest to these tiles (13 or 14 concealed tiles plus "
    "--exposed groups), with what is missing; J = a slot only a joker can fill.",
    arguments=(
        _TILES,
        _CARD,
        _EXPOSED,
        Argument(
            ("-n", "--count"),
            {
                "type": int,
                "default": 5,
                "metavar": "N",
                "help": "how many hands to list (default 5)",
            },
        ),
    ),
)

DEMO = RuleCommand(
    "demo",
    NAME,
    "four bots play American Mahjong at an in-memory table",
    _run_demo,
    arguments=(
        Argument(("--seed",), {"type": int, "default": 1, "help": "shuffle seed (default 1)"}),
        Argument(("--hands",), {"type": int, "default": 1, "help": "hands to play (default 1)"}),
        Argument(
            ("--card",),
            {"metavar": "FILE", "help": "card file (default: the house card)"},
            reads=CARD_FILE,
        ),
        Argument(("--quiet",), {"action": "store_true", "help": "only the per-hand summaries"}),
    ),
    table_demo=True,
)

CHECK = RuleCommand(
    "card",
    "check",
    "every mistake in a card file, and each line's number of variations",
    _run_check,
    description="Read a card file and list every mistake (line, hand, column, what was "
    "expected), then each line's number of concrete variations. Exit status "
    "1 when the card has mistakes.",
    arguments=(_FILE,),
)

SHOW = RuleCommand(
    "card",
    "show",
    "print a card file as a player reads it",
    _run_show,
    description="Print the card by section: each line's patterns, what may vary, value, "
    "X (exposed) or C (concealed) and its note.",
    arguments=(_FILE,),
)

CHARLESTON = RuleCommand(
    "charleston",
    "",
    "Charleston: pass tiles, vote to stop or go on, courtesy pass",
    _run_charleston,
    arguments=(
        Argument(("tiles",), {"nargs": "*", "metavar": "TILE", "help": "the tiles to pass"}),
        Argument(
            ("--vote",),
            {"choices": ["stop", "continue"], "help": "the vote on a second Charleston"},
        ),
        Argument(
            ("--courtesy",),
            {
                "action": "store_true",
                "help": "the courtesy pass: offer TILES (1-3) across, or `none`",
            },
        ),
        Argument(
            ("--label",),
            {
                "default": "",
                "metavar": "WORDS",
                "help": "pick among several legal passes by words (e.g. blind)",
            },
        ),
    ),
    at_table=True,
)

COMMANDS = RuleCommands(
    commands=(SCORE, HINT, DEMO, CHECK, SHOW, CHARLESTON),
    verbs={
        "card": "check or show an American card file (docs/CARD_FORMAT.md)",
        "charleston": CHARLESTON.help,
    },
)
"""What ``RULESET.commands`` offers."""
