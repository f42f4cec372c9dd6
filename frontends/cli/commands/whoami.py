"""`fourwinds whoami`: this player's key fingerprint and name (creating the identity if
needed). The first line is the fingerprint alone, for scripts."""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.cli_common import config_of, data_dir_of


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "whoami", help="print your identity key fingerprint and player name"
    )
    parser.add_argument("--data-dir", help="the daemon's data directory")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from fourwinds.daemon.paths import default_paths
    from fourwinds.daemon.peers.identity import load_or_create_identity
    from fourwinds.frontends.cli.player_config import player_name

    identity = load_or_create_identity(default_paths(data_dir_of(args)).identity)
    print(identity.fingerprint)
    print(f"name: {player_name(config_of(args))}")
    return 0
