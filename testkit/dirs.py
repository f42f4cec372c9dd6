"""Short scratch directories for daemons' data folders (tests and benchmarks alike)."""

from __future__ import annotations

import tempfile
from pathlib import Path


def short_dir() -> Path:
    """A new directory with a short path: a daemon's socket path must stay under ~100
    characters (the ipc limit), and pytest's tmp_path is long. Remove it with rmtree."""
    return Path(tempfile.mkdtemp(prefix="fw", dir="/tmp"))
