"""The table log of `fourwinds demo` and `fourwinds replay`: table words, not data dumps."""

from __future__ import annotations

import re

import pytest

from fourwinds.frontends.bots.table_demo import log_lines
from fourwinds.protocol.table.machine.harness import play_match
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript

MOVE = re.compile(
    r"^   [ESWN] (discards|passes|calls|declares|exposes|exchanges|puts|takes|"
    r"adds|robs|is dead)\b"
)


@pytest.mark.parametrize("rules", ["american", "mcr"])
def test_log_reads_like_a_table(rules: str) -> None:
    options = TableOptions(
        hands=1, deck=DeckKind.PRACTICE, rules=(("pooling", True),) if rules == "american" else ()
    )
    h = play_match(rules, b"log-" + rules.encode(), options=options)
    lines = log_lines(h.events[0])
    assert lines[0].startswith("== Hand 1: E=seat ")
    body = [line for line in lines if line.startswith("   ")]
    assert body and all(MOVE.match(line) for line in body), body
    assert any(re.match(r"^   [ESWN] discards \w+$", line) for line in body)
    assert not any("=" in line or "slot" in line for line in body)  # no field dumps
    assert not any("no call" in line or "no claim" in line for line in body)
    assert any(line.startswith("-- Hand 1: ") for line in lines)
    assert lines[-1].startswith("== Match over; scores seat 0 ")
    quiet = log_lines(h.events[0], quiet=True)
    assert quiet == [line for line in lines if not line.startswith("   ")]


def test_verbose_log_numbers_every_action_and_shows_idle_answers() -> None:
    h = play_match("mcr", b"log-verbose", options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    verdict = check_transcript(export_transcript(h.sessions[0]))
    lines = log_lines(verdict.events, verbose=True)
    numbered = [line for line in lines if line.startswith("   [")]
    assert len(numbered) == len(verdict.session.timeline)
    assert any("no claim" in line for line in numbered)
    assert any(" draws" in line for line in lines)  # private details only when verbose
    assert not any(" draws" in line for line in log_lines(verdict.events))


@pytest.mark.slow
def test_american_log_tells_calls_and_the_mahjong() -> None:
    for seed in (b"am-log-1", b"am-log-2", b"am-log-3"):
        h = play_match("american", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
        lines = log_lines(h.events[0])
        summary = next(line for line in lines if line.startswith("-- Hand 1: "))
        if "Mahjong" in summary:
            assert any(" declares Mahjong: " in line for line in lines)
            return
    pytest.skip("no Mahjong in these hands")
