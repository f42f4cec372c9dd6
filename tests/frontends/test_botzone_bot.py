"""The Botzone adapter with real bot programs (frontends/bots/botzone_seat.py, botzone_proc.py):
examples/botzone_bot.py plays real MCR hands in each of the platform's three ways (JSON, simple
interaction, keeping running); bots that answer garbage, claim what they cannot, answer
nothing or crash leave the hand going on with the seat's defaults, each fault counted and
logged with what the bot sent; a crashed bot is started again with the whole history."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from fourwinds.frontends.bots.botzone_io import Mode
from fourwinds.frontends.bots.botzone_proc import BotzoneProgram
from fourwinds.frontends.bots.botzone_seat import BotzoneSeat, play_botzone
from fourwinds.frontends.client.view_shapes import ViewEvent, view_event
from fourwinds.protocol.errors import FourwindsError
from fourwinds.protocol.table.rules.botzone import Fault
from testkit.botzone_stream import HarnessStream

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "botzone_bot.py"


def run(
    tmp_path: Path,
    argv: list[str],
    mode: Mode,
    *,
    seed: bytes = b"bz",
    hands: int = 2,
    time_limit: float = 6.0,
    stream: HarnessStream | None = None,
) -> tuple[BotzoneSeat, HarnessStream, str]:
    """Play ``hands`` hands with the bot at place 0; the seat, the table and the log."""
    stream = stream or HarnessStream(seed, hands=hands)
    log = tmp_path / "botzone.log"
    seat = BotzoneSeat(BotzoneProgram(argv, mode, log, time_limit=time_limit))
    assert play_botzone(stream, seat, give_up=240) == 0
    return seat, stream, log.read_text()


def labels(stream: HarnessStream) -> Counter[str]:
    """The first word of every action our seat took ("Discard", "Call", "Pass"...)."""
    return Counter(str(a["expected"]["label"]).split()[0] for a in stream.acts if a["answer"]["ok"])


@pytest.mark.parametrize(
    ("mode", "flags"),
    [
        (Mode.JSON, []),
        (Mode.SIMPLE, ["--simple"]),
        (Mode.JSON, ["--keep-running"]),
        (Mode.SIMPLE, ["--simple", "--keep-running"]),
    ],
)
def test_the_example_bot_plays_in_every_way(tmp_path: Path, mode: Mode, flags: list[str]) -> None:
    seat, stream, log = run(tmp_path, [sys.executable, str(EXAMPLE), *flags], mode)
    assert seat.faults == Counter(), log
    assert seat.hands == 2 and "hand 2: seat" in log
    acts = labels(stream)
    assert acts["Discard"] >= 10 and acts["Call"] >= 1, acts  # its own discards and claims
    keeps = "--keep-running" in flags
    # a bot that keeps running is started once a hand; the others at each question
    assert (seat.program.runs == 2) if keeps else (seat.program.runs > 10)


def _script(tmp_path: Path, body: str) -> list[str]:
    """A small bot in simple interaction: ``answer(request)`` for each request it is run on
    (the last of its history); ``body`` defines it."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import os, sys, time\n" + body + "\n"
        "n = int(sys.stdin.readline())\n"
        "lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]\n"
        "print(answer(lines[-1]), flush=True)\n"
    )
    return [sys.executable, str(script)]


PLAY_DRAWN = "def play(request):\n    return 'PLAY ' + request.split()[1]\n"


def test_garbage_answers_are_counted_and_the_defaults_played(tmp_path: Path) -> None:
    argv = _script(tmp_path, "def answer(request):\n    return 'hello ' + request\n")
    seat, stream, log = run(tmp_path, argv, Mode.SIMPLE, hands=1)
    assert set(seat.faults) == {Fault.GARBAGE} and seat.faults[Fault.GARBAGE] >= 5
    assert "garbage: the bot answered 'hello 2 " in log and "the seat played: Discard" in log
    assert labels(stream)["Call"] == 0  # the defaults never claim


def test_an_illegal_claim_is_refused_and_the_seat_passes(tmp_path: Path) -> None:
    argv = _script(
        tmp_path,
        PLAY_DRAWN
        + (
            "def answer(request):\n"
            "    if request.startswith('2 '):\n"
            "        return play(request)\n"
            "    return 'CHI B5 W1' if request.split()[2:3] == ['PLAY'] else 'PASS'\n"
        ),
    )
    stream = HarnessStream(b"bz-illegal", auto_pass=False)
    seat, stream, log = run(tmp_path, argv, Mode.SIMPLE, stream=stream)
    assert set(seat.faults) == {Fault.ILLEGAL} and seat.faults[Fault.ILLEGAL] >= 10, log
    assert "illegal: the bot answered 'CHI B5 W1' to '3 " in log
    assert "makes no chow with middle tile 5p" in log and "the seat played: Pass" in log
    assert labels(stream)["Pass"] >= 10 and labels(stream)["Call"] == 0


def test_a_bot_that_answers_nothing_is_late_and_then_rests(tmp_path: Path) -> None:
    argv = _script(
        tmp_path,
        PLAY_DRAWN
        + (
            "def answer(request):\n"
            "    if request.startswith('2 '):\n"
            "        time.sleep(60)\n"
            "    return 'PASS'\n"
        ),
    )
    seat, stream, log = run(tmp_path, argv, Mode.SIMPLE, hands=1, time_limit=0.4)
    # three late answers in a row, then the bot rests until the next hand
    assert seat.faults == Counter({Fault.LATE: 3}), log
    assert log.count("no answer within 0.4 s") == 3
    assert labels(stream)["Discard"] >= 5  # the hand went on with the defaults


def test_a_bot_that_crashes_is_counted_and_the_hand_goes_on(tmp_path: Path) -> None:
    argv = _script(
        tmp_path,
        (
            "def answer(request):\n"
            "    if request.startswith('2 '):\n"
            "        print('Traceback: the bot broke', file=sys.stderr)\n"
            "        sys.exit(3)\n"
            "    return 'PASS'\n"
        ),
    )
    seat, _, log = run(tmp_path, argv, Mode.SIMPLE, hands=2)
    assert seat.faults == Counter({Fault.CRASH: 6}), log  # three a hand, then it rests
    assert "the bot exited (status 3) without answering" in log
    assert "Traceback: the bot broke" in log  # its stderr, in the log


def test_a_crashed_bot_that_keeps_running_is_started_again(tmp_path: Path) -> None:
    """Keeping running, the bot dies on its third draw (once); started again, it is given
    the whole history and plays on."""
    flag = tmp_path / "crashed"
    script = tmp_path / "flaky.py"
    script.write_text(
        "import os, sys\n"
        f"sys.path.insert(0, {str(EXAMPLE.parent)!r})\n"
        "import botzone_bot\n"
        "draws = 0\n"
        "class Flaky(botzone_bot.Bot):\n"
        "    def answer(self, request):\n"
        "        global draws\n"
        "        draws += request.startswith('2 ')\n"
        f"        if draws == 3 and not os.path.exists({str(flag)!r}):\n"
        f"            open({str(flag)!r}, 'w').close()\n"
        "            os._exit(5)\n"
        "        return super().answer(request)\n"
        "botzone_bot.Bot = Flaky\n"
        "botzone_bot.main()\n"
    )
    argv = [sys.executable, str(script), "--keep-running"]
    seat, stream, log = run(tmp_path, argv, Mode.JSON, hands=1)
    assert seat.faults == Counter({Fault.CRASH: 1}), log
    assert seat.program.runs == 2 and flag.exists()
    assert labels(stream)["Discard"] >= 5


class Refusing(HarnessStream):
    """A table that refuses our first claim, as a daemon refuses an act it cannot take."""

    refused = False

    def act(self, request: Mapping[str, Any]) -> dict[str, Any]:
        if not self.refused and str(request["expected"]["label"]).startswith("Call"):
            self.refused = True
            self.acts.append({**request, "answer": {"ok": False, "error": "not now"}})
            return {"ok": False, "error": "not now"}
        return super().act(request)


def test_an_action_the_table_refuses_is_counted_and_the_default_sent(tmp_path: Path) -> None:
    stream = Refusing(b"bz", hands=2)
    seat, _, log = run(
        tmp_path, [sys.executable, str(EXAMPLE), "--keep-running"], Mode.JSON, stream=stream
    )
    assert stream.refused and seat.faults == Counter({Fault.REFUSED: 1}), log
    assert "refused: the bot answered 'Call" in log and "(not now)" in log


def test_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`fourwinds bot --botzone CMD` with its mode, its time a step and its log; the bot's
    log goes to the data directory unless named."""
    from fourwinds.frontends import cli
    from fourwinds.frontends.cli.commands.bot import botzone_seat

    monkeypatch.setenv("FOURWINDS_CONFIG", str(tmp_path / "none.toml"))
    args = cli.build_parser("bot").parse_args(
        [
            "bot",
            "--botzone",
            f"{sys.executable} {EXAMPLE} --simple",
            "--botzone-mode",
            "simple",
            "--botzone-time",
            "2.5",
            "--data-dir",
            str(tmp_path),
        ]
    )
    seat = botzone_seat(args)
    try:
        program = seat.program
        assert program.argv == [sys.executable, str(EXAMPLE), "--simple"]
        assert program.mode is Mode.SIMPLE and program.time_limit == 2.5
        assert program.log.name == str(tmp_path / "botzone-bot.log")
        assert not program.end_input
    finally:
        seat.close()
    seat = botzone_seat(
        cli.build_parser("bot").parse_args(
            ["bot", "--botzone", "./sample", "--botzone-eof", "--data-dir", str(tmp_path)]
        )
    )
    try:
        assert seat.program.end_input
    finally:
        seat.close()
    for bad in (["--botzone", ""], ["--botzone", "x", "--botzone-time", "0"]):
        with pytest.raises(FourwindsError):
            botzone_seat(cli.build_parser("bot").parse_args(["bot", *bad]))
    with pytest.raises(SystemExit):
        cli.build_parser("bot").parse_args(["bot", "--botzone", "x", "--exec", "y"])


def test_a_botzone_bot_sits_only_at_mcr_tables(tmp_path: Path) -> None:
    class American(HarnessStream):
        def events(self, timeout: float) -> list[ViewEvent]:
            return [
                view_event(
                    {
                        "type": "view",
                        "table": "t",
                        "view": {"rules": "american"},
                        "legal_actions": [],
                    }
                )
            ]

    seat = BotzoneSeat(BotzoneProgram([sys.executable, str(EXAMPLE)], Mode.JSON, tmp_path / "log"))
    with pytest.raises(FourwindsError, match="plays MCR tables"):
        play_botzone(American(b"x"), seat)


EOF_READER = (
    "import json, sys\n"
    "got = json.loads(sys.stdin.read())\n"  # to the end of input, as jsoncpp's cin >> v
    "last = got['requests'][-1]\n"
    "answer = 'PLAY ' + last.split()[1] if last.startswith('2 ') else 'PASS'\n"
    "print(json.dumps({'response': answer}, indent=4), flush=True)\n"
)


def test_a_bot_that_reads_to_the_end_of_its_input_plays_with_botzone_eof(tmp_path: Path) -> None:
    """The platform's C++ sample reads its input to the end and prints indented JSON: found
    running it (issue 24). Without ``end_input`` it waits until it is late; with it
    (``--botzone-eof``) it plays the hand without a fault."""
    script = tmp_path / "eof_bot.py"
    script.write_text(EOF_READER)
    argv = [sys.executable, str(script)]
    seat, _, log = run(tmp_path, argv, Mode.JSON, hands=1, time_limit=0.4)
    assert seat.faults == Counter({Fault.LATE: 3}), log
    stream = HarnessStream(b"bz-eof")
    log_path = tmp_path / "eof.log"
    seat = BotzoneSeat(BotzoneProgram(argv, Mode.JSON, log_path, end_input=True))
    assert play_botzone(stream, seat, give_up=240) == 0
    assert seat.faults == Counter(), log_path.read_text()
    assert labels(stream)["Discard"] >= 10 and seat.program.runs > 10


def test_a_bot_that_keeps_running_is_run_again_when_its_input_is_ended(tmp_path: Path) -> None:
    log_path = tmp_path / "kr.log"
    program = BotzoneProgram(
        [sys.executable, str(EXAMPLE), "--keep-running"], Mode.JSON, log_path, end_input=True
    )
    seat = BotzoneSeat(program)
    stream = HarnessStream(b"bz-eof-kr")
    assert play_botzone(stream, seat, give_up=240) == 0
    assert seat.faults == Counter(), log_path.read_text()
    assert program.runs > 10 and labels(stream)["Discard"] >= 10
