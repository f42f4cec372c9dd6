"""Transcripts: `fourwinds verify` accepts what the harness plays and names each tampering."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from fourwinds.frontends.cli import main
from fourwinds.protocol.seats import Seat
from fourwinds.protocol.table.machine.harness import Harness, run
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.transcript import (
    TranscriptError,
    check_transcript,
    export_transcript,
    read_transcript,
)
from fourwinds.protocol.table.wire.envelope import decode
from fourwinds.protocol.table.wire.messages import Act, MsgKind, decode_body, encode_body
from fourwinds.protocol.table.wire.strict import pack

from .helpers import resign, toy_harness


@pytest.fixture(scope="module")
def played() -> Harness:
    return run(toy_harness(b"transcript"))


def _rewrite(data: bytes, payloads: Sequence[bytes]) -> bytes:
    table, _ = read_transcript(data)
    return pack(["fourwinds-transcript", 1, table, payloads])


def _kinds(data: bytes) -> set[tuple[ProblemKind, Seat | None]]:
    return {(p.kind, p.seat) for p in check_transcript(data).problems}


def test_every_seat_transcript_verifies(played: Harness) -> None:
    for session in played.sessions:
        verdict = check_transcript(export_transcript(session))
        assert verdict.ok, [p.describe() for p in verdict.problems]
        assert verdict.session.step_hash == session.step_hash


def test_a_changed_byte_is_caught_as_an_altered_message(played: Harness) -> None:
    _, payloads = read_transcript(export_transcript(played.sessions[0]))
    victim = len(payloads) // 2
    changed = bytearray(payloads[victim])
    changed[-3] ^= 0x40
    data = _rewrite(
        export_transcript(played.sessions[0]),
        [*payloads[:victim], bytes(changed), *payloads[victim + 1 :]],
    )
    verdict = check_transcript(data)
    assert not verdict.ok
    assert ProblemKind.BAD_SIGNATURE in {p.kind for p in verdict.problems}


def test_a_dropped_message_is_caught_as_missing(played: Harness) -> None:
    data = export_transcript(played.sessions[0])
    _, payloads = read_transcript(data)
    dropped = decode(payloads[40])
    verdict = check_transcript(_rewrite(data, [*payloads[:40], *payloads[41:]]))
    assert not verdict.ok
    reasons = [p.reason for p in verdict.problems if p.kind is ProblemKind.MISSING]
    assert f"seat {int(dropped.seat)}'s message seq {dropped.seq} is missing" in reasons[0]


def test_a_swapped_tile_rewritten_by_its_own_seat_is_blamed_on_that_seat(played: Harness) -> None:
    data = export_transcript(played.sessions[0])
    _, payloads = read_transcript(data)
    index = 0
    for index, payload in enumerate(payloads):  # noqa: B007  (index is used after the loop)
        env = decode(payload)
        if env.kind is MsgKind.ACT:
            body = decode_body(MsgKind.ACT, env.body or b"")
            assert isinstance(body, Act)
            if body.action[0] == "Discard":
                break
    assert isinstance(body, Act)
    action = list(body.action)
    action[3] = (action[3] + 1) % 34
    forged = resign(played, env, body=encode_body(Act(action, False)))
    kinds = _kinds(_rewrite(data, [*payloads[:index], forged, *payloads[index + 1 :]]))
    assert (ProblemKind.FALSE_FACE, env.seat) in kinds


def test_an_unreadable_file_is_a_transcript_error() -> None:
    with pytest.raises(TranscriptError):
        read_transcript(b"\x93\x01\x02")
    with pytest.raises(TranscriptError, match="not a fourwinds transcript"):
        read_transcript(pack(["other", 1, bytes(16), []]))


def test_verify_command_exit_codes(played: Harness, tmp_path: Path) -> None:
    good = tmp_path / "good.fwt"
    good.write_bytes(export_transcript(played.sessions[1]))
    assert main(["verify", str(good)]) == 0
    _, payloads = read_transcript(good.read_bytes())
    bad = tmp_path / "bad.fwt"
    bad.write_bytes(_rewrite(good.read_bytes(), list(payloads[:-1])))
    assert main(["verify", str(bad)]) == 1
    assert main(["verify", "--partial", str(bad)]) == 0
    junk = tmp_path / "junk.fwt"
    junk.write_bytes(b"not a transcript")
    assert main(["verify", str(junk)]) == 2
    assert main(["verify", str(tmp_path / "absent.fwt")]) == 2


def test_replay_prints_every_action(
    played: Harness, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.fwt"
    path.write_bytes(export_transcript(played.sessions[2]))
    assert main(["replay", "--verbose", str(path)]) == 0
    out = capsys.readouterr().out
    actions = sum(1 for line in out.splitlines() if line.startswith("   ["))
    assert actions == len(played.sessions[2].timeline)
    assert "== Hand 1" in out and "== Match over" in out
    assert main(["replay", str(path)]) == 0  # without --verbose: no step numbers
    plain = capsys.readouterr().out
    assert "== Hand 1" in plain and not any(line.startswith("   [") for line in plain.splitlines())


def test_verify_blames_a_lying_seat_from_an_honest_seats_transcript() -> None:
    from .helpers import liar

    h = toy_harness(b"liar-transcript")
    liar(h, Seat.WEST, lambda e: {"state": bytes(32)} if e.kind is MsgKind.ACT else None)
    run(h)
    verdict = check_transcript(export_transcript(h.sessions[0]))
    assert not verdict.ok
    assert (ProblemKind.DIVERGENCE, Seat.WEST) in {(p.kind, p.seat) for p in verdict.problems}


def test_verify_carries_an_equivocation_proof() -> None:
    from fourwinds.protocol.seats import SEATS
    from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one

    h = toy_harness(b"fork-transcript")
    while h.sessions[1].chains[1].next_seq < 6:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    original = h.sessions[1].chains[1].accepted[-1]
    h.queue.insert(0, (Seat.WEST, resign(h, original, state=bytes(32))))
    run(h)
    verdict = check_transcript(export_transcript(h.sessions[2]))
    assert verdict.session.halted is not None
    assert (ProblemKind.EQUIVOCATION, Seat.SOUTH) in {(p.kind, p.seat) for p in verdict.problems}


def test_in_memory_demo_saves_a_transcript_that_verifies(tmp_path: Path) -> None:
    from fourwinds.frontends.bots.table_demo import play_match_in_memory

    lines: list[str] = []
    path = tmp_path / "demo.fwt"
    play_match_in_memory("mcr", 4, 1, deck="practice", transcript_path=path, out=lines.append)
    assert any(line.startswith("-- Hand 1:") for line in lines)
    assert main(["verify", str(path)]) == 0
