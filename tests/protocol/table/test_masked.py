"""The table on the masked (mental-poker) wall of protocol/deck."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from fourwinds.protocol.deck.messages import PublicReveal, Signed
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.acc import Acc
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    open_harness,
    play_match,
    run,
    seat_key,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.session import handle_message
from fourwinds.protocol.table.machine.state import Phase, Step, TableSession
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.rules.rules_adapter import WindowKind
from fourwinds.protocol.table.wire.deck_wire import decode_message
from fourwinds.protocol.table.wire.envelope import (
    PROTOCOL_VERSION,
    bundle,
    decode,
    is_bundle,
    unbundle,
)
from fourwinds.protocol.table.wire.messages import Body, DeckMsg, MsgKind, Open, decode_body
from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.tiles import Kind
from testkit.payloads import unbundled

from .helpers import body_liar, discard_liar

MASKED = TableOptions(hands=1, deck=DeckKind.MASKED)


@pytest.fixture(scope="module")
def mcr_masked() -> Harness:
    return play_match("mcr", b"masked-mcr", options=MASKED)


def _agreed(h: Harness) -> None:
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert len({s.step_hash for s in h.sessions}) == 1
    assert all(not p for p in h.problems), h.problems


def test_mcr_hand_on_the_masked_wall_completes_with_the_audit(mcr_masked: Harness) -> None:
    _agreed(mcr_masked)
    for s in mcr_masked.sessions:
        assert s.hand is not None and s.hand.audited and s.hand.passes_seen == 8


@pytest.mark.slow
def test_american_hand_with_charleston_on_the_masked_wall() -> None:
    _agreed(play_match("american", b"masked-am", options=MASKED))


def test_no_seat_learns_a_face_it_does_not_hold_before_the_audit() -> None:
    h = open_harness("mcr", b"masked-secret", options=MASKED)
    run(h, max_rounds=2_000)
    for place, s in enumerate(h.sessions):
        hand = s.hand
        if hand is None or hand.deck is None or hand.seating is None:
            continue
        state = hand.deck_state
        mine = hand.seating.index(Seat(place))
        for slot in state.faces:
            assert state.holder[slot] == mine or slot in state.public or hand.audit_started


def test_verify_accepts_a_masked_transcript(mcr_masked: Harness) -> None:
    verdict = check_transcript(export_transcript(mcr_masked.sessions[1]))
    assert verdict.ok, [p.describe() for p in verdict.problems]


def test_a_face_that_differs_from_the_opened_tile_is_blamed_on_its_seat() -> None:
    h = open_harness("mcr", b"masked-liar", options=MASKED)

    def swap(action: list[Any]) -> None:
        action[3] = Kind.P1 if action[3] != Kind.P1 else Kind.P2

    discard_liar(h, Seat.SOUTH, swap)
    run(h)
    for place in SEATS:
        if place == Seat.SOUTH:
            continue
        assert {p.seat for p in h.problems[place] if p.kind is ProblemKind.FALSE_FACE} == {
            Seat.SOUTH
        }


def test_a_deck_message_in_another_seats_name_is_blamed_on_its_sender() -> None:
    # A seat that sends, in its own signed envelope, key releases claiming to come from
    # another seat (with a wrong key, which would otherwise be blamed on that seat) is blamed
    # itself; the seat it names is not.
    from fourwinds.protocol.deck.group import scalar_from_int
    from fourwinds.protocol.table.wire.messages import DeckMsg

    h = open_harness("mcr", b"masked-framing", options=MASKED)

    def forge(body: Body) -> Body | None:
        assert isinstance(body, DeckMsg)
        message = list(body.message)
        if message[0] != "KeyDelivery":
            return None
        own, recipient = message[2], message[3]
        message[2] = next(w for w in range(4) if w not in (own, recipient))
        proofs = [list(p) for p in message[5]]
        proofs[0][3] = scalar_from_int(12345)
        message[5] = proofs
        return DeckMsg(message)

    body_liar(h, Seat.SOUTH, MsgKind.DECK, forge)
    run(h, max_rounds=20_000)
    blamed = {
        p.seat
        for place in SEATS
        if place != Seat.SOUTH
        for p in h.problems[place]
        if p.seat is not None and p.kind is not ProblemKind.STALLED
    }
    assert blamed == {Seat.SOUTH}  # (the hand then waits for the keys the forger withholds)
    assert any("in another seat's name" in p.reason for p in h.problems[Seat.EAST])


@pytest.mark.slow
def test_inner_deck_signatures_are_left_to_verify_which_blames_a_bad_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In the table a deck message is authenticated by its sender's signed envelope, so the
    # seats do not check its inner signature again; fourwinds verify does, and names the
    # seat whose envelope carried a bad one.
    from fourwinds.protocol.table.machine import masked
    from fourwinds.protocol.table.wire.envelope import private_key_from_bytes

    h = open_harness("mcr", b"masked-inner", options=MASKED)
    south = private_key_from_bytes(seat_key(b"masked-inner", 1)).public
    real = masked.sign_bytes

    def spoiled(key: SigningKey, data: bytes) -> bytes:
        signature = real(key, data)
        return bytes([signature[0] ^ 1]) + signature[1:] if key.public == south else signature

    monkeypatch.setattr(masked, "sign_bytes", spoiled)
    run(h)
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert not any(h.problems[place] for place in SEATS)
    verdict = check_transcript(export_transcript(h.sessions[Seat.EAST]))
    assert not verdict.ok
    assert {p.seat for p in verdict.problems} == {Seat.SOUTH}
    assert any("did not sign" in p.reason for p in verdict.problems)


def test_a_seat_that_withholds_its_keys_is_blamed_for_the_stall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/FAIRNESS.md "What the table layer must do": when the timer runs out, the seats the deck
    # waits for are to blame, not the drawer who cannot act without their keys.
    from fourwinds.protocol.deck.events import Send
    from fourwinds.protocol.deck.messages import KeyDelivery
    from fourwinds.protocol.table.machine import masked

    real = masked.handle_outputs

    def withholding(s: TableSession, acc: Acc, outputs: Iterable[object]) -> TableSession:
        outputs = tuple(outputs)
        if s.me == Seat.SOUTH and len(s.timeline) >= 8:
            outputs = tuple(
                o
                for o in outputs
                if not (isinstance(o, Send) and isinstance(o.message, KeyDelivery))
            )
        return real(s, acc, outputs)

    monkeypatch.setattr(masked, "handle_outputs", withholding)
    h = run(open_harness("mcr", b"masked-withhold", options=MASKED))
    stalls = [
        (place, p) for place in SEATS for p in h.problems[place] if p.kind is ProblemKind.STALLED
    ]
    by_deck = [p for _, p in stalls if "deck:" in p.reason]
    assert by_deck and {p.seat for p in by_deck} == {Seat.SOUTH}
    assert all("withheld its key" in p.reason for p in by_deck)
    assert all(p.seat != place for place, p in stalls)  # nobody blames itself


@pytest.mark.slow
def test_a_seat_restarted_mid_hand_on_the_masked_wall_completes_the_hand() -> None:
    from fourwinds.protocol.table.machine.harness import bot_moves, deliver_one, restart

    h = open_harness("mcr", b"masked-restart", options=MASKED)
    while len(h.sessions[2].timeline) < 30:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    restart(h, Seat.WEST)
    run(h)
    _agreed(h)


@pytest.mark.slow
def test_masked_hand_is_the_same_whatever_the_delivery_order() -> None:
    fifo = play_match("american", b"masked-order", options=MASKED)
    shuffled = run(
        open_harness("american", b"masked-order", options=MASKED), random.Random(3), duplicates=10
    )
    _agreed(shuffled)
    assert shuffled.sessions[0].step_hash == fifo.sessions[0].step_hash


@functools.cache
def _american_in_order() -> Harness:
    return play_match("american", b"masked-stop", options=MASKED)


def _held(s: TableSession) -> list[list[bytes]]:
    """A seat's transcript up to redaction: the hash of every message of every chain."""
    return [[env.msg_hash for env in chain.accepted] for chain in s.chains]


@pytest.mark.slow
@pytest.mark.parametrize("order_seed", [5, 6, 7, 8])
def test_american_on_the_masked_wall_is_the_same_whatever_the_delivery_order(
    order_seed: int,
) -> None:
    # The last Charleston pass moves tiles by their givers' TransferNotices while East may
    # discard one of them at once: its reveal (another sender) used to reach a seat before
    # the notice and be refused as a position East did not hold, stalling the table.
    fifo = _american_in_order()
    shuffled = run(
        open_harness("american", b"masked-stop", options=MASKED), random.Random(order_seed)
    )
    _agreed(shuffled)
    assert shuffled.sessions[0].step_hash == fifo.sessions[0].step_hash
    reference = fifo.sessions[0]
    for s in shuffled.sessions:
        assert s.timeline == reference.timeline and s.outcomes == reference.outcomes
        assert _held(s) == _held(shuffled.sessions[0])


def _sender(payload: bytes) -> Seat:
    return decode(unbundled(payload)).seat


def _east_overtakes_a_pass() -> tuple[Harness, list[tuple[Seat, bytes]], Seat, int]:
    """Play in order until the Charleston is over, then hold back every message a seat other
    than East sends to another such seat: East gets its passed tiles, discards, and its
    reveal reaches the others before the notices of the tiles' givers (different senders,
    which real transport may interleave so). Returns the harness, the held messages, a seat
    whose deck waits for such a notice and the position East revealed."""
    h = open_harness("american", b"masked-stop", options=MASKED)
    held: list[tuple[Seat, bytes]] = []

    def over(place: Seat) -> bool:  # the seat has taken the last Charleston pass
        s = h.sessions[place]
        return (
            s.phase is Phase.PLAY
            and s.rules is not None
            and s.hand is not None
            and s.hand.engine is not None
            and s.hand.seating is not None
            and s.rules.window(s.hand.engine, Seat.EAST) is not WindowKind.EXCHANGE
        )

    for _ in range(100_000):
        if any(bot_moves(h, p) for p in SEATS):
            continue
        if not h.queue:
            break
        place, payload = h.queue[0]
        hand = h.sessions[place].hand
        east = None if hand is None or hand.seating is None else hand.seating[Seat.EAST]
        if east is not None and over(place) and east not in (place, _sender(payload)):
            held.append(h.queue.pop(0))
            continue
        deliver_one(h)
    for place in SEATS:
        s = h.sessions[place]
        hand = s.hand
        assert hand is not None and hand.seating is not None
        head = s.inbox[hand.seating[Seat.EAST]][:1]
        if not head or head[0].kind is not MsgKind.DECK or head[0].body is None:
            continue
        body = decode_body(MsgKind.DECK, head[0].body)
        assert isinstance(body, DeckMsg)
        message = decode_message(body.message)
        inner = message.body if isinstance(message, Signed) else message
        if isinstance(inner, PublicReveal) and inner.slot in hand.moving:
            return h, held, place, inner.slot
    raise AssertionError("no seat waits with East's reveal of a tile still being passed")


@pytest.mark.slow
def test_a_reveal_that_overtakes_the_pass_of_its_tile_waits_for_the_givers_notice() -> None:
    h, held, waiting, _ = _east_overtakes_a_pass()
    assert not any(h.problems), h.problems  # waiting, not refusing East's reveal
    h.queue.extend(held)
    run(h)
    _agreed(h)
    assert h.sessions[waiting].step_hash == _american_in_order().sessions[0].step_hash


def test_a_reveal_of_a_tile_passed_to_another_seat_is_still_a_false_face() -> None:
    # A third seat that reveals, in its own signed envelope, the position East is being
    # passed is refused once the giver's notice is in: the wait never excuses a seat
    # showing a tile it does not hold.
    from fourwinds.protocol.deck.messages import sign
    from fourwinds.protocol.table.machine.masked import deck_context
    from fourwinds.protocol.table.wire.deck_wire import encode_message
    from fourwinds.protocol.table.wire.messages import encode_body

    from .helpers import resign

    h, held, waiting, slot = _east_overtakes_a_pass()
    s = h.sessions[waiting]
    hand = s.hand
    assert hand is not None and hand.seating is not None
    giver = hand.seating[hand.deck_state.holder[slot]]
    liar = next(p for p in SEATS if p not in (waiting, giver, hand.seating[Seat.EAST]))
    forged = PublicReveal(
        deck_context(s, hand.hand_no), wind_of(hand.seating, liar), slot, Kind.P1, bytes(32), ()
    )
    body = encode_body(DeckMsg(encode_message(sign(forged, lambda data: bytes(64)))))
    last = s.chains[liar].accepted[-1]
    lie = resign(
        h,
        last,
        seq=last.seq + 1,
        prev=last.msg_hash,
        step=s.step,
        state=s.step_hash,
        to=None,
        kind=MsgKind.DECK,
        body=body,
    )
    h.take(waiting, handle_message(s, lie, h.now))
    assert not h.problems[waiting]  # it waits for the giver's notice like any reveal
    for place, payload in held:  # the giver's messages only: the liar's real ones would fork
        if place == waiting and _sender(payload) == giver:
            h.take(waiting, handle_message(h.sessions[waiting], payload, h.now))
    blamed = [p for p in h.problems[waiting] if p.kind is ProblemKind.FALSE_FACE]
    assert [p.seat for p in blamed] == [liar]
    assert f"revealed position {slot} it does not hold" in blamed[0].reason


@pytest.mark.slow
def test_private_messages_reach_the_other_seats_only_inside_the_senders_next_message() -> None:
    # docs/PROTOCOL.md "Bundles": a key delivery goes to its drawer alone; the other seats get
    # its redacted header with the sender's next message, and every chain still closes.
    h = open_harness("mcr", b"bundled", options=MASKED)
    bundles = 0
    while not h.done():
        for _, payload in h.queue:
            assert is_bundle(payload) or decode(payload).body is not None
            bundles += is_bundle(payload)
        before = h.delivered
        run(h, max_rounds=50)
        if h.delivered == before and not h.done():
            break
    _agreed(h)
    assert bundles > 50
    for place in SEATS:  # every seat holds every seat's whole chain
        assert [c.next_seq for c in h.sessions[place].chains] == [
            c.next_seq for c in h.sessions[0].chains
        ]
        assert all(not c.pending for c in h.sessions[place].chains)


def _a_bundle(h: Harness) -> tuple[Seat, bytes]:
    """Play until a bundle is in flight to a seat whose next message of that sender is the
    first one the bundle carries."""
    for _ in range(20_000):
        for place, payload in h.queue:
            if is_bundle(payload):
                _, carried = unbundle(payload)
                item = decode(carried[0])
                if item.to != place and h.sessions[place].chains[item.seat].next_seq == item.seq:
                    return place, payload
        run(h, max_rounds=1)
    raise AssertionError("no bundle was sent")


def test_a_carried_header_is_vouched_for_by_the_signed_message_it_precedes() -> None:
    h = open_harness("mcr", b"vouched", options=MASKED)
    place, payload = _a_bundle(h)
    message, carried = unbundle(payload)
    first = decode(carried[0])
    unsigned = replace(first, signature=bytes(64)).encode()
    # linked to the signed message that names it as prev: accepted as it is
    step = handle_message(h.sessions[place], bundle(message, (unsigned, *carried[1:])), 0.0)
    assert step.problems == ()
    assert step.session.chains[first.seat].next_seq > first.seq
    # on its own, or beside a message that does not name it, its signature is checked
    other = next(decode(p) for _, p in h.queue if not is_bundle(p) and decode(p).seat != first.seat)
    for alone in (unsigned, bundle(other.encode(), (unsigned,))):
        step = handle_message(h.sessions[place], alone, 0.0)
        assert [p.kind for p in _problems(step)] == [ProblemKind.BAD_SIGNATURE]
        assert step.session.chains[first.seat] == h.sessions[place].chains[first.seat]


def test_a_carried_message_must_match_the_body_hash_its_header_names() -> None:
    h = open_harness("mcr", b"full-carried", options=MASKED)
    place, payload = _a_bundle(h)
    message, carried = unbundle(payload)
    first = decode(carried[0])
    # a carried message whose body is not the one its signed header names
    altered = replace(first, body=b"\x91\xc0").encode()
    step = handle_message(h.sessions[place], bundle(message, (altered, *carried[1:])), 0.0)
    assert [p.kind for p in _problems(step)][:1] == [ProblemKind.MALFORMED]
    assert "altered" in _problems(step)[0].reason


def _problems(step: Step) -> list[Problem]:
    return [p for p in step.problems if isinstance(p, Problem)]


def test_a_private_message_for_another_seat_is_kept_as_its_header_only() -> None:
    # A seat that is sent someone else's private message in full (a bug or a leak) neither
    # reads it nor passes it on: it chains the header and drops the body.
    h = open_harness("mcr", b"misrouted", options=MASKED)
    for _ in range(20_000):
        found = [(to, p, decode(unbundled(p))) for to, p in h.queue]
        hit = next(
            (
                (to, p, env, other)
                for to, p, env in found
                if env.to is not None and env.kind is MsgKind.DECK
                for other in SEATS
                if other not in (to, env.seat)
                and h.sessions[other].chains[env.seat].next_seq == env.seq
                and not is_bundle(p)
            ),
            None,
        )
        if hit is not None:
            break
        run(h, max_rounds=1)
    else:
        raise AssertionError("no private message was sent")
    _, payload, env, other = hit
    step = handle_message(h.sessions[other], payload, 0.0)
    held = step.session.chains[env.seat].accepted[env.seq]
    assert held.msg_hash == env.msg_hash and held.body is None
    assert env.msg_hash not in {e.msg_hash for e in step.session.inbox[env.seat]}


@pytest.mark.slow
def test_a_table_that_does_not_bundle_sends_every_message_on_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # docs/PROTOCOL.md "Bundles": below BUNDLES_SINCE every message goes on its own and a private
    # one's redacted copy at once. Masked tables play at version 3 only, so the one-by-one
    # path is driven here by moving the bundles' version out of reach.
    from fourwinds.protocol.table.machine import flow

    monkeypatch.setattr(flow, "BUNDLES_SINCE", 99)
    h = open_harness("mcr", b"version-1", options=MASKED)
    redacted = 0
    while not h.done():
        for _, payload in h.queue:
            assert not is_bundle(payload)
            redacted += decode(payload).body is None
        before = h.delivered
        run(h, max_rounds=50)
        if h.delivered == before and not h.done():
            break
    _agreed(h)
    assert redacted > 50


def _old_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """This code as a seat of versions 1-2 would see it (their wall was Edwards)."""
    from fourwinds.protocol.table.machine import lobby

    monkeypatch.setattr(lobby, "SUPPORTED_VERSIONS", (1, 2))
    monkeypatch.setattr(lobby, "X25519_WALL_SINCE", 1)


def test_a_masked_table_needs_version_3_at_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    from fourwinds.protocol.table.machine.session import join_table, new_table

    opened = new_table("t", "mcr", seat_key(b"v", 0), bytes(32), 0.0, options=MASKED)
    open_payload = opened.outgoing[0].payload
    body = decode_body(MsgKind.OPEN, decode(open_payload).body or b"")
    assert isinstance(body, Open) and body.versions == (3, PROTOCOL_VERSION)
    _old_seat(monkeypatch)
    with pytest.raises(
        LocalProtocolError, match=rf"protocol 3\.\.{PROTOCOL_VERSION}, this seat 1\.\.2"
    ):
        join_table(open_payload, Seat(1), seat_key(b"v", 1), bytes(32), 0.0)
    old_open = new_table("t", "mcr", seat_key(b"v", 0), bytes(32), 0.0, options=MASKED)
    monkeypatch.undo()
    with pytest.raises(LocalProtocolError, match="Edwards"):
        join_table(old_open.outgoing[0].payload, Seat(1), seat_key(b"v", 1), bytes(32), 0.0)


def test_a_practice_table_still_plays_with_a_version_2_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from fourwinds.protocol.table.machine.session import join_table, new_table

    first = new_table(
        "t",
        "mcr",
        seat_key(b"old", 0),
        bytes(32),
        0.0,
        options=TableOptions(deck=DeckKind.PRACTICE, hands=1),
    )
    open_payload = first.outgoing[0].payload
    h = Harness(b"old", [first.session] * 4, [list(first.persist), [], [], []])
    for place in (1, 2, 3):
        if place == 3:
            _old_seat(monkeypatch)
        h.take(
            Seat(place),
            join_table(
                open_payload, Seat(place), seat_key(b"old", place), bytes([place]) * 32, 0.0
            ),
        )
    monkeypatch.undo()
    run(h)
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert {s.version for s in h.sessions} == {2}


def test_verify_reads_the_private_messages_its_transcript_holds(mcr_masked: Harness) -> None:
    # A seat keeps only the headers of others' private messages; an observer checking a
    # seat's transcript reads everything in it, the key deliveries to that seat included.
    verdict = check_transcript(export_transcript(mcr_masked.sessions[1]))
    assert verdict.ok, verdict.problems
    to_one = [
        env for chain in verdict.session.chains for env in chain.accepted if env.to == Seat(1)
    ]
    assert to_one and all(env.body is not None for env in to_one)
    others = [
        env
        for chain in verdict.session.chains
        for env in chain.accepted
        if env.to not in (None, Seat(1)) and env.seat != Seat(1) and env.kind is not MsgKind.JOIN
    ]  # the joins are public in the seating
    assert others and all(env.body is None for env in others)


def test_a_pass_notice_naming_another_receiver_than_the_games_is_blamed_on_its_giver() -> None:
    # The deck checks only that a giver holds what it passes; where a Charleston pass goes
    # is the game's. A giver whose TransferNotice sends its three tiles elsewhere (in its
    # own signed envelope) is refused by the seats that know the game's pass, naming it.
    from fourwinds.protocol.table.wire.messages import DeckMsg

    h = open_harness("american", b"masked-misdirected", options=MASKED)
    forged: list[int] = []

    def misdirect(body: Body) -> Body | None:
        assert isinstance(body, DeckMsg)
        message = list(body.message)
        if message[0] != "Signed" or list(message[1])[:1] != ["TransferNotice"] or forged:
            return None
        notice = list(message[1])
        giver, receiver = int(notice[2]), int(notice[3])
        notice[3] = next(w for w in range(4) if w not in (giver, receiver))
        forged.append(notice[3])
        message[1] = notice
        return DeckMsg(message)

    body_liar(h, Seat.SOUTH, MsgKind.DECK, misdirect)
    run(h, max_rounds=20_000)
    assert forged, "South passed no tile"
    told = [
        p
        for place in SEATS
        if place != Seat.SOUTH
        for p in h.problems[place]
        if "where the game passes it to" in p.reason
    ]
    assert told and {p.seat for p in told} == {Seat.SOUTH}, told
    assert all(p.kind is ProblemKind.ILLEGAL_ACTION for p in told)
