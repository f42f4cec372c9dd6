"""`fourwinds tournament create | list | join | start | result | correct | penalty | extend |
end-table | substitute | director | withdraw | status | standings | export`: an event's
record at your daemon (daemon/events/held.py, daemon/events/faults.py, docs/TOURNAMENT.md).

Each command asks your daemon (started on the network, as `fourwinds tables` starts it,
when it is not running) and prints what it answers, or one JSON object with ``--json``.
``join`` finds the event by its name where it is announced (mDNS), else by the director's
address (``--peer HOST:PORT``: what the director's `fourwinds tournament create` printed).
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fourwinds.frontends.cli import UsageError
from fourwinds.frontends.cli.cli_common import emit
from fourwinds.frontends.cli.commands.table_cmds import NO_FLOWERS_IS_MCR
from fourwinds.frontends.cli.commands.tournament_sheets import add_sheet_parsers, standings_csv
from fourwinds.frontends.cli.event_link import ask_event_daemon, event_daemon
from fourwinds.frontends.client.daemon_link import LocalApi, checked
from fourwinds.frontends.client.seen_wait import Sought, wait_until_seen
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.registry import EVENT_BY_DEFAULT, rule_names
from fourwinds.protocol.table.rules.rules_label import flowers_optional
from fourwinds.protocol.text import clean_text, shown_name
from fourwinds.protocol.tournament.event_rules import event_ruleset
from fourwinds.protocol.tournament.records import TURN_SECONDS, TURN_SECONDS_RANGE


def add_parsers(commands: Any) -> None:
    add_sheet_parsers(commands, _common)
    create = commands.add_parser(
        "create",
        help="direct a new event: players then enter with `tournament join`",
        description="Create an event you direct. Players enter it with `fourwinds tournament "
        "join NAME` on the same network, or where multicast is blocked with --peer HOST:PORT "
        "(the addresses this prints).",
    )
    create.add_argument("name", metavar="NAME")
    create.add_argument(
        "--rules",
        choices=rule_names(),
        default=EVENT_BY_DEFAULT,
        help=f"the event's rule set (default {EVENT_BY_DEFAULT})",
    )
    create.add_argument("--rounds", type=int, default=4, metavar="R")
    length = create.add_mutually_exclusive_group()
    length.add_argument("--hands", type=int, metavar="H", help="hands a round (default 4)")
    length.add_argument(
        "--minutes",
        type=int,
        metavar="M",
        help="minutes a round: at the end the hand in progress is the last",
    )
    create.add_argument(
        "--unfinished-zero",
        action="store_true",
        help="American, with --minutes: the time call stops the hand in "
        "progress at once, 0 for everyone",
    )
    create.add_argument(
        "--private", action="store_true", help="entries only with the event's code (printed here)"
    )
    create.add_argument(
        "--fill",
        choices=("bots", "byes"),
        default="bots",
        help="players not a multiple of 4: bot seats (default) or byes",
    )
    create.add_argument("--deck", choices=("fair", "practice"), default="fair")
    create.add_argument(
        "--seeded", action="store_true", help="seat from round 2 by the standings (Swiss-like)"
    )
    create.add_argument(
        "--no-flowers",
        action="store_false",
        dest="flowers",
        help="MCR: every table of the event plays without the 8 flowers and "
        "seasons (136 tiles, no flower points)",
    )
    create.add_argument(
        "--turn-seconds",
        type=int,
        metavar="S",
        help=f"seconds a player has for each turn at the event's tables "
        f"({TURN_SECONDS_RANGE[0]}-{TURN_SECONDS_RANGE[1]}, default {TURN_SECONDS}): then "
        "their daemon discards for them",
    )
    _common(create, cmd_create)
    listing = commands.add_parser("list", help="the events your daemon holds")
    _common(listing, cmd_list)
    join = commands.add_parser(
        "join",
        help="enter an event by its director's address",
        description="Enter the event NAME directed at HOST:PORT (--peer).",
    )
    join.add_argument("name", metavar="NAME")
    join.add_argument(
        "--peer",
        metavar="HOST:PORT",
        help="the director's daemon (its `tournament create` printed it); "
        "not needed where the event is announced on the network",
    )
    join.add_argument("--code", default="", help="the event's code, for a private event")
    _common(join, cmd_join)
    start = commands.add_parser(
        "start",
        help="the director: call the next round (its seed is made by every "
        "entrant's daemon) and print its seating",
        description="Call the next round of an event you direct: every entrant's daemon "
        "takes its part of the round's seed, then the seating the method gives "
        "is signed and spread. Waits up to 10 s; a round whose seed waits for "
        "an entrant who is away starts by itself when that entrant answers.",
    )
    start.add_argument("name", metavar="NAME")
    _common(start, cmd_start)
    result = commands.add_parser(
        "result",
        help="sign your table's final scores (it counts once all four seats signed the same)",
        description="Sign the final scores of your table in the current round, East, South, "
        "West, North, e.g. --scores 120,-30,-30,-60. The result counts once every "
        "seat of the table has signed the same scores (a bot seat: the director).",
    )
    result.add_argument("name", metavar="NAME")
    result.add_argument("--table", type=int, required=True, metavar="T")
    result.add_argument(
        "--scores",
        required=True,
        metavar="E,S,W,N",
        help="e.g. --scores=120,-30,-30,-60 (with = when the first is negative)",
    )
    _common(result, cmd_result)
    correct = commands.add_parser(
        "correct",
        help="the director: set a table's final scores, with a reason (a result "
        "entered wrong, a table ended by force)",
    )
    correct.add_argument("name", metavar="NAME")
    correct.add_argument("--round", type=int, required=True, metavar="R")
    correct.add_argument("--table", type=int, required=True, metavar="T")
    correct.add_argument(
        "--scores",
        required=True,
        metavar="E,S,W,N",
        help="e.g. --scores=-30,90,-30,-30 (with = when the first is negative)",
    )
    correct.add_argument("--reason", required=True)
    _common(correct, cmd_correct)
    penalty = commands.add_parser(
        "penalty", help="the director: take points and score from a player, with a reason"
    )
    penalty.add_argument("name", metavar="NAME")
    penalty.add_argument("--round", type=int, required=True, metavar="R")
    penalty.add_argument("--player", required=True)
    penalty.add_argument("--points", default="0", help="table or tournament points (1, 1/2)")
    penalty.add_argument("--score", type=int, default=0)
    penalty.add_argument("--reason", required=True)
    _common(penalty, cmd_penalty)
    extend = commands.add_parser(
        "extend",
        help="the director: give one table of the round under way extra minutes "
        "before its time is called, with a reason",
    )
    extend.add_argument("name", metavar="NAME")
    extend.add_argument("--table", type=int, required=True, metavar="T")
    extend.add_argument("--minutes", type=int, required=True, metavar="N")
    extend.add_argument("--reason", required=True)
    _common(extend, cmd_extend)
    end_table = commands.add_parser(
        "end-table",
        help="the director: end one table of the round under way by force, with "
        "a reason (the hand in progress is its last)",
    )
    end_table.add_argument("name", metavar="NAME")
    end_table.add_argument("--table", type=int, required=True, metavar="T")
    end_table.add_argument("--reason", required=True)
    _common(end_table, cmd_end_table)
    substitute = commands.add_parser(
        "substitute",
        help="the director: a player who cannot come back is replaced from "
        "the next hand by a bot seat or a reserve (an entrant not seated "
        "this round); the three seats left sign it",
    )
    substitute.add_argument("name", metavar="NAME")
    substitute.add_argument("--table", type=int, required=True, metavar="T")
    substitute.add_argument(
        "--seat", required=True, choices=list("ESWN"), help="the leaving player's wind"
    )
    who = substitute.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--bot",
        action="store_true",
        help="a bot seat the director's daemon plays (its points count for nobody)",
    )
    who.add_argument("--reserve", metavar="PLAYER", help="an entrant not seated this round")
    substitute.add_argument("--reason", required=True)
    _common(substitute, cmd_substitute)
    director = commands.add_parser(
        "director",
        help="name a new director by a majority of the entrants: --propose an "
        "entrant's name (or key) with a reason, or --agree to the proposal "
        "your daemon holds; alone: the proposals held",
    )
    director.add_argument("name", metavar="NAME")
    proposal = director.add_mutually_exclusive_group()
    proposal.add_argument("--propose", metavar="ENTRANT|KEY")
    proposal.add_argument("--agree", action="store_true")
    director.add_argument("--reason", default="", help="why (needed to propose)")
    _common(director, cmd_director)
    withdraw = commands.add_parser(
        "withdraw",
        help="leave an event from its next round (the director: --player NAME --reason WHY)",
    )
    withdraw.add_argument("name", metavar="NAME")
    withdraw.add_argument("--player", default="", help="the director: the entrant to withdraw")
    withdraw.add_argument("--reason", default="", help="why (needed from the director)")
    _common(withdraw, cmd_withdraw)
    status = commands.add_parser("status", help="an event's entrants, rounds and problems")
    status.add_argument("name", metavar="NAME")
    _common(status, cmd_status)
    standings = commands.add_parser("standings", help="an event's standings, from its record")
    standings.add_argument("name", metavar="NAME")
    standings.add_argument("--csv", action="store_true", help="comma-separated, with a header")
    _common(standings, cmd_standings)
    export = commands.add_parser(
        "export", help="write an event's whole record to FILE (`tournament verify` checks it)"
    )
    export.add_argument("name", metavar="NAME")
    export.add_argument("file", metavar="FILE")
    _common(export, cmd_export)


def _common(parser: argparse.ArgumentParser, handler: Any) -> None:
    parser.add_argument("--data-dir", metavar="DIR", help="the daemon's data directory")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.set_defaults(handler=handler)


_ask = ask_event_daemon


def _event_lines(event: Mapping[str, Any]) -> list[str]:
    entrants = event.get("entrants") or []
    role = (
        "you direct it"
        if event.get("director")
        else (f"you are entrant {event['me']}" if event.get("me") is not None else "")
    )
    amount = event.get("amount")
    unit = str(event.get("length"))
    length = f"{amount} {unit[:-1] if amount == 1 else unit}"  # 1 hand, 4 hands
    rules = event.get("rules_label") or event.get("rules")
    lines = [
        f"{shown_name(str(event.get('name')), 64)} ({shown_name(str(rules), 40)}, "
        f"{event.get('rounds')} rounds of {length}, "
        f"{event.get('deck')} deck{', private' if event.get('private') else ''}"
        f"{_turn_text(event)})"
        f"{': ' + role if role else ''}",
        f"  {len(entrants)} entrant(s); {event.get('rounds_started')} round(s) started; "
        f"entries {'open' if event.get('entries_open') else 'closed'}; "
        f"id {str(event.get('event'))[:16]}",
    ]
    if event.get("code"):
        lines.append(f"  code: {event['code']} (players give it to `tournament join --code`)")
    for entrant in entrants:
        you = (" (you)" if entrant.get("me") else "") + (
            " (withdrawn)" if entrant.get("withdrawn") else ""
        )
        lines.append(
            f"  {entrant.get('number'):>3}  {shown_name(str(entrant.get('name')), 30)}{you}"
        )
    last = event.get("round")
    if isinstance(last, Mapping):
        lines.append(
            f"  round {last.get('round')}:"
            + (
                f" table {last.get('my_table')}, you are {last.get('my_wind')}"
                if last.get("my_table")
                else ""
            )
        )
        others = [shown_name(str(who), 24) for who in last.get("with") or ()]
        if others:
            lines.append(
                f"    with {', '.join(others[:-1])} and {others[-1]}"
                + (f": {event['my_table_state']}" if event.get("my_table_state") else "")
            )
        for number, table in enumerate(last.get("tables") or (), 1):
            seats = ", ".join(
                f"{wind} {shown_name(str(name), 20) if name else 'bot'}"
                for wind, name in zip("ESWN", table, strict=False)
            )
            lines.append(f"    table {number}: {seats}")
        for number, scores in enumerate(last.get("scores") or (), 1):
            if scores is not None:
                lines.append(f"    table {number} result: {', '.join(map(str, scores))}")
        for signing in last.get("signing") or ():
            lines.append(
                f"    table {signing.get('table')}: "
                f"{', '.join(signing.get('signed') or ())} signed "
                f"{', '.join(map(str, signing.get('scores') or ()))}"
            )
        if last.get("byes"):
            lines.append(f"    byes: {', '.join(shown_name(str(n), 20) for n in last['byes'])}")
    lines += _clock_lines(event)
    seeding = event.get("seeding")
    if isinstance(seeding, Mapping) and seeding.get("waiting_for"):
        called = "'s seed is made ahead" if seeding.get("ahead") else " is called"
        lines.append(
            f"  round {seeding.get('round')}{called}: its seed waits for "
            f"{', '.join(map(str, seeding['waiting_for']))} ({seeding.get('step')})"
        )
    if event.get("reconnecting"):
        lines.append(
            "  reconnecting since this daemon started (seconds, as a rule): "
            f"{', '.join(shown_name(str(n), 30) for n in event['reconnecting'])}"
        )
    if event.get("missing"):
        lines.append(
            f"  not heard from lately: "
            f"{', '.join(shown_name(str(n), 30) for n in event['missing'])}"
        )
    for item in event.get("adjustments") or ():
        if item.get("kind") == "correction":
            lines.append(
                f"  correction: round {item.get('round')}, table {item.get('table')} "
                f"scores {', '.join(map(str, item.get('scores') or ()))}: "
                f"{clean_text(str(item.get('reason')))}"
            )
        else:
            lines.append(
                f"  penalty: round {item.get('round')}, "
                f"{shown_name(str(item.get('player')), 30)}: -{_points(item)} "
                f"points, -{item.get('score')} score: "
                f"{clean_text(str(item.get('reason')))}"
            )
    for item in event.get("substitutes") or ():
        lines.append(
            f"  substitute: round {item.get('round')}, table {item.get('table')}, "
            f"{item.get('seat')}: {shown_name(str(item.get('substitute')), 30)} for "
            f"{shown_name(str(item.get('leaving')), 30)} after {item.get('hands')} "
            f"hand(s) ({', '.join(map(str, item.get('scores') or ()))}): "
            f"{clean_text(str(item.get('reason')))}"
        )
    for item in event.get("lapses") or ():
        lines.append(
            f"  round {item.get('round')} seated without "
            f"{', '.join(shown_name(str(n), 30) for n in item.get('players') or ())}: "
            f"{clean_text(str(item.get('reason')))}"
        )
    for item in event.get("director_changes") or ():
        lines.append(
            f"  new director {str(item.get('director'))[:16]}, named by the "
            f"entrants at record {item.get('at')}: "
            f"{clean_text(str(item.get('reason')))}"
        )
    for problem in event.get("problems") or ():
        lines.append(f"  PROBLEM {problem}")
    return lines


def _clock_lines(event: Mapping[str, Any]) -> list[str]:
    """The round clock (daemon/events/clock.py ``clock_view``) and its records."""
    lines: list[str] = []
    clock = event.get("clock")
    if isinstance(clock, Mapping):
        said = clean_text(str(clock.get("says") or ""))  # the daemon's words
        if said:
            lines.append(f"  clock, round {clock.get('round')}: {said}")
        if clock.get("my_extension"):
            more = clock.get("my_extension_seconds_left")
            lines.append(
                f"    your table has {clock['my_extension']} extra minute(s)"
                + ("" if more is None else f", {int(more)} s left of them")
            )
        if clock.get("my_table_ended"):
            lines.append(
                f"    your table was ended by the director: "
                f"{clean_text(str(clock['my_table_ended']))}"
            )
    for item in event.get("clock_history") or ():
        kind = item.get("kind")
        if kind == "time_call":
            lines.append(f"  time called: round {item.get('round')}")
        elif kind == "extension":
            lines.append(
                f"  extension: round {item.get('round')}, table {item.get('table')} "
                f"+{item.get('minutes')} min: {clean_text(str(item.get('reason')))}"
            )
        elif kind == "end_table":
            lines.append(
                f"  table ended: round {item.get('round')}, table {item.get('table')}: "
                f"{clean_text(str(item.get('reason')))}"
            )
    return lines


def cmd_create(args: argparse.Namespace) -> int:
    event_ruleset(args.rules)  # a rule set without tournaments: refused here, one line
    if not args.flowers and not flowers_optional(args.rules):
        raise FourwindsError(NO_FLOWERS_IS_MCR)
    request: dict[str, Any] = {
        "type": "tournament_create",
        "name": args.name,
        "rules": args.rules,
        "rounds": args.rounds,
        "private": args.private,
        "fill": args.fill,
        "deck": args.deck,
        "seeded": args.seeded,
        "unfinished_zero": args.unfinished_zero,
    }
    if not args.flowers:
        request["flowers"] = False
    if args.turn_seconds is not None:
        low, high = TURN_SECONDS_RANGE
        if not low <= args.turn_seconds <= high:
            raise UsageError(f"--turn-seconds {args.turn_seconds}: from {low} to {high}")
        request["turn_seconds"] = args.turn_seconds
    if args.minutes is not None:
        request["minutes"] = args.minutes
    else:
        request["hands"] = args.hands if args.hands is not None else 4
    answer = _ask(args, request)
    status = _ask(args, {"type": "status"})
    port = status.get("port")
    addresses = [str(a) for a in status.get("addresses") or ()]
    announced = bool(status.get("mdns"))
    lines = [
        *_event_lines(answer),
        *entering_lines(args.name, answer, port, addresses, announced=announced),
    ]
    emit(args, lines, {**answer, "port": port, "addresses": addresses})
    return 0


def entering_lines(
    name: str,
    event: Mapping[str, Any],
    port: object,
    addresses: Sequence[str],
    *,
    announced: bool,
) -> list[str]:
    """What a director tells the players after ``create``: the command to enter by name
    where the daemon announces the event (mDNS finds it on one network), and, for where
    multicast is blocked, the same with ``--peer`` at each address this daemon can be
    reached at (its status says which: the machine's own addresses when it listens on all
    of them)."""
    code = " --code CODE" if event.get("code") else ""
    join = f"fourwinds tournament join {shlex.quote(name)}{code}"
    outside = [a for a in addresses if not a.startswith("127.")]
    if not outside:
        return [
            f"players on other machines cannot enter yet: this daemon is reached at "
            f"127.0.0.1:{port} only (no network address of this machine but loopback)"
        ]
    peers = " or ".join(f"--peer {address}:{port}" for address in outside)
    if not announced:
        return [f"players enter with: {join} {peers}"]
    return [f"players enter with: {join}", f"  where multicast is blocked: {join} {peers}"]


def cmd_list(args: argparse.Namespace) -> int:
    answer = _ask(args, {"type": "tournament_list"})
    events = answer.get("events") or []
    lines: list[str] = []
    for event in events:
        lines += _event_lines(event)
    for seen in answer.get("seen") or ():
        rules = shown_name(str(seen.get("rules_label") or seen.get("rules")), 40)
        lines.append(
            f"announced: {shown_name(str(seen.get('name')), 64)} ({rules}"
            f"{', private' if seen.get('private') else ''}), directed by "
            f"{shown_name(str(seen.get('director') or 'a player'), 30)} at "
            f"{seen.get('host')}:{seen.get('port')}"
        )
    for aside in answer.get("set_aside") or ():
        lines.append(f"set aside: event {str(aside.get('event'))[:16]}: {aside.get('reason')}")
    emit(args, lines or ["no events here"], answer)
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    """Enter an event: by the director's address with ``--peer``, else by its name once this
    daemon sees it announced (frontends/client/seen_wait.py: a daemon just started, or an
    event just made, is seen a few seconds later)."""
    request: dict[str, Any] = {"type": "tournament_join", "name": args.name, "code": args.code}
    if args.peer:
        host, _, port = args.peer.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"--peer {args.peer!r}: give HOST:PORT")
        request.update(host=host, port=int(port))
    api = event_daemon(args)
    try:
        if not args.peer:
            sought = Sought("event", args.name, "`fourwinds tournament list`", "director")
            wait_until_seen(sought, lambda: _event_seen(api, args.name), _say)
        answer = checked(api.request(request))
    finally:
        with contextlib.suppress(Exception):
            api.close()
    emit(args, _event_lines(answer), answer)
    return 0


def _event_seen(api: LocalApi, name: str) -> bool:
    """Whether the daemon has seen an event called ``name`` announced on the network."""
    seen = checked(api.request({"type": "tournament_list"})).get("seen") or ()
    return any(isinstance(e, Mapping) and e.get("name") == name for e in seen)


def _say(text: str) -> None:
    """Progress while a command waits (stderr, so stdout, and --json, stay clean)."""
    print(f"fourwinds tournament: {text}", file=sys.stderr, flush=True)


def cmd_start(args: argparse.Namespace) -> int:
    answer = _ask(args, {"type": "tournament_start", "name": args.name})
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    scores = _scores(args.scores)
    answer = _ask(
        args,
        {"type": "tournament_result", "name": args.name, "table": args.table, "scores": scores},
    )
    said = (
        "the result counts: all four seats signed these scores"
        if answer.get("held")
        else "signed; it counts once every seat of the table has signed the same scores"
    )
    emit(args, [said, *_event_lines(answer)], answer)
    return 0


def _scores(text: str) -> list[int]:
    try:
        scores = [int(part) for part in text.split(",")]
    except ValueError:
        raise UsageError(f"--scores {text!r}: four whole numbers, E,S,W,N") from None
    if len(scores) != 4:
        raise UsageError(f"--scores {text!r}: four whole numbers, E,S,W,N")
    return scores


def cmd_correct(args: argparse.Namespace) -> int:
    answer = _ask(
        args,
        {
            "type": "tournament_correct",
            "name": args.name,
            "round": args.round,
            "table": args.table,
            "scores": _scores(args.scores),
            "reason": args.reason,
        },
    )
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_penalty(args: argparse.Namespace) -> int:
    answer = _ask(
        args,
        {
            "type": "tournament_penalty",
            "name": args.name,
            "round": args.round,
            "player": args.player,
            "points": args.points,
            "score": args.score,
            "reason": args.reason,
        },
    )
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_extend(args: argparse.Namespace) -> int:
    answer = _ask(
        args,
        {
            "type": "tournament_extend",
            "name": args.name,
            "table": args.table,
            "minutes": args.minutes,
            "reason": args.reason,
        },
    )
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_end_table(args: argparse.Namespace) -> int:
    answer = _ask(
        args,
        {
            "type": "tournament_end_table",
            "name": args.name,
            "table": args.table,
            "reason": args.reason,
        },
    )
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_substitute(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {
        "type": "tournament_substitute",
        "name": args.name,
        "table": args.table,
        "seat": args.seat,
        "reason": args.reason,
    }
    if args.reserve:
        request["reserve"] = args.reserve
    answer = _ask(args, request)
    head = (
        "the substitute is held: the table goes on from its next hand"
        if answer.get("held")
        else "asked: the seats left sign it when their daemons cannot reach the leaving "
        "player's (`tournament status` shows it once held)"
    )
    emit(args, [head, *_event_lines(answer)], answer)
    return 0


def cmd_director(args: argparse.Namespace) -> int:
    request: dict[str, Any] = {"type": "tournament_director", "name": args.name}
    if args.propose:
        request.update(propose=args.propose, reason=args.reason)
    elif args.agree:
        request["agree"] = True
    answer = _ask(args, request)
    if answer.get("named"):
        head = [f"the entrants named a new director: {str(answer.get('director_key'))[:16]}"]
    elif args.propose or args.agree:
        head = ["signed; a new director is named once more than half of the entrants sign"]
    else:
        head = [
            f"proposed: {str(p.get('director'))[:16]} ({p.get('signed')} signed): "
            f"{clean_text(str(p.get('reason')))}"
            for p in answer.get("proposals") or ()
        ]
        head = head or ["no proposal of a new director"]
    emit(args, [*head, *_event_lines(answer)], answer)
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    answer = _ask(
        args,
        {
            "type": "tournament_withdraw",
            "name": args.name,
            "player": args.player,
            "reason": args.reason,
        },
    )
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    answer = _ask(args, {"type": "tournament_status", "name": args.name})
    emit(args, _event_lines(answer), answer)
    return 0


def cmd_standings(args: argparse.Namespace) -> int:
    answer = _ask(args, {"type": "tournament_standings", "name": args.name})
    if args.csv:
        sys.stdout.write(standings_csv(answer))
        return 0
    emit(args, standings_lines(answer), answer)
    return 0


def standings_lines(answer: Mapping[str, Any]) -> list[str]:
    """The daemon's ``tournament_standings`` answer as the terminal shows it, labelled as
    the daemon says (provisional while the round's tables play, after a round, final)."""
    state = answer.get("state")
    label = f" ({state.get('label')})" if isinstance(state, Mapping) else ""
    lines = [
        f"{shown_name(str(answer.get('name')), 64)}: {answer.get('rounds_started')} "
        f"round(s) started, {answer.get('results')} table result(s){label}",
        "rank  player                points   score  played  byes",
    ]
    for row in answer.get("standings") or ():
        lines.append(
            f"{row['rank']:>4}  {shown_name(str(row['name']), 20):<20}  "
            f"{_points(row):>6}  {row['score']:>6}  {row['played']:>6}  "
            f"{row['byes']:>4}"
        )
    return lines


def cmd_export(args: argparse.Namespace) -> int:
    answer = _ask(args, {"type": "tournament_export", "name": args.name})
    data = answer.get("data")
    if not isinstance(data, bytes):
        raise UsageError("the daemon sent no export")
    path = Path(args.file)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise UsageError(f"{args.file}: {error.strerror or error}") from None
    summary = {k: v for k, v in answer.items() if k != "data"}
    emit(
        args,
        [
            f"wrote {len(data):,} bytes of event {answer.get('name')} to {path} "
            f"(`fourwinds tournament verify {path}` checks it)"
        ],
        {**summary, "file": str(path), "bytes": len(data)},
    )
    return 0


def _points(item: Mapping[str, Any]) -> str:
    """The points as the daemon says a person reads them (protocol/tournament/points_text.py);
    the exact value from a daemon that does not say."""
    return str(item.get("points_text") or item.get("points"))


def _turn_text(event: Mapping[str, Any]) -> str:
    """ ", 30 s a turn" when the director chose a turn's seconds other than the default."""
    seconds = event.get("turn_seconds")
    return f", {seconds} s a turn" if seconds not in (None, TURN_SECONDS) else ""
