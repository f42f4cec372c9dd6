"""No sleep in tests/ or testkit/ without a reason: a test waits for a condition, not a time.

Every ``time.sleep`` / ``asyncio.sleep`` call left (a poll interval, a person's pace, time a
test about time needs to pass) carries a ``# sleep-ok: <reason>`` comment on its line or the
line above; anything else waits with testkit.waiting. Read with ast, so a sleep inside a
string (a child program's source) is not a call here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("tests", "testkit")
MARK = re.compile(r"#\s*sleep-ok:\s*\S")


def _is_sleep(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr == "sleep" and isinstance(func.value, ast.Name)
    return isinstance(func, ast.Name) and func.id == "sleep"


def unexplained_sleeps(source: str) -> list[int]:
    """The lines of ``source`` with a sleep call and no ``# sleep-ok:`` reason by it."""
    lines = source.splitlines()
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _is_sleep(node):
            line = lines[node.lineno - 1]
            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            said_above = above.startswith("#") and MARK.search(above)
            if not (MARK.search(line) or said_above):
                found.append(node.lineno)
    return sorted(found)


def test_every_sleep_says_why() -> None:
    bare = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in unexplained_sleeps(path.read_text(encoding="utf-8"))
    ]
    assert not bare, "sleeps with no '# sleep-ok: <reason>' (wait for the condition):\n" + (
        "\n".join(bare)
    )


def test_the_check_sees_a_bare_sleep_and_a_reason() -> None:
    source = (
        "import time, asyncio\n"
        "time.sleep(1)\n"
        "# sleep-ok: a timeout must run out\n"
        "time.sleep(2)\n"
        "async def f():\n"
        "    await asyncio.sleep(0.1)  # sleep-ok: poll interval\n"
        "    await asyncio.sleep(0.2)\n"
        "x = 'time.sleep(3)'\n"
    )
    assert unexplained_sleeps(source) == [2, 7]
