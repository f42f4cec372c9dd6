"""Points as every screen shows them: one format, decided here.

Table points are exact fractions in the record (two players tied for third share 1/2 each,
three tied share thirds), and so in the standings' arithmetic. A person reads a decimal: a
whole number as itself ("6"), else rounded to two places without trailing zeros ("6.5",
"2.33"). The daemon sends this text beside the exact value (``points_text``), so the terminal,
the web page and the room screen show the same; ``fourwinds tournament verify`` uses it too.
"""

from __future__ import annotations

from fractions import Fraction


def points_text(points: Fraction | int) -> str:
    """``points`` for a person: "6", "6.5", "2.33", "-1.5"."""
    value = Fraction(points)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")
