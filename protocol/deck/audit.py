"""The end-of-hand audit: every seat reveals its secrets and every seat checks the hand.

With all four seats' shuffle scalars, permutations and keys, a seat checks:

1. each revealed secret is well formed, and each revealed key is the one its seat committed
   to in its lock pass (every key seen during the hand was checked against the same
   commitments, and the keys shown in public reveals must equal the revealed ones) -- else
   ``WRONG_KEY`` on the issuer;
2. the whole wall at once: ``W[p] == (k_E[p] k_S[p] k_W[p] k_N[p]) * T[pi(p)]`` for every
   position, with ``pi`` composed from the four permutations. This is one multiplication per
   position instead of eight, and it is exactly as strong for the outcome: the final wall is a
   masking of a true permutation of the tile set under the revealed keys, so no tile was
   substituted or duplicated (that would need a discrete logarithm between two tile points);
3. only when (2) fails (or a seat complained): every pass is recomputed from its published
   input and the revealed secrets, and each seat whose published pass they do not explain is
   blamed (``SHUFFLE_TAMPERED`` / ``LOCK_TAMPERED``), so the culprit is always named;
4. every face seen during the hand (this seat's own draws and every public reveal) is the
   face ``pi`` puts there -- the public reveals were checked at once already;
5. a complaint whose keys all match the revealed ones, on a wall that checks, is blamed on
   the complainer (``FALSE_COMPLAINT``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from . import group
from .blame import Blame, Cheat, When, cheat
from .errors import DeckUsageError
from .events import AuditFinished, Output, Send, others
from .masked_wall import SeatContext, WallState, input_points
from .messages import AuditReveal, Phase, Signed, key_commitment, sign


def start_audit(ctx: SeatContext, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
    """Reveal this seat's secrets to everyone (the hand is over, or a complaint stopped it)."""
    if state.wall is None:
        raise DeckUsageError("the wall is not built yet")
    if state.audits[ctx.seat] is not None:
        return state, ()
    message = sign(ctx.secrets.reveal(ctx.context, ctx.seat), ctx.signer)
    state = _store(state, ctx.seat, message)
    state, out = _maybe_finish(ctx, state)
    return state, (Send(others(ctx.seat), message), *out)


def _store(state: WallState, seat: Seat, message: Signed[AuditReveal]) -> WallState:
    audits = tuple(message if i == seat else a for i, a in enumerate(state.audits))
    return replace(state, audits=audits)


def check_reveal_shape(body: AuditReveal, size: int) -> None:
    """Raise ``DeckCheat`` unless the secrets are well formed."""
    seat = body.seat
    if len(body.keys) != size or sorted(body.permutation) != list(range(size)):
        raise cheat(seat, Cheat.MALFORMED, "audit secrets of the wrong size", When.AT_AUDIT)
    try:
        group.check_scalar(body.shuffle_scalar)
        for key in body.keys:
            group.check_scalar(key)
    except group.BadScalar as error:
        raise cheat(seat, Cheat.MALFORMED, f"audit secrets: {error}", When.AT_AUDIT) from None


def receive_audit(
    ctx: SeatContext, state: WallState, message: Signed[AuditReveal]
) -> tuple[WallState, tuple[Output, ...]]:
    body = message.body
    held = state.audits[body.seat]
    if held is not None:
        if held.body != body:
            raise cheat(body.seat, Cheat.EQUIVOCATION, "two different audit reveals")
        return state, ()
    check_reveal_shape(body, ctx.tiles.size)
    return _maybe_finish(ctx, _store(state, body.seat, message))


def _maybe_finish(ctx: SeatContext, state: WallState) -> tuple[WallState, tuple[Output, ...]]:
    if state.audited or any(a is None for a in state.audits):
        return state, ()
    reveals = tuple(a.body for a in state.audits if a is not None)
    faces, blames = judge(ctx, state, reveals)
    return replace(state, audited=True), (AuditFinished(faces, blames),)


def composed_permutation(reveals: Sequence[AuditReveal]) -> tuple[int, ...]:
    """``pi``: the tile id at each final position (shuffles applied E, S, W, N)."""
    order = tuple(range(len(reveals[0].permutation)))
    for reveal in reveals:
        order = tuple(order[i] for i in reveal.permutation)
    return order


def _key_blames(ctx: SeatContext, state: WallState, reveals: Sequence[AuditReveal]) -> list[Blame]:
    blames = []
    for issuer in SEATS:
        keys = reveals[issuer].keys
        wrong = next(
            (
                slot
                for slot in range(ctx.tiles.size)
                if key_commitment(ctx.context, issuer, slot, keys[slot])
                != state.commitment(issuer, slot)
            ),
            None,
        )
        if wrong is not None:
            blames.append(
                Blame(
                    issuer,
                    Cheat.WRONG_KEY,
                    When.AT_AUDIT,
                    f"revealed a key for position {wrong} its lock pass did not commit to",
                )
            )
    for (issuer, slot), key in sorted(state.shown_keys.items()):
        if reveals[issuer].keys[slot] != key:
            blames.append(
                Blame(
                    issuer,
                    Cheat.WRONG_KEY,
                    When.AT_AUDIT,
                    f"showed a key for position {slot} it does not reveal",
                )
            )
    return blames


def wall_matches(
    ctx: SeatContext,
    wall: Sequence[bytes],
    reveals: Sequence[AuditReveal],
    order: Sequence[int],
    opened: Mapping[int, int],
) -> list[int]:
    """Positions where the final wall is not the revealed masking of ``pi`` (one mult each).

    A position this seat opened during the hand, with keys the audit found equal to the
    revealed ones, already showed ``W[p] == K[p] * T[tile]``: only ``tile == pi(p)`` is left.
    """
    bad = []
    points = ctx.tiles.points
    for p, point in enumerate(wall):
        if p in opened:
            if opened[p] != order[p]:
                bad.append(p)
            continue
        product = group.scalar_product([r.keys[p] for r in reveals])
        if group.mult(product, points[order[p]]) != point:
            bad.append(p)
    return bad


def tampered_cheat(phase: Phase) -> Cheat:
    return Cheat.SHUFFLE_TAMPERED if phase is Phase.SHUFFLE else Cheat.LOCK_TAMPERED


def first_unexplained(
    phase: Phase, secrets: AuditReveal, inputs: Sequence[bytes], published: Sequence[bytes]
) -> int | None:
    """The first position where a pass's published points are not its seat's revealed
    secrets applied to its input (None: the whole pass is explained). Shuffle:
    ``out[p] = s * in[perm[p]]``; lock: ``out[p] = (s^-1 * k[p]) * in[p]``. Both lists have
    one point per tile."""
    if phase is Phase.SHUFFLE:
        pairs = [(secrets.shuffle_scalar, inputs[i]) for i in secrets.permutation]
    else:
        inverse = group.scalar_to_int(group.scalar_invert(secrets.shuffle_scalar))
        pairs = [
            (group.scalar_from_int(inverse * group.scalar_to_int(k)), point)
            for k, point in zip(secrets.keys, inputs, strict=True)
        ]
    for p, ((scalar, point), out) in enumerate(zip(pairs, published, strict=True)):
        try:
            expected = group.mult(scalar, point)
        except group.BadPoint:
            expected = b""
        if expected != out:
            return p
    return None


def recompute_passes(
    ctx: SeatContext, state: WallState, reveals: Sequence[AuditReveal]
) -> list[Blame]:
    """Every pass recomputed from its published input; blame each seat it does not explain."""
    blames = []
    for index, message in enumerate(state.passes):
        assert message is not None
        body = message.body
        inputs = input_points(ctx, state, index)
        assert inputs is not None
        wrong = first_unexplained(body.phase, reveals[body.seat], inputs, body.points)
        if wrong is not None:
            blames.append(
                Blame(
                    body.seat,
                    tampered_cheat(body.phase),
                    When.AT_AUDIT,
                    f"its {body.phase.value} pass is wrong at position {wrong}",
                )
            )
    return blames


def judge(
    ctx: SeatContext, state: WallState, reveals: Sequence[AuditReveal]
) -> tuple[tuple[Kind, ...], tuple[Blame, ...]]:
    """Every face of the wall, and every seat the audit blames."""
    wall = state.wall
    assert wall is not None
    order = composed_permutation(reveals)
    faces = tuple(ctx.tiles.kinds[t] for t in order)
    blames = _key_blames(ctx, state, reveals)
    opened = state.opened if not blames else {}
    if wall_matches(ctx, wall, reveals, order, opened) or state.complaints:
        blames += recompute_passes(ctx, state, reveals)
    for slot, kind in sorted(state.faces.items()):
        if faces[slot] != kind:
            holder = state.holder[slot]
            blames.append(
                Blame(
                    holder if holder is not None else ctx.seat,
                    Cheat.WRONG_FACE,
                    When.AT_AUDIT,
                    f"position {slot} held {faces[slot].name}",
                )
            )
    if not blames:
        for slot, seat in sorted(state.complainers.items()):
            blames.append(
                Blame(
                    seat,
                    Cheat.FALSE_COMPLAINT,
                    When.AT_AUDIT,
                    f"complained about the right keys for position {slot}",
                )
            )
    unique = tuple(dict.fromkeys(blames))
    return faces, unique


def withheld_audit(state: WallState) -> tuple[Blame, ...]:
    """Seats that have not revealed their secrets when the table's timer runs out."""
    return tuple(
        Blame(s, Cheat.WITHHELD, When.AT_AUDIT, "withheld its audit secrets")
        for s in SEATS
        if state.audits[s] is None
    )
