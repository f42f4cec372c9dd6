"""The player's config file: name and default options, TOML in the user's config directory.

``$FOURWINDS_CONFIG`` names another file (tests, several players on one machine). Every
command reads the same file (``fourwinds daemon`` too, and the daemon `play` starts); the keys
and what they mean are in ``TEMPLATE``, which ``fourwinds config init`` writes.

Command-line options win over the file; a bad file is one clear error naming the file, key
and problem (never a traceback).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from fourwinds.daemon.checks import (
    MAX_PORT,
    PLAYER_NAME_LIMIT,
    BadInput,
    local_name,
    parse_host_port,
)
from fourwinds.frontends.bots.bot_pause import DEFAULT_BOT_PAUSE, pause_problem
from fourwinds.protocol.bot_level import parse_level
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.machine.options import OLD_OPTION_NAMES
from fourwinds.protocol.table.rules.registry import PLAYED_BY_DEFAULT, rule_names

APP = "fourwinds"


class ConfigError(FourwindsError):
    """The config file cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Config:
    """Defaults for the commands; every field is optional in the file."""

    name: str | None = None
    rules: str = PLAYED_BY_DEFAULT
    card: str | None = None
    bots: int = 3
    ascii: bool = False
    table: str | None = None
    data_dir: str | None = None
    peers: tuple[str, ...] = ()
    port: int | None = None
    call_window: float | None = None
    turn_window: float | None = None
    exchange_window: float | None = None
    next_window: float | None = None
    bot_pause: float = DEFAULT_BOT_PAUSE
    bot_level: str = "normal"
    flowers: bool = True


WINDOWS = ("call_window", "turn_window", "exchange_window", "next_window")
OLD_KEYS = OLD_OPTION_NAMES
"""Deprecated config keys, by the key they stand for (``charleston_window``: the table
option's name before it was ``exchange_window``), still read."""
DEFAULT_PORT = 7420

TEMPLATE = """\
# fourwinds config file (TOML). Every key is optional: remove the "# " before a key to set it.
# Command-line options win over this file. `fourwinds config show` prints what is in effect.

# Your player name as the other seats see it (default: your login name).
# name = {name}

# Rule set for `play`, `host` and `bot`: "american" or "mcr" (Chinese Official).
# rules = "american"

# American card file for the tables you host (default: the house card).
# card = "~/cards/2026.card"

# Seats `fourwinds play` fills with bots when it hosts a table (0 to 3).
# bots = 3

# Tiles as letter codes instead of Unicode glyphs (for terminals without Mahjong glyphs).
# ascii = false

# The table `play` hosts (its name) and the table commands such as `status` use.
# table = "kitchen"

# Your daemon's data directory: identity key and tables (default: the platform's, e.g.
# ~/.local/share/fourwinds).
# data_dir = "~/fourwinds"

# Daemons to reach directly where multicast (mDNS) is blocked, e.g. at a venue.
# peers = ["10.0.4.17:7420"]

# Your daemon's peer port on the network (it also uses the next one; default 7420).
# port = 7420

# Timers of the tables you host, in seconds (leave them out for the table's defaults).
# call_window: how long each player may think about calling a discard (default 8).
# call_window = 8
# turn_window: how long a player may take to discard (default 0 = no timer).
# turn_window = 0
# exchange_window: how long each pass of the exchange before play may take, where the
# rule set has one: American's Charleston (default 60; charleston_window, its old name, is
# still read).
# exchange_window = 60
# next_window: how long the end-of-hand screen waits for every player's "next"
# (default 60; 0 = until everyone says next).
# next_window = 60

# Seconds each bot waits before it discards, calls or passes at a table where you play
# (`play`, the web page's bots), so you can follow them; never so long that it is late
# (at most a quarter of the time left to decide). 0 = no pause. Bots at tables with no
# person (`fourwinds bot`, benchmarks) never wait.
# bot_pause = 1

# How well the built-in bots play at your tables (`play`, the web page's bots):
# easy, normal or strong.
# bot_level = "normal"

# MCR tables you host (`play`, `host`) with the flowers and seasons (true) or without them
# (false: 136 tiles, no flower points, as many Botzone bots were trained; --no-flowers for
# one table). American tables always have their flowers: there this key is not used.
# flowers = true
"""


def config_path() -> Path:
    """Where the config file is read from."""
    override = os.environ.get("FOURWINDS_CONFIG")
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP, appauthor=False)) / "config.toml"


_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "rules": (str,),
    "card": (str,),
    "bots": (int,),
    "ascii": (bool,),
    "table": (str,),
    "data_dir": (str,),
    "peers": (list,),
    "port": (int,),
    **{window: (int, float) for window in WINDOWS},
    "bot_pause": (int, float),
    "bot_level": (str,),
    "flowers": (bool,),
}


_KIND_NAMES = {
    str: "a string",
    int: "an integer",
    bool: "true or false",
    list: "a list",
    float: "a number",
}


def parse_config(text: str, source: str = "<config>") -> Config:
    """Read and check a config file's text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {source}: {error}") from error
    known = {f.name for f in fields(Config)}
    values: dict[str, Any] = {}
    for old, new in OLD_KEYS.items():
        if old in data and new in data:
            raise ConfigError(f"config file {source}: {old!r} is the old name of {new!r}: keep one")
    for given, value in data.items():
        key = OLD_KEYS.get(given, given)
        if key not in known:
            raise ConfigError(
                f"config file {source}: unknown key {given!r} (known: {', '.join(sorted(known))})"
            )
        wanted = _TYPES[key]
        if not isinstance(value, wanted) or (int in wanted and isinstance(value, bool)):
            raise ConfigError(
                f"config file {source}: {given!r} must be {_KIND_NAMES[wanted[-1]]}, "
                f"not {type(value).__name__}"
            )
        numeric = key in WINDOWS or key == "bot_pause"
        values[key] = float(value) if numeric and isinstance(value, int | float) else value
    if values.get("rules", PLAYED_BY_DEFAULT) not in rule_names():
        raise ConfigError(f"config file {source}: 'rules' must be one of {', '.join(rule_names())}")
    if not 0 <= values.get("bots", 3) <= 3:
        raise ConfigError(f"config file {source}: 'bots' must be 0 to 3")
    if "name" in values:
        try:  # control characters removed, as everywhere a name enters (daemon/checks.py)
            values["name"] = local_name(values["name"], "name", PLAYER_NAME_LIMIT)
        except BadInput:
            raise ConfigError(
                f"config file {source}: 'name' must be 1 to {PLAYER_NAME_LIMIT} characters"
            ) from None
    if not 0 <= values.get("port", DEFAULT_PORT) <= 65534:
        raise ConfigError(f"config file {source}: 'port' must be 0 to 65534")
    for window in WINDOWS:
        problem = window_problem(window, values.get(window))
        if problem:
            raise ConfigError(f"config file {source}: {window!r} {problem}")
    problem = pause_problem(values.get("bot_pause"))
    if problem:
        raise ConfigError(f"config file {source}: 'bot_pause' {problem}")
    if "bot_level" in values:
        try:
            values["bot_level"] = parse_level(values["bot_level"]).value
        except ValueError as error:
            raise ConfigError(f"config file {source}: 'bot_level': {error}") from None
    if "peers" in values:
        peers = values["peers"]
        if not all(isinstance(p, str) and _is_host_port(p) for p in peers):
            raise ConfigError(
                f"config file {source}: 'peers' must be a list of \"HOST:PORT\" "
                f"(a host name or address, a port 1-{MAX_PORT})"
            )
        values["peers"] = tuple(peers)
    for key in ("card", "data_dir"):
        if key in values:
            values[key] = str(Path(values[key]).expanduser())
    return Config(**values)


def _is_host_port(text: str) -> bool:
    """Is ``text`` a daemon's ``HOST:PORT`` (daemon/checks.py, as ``--peer`` is checked)?"""
    try:
        parse_host_port(text)
    except BadInput:
        return False
    return True


def load_config(path: Path | None = None) -> Config:
    """The config file's settings, or the defaults when there is no file."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as error:
        raise ConfigError(f"config file {path}: cannot read it ({error.strerror})") from error
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise ConfigError(
            f"config file {path}: not UTF-8 text (byte {error.start + 1}, "
            f"line {line}); TOML files are UTF-8"
        ) from None
    return parse_config(text, str(path))


def window_problem(window: str, seconds: float | None) -> str:
    """What is wrong with a table timer's value ("" when fine, or not given): at most an
    hour; a call or exchange window cannot be 0 (a turn or next window of 0 waits
    forever)."""
    if seconds is None:
        return ""
    lowest = 0.1 if window in ("call_window", "exchange_window") else 0.0
    if not lowest <= seconds <= 3600:
        return f"must be {lowest:g} to 3600 seconds"
    return ""


def player_name(config: Config) -> str:
    """The player's name: the config's, else the login name (never a key fingerprint)."""
    from fourwinds.daemon.peers.identity import default_player_name

    return (config.name or "").strip() or default_player_name()


def config_template(name: str | None = None) -> str:
    """The commented file `fourwinds config init` writes (valid TOML: every key commented
    out but ``name`` when one is given)."""
    text = TEMPLATE.format(name=_toml_string(name or "Ada"))
    if name:
        text = text.replace("# name = ", "name = ", 1)
    return text


def config_text(config: Config) -> str:
    """A config as TOML text (what `fourwinds config show` prints, and `init` writes)."""
    lines = []
    for f in fields(Config):
        value = getattr(config, f.name)
        if value is None:
            lines.append(f"# {f.name} = ")
            continue
        if isinstance(value, bool):
            rendered = "true" if value else "false"
        elif isinstance(value, float):
            rendered = f"{value:g}"
        elif isinstance(value, int):
            rendered = str(value)
        elif isinstance(value, tuple):
            rendered = "[" + ", ".join(_toml_string(v) for v in value) + "]"
        else:
            rendered = _toml_string(str(value))
        lines.append(f"{f.name} = {rendered}")
    return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
