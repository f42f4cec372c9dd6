"""The commands README.md tells a person to type, read from the README itself.

A Quick start section holds one fenced ``sh`` block whose comment lines say who types what
("# the host", "# each friend"); ``roles(section)`` returns the command lines under each such
comment, in order, with trailing comments cut off, so a test runs them word for word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


@dataclass(frozen=True)
class Role:
    """Who (the comment naming them, e.g. "the host") and the commands they type."""

    who: str
    commands: tuple[str, ...]


def section(title: str, readme: Path = README) -> str:
    """The text of the README section headed ``title`` (any heading level)."""
    text = readme.read_text(encoding="utf-8")
    heading = re.search(rf"^#+ {re.escape(title)}\s*$", text, re.MULTILINE)
    assert heading, f"README.md has no section {title!r}"
    out: list[str] = []
    fenced = False
    for line in text[heading.end() :].splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#+ ", line):
            break  # the next heading (a "# comment" inside a code block is not one)
        out.append(line)
    return "".join(out)


def sh_block(text: str) -> str:
    """The first fenced ``sh`` block of ``text``."""
    block = re.search(r"^```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert block, "the section has no ```sh block"
    return block.group(1)


def roles(title: str, readme: Path = README) -> list[Role]:
    """The section's sh block split by its comment lines (see the module docstring)."""
    found: list[Role] = []
    who = ""
    commands: list[str] = []
    for line in sh_block(section(title, readme)).splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if who or commands:
                found.append(Role(who, tuple(commands)))
            who, commands = stripped.lstrip("#").strip(), []
            continue
        command = re.sub(r"\s+#.*$", "", stripped)
        if command:
            commands.append(command)
    if who or commands:
        found.append(Role(who, tuple(commands)))
    return found


def role(title: str, starts: str, readme: Path = README) -> Role:
    """The one role of the section whose comment starts with ``starts``."""
    matches = [r for r in roles(title, readme) if r.who.startswith(starts)]
    assert len(matches) == 1, (
        f"README {title!r}: expected one '# {starts}...' part, "
        f"found {[r.who for r in roles(title, readme)]}"
    )
    return matches[0]
