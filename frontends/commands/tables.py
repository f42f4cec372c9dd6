"""`fourwinds tables`: the tables you sit at and those the daemon sees on the network."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tables", help="list tables: yours and those announced nearby")
    parser.add_argument("--data-dir", help="the daemon's data directory")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from fourwinds.frontends.cli import UsageError
    from fourwinds.frontends.client import connect

    try:
        client = connect(args.data_dir, subscribe=False, timeout=5.0)
    except ConnectionError as error:
        raise UsageError(str(error)) from None
    try:
        answer = client.request({"type": "tables"})
    finally:
        client.close()
    if not answer.get("ok"):
        raise UsageError(str(answer.get("error")))
    if args.json:
        print(json.dumps({k: answer[k] for k in ("tables", "seen", "peers")}))
        return 0
    print("Your tables:" if answer["tables"] else "You sit at no table.")
    for t in answer["tables"]:
        code = f"  code {t['code']}" if t.get("code") else ""
        print(f"  {t['name']:<20} {t['rules']:<9} {t['seated']}/4 seated  "
              f"{t['table'][:8]}{code}")
    print("Seen nearby:" if answer["seen"] else "No other tables seen (yet).")
    for t in answer["seen"]:
        flag = "" if t["compatible"] else f"  (needs protocol version {t['version']})"
        lock = " private" if t["private"] else ""
        print(f"  {t['name']:<20} {t['rules']:<9} {t['free']} free{lock}  "
              f"host {t['fingerprint']} at {t['host']}:{t['port']}{flag}")
    for peer in answer["peers"]:
        if "error" in peer:
            print(f"  peer: {peer['error']}")
    return 0
