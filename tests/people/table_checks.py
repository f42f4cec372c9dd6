"""What the end-of-hand screen must show, checked against the daemon's view of the result.

The view's ``result`` (docs/LOCAL-API.md, the seat view) carries the headline facts: ``kind``,
``winner_name``, the American card hand or the MCR fans and total, and ``payments`` (each
seat's name and net amount this hand). A person reads them on the screen: the headline word
(Mahjong / Wall game / Draw), the winner's name, the hand, and every player's name with their
amount. ``result_problems`` lists what the screen is missing (empty: all there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from testkit.screen import one_line, shows_amount

HEADLINES = {
    "mahjong": ("Mahjong",),
    "wall_game": ("Wall game",),
    "draw": ("Draw", "draw"),
    "dead_hand": ("dead hand", "Dead hand"),
}


def result_of(view: Mapping[str, Any]) -> dict[str, Any]:
    """The view's result, with the keys the tests need (fails naming a missing one)."""
    result = dict(view.get("result") or {})
    assert result, f"the view has no result (phase {view.get('phase')!r})"
    missing = [k for k in ("kind", "winner_name", "payments") if k not in result]
    assert not missing, f"the view's result lacks {missing} (see the seat view spec): {result}"
    return result


def result_problems(screen: str, result: Mapping[str, Any]) -> list[str]:
    """What of ``result`` a person cannot read on ``screen``."""
    problems = []
    text = one_line(screen)
    kind = str(result.get("kind"))
    words = HEADLINES.get(kind, (kind,))
    if not any(w in text for w in words):
        problems.append(f"no headline for {kind!r} (looked for {words})")
    winner = result.get("winner_name")
    if kind == "mahjong":
        if not winner or str(winner) not in text:
            problems.append(f"the winner {winner!r} is not named")
        card = result.get("card_hand")
        fans = result.get("fans")
        if card:
            if not (str(card.get("pattern")) in text or str(card.get("id")) in text):
                problems.append(
                    f"the card hand {card.get('id')!r} / {card.get('pattern')!r} is not shown"
                )
            if str(card.get("value")) not in text:
                problems.append(f"the hand's value {card.get('value')} is not shown")
        elif fans:
            for fan in fans:
                if str(fan.get("name")) not in text:
                    problems.append(f"the fan {fan.get('name')!r} is not shown")
            if str(result.get("total")) not in text:
                problems.append(f"the total {result.get('total')} is not shown")
        else:
            problems.append("the view's result names no card hand and no fans")
    for pay in result.get("payments") or ():
        name, amount = str(pay.get("name")), int(pay.get("amount", 0))
        if not shows_amount(screen, name, amount):
            problems.append(f"{name} {amount:+d} is not shown")
    if not result.get("payments"):
        problems.append("the view's result has no payments")
    return problems


def summary(result: Mapping[str, Any]) -> tuple[object, ...]:
    """What every seat must agree on about one hand's result."""
    pays = tuple(
        sorted((str(p.get("name")), int(p.get("amount", 0))) for p in result.get("payments") or ())
    )
    card = result.get("card_hand") or {}
    return (
        result.get("kind"),
        result.get("winner_name"),
        result.get("winning_tile"),
        card.get("id"),
        result.get("total"),
        pays,
    )
