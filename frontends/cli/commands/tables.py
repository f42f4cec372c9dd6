"""`fourwinds tables`: the tables you sit at and those the daemon sees on the network.

With no daemon running it starts yours (as `play` would: on the network, detached; `fourwinds
stop` stops it) and gives mDNS a few seconds to hear the tables nearby.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from fourwinds.frontends.cli.cli_common import config_of, data_dir_of, state_dir_of
from fourwinds.frontends.client.daemon_link import LocalApi, checked, connect
from fourwinds.frontends.client.local_seats import DaemonPlan, SoloBusy, ensure_daemon, runs_solo
from fourwinds.protocol.text import shown_name

FIRST_LOOK_S = 5.0


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tables", help="list tables: yours and those announced nearby (starts your daemon)"
    )
    parser.add_argument("--data-dir", help="the daemon's data directory")
    parser.add_argument(
        "--wait",
        type=float,
        metavar="SECONDS",
        help="first wait up to SECONDS for a table to be seen nearby "
        f"(default: {FIRST_LOOK_S:.0f} when the daemon was just started, "
        "else 0)",
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help="your daemon's peer port, when this starts it (default: config, then 7420)",
    )
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="HOST:PORT",
        help="also ask this daemon directly (where multicast is blocked)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    data_dir = data_dir_of(args)
    try:
        api, process = ensure_daemon(
            DaemonPlan(
                data_dir,
                state_dir_of(args),
                args.port if args.port is not None else config_of(args).port,
                tuple(args.peer),
            )
        )
    except SoloBusy:  # its solo table is being played: list what it has
        api, process = connect(data_dir, subscribe=False), None
    fresh = process is not None
    if fresh:
        print(
            "fourwinds: started your daemon (`fourwinds stop` stops it)",
            file=sys.stderr,
            flush=True,
        )
    try:
        wait = args.wait if args.wait is not None else (FIRST_LOOK_S if fresh else 0.0)
        answer = _look(api, max(0.0, wait), bool(args.peer))
    finally:
        api.close()
    if args.json:
        print(
            json.dumps(
                {
                    **{k: answer[k] for k in ("tables", "seen", "peers")},
                    "set_aside": answer.get("set_aside") or [],
                }
            )
        )
        return 0
    # the rules column as wide as its longest entry ("MCR, no flowers"), the same in every list
    every = [*answer["tables"], *(answer.get("set_aside") or ()), *answer["seen"]]
    width = max([9, *(len(_rules(t)) for t in every)])
    print("Your tables:" if answer["tables"] else "You sit at no table.")
    for t in answer["tables"]:
        code = f"  code {t['code']}" if t.get("code") else ""
        print(
            f"  {t['name']:<20} {_rules(t):<{width}} {t['seated']}/4 seated  {t['table'][:8]}{code}"
        )
    for t in answer.get("set_aside") or ():  # not resumed: docs/DAEMON.md says why
        print(
            f"  {t['name']:<20} {_rules(t):<{width}} set aside: {t['set_aside']} "
            f"(kept in {t['folder']})"
        )
    if runs_solo(data_dir):
        print(
            "Your daemon runs for solo play (127.0.0.1 only) and sees no other tables: "
            "`fourwinds stop`, then `fourwinds tables` again."
        )
        return 0
    print("Seen nearby:" if answer["seen"] else "No other tables seen (yet).")
    for t in answer["seen"]:
        flag = "" if t["compatible"] else f"  (needs protocol version {t['version']})"
        lock = " private" if t["private"] else ""
        free = "full" if t["free"] <= 0 else f"{t['free']} free"
        # the host by name (an older daemon announces none: its address alone); the key's
        # fingerprint belongs where trust is decided (pairing, whoami)
        host = f"{t['player']} " if t.get("player") else ""
        print(
            f"  {t['name']:<20} {_rules(t):<{width}} {free}{lock}  "
            f"host {host}at {t['host']}:{t['port']}{flag}"
        )
    for peer in answer["peers"]:
        if "error" in peer:
            print(f"  peer: {peer['error']}")
    return 0


def _rules(table: Mapping[str, Any]) -> str:
    """The rule set as the daemon's lobby data words it ("MCR, no flowers"; an older daemon
    gives the rules name alone), checked and cut as every name from the daemon is."""
    return shown_name(str(table.get("rules_label") or table.get("rules") or "?"), 24)


def _look(api: LocalApi, wait: float, peers: bool = False) -> dict[str, Any]:
    """The daemon's ``tables`` answer, asked again (up to ``wait`` seconds, with progress on
    stderr) until some table is seen nearby."""
    start = time.monotonic()
    said = False
    while True:
        answer = checked(api.request({"type": "tables"}))
        if answer.get("seen") or time.monotonic() - start >= wait + 0.5 * bool(peers):
            if said:
                print(file=sys.stderr)
            return answer
        if not said:
            print(
                f"fourwinds: looking for tables nearby (up to {wait:.0f} s)",
                end="",
                file=sys.stderr,
                flush=True,
            )
            said = True
        print(".", end="", file=sys.stderr, flush=True)
        time.sleep(0.5)
