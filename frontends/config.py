"""The player's config file: name and default options, TOML in the user's config directory.

``$FOURWINDS_CONFIG`` names another file (tests, several players on one machine). Example::

    name = "Ada"          # shown to the other seats
    rules = "american"    # default for play / host / bot: "american" or "mcr"
    card = "~/cards/2026.card"   # American card file for tables you host
    bots = 3              # seats `fourwinds play` fills with bots
    ascii = false         # tiles as codes instead of Unicode glyphs
    table = "kitchen"     # table name `play` and the action commands use
    data_dir = "~/fourwinds"     # the daemon's data directory (default: platform dirs)
    peers = ["192.168.1.20:7300"]  # daemons to reach where multicast is blocked

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

from fourwinds.protocol.errors import FourwindsError

APP = "fourwinds"
RULES = ("american", "mcr")


class ConfigError(FourwindsError):
    """The config file cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Config:
    """Defaults for the commands; every field is optional in the file."""

    name: str | None = None
    rules: str = "american"
    card: str | None = None
    bots: int = 3
    ascii: bool = False
    table: str | None = None
    data_dir: str | None = None
    peers: tuple[str, ...] = ()


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
}


_KIND_NAMES = {str: "a string", int: "an integer", bool: "true or false", list: "a list"}


def parse_config(text: str, source: str = "<config>") -> Config:
    """Read and check a config file's text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"config file {source}: {error}") from error
    known = {f.name for f in fields(Config)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise ConfigError(
                f"config file {source}: unknown key {key!r} (known: {', '.join(sorted(known))})"
            )
        wanted = _TYPES[key]
        if not isinstance(value, wanted) or (wanted == (int,) and isinstance(value, bool)):
            raise ConfigError(
                f"config file {source}: {key!r} must be {_KIND_NAMES[wanted[0]]}, "
                f"not {type(value).__name__}"
            )
        values[key] = value
    if values.get("rules", "american") not in RULES:
        raise ConfigError(f"config file {source}: 'rules' must be one of {', '.join(RULES)}")
    if not 0 <= values.get("bots", 3) <= 3:
        raise ConfigError(f"config file {source}: 'bots' must be 0 to 3")
    if "name" in values and not 1 <= len(values["name"].strip()) <= 32:
        raise ConfigError(f"config file {source}: 'name' must be 1 to 32 characters")
    if "peers" in values:
        peers = values["peers"]
        if not all(isinstance(p, str) and _is_host_port(p) for p in peers):
            raise ConfigError(f"config file {source}: 'peers' must be a list of \"HOST:PORT\"")
        values["peers"] = tuple(peers)
    for key in ("card", "data_dir"):
        if key in values:
            values[key] = str(Path(values[key]).expanduser())
    return Config(**values)


def _is_host_port(text: str) -> bool:
    host, sep, port = text.rpartition(":")
    return bool(host) and sep == ":" and port.isdigit() and 0 < int(port) < 65536


def load_config(path: Path | None = None) -> Config:
    """The config file's settings, or the defaults when there is no file."""
    path = path or config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as error:
        raise ConfigError(f"config file {path}: cannot read it ({error.strerror})") from error
    return parse_config(text, str(path))


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
