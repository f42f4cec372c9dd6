"""What the scriptable commands share: daemon options, finding the table, printing results.

Every table command is a thin request to the local daemon. Human output by default; with
``--json`` exactly one JSON object on stdout (the shape each command documents), so scripts
can parse it. Errors still print one line on stderr and exit 2 (see cli.py).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import platformdirs

from fourwinds.frontends.cli.action_pick import normalize_tiles, pick_action, request_for
from fourwinds.frontends.cli.player_config import Config, load_config
from fourwinds.frontends.client.acting import rack_tiles
from fourwinds.frontends.client.daemon_link import LocalApi, checked, connect, current_view
from fourwinds.frontends.client.view_shapes import ViewEvent
from fourwinds.frontends.terminal.table_panels import seat_label
from fourwinds.frontends.terminal.table_result import result_lines
from fourwinds.protocol.errors import FourwindsError

Message = dict[str, Any]


def add_daemon_options(parser: argparse.ArgumentParser, *, table: bool = True) -> None:
    """``--data-dir`` (which daemon), ``--table``, ``--json``."""
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the daemon's data directory (default: config file, then the user's data directory)",
    )
    if table:
        parser.add_argument(
            "--table", metavar="NAME", help="the table (default: the one table you sit at)"
        )
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")


def config_of(args: argparse.Namespace) -> Config:
    """The config file's defaults (loaded once per command)."""
    cached: Config | None = getattr(args, "_config", None)
    if cached is None:
        cached = load_config()
        args._config = cached
    return cached


def data_dir_of(args: argparse.Namespace) -> str | None:
    """The daemon's data directory: ``--data-dir``, else the config file's, else None (the
    platform's)."""
    given: str | None = getattr(args, "data_dir", None)
    return given or config_of(args).data_dir


def state_dir_of(args: argparse.Namespace) -> Path:
    """Where `play` keeps its log, the daemon's log and its bot seats: the data directory
    when one is given, else the platform's state directory."""
    data_dir = data_dir_of(args)
    if data_dir:
        return Path(data_dir).expanduser()
    return Path(platformdirs.user_state_dir("fourwinds", appauthor=False))


def open_api(args: argparse.Namespace, *, subscribe: bool = False) -> LocalApi:
    """The local daemon's API for this command's ``--data-dir`` (``subscribe``: with the
    stream of view events, for commands that wait or keep playing)."""
    return connect(data_dir_of(args), subscribe=subscribe)


def table_name(api: LocalApi, args: argparse.Namespace) -> str:
    """``--table``, else the config's table, else the only table this daemon sits at."""
    if getattr(args, "table", None):
        return str(args.table)
    if config_of(args).table:
        return str(config_of(args).table)
    return only_table(api)


def only_table(api: LocalApi) -> str:
    """The name (or id) of the one table this daemon is at; an error naming them otherwise."""
    answer = checked(api.request({"type": "tables"}))
    tables = [t for t in answer.get("tables") or () if isinstance(t, Mapping)]
    if len(tables) == 1:
        return str(tables[0].get("name") or tables[0].get("table"))
    if not tables:
        raise FourwindsError("you are at no table: `fourwinds host` or `fourwinds join` first")
    names = ", ".join(str(t.get("name") or t.get("table")) for t in tables)
    raise FourwindsError(f"you are at several tables ({names}): say --table NAME")


def emit(args: argparse.Namespace, human: Iterable[str], data: Mapping[str, Any]) -> None:
    """Print the human lines, or the JSON object with ``--json``."""
    if getattr(args, "json", False):
        print(json.dumps(dict(data), sort_keys=True))
    else:
        for line in human:
            print(line)


def act_command(
    args: argparse.Namespace,
    types: Sequence[str],
    *,
    words: Sequence[str] = (),
    tiles: Sequence[str] = (),
    what: str,
) -> int:
    """Read the table's view, pick the one legal action meant, send it, report the answer.

    JSON: ``{"ok": true, "table", "seq", "action": {...}, "tiles": [...]}``.
    """
    api = open_api(args)
    try:
        table = table_name(api, args)
        event = current_view(api, table)
        action, chosen = pick_action(
            event, types, words=words, tiles=normalize_tiles(tiles), what=what
        )
        checked(api.request(request_for(event, action, chosen)))
    finally:
        api.close()
    label = str(action.get("label") or action.get("type"))
    emit(
        args,
        [f"{label}{' ' + ' '.join(chosen) if chosen else ''}: done"],
        {
            "ok": True,
            "table": table,
            "seq": event.get("seq"),
            "action": dict(action),
            "tiles": chosen,
        },
    )
    return 0


def status_lines(event: ViewEvent) -> list[str]:
    """A table's view as plain lines (`fourwinds status`)."""
    view = event["view"]
    seat = view.get("seat")  # None while the hand is being seated (the dice)
    you = "your wind is not dealt yet" if seat is None else f"you are {seat_label(int(seat))}"
    lines = [
        f"table {view.get('table', event.get('table'))} ({view.get('rules')}), hand "
        f"{view.get('hand_number')}/{view.get('hands_in_match')}, {you}, "
        f"wall {view.get('wall_remaining')}",
        f"phase: {view.get('phase_detail') or view.get('phase')}",
    ]
    waiting = view.get("waiting")
    if isinstance(waiting, dict) and waiting.get("text"):
        lines[-1] += f" ({waiting['text']})"  # whom the table waits for, not "0s left"
    elif (deadline := view.get("deadline")) is not None:
        lines[-1] += f" ({float(deadline):.0f}s left)"
    for player in view.get("players") or ():
        seat = int(player.get("seat", 0))
        text = (
            f"{seat_label(seat):<5} {player.get('name', '?')!s:<12} "
            f"{int(player.get('score', 0)):>5}  {player.get('concealed_count')} tiles"
        )
        melds = [
            " ".join(m.get("tiles") or ()) + f" ({m.get('label')})"
            for m in player.get("exposures") or ()
        ]
        if melds:
            text += "  exposed: " + ", ".join(melds)
        if player.get("discards"):
            text += "  discards: " + " ".join(player["discards"])
        lines.append(text)
    lines.extend(hand_lines(event))
    if view.get("result"):
        lines.extend(result_lines(view, 100, False, True))
    lines.extend(legal_lines(event))
    return lines


def hand_lines(event: ViewEvent) -> list[str]:
    """Our rack, the tile just drawn and the hints."""
    view = event["view"]
    text = "hand: " + " ".join(rack_tiles(view))
    if view.get("drawn"):
        text += f"  (drew {view['drawn']})"
    return [text, *("hint: " + str(h) for h in view.get("hints") or ())]


def legal_lines(event: ViewEvent) -> list[str]:
    """The legal actions, one a line, with their ids (`fourwinds act ID`)."""
    legal = list(event.get("legal_actions") or ())
    if not legal:
        return ["legal: nothing to do now"]
    lines = ["legal:"]
    for action in legal:
        text = f"  {action.get('id')}: {action.get('label') or action.get('type')}"
        if "choose" in action:
            text += f" (choose {action['choose']} of {' '.join(action.get('tiles') or ())})"
        if action.get("default"):
            text += " [default]"
        lines.append(text)
    return lines


def setup_logging(args: argparse.Namespace, log_file: Path | None = None) -> None:
    """Logging for the long-running commands: warnings by default, ``-v`` info, ``-vv``
    debug; to ``log_file`` instead of stderr when a screen owns the terminal (curses)."""
    verbose = int(getattr(args, "verbose", 0) or 0)
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    handler: logging.Handler
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.set_name("fourwinds")
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if h.get_name() != "fourwinds"] + [handler]
    root.setLevel(level)


def fail(message: str) -> int:
    """One line on stderr, exit status 1 (a refusal that is not the user's typing)."""
    print(f"fourwinds: {message}", file=sys.stderr)
    return 1
