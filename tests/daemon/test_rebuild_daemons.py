"""A seat whose record log is damaged mid-match is rebuilt from the other seats (issue 21
item 6), at four real daemons on 127.0.0.1: the damaged folder is kept with the reason, the
others' screens say what happens, the match completes, and the rebuilt seat holds exactly
the others' messages and verifies."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from fourwinds.daemon.store.disk import RECORDS, TableLog
from fourwinds.protocol.table.machine.transcript import check_transcript, read_transcript
from fourwinds.protocol.table.wire.envelope import decode
from testkit.bots import BotSeat
from testkit.damage import flip_middle_record
from tests.daemon.test_real_table import PAUSE_AFTER, RealTable

pytestmark = pytest.mark.slow
VICTIM = 2


def _paused_mid_hand(table: RealTable, seats: list[BotSeat], timeout: float) -> None:
    """Wait until the victim's bot has paused by itself (``pause_after``): the table then
    waits for the victim, so the hand is still in play however fast the others are."""
    deadline = time.monotonic() + timeout
    while not seats[VICTIM].paused.is_set():
        victim = seats[VICTIM]
        assert victim.is_alive(), (
            f"the victim's bot stopped before it paused: error "
            f"{victim.error!r}, hand over {victim.finished}, "
            f"{victim.actions} actions"
        )
        assert time.monotonic() < deadline, "the hand never got going"
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    view = table.query(VICTIM, type="view")["event"]["view"]
    assert view["session"]["phase"] == "play", view.get("phase_detail")


def _held(table: RealTable, i: int) -> set[tuple[int, int, bytes]]:
    transcript = table.query(i, type="transcript")["transcript"]
    verdict = check_transcript(transcript)
    assert verdict.ok, [p.describe() for p in verdict.problems]
    _, payloads = read_transcript(transcript)
    return {(int(e.seat), e.seq, e.msg_hash) for e in map(decode, payloads)}


def _seen_by_others(table: RealTable, timeout: float) -> list[str]:
    """What the other seats' views say while the victim rebuilds (their phase_detail)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        details = [
            table.query(i, type="view")["event"]["view"].get("phase_detail", "")
            for i in range(4)
            if i != VICTIM
        ]
        if any("rebuilding its table from the others" in d for d in details):
            return details
        # sleep-ok: poll interval of a bounded wait
        time.sleep(0.05)
    return []


def _finished_alike(table: RealTable, seats: list[BotSeat]) -> list[dict[str, Any]]:
    """The victim's bot let go, the match played to its end: every seat over, in one state,
    holding the same messages (transcripts verified); the four view events."""
    seats[VICTIM].paused.clear()
    for seat in seats:
        seat.join(120)
        assert seat.error is None, seat.error
    events = [table.query(i, type="view")["event"] for i in range(4)]
    assert [e["view"]["session"]["phase"] for e in events] == ["over"] * 4
    assert len({e["view"]["state"] for e in events}) == 1
    held = [_held(table, i) for i in range(4)]
    assert all(h == held[0] for h in held)
    return events


@pytest.mark.parametrize("deck", ["masked", "practice"])
def test_a_flipped_byte_mid_log_is_rebuilt_from_the_peers_and_the_match_completes(
    tmp_path: Path, deck: str
) -> None:
    table = RealTable(tmp_path, "mcr", deck)
    try:
        table.open()
        seats = table.bots(timeout=120, pause_after={VICTIM: PAUSE_AFTER})
        _paused_mid_hand(table, seats, 40)
        victim = table.daemons[VICTIM]
        victim.kill9()
        path = victim.data_dir / "tables" / table.table / RECORDS
        flipped = flip_middle_record(path)
        middle, at = flipped.record, flipped.offset
        victim.start()
        details = _seen_by_others(table, 20)
        assert details, "no other seat said the victim rebuilds"
        events = _finished_alike(table, seats)
        kept = victim.data_dir / "tables" / f"set-aside-{table.table}"
        assert (kept / RECORDS).read_bytes() == flipped.data  # kept byte for byte
        reason = (kept / "set-aside.txt").read_text()
        assert reason.startswith(f"records.log record {middle} at byte {at:,}: checksum")
        assert "rebuilt from the other seats" in reason
        listed: Any = table.query(VICTIM, type="tables")
        assert [t["table"] for t in listed["tables"]] == [table.table]
        problems = " ".join(events[VICTIM]["problems"])
        assert "rebuilt this table from the other seats' copies" in problems
        assert "Traceback" not in victim.log.read_text()
    finally:
        table.close()


def test_a_deleted_data_folder_is_rebuilt_from_the_peers_and_the_match_completes(
    tmp_path: Path,
) -> None:
    """Seat 2's tables folder is deleted mid-hand (its identity key kept, as on a new laptop
    with the key restored): told one peer's address, its daemon is offered the table back,
    rebuilds it from the three others and the hand completes on the fair deck."""
    table = RealTable(tmp_path, "mcr", "masked")
    try:
        table.open()
        seats = table.bots(timeout=120, pause_after={VICTIM: PAUSE_AFTER})
        _paused_mid_hand(table, seats, 40)
        victim = table.daemons[VICTIM]
        victim.kill9()
        shutil.rmtree(victim.data_dir / "tables")
        victim.start()
        assert table.query(VICTIM, type="tables")["tables"] == []
        told = table.query(VICTIM, type="peer", host="127.0.0.1", port=table.daemons[0].port)
        assert told["ok"]
        details = _seen_by_others(table, 20)
        assert details, "no other seat said the victim rebuilds"
        events = _finished_alike(table, seats)
        listed: Any = table.query(VICTIM, type="tables")
        assert [(t["table"], t["name"]) for t in listed["tables"]] == [(table.table, "real")]
        assert "rebuilt this table from the other seats' copies" in " ".join(
            events[VICTIM]["problems"]
        )
        assert "Traceback" not in victim.log.read_text()
    finally:
        table.close()


def test_a_seat_resumed_from_an_older_copy_learns_its_last_number_and_never_signs_twice(
    tmp_path: Path,
) -> None:
    """Seat 2's records are put back to an older copy (a restored backup) after it has
    signed more: resumed, it asks the others for the last number it used before it signs
    again, finds they hold later messages of its own, sets the older copy aside and rebuilds
    the table from them; no seat ever sees two messages of seat 2 at one number
    (equivocation), and the match completes on the fair deck."""
    table = RealTable(tmp_path, "mcr", "masked")
    try:
        table.open()
        seats = table.bots(timeout=120, pause_after={VICTIM: 6})
        victim = table.daemons[VICTIM]
        folder = victim.data_dir / "tables" / table.table
        _paused_mid_hand(table, seats, 40)
        # sleep-ok: settle: no signal says the paused seat's last play is out
        time.sleep(0.5)
        victim.kill9()
        backup = tmp_path / "backup"
        shutil.copytree(folder, backup)
        older = len(TableLog.open(backup / RECORDS).records)
        victim.start()
        # one more action of its own signs past the copy (one: the others play fast, and a
        # hand that ended before the victim's second action failed the test in CI)
        seats[VICTIM].pause_after = seats[VICTIM].actions + 1
        seats[VICTIM].paused.clear()
        _paused_mid_hand(table, seats, 60)
        # sleep-ok: settle: no signal says the paused seat's last play is out
        time.sleep(0.5)
        victim.kill9()
        assert len(TableLog.open(folder / RECORDS).records) > older
        shutil.rmtree(folder)
        shutil.copytree(backup, folder)
        victim.start()
        events = _finished_alike(table, seats)
        problems = [" ".join(e["problems"]) for e in events]
        assert not any("equivocat" in p.lower() for p in problems), problems
        reason = victim.data_dir / "tables" / f"set-aside-{table.table}" / "set-aside.txt"
        assert "an older copy of the table" in reason.read_text()
        assert "Traceback" not in victim.log.read_text()
    finally:
        table.close()
