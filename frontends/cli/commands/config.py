"""`fourwinds config path|show|init`: the player's config file (frontends/cli/player_config.py)."""

from __future__ import annotations

import argparse
from typing import Any

from fourwinds.frontends.cli.player_config import (
    config_path,
    config_template,
    config_text,
    load_config,
)
from fourwinds.protocol.errors import FourwindsError


def register(sub: Any) -> None:
    parser = sub.add_parser("config", help="where the config file is, what it says, make one")
    parser.add_argument(
        "what",
        choices=["path", "show", "init"],
        help="path: print its location; show: the settings in effect; "
        "init: write a commented starting file",
    )
    parser.add_argument("--name", help="with init: your player name")
    parser.set_defaults(handler=cmd_config)


def cmd_config(args: argparse.Namespace) -> int:
    path = config_path()
    if args.what == "path":
        print(path)
        return 0
    if args.what == "show":
        print(f"# {path}{'' if path.exists() else ' (not there: defaults)'}")
        print(config_text(load_config(path)), end="")
        return 0
    if path.exists():
        raise FourwindsError(f"{path} exists already; edit it, or remove it first")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(config_template(args.name), encoding="utf-8")
    print(f"wrote {path}")
    return 0
