"""The MCR rule set's commands: ``score mcr``, ``hint mcr`` and ``demo mcr``, declared as data
for the frontends (protocol/table/rules/commands.py).

Each ``run`` gets the parsed arguments (and standard input's lines for ``score mcr --jsonl``)
and returns the lines to print with the exit status; the text itself is made in
``score_text.py`` and ``demo_log.py``.
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
    TableDemo,
)

from .config import HANDS_PER_MATCH, pairs_of
from .demo_log import match_log
from .score_text import HandArgs, hint_text, score_jsonl, score_lines
from .tileset import MCR_SET

NAME = MCR_SET.name


def _hand(given: Given) -> HandArgs:
    """The hand the arguments give (the options every ``score``/``hint mcr`` takes)."""
    return HandArgs(
        tiles=given.arg("tiles", list),
        melds=given.arg("melds", list),
        concealed_kong=given.arg("concealed_kong", list),
        seat_wind=given.arg("seat_wind", str),
        prevalent_wind=given.arg("prevalent_wind", str),
        flowers=given.arg("flowers", int),
    )


def _run_score(given: Given) -> Outcome:
    if given.arg("jsonl", bool):
        if given.args["tiles"]:
            raise CommandError("--jsonl reads hands from stdin; give no TILES")
        return Lines(score_jsonl(given.stdin), answers=True)
    win_tile = given.args.get("win_tile")
    lines, status = score_lines(
        _hand(given),
        win_tile if isinstance(win_tile, str) else None,
        self_drawn=given.arg("self_drawn", bool),
        last_tile=given.arg("last_tile", bool),
        kong=given.arg("kong", bool),
        wall_last=given.arg("wall_last", bool),
    )
    return Lines(lines, status)


def _run_hint(given: Given) -> Outcome:
    return Lines([hint_text(_hand(given))])


def _run_demo(given: Given) -> Outcome:
    hands = given.arg("hands", int)
    if not 1 <= hands <= HANDS_PER_MATCH:
        raise CommandError(f"--hands must be 1 to {HANDS_PER_MATCH} (one match), not {hands}")
    flowers = given.arg("flowers", bool)
    if not given.arg("engine_only", bool):
        return TableDemo(engine_options=pairs_of(flowers=flowers))
    rng = given.seeded(given.arg("seed", int))
    return Lines(match_log(rng, hands, quiet=given.arg("quiet", bool), flowers=flowers))


_HAND_OPTIONS = (
    Argument(
        ("tiles",),
        {
            "nargs": "*",
            "metavar": "TILES",
            "help": "concealed tiles in notation, e.g. 123m 456m 789m 123p 55p",
        },
    ),
    Argument(
        ("--melds",),
        {
            "nargs": "+",
            "action": "extend",
            "default": [],
            "metavar": "SET",
            "help": "exposed sets: 123m (chow), 555z (pung), 8888s (melded "
            "kong); give TILES first, the sets take every word after "
            "--melds",
        },
    ),
    Argument(
        ("--concealed-kong",),
        {
            "action": "append",
            "default": [],
            "metavar": "SET",
            "help": "a declared concealed kong, e.g. 8888s (repeat for each)",
        },
    ),
    Argument(
        ("--seat-wind",), {"default": "E", "metavar": "WIND", "help": "E, S, W or N (default E)"}
    ),
    Argument(
        ("--prevalent-wind",),
        {"default": "E", "metavar": "WIND", "help": "E, S, W or N (default E)"},
    ),
    Argument(
        ("--flowers",),
        {
            "type": int,
            "default": 0,
            "metavar": "N",
            "help": "flowers and seasons exposed, 1 point each (default 0)",
        },
    ),
)

SCORE = RuleCommand(
    "score",
    NAME,
    "the fans and points of an MCR (Chinese Official) winning hand",
    _run_score,
    description="The fans of an MCR hand, their points and the total, and whether it is a "
    "valid win (8 points before flowers). TILES are the concealed tiles "
    "INCLUDING the winning tile, which is the last one unless --win-tile names "
    "it. Exit status 1 when the hand is not a valid win.",
    arguments=(
        *_HAND_OPTIONS,
        Argument(("--win-tile",), {"metavar": "T", "help": "the winning tile (default: the last)"}),
        Argument(
            ("--self-drawn",),
            {
                "action": "store_true",
                "help": "the winning tile came from the wall (default: a discard)",
            },
        ),
        Argument(
            ("--last-tile",),
            {
                "action": "store_true",
                "help": "the winning tile is the last of its kind (other three visible)",
            },
        ),
        Argument(
            ("--kong",),
            {
                "action": "store_true",
                "help": "won on a kong replacement (self-drawn) or by robbing a kong",
            },
        ),
        Argument(
            ("--wall-last",), {"action": "store_true", "help": "won on the last tile of the wall"}
        ),
        Argument(
            ("--jsonl",),
            {
                "action": "store_true",
                "help": "read one JSON hand per line on stdin, answer one per line",
            },
        ),
    ),
)

HINT = RuleCommand(
    "hint",
    NAME,
    "MCR tiles to win and their fans, or the discards that make a hand ready",
    _run_hint,
    description="For a waiting hand (13 tiles counting melds): the tiles that complete it "
    "and the fans each gives. For 14 tiles: the discards that leave it ready. "
    "Otherwise: how many tiles it is from ready (shanten).",
    arguments=_HAND_OPTIONS,
)

DEMO = RuleCommand(
    "demo",
    NAME,
    "four bots play Chinese Official (MCR) at an in-memory table",
    _run_demo,
    arguments=(
        Argument(("--seed",), {"type": int, "default": 1, "help": "shuffle seed (default 1)"}),
        Argument(
            ("--hands",),
            {"type": int, "default": 1, "help": f"hands to play, 1-{HANDS_PER_MATCH} (default 1)"},
        ),
        Argument(("--quiet",), {"action": "store_true", "help": "only the per-hand summaries"}),
        Argument(
            ("--no-flowers",),
            {
                "action": "store_false",
                "dest": "flowers",
                "help": "play without the 8 flowers and seasons (136 tiles)",
            },
        ),
    ),
    table_demo=True,
)

COMMANDS = RuleCommands(commands=(SCORE, HINT, DEMO))
"""What ``RULESET.commands`` offers."""
