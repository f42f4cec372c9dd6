"""`fourwinds host | join | seat | ready | status | hand`: sitting down at a table and looking.

Each is one request to the local daemon (see docs/SCRIPTING.md for the JSON shapes).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli.cli_common import (
    add_daemon_options,
    config_of,
    emit,
    hand_lines,
    open_api,
    status_lines,
    table_name,
)
from fourwinds.frontends.cli.player_config import WINDOWS, player_name, window_problem
from fourwinds.frontends.client.acting import rack_tiles
from fourwinds.frontends.client.daemon_link import LocalApi, checked, current_view
from fourwinds.frontends.client.view_shapes import NO_EVENT, ViewEvent, view_event
from fourwinds.frontends.terminal.table_result import result_lines
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.machine.options import OLD_OPTION_NAMES
from fourwinds.protocol.table.rules.registry import rule_names, ruleset_named
from fourwinds.protocol.table.rules.rules_label import flowers_optional

SEAT_CHOICES = {"east": 0, "e": 0, "south": 1, "s": 1, "west": 2, "w": 2, "north": 3, "n": 3}


def register(sub: Any) -> None:
    host = sub.add_parser("host", help="open a table on this daemon for others to join")
    host.add_argument("name", nargs="?", help="table name (default: config 'table', then yours)")
    host.add_argument(
        "--rules", choices=rule_names(), help="rule set (default: config, then american)"
    )
    host.add_argument("--card", metavar="FILE", help="American card file (default: house card)")
    host.add_argument(
        "--private", action="store_true", help="joining needs the short code this prints"
    )
    add_table_options(host)
    add_daemon_options(host, table=False)
    host.set_defaults(handler=cmd_host)

    join = sub.add_parser("join", help="join a table seen on the network (or by its code)")
    join.add_argument("target", metavar="NAME|CODE", help="table name, or a private table code")
    join.add_argument("--code", help="the private table's code, when joining by name")
    join.add_argument("--host", help=argparse.SUPPRESS)  # a table not announced: its host's
    join.add_argument("--port", type=int, help=argparse.SUPPRESS)  # address and identity key
    join.add_argument("--key", help=argparse.SUPPRESS)
    add_daemon_options(join, table=False)
    join.set_defaults(handler=cmd_join)

    seat = sub.add_parser("seat", help="take a seat at a table you joined")
    seat.add_argument(
        "wind",
        nargs="?",
        default="any",
        choices=[*SEAT_CHOICES, "any"],
        help="the seat wanted (default: any free)",
    )
    add_daemon_options(seat)
    seat.set_defaults(handler=cmd_seat)

    ready = sub.add_parser("ready", help="say you are ready to start (or for the next hand)")
    add_daemon_options(ready)
    ready.set_defaults(handler=cmd_ready)

    status = sub.add_parser("status", help="the table as your seat sees it, with legal actions")
    status.add_argument(
        "--wait",
        type=float,
        metavar="SECONDS",
        help="first wait (up to SECONDS) until you have something to do",
    )
    add_daemon_options(status)
    status.set_defaults(handler=cmd_status)

    hand = sub.add_parser("hand", help="your tiles, the tile you drew, and hints")
    add_daemon_options(hand)
    hand.set_defaults(handler=cmd_hand)


NO_FLOWERS_IS_MCR = (
    "--no-flowers is for MCR tables (add --rules mcr): an American wall "
    "always has its flowers, card hands use them"
)


def add_table_options(parser: argparse.ArgumentParser, *, solo_default: bool = False) -> None:
    """``--hands``, the deck, auto-pass and MCR's ``--no-flowers``, for the tables `host`
    and `play` open.

    ``solo_default``: the deck defaults to practice when every other seat is one of our own
    bots (`play --bots 3`): the masked deck protects players from each other's software,
    and there is no other player's software at such a table.
    """
    parser.add_argument(
        "--hands",
        type=int,
        default=0,
        metavar="N",
        help="hands in the match (default: the rule set's, American 4, MCR 16)",
    )
    deck = parser.add_mutually_exclusive_group()
    deck.add_argument(
        "--practice",
        action="store_const",
        const="practice",
        dest="deck",
        help="practice deck: quicker, but the wall is not hidden from the seats' software",
    )
    deck.add_argument(
        "--fair",
        action="store_const",
        const="masked",
        dest="deck",
        help="the fair, masked deck (mental poker): nobody's software can see "
        "the wall"
        + (" (default unless all three others are your bots)" if solo_default else " (default)"),
    )
    parser.add_argument(
        "--no-flowers",
        action="store_false",
        dest="flowers",
        help="MCR: play without the 8 flowers and seasons (136 tiles, no "
        "flower points; many Botzone bots were trained so)",
    )
    parser.add_argument(
        "--no-auto-pass",
        action="store_false",
        dest="auto_pass",
        help="every player answers every discard (by default a seat that "
        "cannot call it passes at once, as on online tables)",
    )
    old_flags = {new: f"--{old.replace('_', '-')}" for old, new in OLD_OPTION_NAMES.items()}
    for window, what in _window_help().items():
        flags = [f"--{window.replace('_', '-')}"]
        if window in old_flags:
            flags.append(old_flags[window])
            what += f" ({old_flags[window]}: its old name, deprecated)"
        parser.add_argument(*flags, type=float, metavar="SECONDS", dest=window, help=what)


def _window_help() -> dict[str, str]:
    """Each timer's help. Built with the parser for every command, so it loads no rule set
    (tests/frontends/test_cli_lazy.py); the page's "Host a table" names each rule set's
    exchange from the daemon's ``rulesets`` answer."""
    return {
        "call_window": "how long each player may think about calling a discard (default: "
        "config, then 8)",
        "turn_window": "how long a player may take to discard (default: config, then 0: no timer)",
        "exchange_window": "how long each pass of the rule set's exchange of tiles before play "
        "may take, where it has one (default: config, then 60)",
        "next_window": "how long the end-of-hand screen waits for every player's next "
        "(default: config, then 60; 0: until everyone says next)",
    }


def _card_problem(rules: str) -> str | None:
    """Why a card file cannot go to a table of ``rules`` (it is not the card's rule set)."""
    with_card = [ruleset_named(name) for name in rule_names() if ruleset_named(name).plays_a_card]
    if any(ruleset.name == rules for ruleset in with_card):
        return None
    return (
        " or ".join(
            f"--card is for {ruleset.title} tables (add --rules {ruleset.name})"
            for ruleset in with_card
        )
        or "--card: no rule set plays a card"
    )


def check_flowers(args: argparse.Namespace, rules: str) -> None:
    """``--no-flowers`` only for a table whose rule set may leave its flowers out (MCR;
    refused before anything starts)."""
    if not getattr(args, "flowers", True) and not flowers_optional(rules):
        raise FourwindsError(NO_FLOWERS_IS_MCR)


def table_options(args: argparse.Namespace, rules: str, *, solo: bool = False) -> dict[str, Any]:
    """The local API's table options for ``--hands``, the deck, auto-pass, ``--no-flowers``
    (the rule set's option ``{"rules": {"flowers": false}}``, MCR only; also from the config
    file's ``flowers = false`` for an MCR table) and the timers
    (``solo``: all the other seats are our bots, so the deck defaults to practice). A timer
    is sent only when the command line or the config file gives it: otherwise the table's
    own default holds."""
    if not 0 <= args.hands <= 64:
        raise FourwindsError(f"--hands {args.hands}: must be 0 to 64")
    check_flowers(args, rules)
    deck = args.deck or ("practice" if solo else "masked")
    options: dict[str, Any] = {"hands": args.hands, "deck": deck, "auto_pass": args.auto_pass}
    config = config_of(args)
    if not args.flowers or (flowers_optional(rules) and not config.flowers):
        options["rules"] = {"flowers": False}
    for window in WINDOWS:
        given = getattr(args, window, None)
        seconds = given if given is not None else getattr(config, window)
        problem = window_problem(window, seconds)
        if problem:
            raise FourwindsError(f"--{window.replace('_', '-')} {seconds:g}: {problem}")
        if seconds is not None:
            options[window] = float(seconds)
    return options


def _run(args: argparse.Namespace, request: dict[str, Any]) -> dict[str, Any]:
    api = open_api(args)
    try:
        return checked(api.request(request))
    finally:
        api.close()


def cmd_host(args: argparse.Namespace) -> int:
    """JSON: the daemon's answer (``table``, ``rules``, ``code`` for a private table)."""
    config = config_of(args)
    name = args.name or config.table or f"{player_name(config)}-table"
    rules = args.rules or config.rules
    options = table_options(args, rules)
    request: dict[str, Any] = {
        "type": "create",
        "name": name,
        "rules": rules,
        "private": args.private,
        "options": options,
    }
    card = args.card or config.card
    if card:
        problem = _card_problem(rules)
        if problem:
            raise FourwindsError(problem)
        try:
            options["card_text"] = Path(card).read_text(encoding="utf-8")
            options["card_name"] = Path(card).stem
        except OSError as error:
            raise FourwindsError(f"cannot read card file {card}: {error.strerror}") from error
    answer = _run(args, request)
    human = [f"hosting table {name} ({rules}), id {answer.get('table', '?')}"]
    if answer.get("code"):
        human.append(f"private table: players join with code {answer['code']}")
    emit(args, human, answer)
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {"type": "join", "table": args.target}
    if args.code:
        request["code"] = args.code
    if args.host and args.port and args.key:
        request.update(host=args.host, port=args.port, public_key=args.key)
    answer = _run(args, request)
    emit(
        args,
        [f"joined table {answer.get('table', args.target)}; take a seat: fourwinds seat"],
        answer,
    )
    return 0


def cmd_seat(args: argparse.Namespace) -> int:
    api = open_api(args)
    try:
        table = table_name(api, args)
        wanted = None if args.wind == "any" else SEAT_CHOICES[args.wind]
        answer = checked(api.request({"type": "seat", "table": table, "seat": wanted}))
    finally:
        api.close()
    emit(args, [f"seated at {table}: {answer.get('seat', 'a free seat')}"], answer)
    return 0


def cmd_ready(args: argparse.Namespace) -> int:
    api = open_api(args)
    try:
        table = table_name(api, args)
        try:
            event = current_view(api, table)
        except FourwindsError:
            event = NO_EVENT  # no view: no ready action to name, the plain request
        ready = [a for a in event.get("legal_actions") or () if a.get("type") == "ready"]
        if ready:
            request = {
                "type": "act",
                "table": table,
                "seq": event.get("seq"),
                "action": ready[0].get("id"),
            }
        else:
            request = {"type": "ready", "table": table}
        answer = checked(api.request(request))
    finally:
        api.close()
    emit(args, [f"ready at {table}"], {**answer, "table": table})
    return 0


def wait_for_turn(api: LocalApi, table: str, seconds: float) -> ViewEvent:
    """The view event once the seat has a legal action or the match is over (or time is up).

    ``table`` may be the table's name (``--table kitchen``, or the only table's name); view
    events name it by its id, so they are matched by the id the first view carries."""
    event = current_view(api, table)
    table_id = event.get("table") or table
    end = time.monotonic() + seconds
    while not _actionable(event):
        left = end - time.monotonic()
        if left <= 0:
            break
        incoming = api.next_event(min(left, 1.0))
        if (
            incoming is not None
            and incoming.get("type") == "view"
            and incoming.get("table") in (table_id, table)
        ):
            event = view_event(incoming)
    return event


def _actionable(event: ViewEvent) -> bool:
    phase = event["view"].get("phase")
    return bool(event.get("legal_actions")) or phase == "match_over"


def cmd_status(args: argparse.Namespace) -> int:
    """JSON: the seat's view event (``view`` and ``legal_actions``, docs/PROTOCOL.md)."""
    api = open_api(args, subscribe=bool(args.wait))
    try:
        table = table_name(api, args)
        wait = args.wait
        event = wait_for_turn(api, table, wait) if wait else current_view(api, table)
    finally:
        api.close()
    emit(args, status_lines(event), event)
    return 0


def cmd_hand(args: argparse.Namespace) -> int:
    """JSON: ``{"table", "seq", "hand": [codes], "drawn": code|null, "hints": [str],
    "phase", "result", "next", "history", "standings"}`` (the last four as the view has
    them: docs/LOCAL-API.md; a hand's result shows in the text too)."""
    api = open_api(args)
    try:
        table = table_name(api, args)
        event = current_view(api, table)
    finally:
        api.close()
    view = event["view"]
    lines = hand_lines(event)
    if view.get("result"):
        lines.extend(result_lines(view, 100, False, True))
    emit(
        args,
        lines,
        {
            "table": table,
            "seq": event.get("seq"),
            "hand": rack_tiles(view),
            "drawn": view.get("drawn"),
            "hints": view.get("hints") or [],
            "phase": view.get("phase"),
            "result": view.get("result"),
            "next": view.get("next"),
            "history": view.get("history") or [],
            "standings": view.get("standings"),
        },
    )
    return 0
