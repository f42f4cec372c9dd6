"""The card or the fan list, as the daemon's ``sheet`` request answers it (docs/LOCAL-API.md):
American: every card line (id, pattern as printed, value, concealed); MCR: every fan and its
points. Pure text; the screen scrolls through it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def sheet_lines(sheet: Mapping[str, Any] | None, problem: str = "") -> list[str]:
    """The whole sheet, one entry a line under its section's title."""
    if sheet is None:
        if problem:
            return ["=== The card ===", f"The daemon did not send it: {problem}"]
        return ["=== The card ===", "Asking the daemon for it..."]
    entries = [e for e in sheet.get("entries") or () if isinstance(e, Mapping)]
    mcr = sheet.get("rules") == "mcr"
    title = str(sheet.get("title") or ("Chinese Official fans" if mcr else "The card"))
    lines = [f"=== {title}: {len(entries)} {'fans' if mcr else 'hands'} ==="]
    if not entries:
        lines.append("(empty)")
        return lines
    id_width = min(28, max(len(str(e.get("id", ""))) for e in entries) + 2)
    section = None
    for entry in entries:
        here = str(entry.get("section") or "")
        if here and here != section:
            lines.append(f"-- {here} --")
        section = here
        value = entry.get("value")
        value_text = f"{value:>3}" if isinstance(value, int) else f"{value or '':>3}"
        if mcr:
            line = f"  {entry.get('id', '?')!s:<{id_width}}{value_text} pts  " \
                   f"{entry.get('pattern') or ''}"
        else:
            concealed = "  concealed" if entry.get("concealed") else ""
            line = f"  {entry.get('id', '?')!s:<{id_width}}{entry.get('pattern', '')!s:<32}" \
                   f" {value_text}{concealed}"
        lines.append(line.rstrip())
    return lines
