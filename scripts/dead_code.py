"""Dead code in the code folders, found by vulture; exit status 1 when there is any.

Vulture reads the code folders, the tests, testkit, the benchmarks and the scripts (a use in
any of them keeps a definition alive) and ``vulture_whitelist.py`` (names reached dynamically,
each group saying how). Only findings in protocol/, daemon/ and frontends/ count: pytest
reaches the tests' hooks, fixtures and ``pytestmark`` by name. The confidence is vulture's
lowest, 60%, so an unused function, method, class or constant is found too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("protocol/", "daemon/", "frontends/")
READ = ("protocol", "daemon", "frontends", "testkit", "tests", "benchmarks", "scripts")


def main() -> int:
    cmd = [
        sys.executable,
        "-m",
        "vulture",
        *READ,
        "vulture_whitelist.py",
        "--min-confidence",
        "60",
        *sys.argv[1:],
    ]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if out.returncode not in (0, 3):  # 3: vulture found something; anything else: it failed
        print(out.stdout + out.stderr, end="")
        return out.returncode
    dead = 0
    for line in out.stdout.splitlines():
        if not line.startswith(CODE):
            continue
        print(line)
        dead += 1
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
