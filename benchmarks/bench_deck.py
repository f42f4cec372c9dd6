"""The fair deck: four in-memory seats on a 152-tile American wall.

* ``deck_shuffle_lock_deal``: every seat derives its secrets and its tile table, the shuffle
  and lock passes run (8 passes of 152 points), and the 53 tiles of the deal are released and
  opened; Ed25519 identity signatures (libsodium, as the table makes and checks them) on every
  signed message. Beside it, in the same run, the floor: the same number of bare group
  operations in a loop, i.e. the scalar multiplications (4 x 152 x 2 + 53 = 1269) and the
  Elligator maps of the tile points (4 x 152 = 608: every seat derives them). Target: ratio
  <= 1.5. (Until the wall moved to X25519, whose multiplication is about three times cheaper,
  the floor counted only the multiplications and the maps were lost in the noise;
  ``ratio_to_mults_alone`` still gives the old measure.)
* ``deck_audit``: the end-of-hand audit of one seat once the four seats' secrets are in (it
  checks the whole wall and every face it saw): what each daemon spends, in parallel with the
  others on their own machines. Target: <= 150 ms.
* ``deck_audit_four_seats``: the same audit run by the four in-memory seats one after another,
  the reveals included. Held to the same 150 ms.

Quick (``scripts/bench --quick``): one hand after the warm-up instead of REPEAT.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections.abc import Callable

import nacl.bindings as sodium

from benchmarks.timing import result
from fourwinds.protocol.american.tileset import AMERICAN_SET, american_plan
from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.audit import judge
from fourwinds.protocol.deck.deck import MaskedDeck
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.masked_wall import WallState
from fourwinds.protocol.deck.messages import DeckDescription
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.wire.signing import SigningKey, Verifier

_clock = time.process_time
"""CPU time of this process: single-threaded work measured apart from the other processes
sharing the machine (wall-clock times swing with their load; the medians of interleaved runs
are compared)."""

WALL = 152
DEALT = 53
MULTS = 4 * WALL * 2 + DEALT
MAPS = 4 * WALL
REPEAT = 7
RATIO_TARGET = 1.5
AUDIT_TARGET_MS = 150.0

_KEYS = tuple(SigningKey.from_seed(hashlib.sha256(b"bench %d" % s).digest()) for s in SEATS)
_PUBLIC = tuple(Verifier.from_bytes(k.public) for k in _KEYS)


def _verify(seat: Seat, data: bytes, signature: bytes) -> bool:
    return _PUBLIC[seat].check(signature, data)


def _one_hand(run: int) -> tuple[float, float, float, Loopback[WallState]]:
    """Seconds for build + deal, for the four-seat audit, and for one seat's audit."""
    desc = DeckDescription(b"bench table/hand %d" % run, AMERICAN_SET)
    plan = american_plan((3, 4))
    start = _clock()
    decks = [
        MaskedDeck.create(
            desc, s, Entropy(hashlib.sha256(b"%d/%d" % (run, s)).digest()), _KEYS[s].sign, _verify
        )
        for s in SEATS
    ]
    loop = Loopback(decks)
    loop.everyone(lambda deck, state: deck.deal(state, plan))
    built = _clock()
    loop.everyone(lambda deck, state: deck.audit(state))
    audited = _clock()
    # One seat's own check, alone: what each daemon spends once the secrets are in.
    east, state = decks[Seat.EAST], loop.states[Seat.EAST]
    reveals = tuple(a.body for a in state.audits if a is not None)
    one = _clock()
    judge(east.ctx, state, reveals)
    done = _clock()
    return built - start, audited - built, done - one, loop


def _floor() -> tuple[float, float]:
    """Seconds for ``MULTS`` bare scalar multiplications, and for ``MAPS`` bare Elligator
    maps (the tile points every seat derives)."""
    point = group.hash_to_point(b"floor", 0)
    scalar = Entropy(b"f" * 32).scalar("floor", 0)
    mult: Callable[[bytes, bytes], bytes] = sodium.crypto_scalarmult  # X25519, as group.mult
    start = _clock()
    for _ in range(MULTS):
        point = mult(scalar, point)
    mults = _clock() - start
    seeds = [hashlib.sha256(b"%d" % i).digest() for i in range(MAPS)]
    start = _clock()
    for seed in seeds:
        sodium.crypto_core_ed25519_from_uniform(seed)
    return mults, _clock() - start


def bench_deck(quick: bool) -> list[dict[str, object]]:
    _one_hand(-1)  # warm up (imports, the libsodium probe)
    builds, audits, seats, floors, mult_floors = [], [], [], [], []
    for run in range(1 if quick else REPEAT):
        build, audit, seat, loop = _one_hand(run)
        mults, maps = _floor()
        floors.append(mults + maps)
        mult_floors.append(mults)
        builds.append(build)
        audits.append(audit)
        seats.append(seat)
        assert all(s.audited for s in loop.states)
    build_ms, floor_ms = statistics.median(builds) * 1000, statistics.median(floors) * 1000
    # each run's build against the floor measured right after it: the machine's speed moves
    # between runs, so the ratio is taken pair by pair (median of the pairs)
    ratio = statistics.median(b / f for b, f in zip(builds, floors, strict=True))
    mults_ms = statistics.median(mult_floors) * 1000
    audit_ms, seat_ms = statistics.median(audits) * 1000, statistics.median(seats) * 1000
    return [
        result(
            "deck_shuffle_lock_deal",
            build_ms,
            "ms",
            target=f"<= {RATIO_TARGET}x floor",
            met=ratio <= RATIO_TARGET,
            ratio=round(ratio, 3),
            floor_ms=round(floor_ms, 3),
            floor_mults=MULTS,
            floor_maps=MAPS,
            mult_us=round(mults_ms * 1000 / MULTS, 1),
            ratio_to_mults_alone=round(
                statistics.median(b / m for b, m in zip(builds, mult_floors, strict=True)), 3
            ),
            curve="X25519, clamped scalars",
            wall=WALL,
            dealt=DEALT,
            clock="process CPU time",
        ),
        result(
            "deck_audit",
            seat_ms,
            "ms",
            target=f"<= {AUDIT_TARGET_MS} ms",
            met=seat_ms <= AUDIT_TARGET_MS,
            wall=WALL,
            mults=WALL - 14,
        ),
        result(
            "deck_audit_four_seats",
            audit_ms,
            "ms",
            target=f"<= {AUDIT_TARGET_MS} ms",
            met=audit_ms <= AUDIT_TARGET_MS,
            seats=4,
            wall=WALL,
        ),
    ]


BENCHES: dict[str, Callable[[bool], list[dict[str, object]]]] = {"deck": bench_deck}
