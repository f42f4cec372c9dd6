"""Text that other people chose (player and table names): made safe to show.

A name travels inside signed messages from other seats and from announcements; shown as it
came, an escape sequence in it would drive every terminal that prints it. ``clean_text``
drops control, format and line-separator characters and folds white space; ``shown_name``
also cuts the result to a length a screen can hold.
"""

from __future__ import annotations

import unicodedata


def _shown(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category.startswith("C") or category in ("Zl", "Zp"))


def clean_text(value: str) -> str:
    """``value`` without control, format or line-separator characters, its white space
    runs made one space and trimmed."""
    return " ".join("".join(c if _shown(c) else " " for c in value).split())


def shown_name(value: object, limit: int) -> str:
    """A name someone else gave, cleaned and cut to ``limit`` ("" for what is not text)."""
    if not isinstance(value, str):
        return ""
    return clean_text(value[: limit * 4])[:limit].rstrip()
