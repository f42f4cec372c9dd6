"""The masked wall: each seat's secrets, its knowledge, and the shuffle and lock passes.

Every physical tile ``t`` starts as a public point ``T[t] = hash_to_point(context, t)``.

* Shuffle pass, seats in order E S W N: a seat multiplies every point by its secret shuffle
  scalar ``s`` and permutes them: ``out[p] = s * in[perm[p]]``.
* Lock pass, in the same order: a seat removes ``s`` and applies a separate secret key per wall
  position in one multiplication: ``out[p] = (s^-1 * k[p]) * in[p]``.

The final wall is ``W[p] = (k_E[p] k_S[p] k_W[p] k_N[p]) * T[pi(p)]`` for the composed
permutation ``pi``: opening position ``p`` needs all four keys of ``p``, and any one honest
seat's permutation makes ``pi`` uniform. Each seat multiplies 2 x size points. Every point a
seat receives must be canonically encoded and appear once in its pass; multiplication (X25519
with clamped scalars, see ``group``) never leaks a scalar whatever the point, and refuses
points of low order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import ClassVar

from fourwinds.protocol.canonical import digest
from fourwinds.protocol.memo import Memo
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from . import group
from .blame import Blame, Cheat, Diverged, When, cheat
from .entropy import Entropy
from .events import Output, Send, WallReady, others
from .messages import (
    AuditReveal,
    DeckDescription,
    KeyProof,
    Phase,
    Signed,
    Signer,
    Verifier,
    WallPass,
    body_digest,
    key_commitment,
    sign,
)

PASSES = 8  # shuffle E S W N, then lock E S W N


@dataclass(frozen=True)
class SeatSecrets:
    """What one seat keeps to itself until the audit. ``perm``: ``out[p] = s * in[perm[p]]``."""

    shuffle_scalar: bytes
    permutation: tuple[int, ...]
    keys: tuple[bytes, ...]
    lock_scalars: tuple[bytes, ...]  # s^-1 * k[p], the one multiplier of the lock pass

    @staticmethod
    def derive(entropy: Entropy, size: int) -> SeatSecrets:
        """Fresh secrets from this seat's passed-in entropy."""
        scalar = entropy.scalar("shuffle scalar", 0)
        keys = entropy.scalars("position key", size)
        return SeatSecrets.from_parts(scalar, entropy.permutation(size, "shuffle"), keys)

    @staticmethod
    def from_parts(
        scalar: bytes, permutation: tuple[int, ...], keys: tuple[bytes, ...]
    ) -> SeatSecrets:
        inverse = group.scalar_to_int(group.scalar_invert(scalar))
        lock = tuple(group.scalar_from_int(inverse * group.scalar_to_int(k)) for k in keys)
        return SeatSecrets(scalar, permutation, keys, lock)

    def reveal(self, context: bytes, seat: Seat) -> AuditReveal:
        return AuditReveal(context, seat, self.shuffle_scalar, self.permutation, self.keys)


@dataclass(frozen=True)
class TileTable:
    """The public base point of every tile, and the reverse lookup used to read a face."""

    kinds: tuple[Kind, ...]
    points: tuple[bytes, ...]
    index: Mapping[bytes, int]
    points_digest: bytes  # what the first shuffle pass names as its input

    @staticmethod
    def build(description: DeckDescription) -> TileTable:
        kinds = description.tiles
        points = group.tile_points(description.context, range(len(kinds)))
        return TileTable(kinds, points, {p: t for t, p in enumerate(points)}, digest(points))

    @property
    def size(self) -> int:
        return len(self.kinds)


@dataclass(frozen=True)
class SeatContext:
    """A seat's fixed inputs for one hand: never changes while the hand is played."""

    description: DeckDescription
    seat: Seat
    secrets: SeatSecrets
    tiles: TileTable
    signer: Signer
    verify: Verifier

    @staticmethod
    def create(
        description: DeckDescription,
        seat: Seat,
        entropy: Entropy,
        signer: Signer,
        verify: Verifier,
        tiles: TileTable | None = None,
    ) -> SeatContext:
        table = tiles if tiles is not None else TileTable.build(description)
        if table.kinds != description.tiles:
            raise ValueError("the tile table is for another deck")
        secrets = SeatSecrets.derive(entropy, table.size)
        return SeatContext(description, seat, secrets, table, signer, verify)

    @property
    def context(self) -> bytes:
        return self.description.context


@dataclass(frozen=True)
class WallState:
    """One seat's knowledge of the hand. Replaced, never mutated, by every step."""

    passes: tuple[Signed[WallPass] | None, ...] = (None,) * PASSES
    holder: tuple[Seat | None, ...] = ()  # current holder of each position (None: wall/public)
    proofs: Mapping[int, Mapping[Seat, KeyProof]] = field(default_factory=dict)
    faces: Mapping[int, Kind] = field(default_factory=dict)  # faces this seat may see
    opened: Mapping[int, int] = field(default_factory=dict)  # tile id this seat unmasked there
    public: frozenset[int] = frozenset()
    shown_keys: Mapping[tuple[Seat, int], bytes] = field(default_factory=dict)
    complaints: tuple[int, ...] = ()  # slots complained about
    complainers: Mapping[int, Seat] = field(default_factory=dict)
    audits: tuple[Signed[AuditReveal] | None, ...] = (None,) * 4
    audited: bool = False
    wall_digest: bytes = b""
    memo: Memo = field(default_factory=Memo, init=False, compare=False, hash=False, repr=False)
    """Answers about this state (protocol/memo.py): whether a seat sees all it holds."""
    MEMO_FIELDS: ClassVar[tuple[str, ...]] = ("memo",)

    @property
    def wall(self) -> tuple[bytes, ...] | None:
        """The final masked wall, once every pass is in (the last lock pass)."""
        if any(p is None for p in self.passes):
            return None
        last = self.passes[-1]
        return last.body.points if last is not None else None

    def commitment(self, issuer: Seat, slot: int) -> bytes:
        """``issuer``'s committed hash of its key for ``slot`` (from its lock pass)."""
        lock = self.passes[pass_index(Phase.LOCK, issuer)]
        assert lock is not None, "keys are only released once the wall is built"
        return lock.body.key_commitments[slot]


def pass_index(phase: Phase, seat: Seat) -> int:
    return (0 if phase is Phase.SHUFFLE else 4) + int(seat)


def input_points(ctx: SeatContext, state: WallState, index: int) -> tuple[bytes, ...] | None:
    """The points pass ``index`` works on: the tile points, or the previous pass."""
    if index == 0:
        return ctx.tiles.points
    previous = state.passes[index - 1]
    return previous.body.points if previous is not None else None


def input_digest(ctx: SeatContext, state: WallState, index: int) -> bytes | None:
    if index == 0:
        return ctx.tiles.points_digest
    previous = state.passes[index - 1]
    return body_digest(previous.body) if previous is not None else None


def _multiply(
    points: tuple[bytes, ...], scalars: tuple[bytes, ...] | bytes, sender: Seat
) -> tuple[bytes, ...]:
    out: list[bytes] = []
    try:
        if isinstance(scalars, bytes):
            out = group.mult_each(scalars, points)
        else:
            for scalar, point in zip(scalars, points, strict=True):
                out.append(group.mult(scalar, point))
    except group.BadPoint as error:
        raise cheat(sender, Cheat.BAD_POINT, f"a point it sent: {error}") from None
    return tuple(out)


def my_pass(ctx: SeatContext, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
    """Run this seat's next pass if its input is in; else nothing."""
    out: tuple[Output, ...] = ()
    for phase in Phase:
        index = pass_index(phase, ctx.seat)
        points = input_points(ctx, state, index)
        if state.passes[index] is not None or points is None:
            continue
        sender = SEATS[(index - 1) % 4]
        secrets = ctx.secrets
        commitments: tuple[bytes, ...] = ()
        if phase is Phase.SHUFFLE:
            scaled = _multiply(
                tuple(points[i] for i in secrets.permutation), secrets.shuffle_scalar, sender
            )
        else:
            scaled = _multiply(points, secrets.lock_scalars, sender)
            commitments = tuple(
                key_commitment(ctx.context, ctx.seat, p, key) for p, key in enumerate(secrets.keys)
            )
        previous = input_digest(ctx, state, index)
        assert previous is not None
        message = sign(
            WallPass(ctx.context, ctx.seat, phase, previous, scaled, commitments), ctx.signer
        )
        state = _store_pass(state, index, message)
        out = (*out, Send(others(ctx.seat), message))
    return state, out


def _store_pass(state: WallState, index: int, message: Signed[WallPass]) -> WallState:
    passes = tuple(message if i == index else p for i, p in enumerate(state.passes))
    return replace(state, passes=passes)


def receive_pass(
    ctx: SeatContext, state: WallState, message: Signed[WallPass]
) -> tuple[WallState, tuple[Output, ...]]:
    """Store a peer's pass (checked: shape, no repeated point, the digest of its input once
    that is in: a pass may arrive before the one it processed), then run this seat's own
    pass if it is due."""
    body = message.body
    index = pass_index(body.phase, body.seat)
    held = state.passes[index]
    if held is not None:
        if held.body != body:
            raise cheat(body.seat, Cheat.EQUIVOCATION, f"two different {body.phase.value} passes")
        return state, ()
    if len(body.points) != ctx.tiles.size or any(len(p) != 32 for p in body.points):
        raise cheat(body.seat, Cheat.MALFORMED, "a pass must hold one 32-byte point per tile")
    wanted = ctx.tiles.size if body.phase is Phase.LOCK else 0
    if len(body.key_commitments) != wanted or any(len(c) != 32 for c in body.key_commitments):
        raise cheat(
            body.seat,
            Cheat.MALFORMED,
            "a lock pass commits to one 32-byte key hash per position, a shuffle pass to none",
        )
    if not all(map(group.is_point, body.points)):
        raise cheat(body.seat, Cheat.BAD_POINT, "a point that is not canonically encoded")
    if len(set(body.points)) != len(body.points):
        raise cheat(
            body.seat,
            Cheat.SHUFFLE_TAMPERED if body.phase is Phase.SHUFFLE else Cheat.LOCK_TAMPERED,
            "the same point twice in one pass",
        )
    state = _store_pass(state, index, message)
    for later in (index, index + 1):  # a pass that came early is checked once its input is in
        stored = state.passes[later] if later < PASSES else None
        expected = input_digest(ctx, state, later) if later < PASSES else None
        if stored is not None and expected is not None and stored.body.input_digest != expected:
            raise Diverged(SEATS[(later - 1) % 4], stored.body.seat, later - 1)
    return advance(ctx, state)


def advance(ctx: SeatContext, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
    """Run this seat's pass if it is due, and announce the wall once the last pass is in."""
    state, out = my_pass(ctx, state)
    if state.wall is not None and not state.holder:
        wall_digest = digest(state.wall)
        state = replace(state, holder=(None,) * ctx.tiles.size, wall_digest=wall_digest)
        out = (*out, WallReady(wall_digest))
    return state, out


LAST_LOCK = Seat.NORTH  # whose lock pass is the final wall


def opened_tile(ctx: SeatContext, state: WallState, slot: int, unmask: bytes) -> int | None:
    """The tile id at ``slot`` under the inverse key product ``unmask``; None for no tile.

    A final wall point the multiplication refuses (of low order) is blamed on the last locker.
    """
    wall = state.wall
    assert wall is not None
    point = wall[slot]
    problem = f"final wall position {slot} is a point of low order"
    try:
        return ctx.tiles.index.get(group.mult(unmask, point))
    except group.BadPoint:
        raise cheat(LAST_LOCK, Cheat.BAD_POINT, problem) from None


def withheld_pass(state: WallState) -> tuple[Blame, ...]:
    """Blame for the seat whose pass is due when the table's timer runs out."""
    for index, message in enumerate(state.passes):
        if message is None:
            return (
                Blame(
                    SEATS[index % 4],
                    Cheat.WITHHELD,
                    When.AT_ONCE,
                    f"withheld its {'shuffle' if index < 4 else 'lock'} pass",
                ),
            )
    return ()
