"""A seat rebuilt from its peers' copies (protocol/table/machine/rebuild.py): at any point of a
match, the seat whose records are lost is rebuilt with the same state, the same chains and records
``resume`` reads back, and plays the match to its end with the others; a seat whose secret
does not follow from its key, or a pool with a forged message, is refused with the reason."""

from __future__ import annotations

import hashlib
import random

import pytest

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.harness import (
    Harness,
    catch_up,
    deliver_one,
    open_harness,
    run,
    seat_key,
)
from fourwinds.protocol.table.machine.options import DeckKind, TableOptions
from fourwinds.protocol.table.machine.rebuild import RebuildError, RebuildPool, rebuild
from fourwinds.protocol.table.machine.session import messages_since
from fourwinds.protocol.table.machine.state import Phase
from fourwinds.protocol.table.machine.transcript import check_transcript, export_transcript, resume
from fourwinds.protocol.table.wire.envelope import decode, public_key_bytes

VICTIM = Seat(2)


def _entropy(seed: bytes, place: int) -> bytes:
    return hashlib.sha256(b"entropy" + seed + bytes([place])).digest()  # as open_harness


def _quiet(h: Harness) -> None:
    """Deliver everything in flight (no seat acts meanwhile)."""
    while h.queue:
        deliver_one(h)


def _pool(h: Harness, me: Seat) -> tuple[RebuildPool, list[int]]:
    own = public_key_bytes(h.sessions[me].key)  # type: ignore[arg-type]
    pool = RebuildPool(me, own, h.sessions[0].public_keys[0])
    heads = [-1, -1, -1, -1]
    for peer in SEATS:
        if peer == me:
            continue
        for author in SEATS:
            for payload in messages_since(h.sessions[peer], author, 0, for_seat=me):
                pool.add(payload)
            heads[author] = max(heads[author], h.sessions[peer].chains[author].next_seq - 1)
    return pool, heads


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deck", "rounds", "place"),
    [
        (DeckKind.MASKED, 40, 2),
        (DeckKind.MASKED, 900, 2),
        (DeckKind.MASKED, 2500, 0),
        (DeckKind.MASKED, 1700, 3),
        (DeckKind.PRACTICE, 300, 1),
        (DeckKind.PRACTICE, 20, 0),
    ],
)
def test_a_seat_rebuilt_from_its_peers_is_the_seat_it_was_and_plays_on(
    deck: DeckKind, rounds: int, place: int
) -> None:
    seed = f"rebuild-{deck.value}-{rounds}".encode()
    h = open_harness("mcr", seed, options=TableOptions(deck=deck, hands=1))
    run(h, random.Random(rounds), max_rounds=rounds)
    _quiet(h)
    me = Seat(place)
    before = h.sessions[me]
    pool, heads = _pool(h, me)
    assert pool.complete(heads), pool.missing(heads)
    assert heads[me] == before.chains[me].next_seq - 1  # the last seq it used
    step = rebuild(pool, seat_key(seed, me), _entropy(seed, me))
    rebuilt = step.session
    assert rebuilt.step_hash == before.step_hash and rebuilt.phase is before.phase
    for author in SEATS:
        assert [e.msg_hash for e in rebuilt.chains[author].accepted] == [
            e.msg_hash for e in before.chains[author].accepted
        ]
    again = resume(step.persist, seat_key(seed, me))  # the fresh log reads back
    assert again.step_hash == before.step_hash
    assert again.chains[me].next_seq == before.chains[me].next_seq
    h.sessions[me] = again
    h.records[me] = list(step.persist)
    catch_up(h, me)
    run(h, random.Random(7))
    assert h.done()
    hashes = {tuple(e.msg_hash for a in SEATS for e in s.chains[a].accepted) for s in h.sessions}
    assert len(hashes) == 1  # the same messages everywhere
    for session in h.sessions:
        verdict = check_transcript(export_transcript(session))
        assert verdict.ok, [p.describe() for p in verdict.problems]


def test_a_seat_whose_pool_is_short_of_its_own_last_message_is_not_complete() -> None:
    seed = b"rebuild-short"
    h = open_harness("mcr", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    run(h, random.Random(1), max_rounds=200)
    _quiet(h)
    pool, heads = _pool(h, VICTIM)
    last = max(seq for seat, seq in pool.messages if seat == VICTIM)
    del pool.messages[(int(VICTIM), last)]
    assert not pool.complete(heads) and pool.missing(heads) == 1


@pytest.mark.slow
def test_a_wrong_secret_is_refused_rather_than_signing_differently() -> None:
    seed = b"rebuild-wrong"
    h = open_harness("mcr", seed, options=TableOptions(deck=DeckKind.MASKED, hands=1))
    run(h, random.Random(3), max_rounds=900)
    _quiet(h)
    pool, _ = _pool(h, VICTIM)
    with pytest.raises(RebuildError, match="different message"):
        rebuild(pool, seat_key(seed, VICTIM), b"another seat's entropy, 32 bytes!")
    creator, _ = _pool(h, Seat(0))
    with pytest.raises(RebuildError, match="does not follow"):
        rebuild(creator, seat_key(seed, Seat(0)), b"another seat's entropy, 32 bytes!")


def test_a_dice_commitment_the_derived_secret_cannot_open_is_refused() -> None:
    """Mid-dice on the practice deck (no deck message to compare): a seat whose secret does
    not follow from its key would reveal a nonce that does not open its commitment."""
    seed = b"rebuild-dice"
    h = open_harness("mcr", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    rng = random.Random(5)
    for _ in range(3000):
        s = h.sessions[VICTIM]
        if s.phase is Phase.ECHO and all(
            o.chains[VICTIM].next_seq == s.chains[VICTIM].next_seq for o in h.sessions
        ):
            break  # the others hold our commitment; nothing revealed yet
        run(h, rng, max_rounds=1)
    else:
        raise AssertionError("the dice never came")
    pool, _ = _pool(h, VICTIM)
    with pytest.raises(RebuildError, match="dice commitment"):
        rebuild(pool, seat_key(seed, VICTIM), b"another seat's entropy, 32 bytes!")
    rebuilt = rebuild(pool, seat_key(seed, VICTIM), _entropy(seed, VICTIM)).session
    assert rebuilt.chains[VICTIM].next_seq == h.sessions[VICTIM].chains[VICTIM].next_seq


def test_a_forged_or_foreign_message_is_refused_and_counted() -> None:
    seed = b"rebuild-forged"
    h = open_harness("mcr", seed, options=TableOptions(deck=DeckKind.PRACTICE, hands=1))
    run(h, random.Random(2), max_rounds=300)
    _quiet(h)
    pool, heads = _pool(h, VICTIM)
    victim_msg = messages_since(h.sessions[0], VICTIM, 3)[0]
    env = decode(victim_msg)
    forged = bytearray(victim_msg)
    forged[-70] ^= 0x01  # inside the signature
    fresh = RebuildPool(VICTIM, pool.own_key, pool.host_key)
    for (seat, seq), held in sorted(pool.messages.items()):
        if (seat, seq) != (int(VICTIM), env.seq):
            fresh.add(held.encode())
    fresh.add(bytes(forged))
    fresh.add(b"\x93garbage")
    assert fresh.refused == 2 and not fresh.complete(heads)
    fresh.add(victim_msg)
    assert fresh.complete(heads)
