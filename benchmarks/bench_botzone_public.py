"""A public Botzone "Chinese-Standard-Mahjong" bot against three ``strong`` bots (issue 24).

The bot plays through the adapter of `fourwinds bot --botzone` (frontends/bots/botzone_seat.py and
botzone_proc.py, the very classes the command runs: every request translated, every answer
judged against the seat's legal actions, faults counted); its table is the in-memory one of
testkit/botzone_stream.py, whose views are those a daemon builds for the seat
(``build_seat_view``), so nothing but the network is left out. The three other seats are the
built-in bots at ``strong``. Duplicate play: each wall is dealt four times with the bot at
each place in turn, so the luck of the tiles largely cancels.

Which bot: ``FOURWINDS_BOTZONE_BOT``, a command line (``python3 /path/bot.py``; split as a
shell would), and ``FOURWINDS_BOTZONE_MODE`` ``json`` (the default) or ``simple``;
``FOURWINDS_BOTZONE_NAME`` names it in the output (default: the command);
``FOURWINDS_BOTZONE_EOF=1`` ends its input after the history (`--botzone-eof`: for a bot
that reads its input to the end, as the platform's C++ sample does).
``FOURWINDS_BOTZONE_WALLS`` walls (4 hands each; default 25); ``FOURWINDS_BOTZONE_FLOWERS=1``
plays with flowers (by default the table has none: the platform's duplicate format, which
most public bots were trained on). With no bot configured (CI, ``--quick``) it runs
``examples/botzone_bot.py`` (keeping running) and its ``bot`` field says so; quick plays
one wall.

Lines: the bot's points per hand with the 95% interval over walls beside the strong seats'
and the lead (bot minus strong, per wall), win, deal-in and wall-game rates (target: the
strong bots ahead, the lead's interval below zero); the adapter's counted faults (illegal,
late, crashed, garbage answers, and actions the table refused, which would be the adapter's
own error: target none refused) and the bot's answer time p50/p99.
"""

from __future__ import annotations

import os
import shlex
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchmarks.duplicate import ci95, percentile
from benchmarks.timing import result
from fourwinds.frontends.bots.botzone_io import Mode
from fourwinds.frontends.bots.botzone_proc import BotzoneProgram, Reply
from fourwinds.frontends.bots.botzone_seat import BotzoneSeat, play_botzone
from fourwinds.protocol.bot_level import BotLevel
from fourwinds.protocol.seats import SEATS
from fourwinds.protocol.table.rules.botzone import Fault
from testkit.botzone_stream import HarnessStream

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "botzone_bot.py"
FIRST_WALL = 7000  # walls no tuning of the strong bots looked at
GIVE_UP = 600.0  # seconds for one hand, at most (a hung bot is LATE each 6 s)


@dataclass(frozen=True)
class Bot:
    """What runs in the bot's seat."""

    argv: list[str]
    mode: Mode
    name: str
    end_input: bool = False


def configured(quick: bool) -> Bot:
    """The bot from the environment, or our example (always in quick mode)."""
    command = os.environ.get("FOURWINDS_BOTZONE_BOT", "").strip()
    if quick or not command:
        return Bot(
            [sys.executable, str(EXAMPLE), "--keep-running"],
            Mode.JSON,
            "examples/botzone_bot.py (no public bot configured: FOURWINDS_BOTZONE_BOT)"
            if not command
            else "examples/botzone_bot.py (quick mode)",
        )
    mode = Mode(os.environ.get("FOURWINDS_BOTZONE_MODE", "json").strip() or "json")
    return Bot(
        shlex.split(command),
        mode,
        os.environ.get("FOURWINDS_BOTZONE_NAME") or command,
        os.environ.get("FOURWINDS_BOTZONE_EOF", "") == "1",
    )


class TimedProgram(BotzoneProgram):
    """The adapter's program, with the time of every answer it was asked to decide."""

    def __init__(self, bot: Bot, log: Path, times: list[float]) -> None:
        super().__init__(bot.argv, bot.mode, log, end_input=bot.end_input)
        self.answer_times = times

    def ask(self, request: str, *, decide: bool, timeout: float | None = None) -> Reply:
        started = time.perf_counter()
        reply = super().ask(request, decide=decide, timeout=timeout)
        if decide:
            self.answer_times.append(time.perf_counter() - started)
        return reply


@dataclass
class Tally:
    """A run's figures, wall by wall."""

    bot: list[float]
    strong: list[float]
    wins: int = 0
    deal_ins: int = 0
    wall_games: int = 0
    hands: int = 0


def play_wall(
    bot: Bot,
    wall: int,
    flowers: bool,
    log: Path,
    faults: Counter[Fault],
    times: list[float],
    tally: Tally,
) -> None:
    """One wall four times, the bot at each place in turn."""
    mine: list[float] = []
    others: list[float] = []
    for place in SEATS:
        stream = HarnessStream(
            b"botzone-public-%d" % wall, me=place, level=BotLevel.STRONG, flowers=flowers
        )
        seat = BotzoneSeat(TimedProgram(bot, log, times))
        if play_botzone(stream, seat, give_up=GIVE_UP) != 0:
            raise RuntimeError(f"wall {wall} with the bot at place {place} did not finish")
        faults.update(seat.faults)
        score = stream.scores()[-1]
        mine.append(score.points[place])
        others.append(sum(score.points[p] for p in SEATS if p != place) / 3)
        tally.wins += score.winner == place
        tally.deal_ins += score.discarder == place
        tally.wall_games += score.winner is None
        tally.hands += 1
    tally.bot.append(statistics.fmean(mine))
    tally.strong.append(statistics.fmean(others))


def bench_botzone_public(quick: bool) -> list[dict[str, object]]:
    bot = configured(quick)
    walls = 1 if quick else int(os.environ.get("FOURWINDS_BOTZONE_WALLS", "25"))
    flowers = os.environ.get("FOURWINDS_BOTZONE_FLOWERS", "") == "1"
    faults: Counter[Fault] = Counter()
    times: list[float] = []
    tally = Tally([], [])
    with tempfile.TemporaryDirectory(prefix="fourwinds-botzone-bench-") as tmp:
        log = Path(tmp) / "botzone.log"
        for wall in range(FIRST_WALL, FIRST_WALL + walls):
            play_wall(bot, wall, flowers, log, faults, times, tally)
    lead = [b - s for b, s in zip(tally.bot, tally.strong, strict=True)]
    lead_ci = ci95(lead)
    hands = tally.hands
    common = {
        "bot": bot.name,
        "mode": bot.mode.value,
        "end_input": bot.end_input,
        "flowers": flowers,
        "hands": hands,
        "walls": walls,
        "opponents": "3 x strong",
    }
    counted = {f.value: faults[f] for f in Fault}
    return [
        result(
            "botzone_public_points_per_hand",
            statistics.fmean(tally.bot),
            "points per hand (the Botzone bot's)",
            target="the strong seats ahead on the same walls (lead's 95% interval < 0)",
            met=lead_ci[1] < 0,
            **common,
            bot_ci95=[round(x, 3) for x in ci95(tally.bot)],
            strong_points_per_hand=round(statistics.fmean(tally.strong), 3),
            strong_ci95=[round(x, 3) for x in ci95(tally.strong)],
            lead_ci95=[round(x, 3) for x in lead_ci],
            win_rate=round(tally.wins / hands, 3),
            deal_in_rate=round(tally.deal_ins / hands, 3),
            wall_game_rate=round(tally.wall_games / hands, 3),
        ),
        result(
            "botzone_public_faults",
            float(sum(faults.values())),
            "answers replaced by the seat's default",
            target="no action of the adapter refused by the table (the others are the bot's own)",
            met=faults[Fault.REFUSED] == 0,
            **common,
            **counted,
            answers=len(times),
            answer_ms_p50=round(1000 * percentile(times, 0.5), 1),
            answer_ms_p99=round(1000 * percentile(times, 0.99), 1),
        ),
    ]


BENCHES = {"botzone_public": bench_botzone_public}
