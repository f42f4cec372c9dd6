"""``fourwinds verify`` redoes the deck audit of a masked-deck transcript as an observer:
every pass recomputed from the revealed secrets, every face shown checked, the culprit named."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.messages import AuditReveal, Signed, sign
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import open_harness, run, seat_key
from fourwinds.protocol.table.machine.observer_audit import audit_hand
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript
from fourwinds.protocol.table.wire.deck_wire import decode_message, encode_message
from fourwinds.protocol.table.wire.envelope import private_key_from_bytes
from fourwinds.protocol.table.wire.messages import Body, DeckMsg, MsgKind

from .helpers import body_liar

MASKED = TableOptions(hands=1, deck=DeckKind.MASKED)


def _tampered_secret(seed: bytes, place: Seat, position: int) -> bytes:
    """A hand in which ``place`` reveals a wrong key for ``position`` at the audit (validly
    signed: only the secret is wrong); the transcript as an honest seat stored it."""
    h = open_harness("mcr", seed, options=MASKED)
    key = private_key_from_bytes(seat_key(seed, int(place)))

    def tamper(body: Body) -> Body | None:
        assert isinstance(body, DeckMsg)
        message = decode_message(body.message)
        if not (isinstance(message, Signed) and isinstance(message.body, AuditReveal)):
            return None
        keys = list(message.body.keys)
        keys[position] = group.scalar_from_int(4242)
        forged = sign(replace(message.body, keys=tuple(keys)), key.sign)
        return DeckMsg(encode_message(forged))

    body_liar(h, place, MsgKind.DECK, tamper)
    run(h)
    honest = next(p for p in SEATS if p != place)
    return export_transcript(h.sessions[honest])


@pytest.mark.slow
def test_verify_catches_a_tampered_deck_secret_and_blames_its_seat() -> None:
    verdict = check_transcript(_tampered_secret(b"audit-liar", Seat.WEST, 7))
    assert not verdict.ok
    deck = [p for p in verdict.problems if p.kind is ProblemKind.FALSE_FACE]
    assert deck, [p.describe() for p in verdict.problems]
    assert {p.seat for p in deck} == {Seat.WEST}
    assert any("lock_tampered" in p.reason or "wrong_key" in p.reason for p in deck)


@pytest.mark.slow
def test_observer_audit_of_an_honest_hand_finds_nothing() -> None:
    h = run(open_harness("american", b"audit-honest", options=MASKED))
    verdict = check_transcript(export_transcript(h.sessions[2]))
    assert verdict.ok, [p.describe() for p in verdict.problems]
    hand = verdict.session.hand
    assert hand is not None and len(hand.observed) >= 12  # 8 passes and 4 audits at least


@pytest.mark.slow
def test_observer_audit_blames_a_face_the_secrets_contradict() -> None:
    h = run(open_harness("mcr", b"audit-face", options=MASKED))
    verdict = check_transcript(export_transcript(h.sessions[0]))
    hand = verdict.session.hand
    assert hand is not None and hand.seating is not None
    from fourwinds.protocol.deck.messages import PublicReveal
    from fourwinds.protocol.table.machine.masked import deck_context
    from fourwinds.protocol.tiles import Kind

    observed = list(hand.observed)
    index, (place, message) = next(
        (i, o) for i, o in enumerate(observed) if isinstance(o[1].body, PublicReveal)
    )
    body = message.body
    wrong = Kind.P1 if body.kind != Kind.P1 else Kind.P2
    holder_key = private_key_from_bytes(seat_key(b"audit-face", int(place)))
    observed[index] = (place, sign(replace(body, kind=wrong), holder_key.sign))
    found = audit_hand(
        verdict.session, tuple(observed), deck_context(verdict.session, hand.hand_no)
    )
    assert [(w, c.value) for w, c, _ in found] == [(body.seat, "wrong_face")]


@pytest.mark.slow
def test_verify_command_names_the_seat_with_the_tampered_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fourwinds.frontends.cli import main

    path = tmp_path / "tampered.fwt"
    path.write_bytes(_tampered_secret(b"audit-cli", Seat.SOUTH, 100))
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "deck audit" in out and "blame seat 1" in out and out.strip().endswith("BAD")
