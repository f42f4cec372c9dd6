"""`fourwinds leave [TABLE]`: give up your place at a table for good.

Which table: TABLE (its name, id or the start of the id); without it the one table you sit
at; at several, the list and a question on a terminal, else an error naming them.

What it does (the daemon's ``leave`` request, docs/LOCAL-API.md "Leaving a table"):

* a lobby you joined: at once; the host frees the place for the next joiner and the
  others' lobbies show it free;
* a match in progress, or a lobby you host with others in it: the daemon says what leaving
  does to the others (the table waits for your seat for ever / closes for them); on a
  terminal you are asked to confirm, elsewhere ``--force`` is needed;
* a finished match, or a table with nobody else: at once.

The table's folder is kept (``left-<id>``: `fourwinds export`, `history`); `fourwinds play`
no longer returns to it. The bot seats `play` seated there are forgotten.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fourwinds.frontends.cli.cli_common import config_of, data_dir_of, emit, state_dir_of
from fourwinds.frontends.cli.commands.play import Mine
from fourwinds.frontends.client.daemon_link import LocalApi, checked, connect
from fourwinds.frontends.client.local_seats import (
    DaemonPlan,
    SoloBusy,
    ensure_daemon,
    forget_bot_seats,
    is_running,
    load_bot_seats,
)
from fourwinds.protocol.errors import FourwindsError

Ask = Callable[[str], str]


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "leave", help="give up your place at a table for good (a lobby's seat is freed)"
    )
    parser.add_argument(
        "table",
        nargs="?",
        metavar="TABLE",
        help="the table's name or id (default: the one table you sit at)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="leave a match in progress (the others cannot go on) or close "
        "a lobby you host, without asking",
    )
    parser.add_argument("--data-dir", metavar="DIR", help="the daemon's data directory")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.set_defaults(handler=cmd_leave)


def seated_tables(api: LocalApi) -> list[Mine]:
    """The tables our daemon sits at, with what leaving each does to the others."""
    answer = checked(api.request({"type": "tables"}))
    return [Mine.listed(t) for t in answer.get("tables") or () if isinstance(t, Mapping)]


def pick_table(tables: Sequence[Mine], wanted: str | None, ask: Ask | None) -> Mine:
    """The table to leave: ``wanted`` (name, id or its start), else the only one; at several,
    ``ask`` (a terminal's question) chooses, or without one the error names them."""
    if not tables:
        raise FourwindsError("you sit at no table")
    if wanted:
        found = [t for t in tables if wanted in (t.name, t.table)] or [
            t for t in tables if len(wanted) >= 4 and t.table.startswith(wanted.lower())
        ]
        if len(found) != 1:
            names = ", ".join(t.name for t in tables)
            raise FourwindsError(f"you sit at no table {wanted!r} (yours: {names})")
        return found[0]
    if len(tables) == 1:
        return tables[0]
    names = ", ".join(t.name for t in tables)
    if ask is None:
        raise FourwindsError(f"you sit at several tables ({names}): fourwinds leave TABLE")
    lines = ["You sit at several tables:"] + [
        f"  {n}. {t.name}  ({t.rules}, {t.seated}/4 seated, id {t.table[:8]})"
        for n, t in enumerate(tables, 1)
    ]
    answer = ask("\n".join(lines) + f"\nLeave which table (1-{len(tables)} or its name)? ")
    answer = answer.strip()
    if answer.isdigit() and 1 <= int(answer) <= len(tables):
        return tables[int(answer) - 1]
    chosen = [t for t in tables if answer and answer in (t.name, t.table)]
    if len(chosen) != 1:
        raise FourwindsError(f"no table {answer!r} among yours ({names}); nothing left")
    return chosen[0]


def confirmed(table: Mine, force: bool, ask: Ask | None) -> bool:
    """May we leave ``table``? Yes without a warning or with ``--force``; at a terminal the
    player answers y; without one the warning is the error, with the ``--force`` to add."""
    if not table.warning or force:
        return True
    if ask is None:
        raise FourwindsError(
            f"{table.warning}; to leave anyway: fourwinds leave {table.name} --force"
        )
    answer = ask(
        f"{table.warning[0].upper()}{table.warning[1:]}.\nLeave {table.name} for good? [y/N] "
    )
    return answer.strip().lower() in ("y", "yes")


def _terminal_ask(prompt: str) -> str:
    """A question on the terminal (the prompt on stderr, so stdout stays the answer)."""
    head, _, last = prompt.rpartition("\n")
    if head:
        print(head, file=sys.stderr)
    try:
        print(last, end="", file=sys.stderr, flush=True)
        return input()
    except EOFError:
        return ""


def has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _daemon(args: argparse.Namespace) -> LocalApi:
    """The running daemon, else one started as `tables` starts it (on the network, so the
    host hears of the leave; a table's folder is the daemon's to move)."""
    data_dir = data_dir_of(args)
    if is_running(data_dir):
        return connect(data_dir, subscribe=False)
    try:
        api, _ = ensure_daemon(DaemonPlan(data_dir, state_dir_of(args), config_of(args).port))
    except SoloBusy:  # started meanwhile for a solo table being played: that one
        return connect(data_dir, subscribe=False)
    return api


def cmd_leave(args: argparse.Namespace) -> int:
    """JSON: ``{"ok": true, "table", "name", "seated", "others"}`` (``seated``: the match's
    places were fixed, so the others now wait for this seat), or ``{"ok": false, "left":
    false}`` when the player said no."""
    ask: Ask | None = _terminal_ask if has_terminal() and not args.json else None
    api = _daemon(args)
    try:
        table = pick_table(seated_tables(api), args.table, ask)
        if not confirmed(table, args.force, ask):
            emit(args, [f"you still sit at {table.name}"], {"ok": False, "left": False})
            return 1
        answer = checked(
            api.request(
                {"type": "leave", "table": table.table, "force": bool(args.force or table.warning)}
            )
        )
    finally:
        api.close()
    seats = load_bot_seats(state_dir_of(args), table.table)
    if seats is not None:
        with contextlib.suppress(OSError):
            forget_bot_seats(seats)
    human = [f"you left {table.name}"]
    if table.warning and answer.get("seated"):
        human.append("the others were told; the table cannot go on without your seat")
    elif table.warning:
        human.append("the table is closed; the others were told")
    elif answer.get("others"):
        human.append("your place is free again for someone else")
    emit(args, human, answer)
    return 0
