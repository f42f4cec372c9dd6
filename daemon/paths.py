"""Where the daemon keeps things: data (identity, tables), runtime (the local API socket).

Both come from platformdirs unless ``--data-dir`` is given; in that case the runtime directory
lives under the data directory, so several daemons (bots, tests) can run side by side, each in
its own folder. Directories are created mode 0700: only the user may open them.
"""

from __future__ import annotations

import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from fourwinds.protocol.errors import FourwindsError

APP = "fourwinds"


class PathsError(FourwindsError, OSError):
    """A folder the daemon needs cannot be used (another user's, a file, no permission);
    the message names it and what to do, in one line. Also an ``OSError``, so the store's
    handling of a failing disk takes it as it took the error it replaces."""


RUNTIME_NOTES: list[str] = []
"""What platformdirs said while choosing the runtime directory (e.g. "XDG_RUNTIME_DIR is not
set, falling back to /tmp/runtime-1000"), for the daemon to log once. The fallback it takes
is private (a directory of the user's own, mode 0700, checked), so the commands do not warn."""


@dataclass(frozen=True)
class Paths:
    """The folders and files of one daemon instance."""

    data: Path
    runtime: Path

    @property
    def identity(self) -> Path:
        return self.data / "identity.key"

    @property
    def tables(self) -> Path:
        return self.data / "tables"

    @property
    def peers(self) -> Path:
        return self.data / "peers.msgpack"

    @property
    def api_socket(self) -> Path:
        return self.runtime / "api.sock"

    @property
    def api_endpoint_file(self) -> Path:
        """Written by the daemon: how a client reaches the local API (endpoint and token)."""
        return self.runtime / "api.endpoint"

    @property
    def log(self) -> Path:
        return self.data / "daemon.log"


def default_paths(data_dir: str | os.PathLike[str] | None = None) -> Paths:
    """The paths for ``data_dir`` (or the user's platform directories when None)."""
    if data_dir is not None:
        data = Path(data_dir).expanduser().resolve()
        return Paths(data=data, runtime=data / "run")
    data = Path(platformdirs.user_data_dir(APP, appauthor=False))
    return Paths(data=data, runtime=user_runtime_dir())


def user_runtime_dir() -> Path:
    """The user's runtime directory. Without ``XDG_RUNTIME_DIR`` platformdirs falls back to a
    private directory it checks (the user's own, mode 0700) and warns on every command; the
    warning is kept in ``RUNTIME_NOTES`` for the daemon's log instead."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            runtime = Path(platformdirs.user_runtime_dir(APP, appauthor=False))
        except OSError as error:  # e.g. /tmp/runtime-<uid> made by another user
            said = str(error).removeprefix("runtime directory ")
            raise PathsError(f"cannot use the runtime folder {said}") from None
    for warning in caught:
        note = str(warning.message)
        if note not in RUNTIME_NOTES:
            RUNTIME_NOTES.append(note)
    return runtime


def ensure_private_dir(path: Path) -> Path:
    """Create ``path`` (and parents) and make sure only the user can open it (mode 0700).

    Missing parents are made 0700 too, as the XDG base directory spec asks: a missing
    ``XDG_RUNTIME_DIR`` made 0755 here would make platformdirs (in every later command)
    refuse it and fall back elsewhere, so client and daemon would look for the socket in
    different places. A folder that is another user's, not a folder, or one we may not
    create is ``PathsError`` naming it (never a PermissionError traceback)."""
    missing = [p for p in (path, *path.parents) if not p.exists()]
    try:
        for folder in reversed(missing):
            folder.mkdir(mode=0o700, exist_ok=True)
        info = os.stat(path)
    except OSError as error:
        raise PathsError(f"cannot create {path}: {error.strerror or error}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise PathsError(f"{path} is not a folder; move it away or choose another with --data-dir")
    if info.st_uid != os.geteuid():
        raise PathsError(
            f"{path} belongs to another user (uid {info.st_uid}); remove it, "
            "or set XDG_RUNTIME_DIR / --data-dir to a folder of your own"
        )
    try:
        os.chmod(path, 0o700)
    except OSError as error:
        raise PathsError(f"cannot make {path} private: {error.strerror or error}") from None
    return path
