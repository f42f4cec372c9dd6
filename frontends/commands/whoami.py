"""`fourwinds whoami`: this player's key fingerprint (creating the identity if needed)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "whoami", help="print your identity key fingerprint")
    parser.add_argument("--data-dir", help="the daemon's data directory")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from fourwinds.daemon.identity import load_or_create_identity
    from fourwinds.daemon.paths import default_paths

    identity = load_or_create_identity(default_paths(args.data_dir).identity)
    print(identity.fingerprint)
    return 0
