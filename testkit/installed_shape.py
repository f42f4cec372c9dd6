"""The code folders in the shape they install in: ``.mypy-src/fourwinds/{protocol,...}``.

The folders install as ``fourwinds.protocol`` etc. through a setuptools package-dir mapping,
which tools that read the source (mypy, import-linter, grimp) cannot follow through an
editable install's import hook. So a throw-away tree of symlinks has the installed shape:
scripts/mypy_tree.py points mypy at it, scripts/lint_imports.py import-linter, and
tests/test_import_circles.py grimp.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("protocol", "daemon", "frontends", "cards")
"""The folders that install under ``fourwinds``, each as ``fourwinds.<folder>``."""


def shadow_tree() -> Path:
    """Lay (once) the symlink tree with the installed shape; the folder to put on the path."""
    shadow = ROOT / ".mypy-src" / "fourwinds"
    shadow.mkdir(parents=True, exist_ok=True)
    for name in PACKAGES:
        link = shadow / name
        if not link.is_symlink():
            # another process (scripts/test runs mypy beside pytest) may lay it meanwhile
            with contextlib.suppress(FileExistsError):
                link.symlink_to(ROOT / name, target_is_directory=True)
    return shadow.parent
