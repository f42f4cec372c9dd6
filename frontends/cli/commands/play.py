"""`fourwinds play`: the main job. Start the daemon if needed, sit down, open the table.

Which table:

* ``play``: back to the table you sit at (at several: it lists them and asks which); at none,
  it hosts a new table and fills ``--bots N`` seats with bot seats (each its own daemon on
  127.0.0.1; their data is kept, so a return restarts the same seats).
* ``play --table NAME``: back to that table when you sit there, else host a table so named.
* ``play --join NAME|ID``: back to it when you sit there, else join it as soon as your daemon
  sees it on the network (mDNS needs a few seconds: frontends/client/seen_wait.py waits).

Your daemon keeps your seat: ``Q`` closes the screen, and the daemon (started detached when
none ran) stays up until ``fourwinds stop``. A table of you and three bots needs no network:
a daemon started for it listens on 127.0.0.1 only, on any free port, and such a table is never
announced. Every failure is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import curses
import logging
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from fourwinds.daemon.paths import default_paths
from fourwinds.daemon.store.disk import Store, StoreError
from fourwinds.daemon.table_runtimes.runtime import is_bot_seat
from fourwinds.frontends.bots.bot_level_option import add_bot_level_option, chosen_level
from fourwinds.frontends.bots.bot_pause import add_bot_pause_option, chosen_pause
from fourwinds.frontends.cli.cli_common import config_of, data_dir_of, setup_logging, state_dir_of
from fourwinds.frontends.cli.commands.table_cmds import (
    add_table_options,
    check_flowers,
    table_options,
)
from fourwinds.frontends.cli.player_config import Config, player_name
from fourwinds.frontends.cli.tournament_play import play_event
from fourwinds.frontends.client.daemon_link import (
    DaemonTable,
    DaemonUnavailable,
    LocalApi,
    checked,
    connect,
    current_view,
)
from fourwinds.frontends.client.daemon_watch import DaemonStopped, FollowedTable
from fourwinds.frontends.client.local_seats import (
    BotSeats,
    DaemonPlan,
    Started,
    ensure_daemon,
    forget_bot_seats,
    is_running,
    load_bot_seats,
    resume_bot_seats,
    seat_new_bots,
)
from fourwinds.frontends.client.ready_with_bots import READY_RETRY_S, READY_WAIT_S, ready_not_yet
from fourwinds.frontends.client.seen_wait import Sought, wait_until_seen
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.registry import rule_names

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "play", help="play now: back to your table, or a new one with bots in the free seats"
    )
    parser.add_argument(
        "--rules", choices=rule_names(), help="rule set (default: config, american)"
    )
    parser.add_argument(
        "--bots",
        type=int,
        choices=range(4),
        metavar="N",
        help="seats to fill with bots, 0-3 (default: config, then 3)",
    )
    parser.add_argument("--card", metavar="FILE", help="American card file for the table")
    parser.add_argument(
        "--table", metavar="NAME", help="return to this table if you sit there, else host it"
    )
    parser.add_argument(
        "--join", metavar="NAME|ID", help="return to this table if you sit there, else join it"
    )
    parser.add_argument("--code", help="the private table's code, with --join")
    parser.add_argument(
        "--tournament",
        metavar="EVENT",
        help="play your table of every round of this tournament you entered",
    )
    parser.add_argument("--private", action="store_true", help="host a private table (code)")
    parser.add_argument("--ascii", action="store_true", help="tiles as codes, not glyphs")
    parser.add_argument(
        "--web",
        action="store_true",
        help="the table in your browser instead of the terminal (`fourwinds web`)",
    )
    add_table_options(parser, solo_default=True)
    add_bot_pause_option(parser)
    add_bot_level_option(parser)
    parser.add_argument("--data-dir", metavar="DIR", help="your daemon's data directory")
    parser.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help="your daemon's peer port, when play starts it for a table on "
        "the network (default: config, then 7420)",
    )
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="reach this daemon directly, where multicast is blocked (e.g. "
        "the host's, with --join)",
    )
    parser.set_defaults(handler=cmd_play)


class Kind(Enum):
    """What `play` does to sit down."""

    RETURN = "return"  # a table we already sit at
    JOIN = "join"  # a table seen on the network
    HOST = "host"  # a new table of ours


@dataclass(frozen=True)
class Mine:
    """A table our daemon sits at."""

    table: str  # its id (hex)
    name: str
    rules: str
    seated: int
    warning: str = ""  # what leaving does to the others, when it needs force ("": nothing)

    @classmethod
    def listed(cls, entry: Mapping[str, Any]) -> Mine:
        """One entry of the daemon's ``tables`` answer."""
        return cls(
            str(entry.get("table")),
            str(entry.get("name")),
            str(entry.get("rules")),
            int(entry.get("seated") or 0),
            str(entry.get("leave_warning") or ""),
        )


@dataclass(frozen=True)
class Target:
    """Where to sit: ``ref`` is our table's id (RETURN), what to join (JOIN), or the name of
    the table to host ("" for a free name of ours)."""

    kind: Kind
    ref: str
    name: str = ""


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def cmd_play(args: argparse.Namespace) -> int:
    # a closed terminal (SIGHUP) or a kill (SIGTERM) still stops the bot seats we started
    signal.signal(signal.SIGHUP, _exit_on_signal)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    state = state_dir_of(args)
    setup_logging(args, state / "play.log")  # the screen owns the terminal
    if args.port is not None and not 0 <= args.port <= 65534:
        raise FourwindsError(f"--port {args.port}: must be 0 to 65534")
    started = Started()
    try:
        return _play(args, state, started)
    except OSError as error:  # the daemon stopped answering, a file we could not write...
        raise FourwindsError(str(error) or type(error).__name__) from None
    finally:
        started.stop()


def _play(args: argparse.Namespace, state: Path, started: Started) -> int:
    config = config_of(args)
    data_dir = data_dir_of(args)
    if args.tournament:
        return _play_event(args, config, data_dir, state)
    bots = config.bots if args.bots is None else args.bots
    check_flowers(args, args.rules or config.rules)
    pause = chosen_pause(args.bot_pause, config.bot_pause)
    level = chosen_level(args.bot_level, config.bot_level)
    target = choose_table(args, config, my_tables(data_dir), interactive=has_terminal())
    if not has_terminal() and not args.web:
        raise FourwindsError(
            "play needs a terminal for the table screen (scripts use "
            "`fourwinds host`, `join`, `status` and the move commands)"
        )
    seats = load_bot_seats(state, target.ref) if target.kind is Kind.RETURN else None
    solo = (target.kind is Kind.HOST and bots == 3) or (seats is not None and seats.count == 3)
    _say("connecting to your daemon (starting it if needed)...")
    plan = DaemonPlan(data_dir, state, args.port, tuple(args.peer))
    api, _ = ensure_daemon(plan, solo=solo and not args.peer)
    table = target.ref
    shown = False
    try:
        verbose = int(getattr(args, "verbose", 0) or 0)
        if target.kind is Kind.RETURN:
            _say(f"returning to table {target.name} (you sit there)")
            if seats is not None:
                _resume_bots(api, started, seats, verbose, pause)
        elif target.kind is Kind.JOIN:
            table = _join(api, target.ref, args.code)  # Ready is the player's own key
        else:
            table, seats = _host(
                api, args, config, target.ref, bots, started, solo, state, pause, level
            )
            if bots == 3:
                _ready_with_bots(api, table)
        if args.web:
            from fourwinds.frontends.web.launch import serve

            shown = True
            return serve(
                data_dir,
                state,
                table=table,
                verbose=verbose,
                bot_pause=pause,
                bot_level=level,
                say=lambda text: print(f"fourwinds web: {text}", flush=True),
            )
        from fourwinds.frontends.terminal.curses_table import run

        shown = True
        link = FollowedTable(
            DaemonTable(api, table),
            data_dir,
            lambda: _restart_daemon(plan, solo=solo and not args.peer),
        )
        try:
            return run(link, ascii_only=args.ascii or config.ascii)
        except curses.error as error:
            raise FourwindsError(f"the table screen cannot run here ({error})") from None
        except DaemonStopped as stopped:
            shown = False
            _say(str(stopped))
            return 0
        finally:
            api = link.api  # a new connection when the daemon was started again
            shown = shown and not link.down  # (Q while it was being started: no asking)
    finally:
        started.stop()  # our bot seats: they come back with the table
        if shown and is_running(data_dir):
            _after_screen(api, table, seats)
        api.close()


def _play_event(args: argparse.Namespace, config: Config, data_dir: str | None, state: Path) -> int:
    """`play --tournament EVENT`: the table screen on our table of each round as it comes
    (frontends/cli/tournament_play.py)."""
    if args.web:
        raise FourwindsError(
            "--tournament takes you to your tables in the terminal; in the "
            "browser, run `fourwinds web` and Show the event under "
            "Tournaments: its screen takes you to your table of each round"
        )
    if not has_terminal():
        raise FourwindsError(
            "play needs a terminal for the table screen (a bot entrant is "
            "`fourwinds bot --rules R --tournament EVENT`)"
        )
    from fourwinds.frontends.terminal.curses_table import run

    plan = DaemonPlan(data_dir, state, args.port, tuple(args.peer))
    api, _ = ensure_daemon(plan, solo=False)

    def open_table(table: str) -> int:
        nonlocal api
        link = FollowedTable(
            DaemonTable(api, table), data_dir, lambda: _restart_daemon(plan, solo=False)
        )
        try:
            return run(link, ascii_only=args.ascii or config.ascii)
        except curses.error as error:
            raise FourwindsError(f"the table screen cannot run here ({error})") from None
        finally:
            api = link.api

    try:
        return play_event(api, args.tournament, open_table, _say)
    except DaemonStopped as stopped:
        _say(str(stopped))
        return 0
    finally:
        api.close()


def _restart_daemon(plan: DaemonPlan, *, solo: bool) -> LocalApi:
    """Start the daemon again after it crashed under the open table screen, the way `play`
    starts it when none runs (it resumes the table from disk; the bot seats, still running,
    are reached at their addresses again); a connection to it."""
    log.warning("the daemon ended under the table screen: starting it again")
    api, _ = ensure_daemon(plan, solo=solo)
    return api


def has_terminal() -> bool:
    """Can the table screen open here (stdin and stdout a terminal)?"""
    return sys.stdin.isatty() and sys.stdout.isatty()


def my_tables(data_dir: str | None) -> list[Mine]:
    """The tables our daemon sits at: asked of the running daemon, else read from its data
    directory (the daemon resumes each of them when it starts)."""
    if is_running(data_dir):
        with contextlib.suppress(DaemonUnavailable):
            api = connect(data_dir, subscribe=False)
            try:
                answer = checked(api.request({"type": "tables"}))
            finally:
                api.close()
            # a director's daemon also sits at its event's bot seats: not the player's tables
            # (the table's metadata says so: ``is_bot_seat``, as read below without a daemon)
            return [
                Mine.listed(t)
                for t in answer.get("tables") or ()
                if isinstance(t, Mapping) and not t.get("bot_seat")
            ]
    return stored_tables_at(default_paths(data_dir).tables)


def stored_tables_at(root: Path) -> list[Mine]:
    """The player's tables read from a daemon's ``tables`` folder (no daemon runs): every
    table whose metadata can be read, less the bot seats of an event the daemon directs."""
    store = Store(root)
    found = []
    for table_id in store.table_ids():
        with contextlib.suppress(StoreError, KeyError, TypeError):
            meta = store.read_meta(table_id)
            if is_bot_seat(meta):  # the same rule as the daemon's answer's ``bot_seat``
                continue
            found.append(
                Mine(table_id.hex(), str(meta["name"]), str(meta["rules"]), len(meta["members"]))
            )
    return found


def _find(mine: Sequence[Mine], ref: str) -> Mine | None:
    """Our table named ``ref``, or with ``ref`` as its id (or the start of it)."""
    for table in mine:
        if ref in (table.name, table.table):
            return table
    starts = [t for t in mine if len(ref) >= 4 and t.table.startswith(ref.lower())]
    return starts[0] if len(starts) == 1 else None


def choose_table(
    args: argparse.Namespace, config: Config, mine: Sequence[Mine], *, interactive: bool
) -> Target:
    """Where `play` sits down (see the module's docstring)."""
    for wanted in (args.join, args.table):
        if wanted:
            found = _find(mine, wanted)
            if found is not None:
                return Target(Kind.RETURN, found.table, found.name)
            return Target(Kind.JOIN if wanted == args.join else Kind.HOST, wanted, wanted)
    if len(mine) == 1:
        return Target(Kind.RETURN, mine[0].table, mine[0].name)
    if mine:
        preferred = _find(mine, config.table) if config.table else None
        if preferred is not None:
            return Target(Kind.RETURN, preferred.table, preferred.name)
        if not interactive:
            names = ", ".join(t.name for t in mine)
            raise FourwindsError(f"you sit at several tables ({names}): play --table NAME")
        chosen = _ask(mine)
        return Target(Kind.RETURN, chosen.table, chosen.name)
    return Target(Kind.HOST, config.table or "")


def _ask(mine: Sequence[Mine]) -> Mine:
    """List our tables and ask which one (on the terminal)."""
    print("You sit at several tables:", file=sys.stderr)
    for number, table in enumerate(mine, 1):
        print(
            f"  {number}. {table.name}  ({table.rules}, {table.seated}/4 seated, "
            f"id {table.table[:8]})",
            file=sys.stderr,
        )
    try:
        answer = input(f"Which table (1-{len(mine)} or its name)? ").strip()
    except EOFError:
        answer = ""
    if answer.isdigit() and 1 <= int(answer) <= len(mine):
        return mine[int(answer) - 1]
    found = _find(mine, answer) if answer else None
    if found is None:
        raise FourwindsError(f"no table {answer!r} among yours: play --table NAME")
    return found


def _say(text: str) -> None:
    """Progress before the table screen opens (stderr, so stdout stays clean)."""
    print(f"fourwinds play: {text}", file=sys.stderr, flush=True)


def _resume_bots(
    api: LocalApi, started: Started, seats: BotSeats, verbose: int, pause: float
) -> None:
    """Restart the bot seats of a table we return to (those not running already: the table
    may be open in another terminal)."""
    if any(is_running(str(seats.home / f"bot{i}")) for i in range(1, seats.count + 1)):
        return
    port = int(checked(api.request({"type": "status"}))["port"])
    resume_bot_seats(started, seats, host_port=port, verbose=verbose, pause=pause, say=_say)


def _join(api: LocalApi, ref: str, code: str | None) -> str:
    """Join ``ref`` once our daemon sees it (waiting up to JOIN_WAIT_S, with progress)."""
    _wait_until_seen(api, ref)
    request: dict[str, Any] = {"type": "join", "table": ref}
    if code:
        request["code"] = code
    _say(f"joining table {ref}...")
    # the daemon may take up to ~13 s: the client waits longer for a join (timeout_for)
    answer = api.request(request)
    return str(checked(answer).get("table") or ref)


def _wait_until_seen(api: LocalApi, ref: str) -> None:
    def seen() -> bool:
        tables = checked(api.request({"type": "tables"})).get("seen") or ()
        return any(
            isinstance(t, Mapping)
            and (
                ref in (t.get("name"), t.get("table"))
                or (len(ref) >= 4 and str(t.get("table", "")).startswith(ref))
            )
            for t in tables
        )

    wait_until_seen(Sought("table", ref, "`fourwinds tables`", "host"), seen, _say)


def _ready_with_bots(api: LocalApi, table: str) -> None:
    """Say ready at a table of the player and three bots (frontends/client/ready_with_bots.py)."""
    end = time.monotonic() + READY_WAIT_S
    while ready_not_yet(api.request({"type": "ready", "table": table})) and time.monotonic() < end:
        time.sleep(READY_RETRY_S)


def _free_name(api: LocalApi, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... when this daemon already sits at that table."""
    taken = {
        str(t.get("name"))
        for t in checked(api.request({"type": "tables"})).get("tables") or ()
        if isinstance(t, dict)
    }
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def _host(
    api: LocalApi,
    args: argparse.Namespace,
    config: Config,
    name: str,
    bots: int,
    started: Started,
    solo: bool,
    state: Path,
    pause: float,
    level: BotLevel = BotLevel.NORMAL,
) -> tuple[str, BotSeats | None]:
    """Host a new table and seat the bots; a solo table (three bots) is not announced."""
    rules = args.rules or config.rules
    options = table_options(args, rules, solo=solo)
    card = args.card or config.card
    if card:
        try:
            options["card_text"] = Path(card).read_text(encoding="utf-8")
        except OSError as error:
            raise FourwindsError(f"cannot read card file {card}: {error.strerror}") from None
        options["card_name"] = Path(card).stem
    name = name or _free_name(api, f"{player_name(config)}-table")
    _say(f"hosting table {name} ({rules}, {options['deck']} deck)...")
    request: dict[str, Any] = {
        "type": "create",
        "name": name,
        "rules": rules,
        "private": args.private,
        "options": options,
    }
    if solo:
        request["listed"] = False
    answer = checked(api.request(request))
    table = str(answer.get("table") or name)
    code = str(answer["code"]) if answer.get("code") else None
    if code:
        print(f"private table {name}: players join with code {code}", file=sys.stderr)
    if not bots:
        return table, None
    try:
        port = int(checked(api.request({"type": "status"}))["port"])
        key = str(checked(api.request({"type": "whoami"})).get("public_key"))
        seats = seat_new_bots(
            started,
            state,
            table=table,
            rules=rules,
            count=bots,
            host_port=port,
            host_key=key,
            code=code,
            verbose=int(getattr(args, "verbose", 0) or 0),
            pause=pause,
            level=level,
            say=_say,
        )
    except BaseException:  # a table short of its bots is no use: do not leave it behind
        started.stop()
        with contextlib.suppress(FourwindsError, OSError):
            api.request({"type": "leave", "table": table, "force": True})
        half = load_bot_seats(state, table)
        if half is not None:
            forget_bot_seats(half)
        raise
    return table, seats


def _after_screen(api: LocalApi, table: str, seats: BotSeats | None) -> None:
    """After the screen closed: a finished match is left (and its bot seats' data removed);
    a table left from the lobby (L) forgets its bot seats; otherwise say how to come back."""
    try:
        tables = checked(api.request({"type": "tables"})).get("tables") or ()
        if not any(
            isinstance(t, Mapping) and table in (t.get("table"), t.get("name")) for t in tables
        ):
            if seats is not None:
                forget_bot_seats(seats)
            _say("you left the table")
            return
        phase = current_view(api, table)["view"].get("phase")
        if phase == "match_over":
            checked(api.request({"type": "leave", "table": table}))
            if seats is not None:
                forget_bot_seats(seats)
            _say("the match is over; you left the table")
            return
    except (FourwindsError, OSError) as error:
        log.info("after the screen: %s", error)
        return
    _say(
        "your daemon keeps your seat: `fourwinds play` returns to the table, "
        "`fourwinds stop` stops the daemon"
    )
