"""What the rules do with the masked wall: private draws, public reveals, private transfers.

Every key is checked, wherever it shows up, against the hash its issuer committed to in its
signed lock pass (``WallState.commitment``): a key that does not match is blamed at once on the
seat that presented it. That is why keys travel without signatures of their own.

* Private draw (and the deal, many draws at once): every seat is told the assignment; each
  seat other than the drawer sends the drawer its keys for those positions in a
  ``KeyDelivery``. The drawer multiplies the four keys together, inverts the product and
  applies it to the wall point in one multiplication: it learns the face, nobody else does.
* Public reveal (discards, exposures, a Mahjong hand): the holder publishes the face, its own
  key and the three keys it received; every seat opens the position itself and checks the
  claimed face. A wrong face is blamed on the holder at once.
* Private transfer (Charleston, courtesy pass): the positions move publicly
  (``TransferNotice``); the sender forwards to the receiver its own key and the keys of the
  two other seats (the receiver has its own), so only the receiver learns the faces. A blind
  pass names the seat it went ``via``: that seat never receives a key for it.

Keys that match their commitments but do not open a position to any tile make the holder
publish a ``Complaint`` with the keys it got; the table then runs the audit, which names the
seat whose pass was wrong (or the complainer, when the wall is in order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.values import evolve
from fourwinds.protocol.walls import WallPlan

from . import group
from .blame import Blame, Cheat, Diverged, When, cheat
from .errors import DeckUsageError
from .events import Learned, Moved, Output, Send, Suspect, others
from .masked_wall import LAST_LOCK, PASSES, SeatContext, WallState, opened_tile
from .messages import (
    Complaint,
    KeyDelivery,
    KeyProof,
    PublicReveal,
    Signed,
    TransferNotice,
    key_commitment,
    sign,
)


def _wall(state: WallState) -> tuple[bytes, ...]:
    wall = state.wall
    if wall is None:
        raise DeckUsageError("the wall is not built yet")
    return wall


def _own_keys(ctx: SeatContext, slots: Iterable[int]) -> tuple[KeyProof, ...]:
    """This seat's own keys for ``slots``."""
    keys = ctx.secrets.keys
    return tuple(KeyProof(ctx.seat, s, keys[s]) for s in slots)


def deal(
    ctx: SeatContext, state: WallState, plan: WallPlan
) -> tuple[WallState, tuple[Output, ...]]:
    """The deal of ``plan``: called on every seat."""
    if plan.size != ctx.tiles.size:
        raise DeckUsageError(f"a plan for {plan.size} tiles on a {ctx.tiles.size}-tile wall")
    return hand_out(ctx, state, {s: seat for seat in SEATS for s in plan.deal[seat]})


def draw(
    ctx: SeatContext, state: WallState, slot: int, drawer: Seat
) -> tuple[WallState, tuple[Output, ...]]:
    """A private draw of ``slot`` by ``drawer``: called on every seat."""
    return hand_out(ctx, state, {slot: drawer})


def hand_out(
    ctx: SeatContext, state: WallState, assignment: Mapping[int, Seat]
) -> tuple[WallState, tuple[Output, ...]]:
    """Positions leave the wall for their drawers; this seat releases its keys to the others."""
    _wall(state)
    holder = list(state.holder)
    for slot, seat in assignment.items():
        if not 0 <= slot < len(holder):
            raise DeckUsageError(f"no position {slot} in this wall")
        if holder[slot] is not None or slot in state.public:
            raise DeckUsageError(f"position {slot} has already left the wall")
        holder[slot] = seat
    out: list[Output] = []
    for seat in others(ctx.seat):
        slots = sorted(s for s, d in assignment.items() if d == seat)
        if slots:
            delivery = KeyDelivery(
                ctx.context, ctx.seat, seat, state.wall_digest, _own_keys(ctx, slots)
            )
            out.append(Send((seat,), delivery))
    state = evolve(state, holder=tuple(holder))
    return state, tuple(out)


def _check_key(
    ctx: SeatContext, state: WallState, issuer: Seat, slot: int, key: bytes, presenter: Seat
) -> None:
    """A key ``presenter`` shows for ``issuer`` must be well formed and match the issuer's
    commitment; otherwise the presenter is to blame (an honest one refuses such a key)."""
    try:
        group.check_scalar(key)
    except group.BadScalar as error:
        raise cheat(presenter, Cheat.MALFORMED, str(error)) from None
    if key_commitment(ctx.context, issuer, slot, key) != state.commitment(issuer, slot):
        raise cheat(
            presenter,
            Cheat.WRONG_KEY,
            f"{issuer.name}'s key for {slot} does not match its lock pass",
        )


def receive_delivery(
    ctx: SeatContext, state: WallState, delivery: KeyDelivery
) -> tuple[WallState, tuple[Output, ...]]:
    """Keys for positions this seat holds; opens each position once all three are in."""
    sender = delivery.seat
    if delivery.recipient != ctx.seat or delivery.context != ctx.context:
        raise cheat(sender, Cheat.MALFORMED, "keys meant for another seat or hand")
    if delivery.wall_digest != state.wall_digest:
        raise Diverged(LAST_LOCK, sender, PASSES - 1)
    proofs = dict(state.proofs)  # the inner maps of the touched slots are copied below
    touched: set[int] = set()
    for proof in delivery.proofs:
        slot, issuer = proof.slot, proof.issuer
        if not 0 <= slot < ctx.tiles.size or state.holder[slot] != ctx.seat:
            raise cheat(sender, Cheat.MALFORMED, f"keys for position {slot}, not held here")
        if issuer == ctx.seat:
            raise cheat(sender, Cheat.MALFORMED, "sent this seat its own key")
        _check_key(ctx, state, issuer, slot, proof.key, sender)
        proofs[slot] = {**proofs.get(slot, {}), issuer: proof}
        touched.add(slot)
    state = evolve(state, proofs=proofs)
    ready = sorted(s for s in touched if len(proofs[s]) == 3 and s not in state.faces)
    return _open(ctx, state, ready)


def _open(
    ctx: SeatContext, state: WallState, slots: list[int]
) -> tuple[WallState, tuple[Output, ...]]:
    """Unmask positions whose four keys this seat holds: one multiplication each."""
    if not slots:
        return state, ()
    own = ctx.secrets.keys
    products = [
        group.scalar_product([own[s], *(p.key for p in state.proofs[s].values())]) for s in slots
    ]
    faces = dict(state.faces)
    opened = dict(state.opened)
    out: list[Output] = []
    complaints = list(state.complaints)
    complainers = dict(state.complainers)
    for slot, inverse in zip(slots, group.batch_invert(products), strict=True):
        tile = opened_tile(ctx, state, slot, inverse)
        if tile is None:
            proofs = tuple(state.proofs[slot][s] for s in sorted(state.proofs[slot]))
            complaint = sign(Complaint(ctx.context, ctx.seat, slot, proofs), ctx.signer)
            complaints.append(slot)
            complainers[slot] = ctx.seat
            out += [Send(others(ctx.seat), complaint), Suspect(ctx.seat, slot)]
            continue
        faces[slot] = ctx.tiles.kinds[tile]
        opened[slot] = tile
        out.append(Learned(slot, faces[slot]))
    state = evolve(
        state, faces=faces, opened=opened, complaints=tuple(complaints), complainers=complainers
    )
    return state, tuple(out)


def reveal(ctx: SeatContext, state: WallState, slot: int) -> tuple[WallState, tuple[Output, ...]]:
    """Make a held position public: its face, this seat's key and the three it got."""
    if not 0 <= slot < ctx.tiles.size or state.holder[slot] != ctx.seat:
        raise DeckUsageError(f"position {slot} is not held by this seat")
    if slot not in state.faces:
        raise DeckUsageError(f"position {slot} is not open yet")
    held = state.proofs.get(slot, {})
    if len(held) != 3:  # e.g. a tile passed back to us: its face is known, its keys come anew
        raise DeckUsageError(
            f"the keys of position {slot} have not all arrived yet ({len(held)} of 3)"
        )
    proofs = tuple(held[s] for s in sorted(held))
    body = PublicReveal(
        ctx.context, ctx.seat, slot, state.faces[slot], ctx.secrets.keys[slot], proofs
    )
    message = sign(body, ctx.signer)
    state = _make_public(state, slot, ctx.seat, ctx.secrets.keys[slot])
    return state, (Send(others(ctx.seat), message), Learned(slot, body.kind, public=True))


def _make_public(state: WallState, slot: int, holder: Seat, own_key: bytes) -> WallState:
    holders = list(state.holder)
    holders[slot] = None
    shown = {**state.shown_keys, (holder, slot): own_key}
    return evolve(state, holder=tuple(holders), public=state.public | {slot}, shown_keys=shown)


def receive_reveal(
    ctx: SeatContext, state: WallState, message: Signed[PublicReveal]
) -> tuple[WallState, tuple[Output, ...]]:
    """Check a public reveal: the holder's, every key its issuer's, the face the one it
    claims."""
    body = message.body
    holder = body.seat
    slot = body.slot
    if not 0 <= slot < ctx.tiles.size or state.holder[slot] != holder:
        raise cheat(holder, Cheat.NOT_HOLDER, f"revealed position {slot} it does not hold")
    issuers = {proof.issuer: proof.key for proof in body.proofs if proof.slot == slot}
    if set(issuers) != set(SEATS) - {holder} or len(body.proofs) != 3:
        raise cheat(holder, Cheat.MALFORMED, "a reveal needs the keys of the three other seats")
    for issuer, key in (*issuers.items(), (holder, body.own_key)):
        _check_key(ctx, state, issuer, slot, key, holder)
    product = group.scalar_product([body.own_key, *issuers.values()])
    opened = opened_tile(ctx, state, slot, group.scalar_invert(product))
    if opened is None or ctx.tiles.kinds[opened] != body.kind:
        raise cheat(
            holder,
            Cheat.WRONG_FACE,
            f"claimed {body.kind.name} for position {slot}, which does not hold it",
        )
    state = evolve(
        state, faces={**state.faces, slot: body.kind}, opened={**state.opened, slot: opened}
    )
    return _make_public(state, slot, holder, body.own_key), (Learned(slot, body.kind, True),)


def transfer(
    ctx: SeatContext,
    state: WallState,
    slots: tuple[int, ...],
    receiver: Seat,
    via: Seat | None = None,
) -> tuple[WallState, tuple[Output, ...]]:
    """Pass held positions to ``receiver`` (``via`` a blind pass's seat, which sees nothing)."""
    if receiver == ctx.seat or via in (ctx.seat, receiver):
        raise DeckUsageError("a pass goes to another seat")
    for slot in slots:
        if not 0 <= slot < ctx.tiles.size or state.holder[slot] != ctx.seat:
            raise DeckUsageError(f"position {slot} is not held by this seat")
        if slot not in state.faces:
            raise DeckUsageError(f"position {slot} is not open yet")
    notice = sign(TransferNotice(ctx.context, ctx.seat, receiver, slots, via), ctx.signer)
    own = _own_keys(ctx, slots)
    forwarded = tuple(
        state.proofs[s][issuer]
        for s in slots
        for issuer in sorted(state.proofs[s])
        if issuer != receiver
    )
    delivery = KeyDelivery(ctx.context, ctx.seat, receiver, state.wall_digest, (*own, *forwarded))
    state = _move(state, slots, receiver)
    return state, (
        Send(others(ctx.seat), notice),
        Send((receiver,), delivery),
        Moved(slots, receiver),
    )


def _move(state: WallState, slots: tuple[int, ...], receiver: Seat) -> WallState:
    holders = list(state.holder)
    for slot in slots:
        holders[slot] = receiver
    return evolve(state, holder=tuple(holders))


def receive_transfer(
    ctx: SeatContext, state: WallState, message: Signed[TransferNotice]
) -> tuple[WallState, tuple[Output, ...]]:
    body = message.body
    for slot in body.slots:
        if not 0 <= slot < ctx.tiles.size or state.holder[slot] != body.seat:
            raise cheat(body.seat, Cheat.NOT_HOLDER, f"passed position {slot} it does not hold")
    if body.receiver == body.seat or len(set(body.slots)) != len(body.slots):
        raise cheat(body.seat, Cheat.MALFORMED, "a pass to itself or of one position twice")
    state = _move(state, body.slots, body.receiver)
    if body.receiver == ctx.seat:  # drop keys of earlier holders: the sender forwards them anew
        proofs = {s: held for s, held in state.proofs.items() if s not in body.slots}
        state = evolve(state, proofs=proofs)
    return state, (Moved(body.slots, body.receiver),)


def receive_complaint(
    ctx: SeatContext, state: WallState, message: Signed[Complaint]
) -> tuple[WallState, tuple[Output, ...]]:
    """A seat says its keys do not open a position: they must be the committed keys (else the
    complainer is lying about them); the audit then finds whose pass was wrong."""
    body = message.body
    if not 0 <= body.slot < ctx.tiles.size or state.holder[body.slot] != body.seat:
        raise cheat(body.seat, Cheat.NOT_HOLDER, f"complained about position {body.slot}")
    for proof in body.proofs:
        if proof.slot != body.slot or proof.issuer == body.seat:
            raise cheat(body.seat, Cheat.MALFORMED, "a complaint shows keys of another position")
        _check_key(ctx, state, proof.issuer, body.slot, proof.key, body.seat)
    complainers = {**state.complainers, body.slot: body.seat}
    state = evolve(state, complaints=(*state.complaints, body.slot), complainers=complainers)
    return state, (Suspect(body.seat, body.slot),)


def missing_keys(ctx: SeatContext, state: WallState) -> tuple[Blame, ...]:
    """Blame for every seat whose key this seat still waits for, when the table's timer for
    the draw runs out: a withheld key never lets the hand go on without it."""
    blames: dict[Seat, Blame] = {}
    for slot, holder in enumerate(state.holder):
        if holder != ctx.seat or slot in state.faces:
            continue
        got = state.proofs.get(slot, {})
        for issuer in others(ctx.seat):
            if issuer not in got and issuer not in blames:
                blames[issuer] = Blame(
                    issuer, Cheat.WITHHELD, When.AT_ONCE, f"withheld its key for position {slot}"
                )
    return tuple(blames[s] for s in sorted(blames))
