"""The duplicate play of the bot-level bench (benchmarks/duplicate.py): why it needs no control
replay. Payments sum to zero, and the stronger level sits at every seat of a wall once, so
its points per hand over a wall are exactly its lead over the weaker level in the same seats
on the same wall played by four of the weaker level: the control cancels out of the mean and
cannot narrow the interval."""

from __future__ import annotations

import pytest

from benchmarks import duplicate
from benchmarks.duplicate import Run, play_wall
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import SEATS


@pytest.mark.parametrize("rules", ["mcr", "american"])
def test_a_control_replay_equals_the_stronger_seats_points(rules: str) -> None:
    hand = duplicate._mcr_hand if rules == "mcr" else duplicate._american_hand
    wall = 7
    run = Run()
    control, _, _ = hand(wall, [BotLevel.NORMAL] * 4, run)
    assert sum(control) == 0
    result = play_wall(rules, wall, BotLevel.STRONG, BotLevel.NORMAL, run)
    over_control = 0.0
    for seat in SEATS:
        levels = [BotLevel.STRONG if p == seat else BotLevel.NORMAL for p in SEATS]
        points, _, _ = hand(wall, levels, run)
        over_control += (points[seat] - control[seat]) / 4
    assert over_control == pytest.approx(result.strong_points)
    # and the plain lead over the weaker seats' mean is 4/3 of it
    assert result.strong_points - result.weak_points == pytest.approx(4 / 3 * over_control)
