"""The card or the fan list, as the daemon's ``sheet`` request answers it (docs/LOCAL-API.md):
American: every card line (id, pattern as printed, value, concealed); MCR: every fan and its
points. Pure text; the screen scrolls through it. The sheet's own words (``unit``,
``value_unit``) say what its entries are; its entries, whether they have patterns to lay out:
no rule set is named here."""

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
    patterns = any(e.get("pattern") for e in entries)
    # a sheet without its words (an older daemon's): fans in points when no entry has a pattern
    unit = str(sheet.get("unit") or ("hands" if patterns else "fans"))
    value_unit = str(sheet.get("value_unit", "" if patterns else "pts"))
    title = str(sheet.get("title") or "The card")
    lines = [f"=== {title}: {len(entries)} {unit} ==="]
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
        if not patterns:
            after = f" {value_unit}" if value_unit else ""
            line = (
                f"  {entry.get('id', '?')!s:<{id_width}}{value_text}{after}  "
                f"{entry.get('pattern') or ''}"
            )
        else:
            concealed = "  concealed" if entry.get("concealed") else ""
            line = (
                f"  {entry.get('id', '?')!s:<{id_width}}{entry.get('pattern', '')!s:<32}"
                f" {value_text}{concealed}"
            )
        lines.append(line.rstrip())
    return lines
