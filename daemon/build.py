"""Which build of fourwinds a process runs: a digest of its code's files, read once.

A daemon runs for days, and the program may be upgraded meanwhile (`pip install -U`, a `git
pull` in a checkout). The daemon imports some modules late, where they are needed, so one
started from the old files that then imports a new one failed with "internal error
(ImportError)". So the daemon reads its build at its start and says it at hello
(local_api/requests.py), and a client compares it with its own (frontends/client/client.py):
where they differ, the command says what to do (`fourwinds stop`, then run it again) before
anything can fail half-way.

The build is the digest of every ``.py`` file's path, size and modification time under the
installed packages (``fourwinds.protocol``, ``.daemon``, ``.frontends``): an upgrade or an
edit changes it; reading it costs a few milliseconds of stat calls, no file is read.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

_PACKAGES = ("fourwinds.protocol", "fourwinds.daemon", "fourwinds.frontends")
"""Found by name, not imported: the daemon does not import the frontends (the layers)."""
_cached: str | None = None


def build_id() -> str:
    """This process's build (12 hex digits), read once."""
    global _cached
    if _cached is None:
        digest = hashlib.sha256()
        for package in _PACKAGES:
            spec = importlib.util.find_spec(package)
            places = spec.submodule_search_locations if spec is not None else None
            if not places:
                continue
            root = Path(next(iter(places)))
            digest.update(f"{package}\n".encode())
            for folder, subfolders, files in os.walk(root):
                subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
                for name in sorted(f for f in files if f.endswith(".py")):
                    path = os.path.join(folder, name)
                    with_stat = os.stat(path)
                    relative = os.path.relpath(path, root)
                    digest.update(
                        f"{relative}\0{with_stat.st_size}\0{with_stat.st_mtime_ns}\n".encode()
                    )
        _cached = digest.hexdigest()[:12]
    return _cached
