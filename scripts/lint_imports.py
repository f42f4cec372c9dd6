"""Run ``lint-imports`` (import-linter) on the contracts in pyproject.toml's [tool.importlinter].

import-linter finds ``fourwinds`` on the Python path, and the editable install's package-dir
mapping hides it there; so, as for mypy, it reads the symlink tree with the installed shape
(``testkit/installed_shape.py``). Extra arguments go to ``lint-imports``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from testkit.installed_shape import shadow_tree  # noqa: E402  (a script: the tree's root first)


def main() -> int:
    env = dict(os.environ, PYTHONPATH=str(shadow_tree()))
    lint = Path(sys.executable).parent / "lint-imports"
    return subprocess.call([str(lint), "--no-cache", *sys.argv[1:]], cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
