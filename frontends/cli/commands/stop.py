"""`fourwinds stop`: stop your daemon (and the daemons of any bot seats `play` left running).

Your seats stay yours: the daemon resumes every table from disk when it starts again (`play`
starts it). "no daemon is running" when there is none (exit status 0: nothing to stop).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fourwinds.frontends.cli.cli_common import data_dir_of, state_dir_of
from fourwinds.frontends.client.daemon_link import DaemonUnavailable, connect
from fourwinds.frontends.client.local_seats import bot_daemon_dirs, is_running, stop_running


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "stop", help="stop your daemon (it keeps your seats: `play` starts it again)"
    )
    parser.add_argument("--data-dir", help="the daemon's data directory")
    parser.set_defaults(handler=_run)


def _stop(data_dir: str | None) -> int | None:
    """Stop the daemon of ``data_dir``; its pid, or None when none was running."""
    if not is_running(data_dir):
        return None
    try:
        api = connect(data_dir, subscribe=False, any_build=True)  # an older one too
    except DaemonUnavailable:
        return None
    try:
        return stop_running(api, data_dir) or 0
    except DaemonUnavailable as error:  # said, and the other daemons are still stopped
        print(f"fourwinds: {error}", file=sys.stderr)
        return None
    finally:
        api.close()


def _run(args: argparse.Namespace) -> int:
    data_dir = data_dir_of(args)
    bots = sum(1 for seat in bot_daemon_dirs(state_dir_of(args)) if _stop(str(seat)))
    pid = _stop(data_dir)
    seats = f"{bots} bot seat{'s' if bots > 1 else ''}"
    if pid is None:
        print(f"no daemon is running; stopped {seats}" if bots else "no daemon is running")
    else:
        print(
            f"stopped your daemon{f' (pid {pid})' if pid else ''}{f' and {seats}' if bots else ''}"
        )
    return 0
