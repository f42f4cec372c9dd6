"""The four-seat table session with the toy rules: determinism, detection, timers, resume."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.daemon.table_runtimes.real_session import seat_view
from fourwinds.protocol.errors import LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    bot_moves,
    deliver_one,
    drive,
    open_harness,
    restart,
    run,
)
from fourwinds.protocol.table.machine.lobby import is_open_message
from fourwinds.protocol.table.machine.masked import ready_to_act
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.problems import ProblemKind
from fourwinds.protocol.table.machine.session import (
    TableReady,
    handle_message,
    join_table,
    local_action,
    new_table,
    settle,
    tick,
)
from fourwinds.protocol.table.machine.state import Outgoing, Phase
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.views.suggest import bot_entropy
from fourwinds.protocol.table.wire.envelope import (
    PROTOCOL_VERSION,
    decode,
    is_bundle,
    unbundle,
)
from fourwinds.protocol.table.wire.messages import Act, MsgKind, decode_body
from testkit.payloads import unbundled

from .helpers import discard_liar, liar, resign, toy_harness


def final_hashes(h: Harness) -> set[bytes]:
    return {s.step_hash for s in h.sessions}


@pytest.fixture(scope="module")
def reference() -> Harness:
    return run(toy_harness(b"ref", hands=2))


def test_harness_plays_a_whole_toy_match(reference: Harness) -> None:
    assert all(s.phase is Phase.OVER for s in reference.sessions)
    assert len(final_hashes(reference)) == 1
    assert all(not p for p in reference.problems)
    assert {s.hands_played for s in reference.sessions} == {2}
    assert len({s.scores for s in reference.sessions}) == 1


def test_deal_rotates_to_the_right_between_hands(reference: Harness) -> None:
    (_, _, first), (_, _, second) = reference.sessions[0].outcomes
    assert second[Seat.EAST] == first[Seat.SOUTH]


@functools.cache
def _fifo_reference() -> Harness:
    return run(toy_harness(b"prop"))


@pytest.mark.slow
@given(st.integers(0, 2**32), st.integers(0, 30))
@settings(max_examples=10, deadline=None)
def test_any_delivery_order_with_duplicates_gives_identical_states(
    order_seed: int, duplicates: int
) -> None:
    fifo = _fifo_reference()
    shuffled = run(toy_harness(b"prop"), random.Random(order_seed), duplicates=duplicates)
    assert all(s.phase is Phase.OVER for s in shuffled.sessions)
    assert final_hashes(shuffled) == final_hashes(fifo)
    assert all(not p for p in shuffled.problems)
    for a, b in zip(fifo.sessions, shuffled.sessions, strict=True):
        assert a.timeline == b.timeline


def test_every_seat_passes_through_the_same_state_hashes() -> None:
    h = toy_harness(b"steps")
    seen: list[dict[int, bytes]] = [{}, {}, {}, {}]
    rng = random.Random(5)
    for _ in range(100_000):
        if h.done():
            break
        run_one = bool(h.queue) and rng.randrange(2) == 0
        if not run_one and any(bot_moves(h, p) for p in SEATS):
            pass
        elif h.queue:
            deliver_one(h, rng.randrange(len(h.queue)))
        for place, s in enumerate(h.sessions):
            seen[place].setdefault(s.step, s.step_hash)
    common = set(seen[0]) & set(seen[1]) & set(seen[2]) & set(seen[3])
    assert len(common) > 10
    assert all(len({seen[p][k] for p in range(4)}) == 1 for k in common)


def _blamed(h: Harness, place: int, kind: ProblemKind) -> set[Seat | None]:
    return {p.seat for p in h.problems[place] if p.kind is kind}


def _honest_agree(h: Harness, cheat: Seat) -> None:
    honest = [h.sessions[p] for p in SEATS if p != cheat]
    assert len({s.step_hash for s in honest}) == 1
    assert len({s.step for s in honest}) == 1


def test_wrong_state_hash_is_blamed_and_honest_seats_agree() -> None:
    h = toy_harness(b"diverge")
    liar(h, Seat.WEST, lambda e: {"state": bytes(32)} if e.kind is MsgKind.ACT else None)
    run(h)
    for p in (0, 1, 3):
        assert _blamed(h, p, ProblemKind.DIVERGENCE) == {Seat.WEST}
        assert _blamed(h, p, ProblemKind.STALLED) == {Seat.WEST}
    _honest_agree(h, Seat.WEST)


def test_illegal_action_is_rejected_with_the_reason_and_blamed() -> None:
    h = toy_harness(b"illegal")

    def steal(action: list[Any]) -> None:
        action[2] = 140  # a slot still in the wall, not in this seat's hand

    discard_liar(h, Seat.NORTH, steal)
    run(h)
    for p in (0, 1, 2):
        problems = [
            x
            for x in h.problems[p]
            if x.kind is ProblemKind.ILLEGAL_ACTION or x.kind is ProblemKind.FALSE_FACE
        ]
        assert problems and {x.seat for x in problems} == {Seat.NORTH}
    _honest_agree(h, Seat.NORTH)


def test_a_false_face_is_caught_at_once() -> None:
    h = toy_harness(b"face")

    def swap_tile(action: list[Any]) -> None:
        action[3] = (action[3] + 1) % 34

    discard_liar(h, Seat.SOUTH, swap_tile)
    run(h)
    for p in (0, 2, 3):
        assert _blamed(h, p, ProblemKind.FALSE_FACE) == {Seat.SOUTH}
    _honest_agree(h, Seat.SOUTH)


def test_equivocation_is_proven_and_every_honest_seat_halts_blaming_the_seat() -> None:
    h = toy_harness(b"fork")
    while not any(s.phase is Phase.PLAY for s in h.sessions):
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    # South's first real action goes to everyone; a different one with the same seq to West.
    while h.sessions[1].chains[1].accepted[-1].kind is not MsgKind.ACT:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    original = h.sessions[1].chains[1].accepted[-1]
    forged = resign(h, original, state=bytes(32))
    h.queue.insert(0, (Seat.WEST, forged))
    run(h)
    for p in (0, 2, 3):
        s = h.sessions[p]
        assert s.halted is not None and s.halted.seat is Seat.SOUTH
        assert s.halted.kind is ProblemKind.EQUIVOCATION
        first, second = s.halted.evidence
        assert decode(first).seq == decode(second).seq == original.seq


def test_garbage_input_is_reported_never_raised() -> None:
    h = run(toy_harness(b"junk"))
    s = h.sessions[1]
    for junk in (b"", b"\xc1", b"\x93\x01\x02\x03", bytes(100), b"\xdc\xff\xff"):
        step = handle_message(s, junk, 1.0)
        assert step.session.step_hash == s.step_hash
        assert [p.kind for p in step.problems] == [ProblemKind.MALFORMED]  # type: ignore[attr-defined]


def _until_seat_0_answers_a_discard(h: Harness) -> None:
    """Deliver and let the other bots play until seat 0 is asked about a discard."""
    while True:
        s0 = h.sessions[0]
        waiting = (
            s0.phase is Phase.PLAY
            and s0.me in s0.awaiting
            and s0.hand is not None
            and s0.hand.engine.phase == "calls"
        )
        if waiting and not h.queue:
            break
        if not any(bot_moves(h, p) for p in SEATS if p != 0 or not waiting):
            deliver_one(h)


def test_timeout_makes_our_own_seat_pass_with_a_signed_default() -> None:
    h = toy_harness(b"timer", auto_pass=False)
    options_call = TableOptions(deck=DeckKind.PRACTICE).call_window
    _until_seat_0_answers_a_discard(h)
    s0 = h.sessions[0]
    assert tick(s0, s0.step_started + options_call - 0.5).outgoing == ()
    step = tick(s0, s0.step_started + options_call + 0.01)
    assert len(step.outgoing) == 1
    env = decode(step.outgoing[0].payload)
    body = decode_body(env.kind, env.body or b"")
    assert isinstance(body, Act) and body.timeout and body.action[0] == "Pass"


def test_auto_pass_answers_a_discard_we_cannot_claim_at_once() -> None:
    # docs/RULES.md B6 gives a call window; with nothing to call there is nothing to wait for.
    # Seat 0's bot never answers a discard here: only auto_pass can.
    passes = []
    for auto in (True, False):
        h = toy_harness(b"auto-pass", auto_pass=auto)
        for _ in range(5000):
            s0 = h.sessions[0]
            engine = s0.hand.engine if s0.hand is not None else None
            calls = engine is not None and engine.phase == "calls"
            if not any(bot_moves(h, p) for p in SEATS if p != 0 or not calls):
                if not h.queue:
                    break
                deliver_one(h)
        acts = [
            decode_body(e.kind, e.body or b"")
            for e in h.sessions[0].chains[0].accepted
            if e.kind is MsgKind.ACT
        ]
        passes.append(
            sum(1 for a in acts if isinstance(a, Act) and a.action[0] == "Pass" and not a.timeout)
        )
    assert passes[0] > 0
    assert passes[1] == 0


def test_a_silent_seat_is_reported_and_visible_in_the_view() -> None:
    h = toy_harness(b"silent")
    run(h, bots=(Seat.EAST, Seat.SOUTH, Seat.WEST))
    s = h.sessions[0]
    assert seat_view(s)["session"]["waiting_for"] == [3]
    assert _blamed(h, 0, ProblemKind.STALLED) == {Seat.NORTH}


def test_our_own_illegal_action_is_refused_and_nothing_is_sent() -> None:
    h = toy_harness(b"local")
    run(h)
    with pytest.raises(LocalProtocolError):
        local_action(h.sessions[0], TableReady(), 0.0)


def test_a_seat_restarted_mid_hand_resumes_and_the_hand_completes() -> None:
    reference = run(toy_harness(b"crash"))
    h = toy_harness(b"crash")
    while len(h.sessions[2].timeline) < 12:
        if not any(bot_moves(h, p) for p in SEATS):
            deliver_one(h)
    assert h.sessions[2].phase is Phase.PLAY
    h.records[2] = h.records[2][: len(h.records[2]) - 5]  # it lost its last few records
    restart(h, Seat.WEST)
    assert h.sessions[2].phase is Phase.PLAY
    run(h)
    assert all(s.phase is Phase.OVER for s in h.sessions)
    assert final_hashes(h) == final_hashes(reference)


def test_join_for_a_taken_place_is_refused() -> None:
    from fourwinds.protocol.table.machine.harness import seat_key
    from fourwinds.protocol.table.machine.session import join_table

    h = open_harness("toy", b"lobby", options=TableOptions(deck=DeckKind.PRACTICE))
    open_payload = h.sessions[0].chains[0].accepted[0].encode()
    deliver_one(h)  # South's join reaches the creator first
    late = join_table(open_payload, Seat.SOUTH, seat_key(b"other", 9), bytes(32), 0.0)
    step = handle_message(h.sessions[0], late.outgoing[0].payload, 0.0)
    assert [p.reason for p in step.problems] == ["place 1 is already taken"]  # type: ignore[attr-defined]
    while h.queue:
        deliver_one(h)
    assert h.sessions[0].phase is Phase.READY and h.sessions[0].version == PROTOCOL_VERSION
    step = handle_message(h.sessions[0], late.outgoing[0].payload, 0.0)
    kinds = [p.kind for p in step.problems]  # type: ignore[attr-defined]
    assert kinds == [ProblemKind.REFUSED_JOIN]
    assert step.session.public_keys == h.sessions[0].public_keys


def test_every_seat_must_say_ready_before_the_dice() -> None:
    h = open_harness("toy", b"ready", options=TableOptions(deck=DeckKind.PRACTICE))
    run(h, bots=(Seat.EAST, Seat.SOUTH, Seat.WEST))
    assert {s.phase for s in h.sessions} == {Phase.READY}
    assert seat_view(h.sessions[0])["session"]["waiting_for"] == [3]
    bot_moves(h, Seat.NORTH)
    run(h)
    assert {s.phase for s in h.sessions} == {Phase.OVER}


def test_private_messages_are_redacted_for_other_seats_but_still_chain() -> None:
    from fourwinds.protocol.table.machine.session import messages_since

    h = run(toy_harness(b"private"))
    creator = h.sessions[0]
    redacted = decode(messages_since(creator, Seat.WEST, 0)[0])
    full = decode(messages_since(creator, Seat.WEST, 0, for_seat=Seat.EAST)[0])
    assert redacted.kind is MsgKind.JOIN and redacted.body is None
    assert full.body is not None and full.msg_hash == redacted.msg_hash
    # a seat given the redacted copy keeps the chain intact
    step = handle_message(h.sessions[1], redacted.encode(), 0.0)
    assert step.problems == () and step.session.step_hash == h.sessions[1].step_hash


def _delivered(outgoing: tuple[Outgoing, ...]) -> set[tuple[int, bytes, bool]]:
    """(seat, message hash, in full) for every message the payloads give each seat."""
    got = set()
    for out in outgoing:
        message, carried = unbundle(out.payload) if is_bundle(out.payload) else (out.payload, ())
        for raw in (*carried, message):
            env = decode(raw)
            for place in SEATS:
                if place != env.seat and out.to in (None, place):
                    got.add((int(place), env.msg_hash, env.body is not None))
    return got


@pytest.mark.slow
@pytest.mark.parametrize("table", ["toy", "mcr-masked"])
def test_a_message_applied_then_answered_is_the_same_as_handled_at_once(table: str) -> None:
    # The daemon applies a peer's message first (to adopt and show it), then makes our
    # automatic reply: the two calls must end where the one call does, sending the same.
    h = (
        toy_harness(b"split")
        if table == "toy"
        else open_harness("mcr", b"split", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    )
    split_ones = 0
    for _ in range(20_000):
        if h.done():
            break
        if any(bot_moves(h, p) for p in SEATS):
            continue
        if not h.queue:
            break
        place, payload = h.queue[0]
        s = h.sessions[place]
        whole = handle_message(s, payload, h.now)
        first = handle_message(s, payload, h.now, answer=False)
        then = settle(first.session, h.now)
        assert then.session.step_hash == whole.session.step_hash
        assert _delivered(first.outgoing + then.outgoing) == _delivered(whole.outgoing)
        assert first.persist + then.persist == whole.persist
        if then.outgoing:
            split_ones += 1
            assert not any(decode(unbundled(o.payload)).kind is MsgKind.ACT for o in first.outgoing)
        deliver_one(h)
    assert h.done()
    assert split_ones > 20  # dice messages and passes were left to ``settle``


@pytest.mark.slow
@pytest.mark.parametrize("table", ["toy", "mcr-masked"])
def test_our_action_sent_then_settled_is_the_same_as_taken_at_once(table: str) -> None:
    # The daemon sends our signed action before its own session takes it in: the message
    # is the same, and so is where the session ends once settled.
    h = (
        toy_harness(b"settle")
        if table == "toy"
        else open_harness("mcr", b"settle", options=TableOptions(hands=1, deck=DeckKind.MASKED))
    )
    checked = 0

    def moves(h: Harness) -> bool:
        nonlocal checked
        for place in SEATS:
            s = h.sessions[place]
            if s.me not in s.awaiting or s.me in s.inputs or s.inbox[place]:
                continue
            if s.phase is Phase.READY:
                action: object = TableReady()
            elif (
                s.phase is Phase.PLAY
                and s.rules is not None
                and s.hand is not None
                and s.hand.seating is not None
                and ready_to_act(s)
            ):
                wind = wind_of(s.hand.seating, place)
                action = s.rules.choose(s.hand.engine, wind, bot_entropy(h.seed, place, s.step))
            else:
                continue
            whole = local_action(s, action, h.now)
            first = local_action(s, action, h.now, settle_now=False)
            then = settle(first.session, h.now)
            assert first.session.step == s.step  # nothing resolved before settle
            assert then.session.step_hash == whole.session.step_hash
            assert _delivered(first.outgoing + then.outgoing) == _delivered(whole.outgoing)
            checked += 1
            h.take(place, whole)
            return True
        return False

    drive(h, moves)
    assert h.done() and checked > 20


def test_only_the_creators_first_message_is_taken_for_a_tables_open() -> None:
    """A joiner starts its session from the Open and keeps any other message of the table
    that comes first (daemon/peers/frames_in.py); so only the Open itself may pass."""
    opened = new_table("kitchen", "mcr", bytes(range(32)), b"e" * 32, 0.0)
    payload = opened.outgoing[0].payload
    assert is_open_message(payload)
    joined = join_table(payload, Seat(1), bytes(range(1, 33)), b"f" * 32, 0.0)
    assert not is_open_message(joined.outgoing[0].payload)  # its Join
    assert not is_open_message(b"\x93\x01\x02")
    assert not is_open_message(b"")
