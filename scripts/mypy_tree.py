"""Run ``mypy --strict`` over the package, the tests, their shared testkit and the benchmarks.

The code folders install as ``fourwinds.protocol`` etc. through a setuptools package-dir
mapping, which mypy cannot follow through an editable install's import hook. So we lay out a
throw-away tree of symlinks, ``.mypy-src/fourwinds/{protocol,daemon,frontends,cards}``, that
has the installed shape (``testkit/installed_shape.py``), and point mypy at it.
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
    env = dict(os.environ, MYPYPATH=str(shadow_tree()))
    targets = [".mypy-src/fourwinds"]
    for folder in ("tests", "testkit", "benchmarks", "scripts"):
        if any((ROOT / folder).rglob("*.py")):
            targets.append(folder)
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--explicit-package-bases",
        *targets,
        *sys.argv[1:],
    ]
    return subprocess.call(cmd, cwd=ROOT, env=env)


if __name__ == "__main__":
    sys.exit(main())
