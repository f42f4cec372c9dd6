"""`fourwinds card check FILE` and `fourwinds card show FILE`: typing in an American card.

What the two print, from the card file's text (the frontend reads the file and prints).

``check`` reads the whole card, lists every mistake at once (line, hand, column and what was
expected; a line or alternative that no tiles could make is one of them) and, for each line
read, how many concrete hands it stands for. Exit status 0 when the card is fine, 1 when it
has mistakes. ``show`` prints the card as a player reads it: the sections in card order, each
line with its patterns ("or" between alternatives), what may vary, value, X/C and note.
"""

from __future__ import annotations

from collections import Counter

from fourwinds.protocol.american.card import Card, CardHand, NumberVariable, ValueRule
from fourwinds.protocol.american.cardfile import read_card
from fourwinds.protocol.american.compile import hand_variants
from fourwinds.protocol.errors import CardError

_RULE_WORDS = {
    ValueRule.ANY: "any",
    ValueRule.STEP2: "any, moving by 2",
    ValueRule.ODD: "any odd",
    ValueRule.EVEN: "any even",
}


def variations(hand: CardHand) -> tuple[int, Counter[int]]:
    """How many concrete hands a line stands for, in all and per alternative."""
    found = hand_variants(hand)
    return len(found), Counter(variant.alternative for variant in found)


def check_lines(text: str, source: str) -> tuple[list[str], bool]:
    """The report of ``card check`` and whether the card is free of mistakes."""
    problems: list[CardError] = []
    try:
        card = read_card(text, source, problems)
    except CardError as error:  # no line could be read at all
        return [f"{source}: {problem}" for problem in problems] + [str(error)], False
    out = [f"{source}: {problem}" for problem in problems]
    total = 0
    rows = []
    for hand in card.hands:
        count, per = variations(hand)
        total += count
        detail = ""
        if len(hand.alternatives) > 1:
            detail = (
                " ("
                + ", ".join(f"alternative {i + 1}: {per[i]}" for i in range(len(hand.alternatives)))
                + ")"
            )
        rows.append(
            f"  {hand.id:<10} line {hand.line:<4} {count:>5} variation"
            f"{'s' if count != 1 else ''}{detail}"
        )
    head = (
        f"{card.name}: format {card.format}, {len(card.hands)} line"
        f"{'s' if len(card.hands) != 1 else ''}, {total} variation"
        f"{'s' if total != 1 else ''}"
    )
    verdict = (
        "OK"
        if not problems
        else f"{len(problems)} mistake{'s' if len(problems) != 1 else ''}: the card is "
        "refused until they are fixed"
    )
    return [*out, head, *rows, verdict], not problems


def _rule_words(variable: NumberVariable) -> str:
    if variable.rule is ValueRule.LISTED:
        values = [str(v) for v in variable.values]
        return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} or {values[-1]}"
    if variable.rule is ValueRule.POSITION:
        return "the number written twice at any place of its run"
    return _RULE_WORDS[variable.rule]


def vary_words(hand: CardHand) -> str:
    """What may vary on a line, in words: "numbers any; @k any odd; any 1 or 2 suits"."""
    parts = []
    for variable in hand.variables:
        who = f"@{variable.name}" if variable.name else "numbers"
        parts.append(f"{who} {_rule_words(variable)}")
    if hand.suit_counts:
        counts = [str(n) for n in hand.suit_counts]
        parts.append(f"any {' or '.join(counts)} suits")
    return "; ".join(parts)


def show_lines(card: Card) -> list[str]:
    """The card as a player reads it (``card show``)."""
    out = [card.name, "=" * len(card.name)]
    width = max((len(a.text) for h in card.hands for a in h.alternatives), default=0)
    id_width = max(len(h.id) for h in card.hands)
    heading = None
    for hand in card.hands:
        if hand.heading != heading:
            heading = hand.heading
            out.extend(["", heading, "-" * len(heading)])
        kind = "C" if hand.concealed else "X"
        first, *others = hand.alternatives
        out.append(f"{hand.id:<{id_width}}  {first.text:<{width}}  {kind} {hand.value}")
        out.extend(f"{'':<{id_width - 2}}or  {alt.text}" for alt in others)
        words = vary_words(hand)
        note = f"({hand.note})" if hand.note else ""
        small = "  ".join(part for part in (note, words and f"[{words}]") if part)
        if small:
            out.append(f"{'':<{id_width}}  {small}")
    return out
