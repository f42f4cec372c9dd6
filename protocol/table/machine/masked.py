"""The masked (mental-poker) wall of protocol/deck at the table.

With the ``masked`` deck option, each hand builds its wall between the dice and the deal:
every seat's ``MaskedDeck`` (deck seats are the winds of the hand) makes its shuffle and lock
passes, and the step machine moves on once all eight passes are in. Deck messages travel as
DECK messages in each seat's chain and are handled as they come (they are not step inputs):
key deliveries privately to the drawer, public reveals, transfer notices and the end-of-hand
audit to everyone. Engine events become deck operations: the deal and every draw are private
draws, a Charleston pass is a transfer by the giver, and a seat reveals every tile its action
shows *before* it sends the action, so the others check the face against the opened
position. A seat acts only once the deck has shown it every tile it holds. A pass moves its
tiles by its giver's notice alone, so a peer's message about a tile still being passed (the
receiver discarding it at once) waits for that notice, whatever sender's message came first.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

from fourwinds.protocol.deck.blame import DeckCheat
from fourwinds.protocol.deck.deck import MaskedDeck
from fourwinds.protocol.deck.entropy import Entropy
from fourwinds.protocol.deck.events import (
    AuditFinished,
    Learned,
    Moved,
    Send,
    Suspect,
    WallReady,
)
from fourwinds.protocol.deck.masked_wall import PASSES, WallState
from fourwinds.protocol.deck.messages import (
    Complaint,
    KeyDelivery,
    PublicReveal,
    Signed,
    TransferNotice,
    WallPass,
    transport_authenticated,
)
from fourwinds.protocol.errors import IllegalAction, LocalProtocolError
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.acc import Acc, report
from fourwinds.protocol.table.machine.flow import send
from fourwinds.protocol.table.machine.observer_audit import observe
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.state import Hand, TableSession
from fourwinds.protocol.table.machine.wall import deck_description, hand_plan
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.table.rules.rules_adapter import DeckOp, DeckOpKind
from fourwinds.protocol.table.wire.deck_wire import decode_message, encode_message
from fourwinds.protocol.table.wire.envelope import Envelope
from fourwinds.protocol.table.wire.messages import DeckMsg, MsgKind, decode_body
from fourwinds.protocol.table.wire.signing import SigningKey
from fourwinds.protocol.table.wire.strict import WireError
from fourwinds.protocol.tiles import Kind
from fourwinds.protocol.values import evolve


def deck_context(s: TableSession, hand_no: int) -> bytes:
    return b"fourwinds-masked\0" + s.table + hand_no.to_bytes(4, "big")


def start_wall(s: TableSession, acc: Acc) -> TableSession:
    """After the dice: this seat's deck for the hand, and its first outputs."""
    hand = s.hand
    assert hand is not None and hand.seating is not None and s.rules is not None
    if s.me is None or s.key is None:
        return s
    key = s.key
    mine = wind_of(hand.seating, s.me)

    def signer(data: bytes) -> bytes:
        return sign_bytes(key, data)

    context = deck_context(s, hand.hand_no)
    secret = hmac.new(s.secret, b"fourwinds-deck\0" + context, hashlib.sha256).digest()
    # Every deck message reaches the deck in its sender's checked envelope, whose seat
    # on_deck_message matches with the message's: its inner signature is not checked again.
    deck = MaskedDeck.create(
        deck_description(s, context),
        mine,
        Entropy(secret + secret),
        signer,
        transport_authenticated,
    )
    state, outputs = deck.start()
    s = evolve(s, hand=evolve(hand, deck=deck, deck_state=state))
    return handle_outputs(s, acc, outputs)


def sign_bytes(key: SigningKey, data: bytes) -> bytes:
    """The deck's signatures are made with the seat's identity key."""
    return key.sign(data)


def wall_built(s: TableSession) -> bool:
    hand = s.hand
    return hand is not None and hand.passes_seen >= PASSES and (s.me is None or hand.wall_ready)


def deal(s: TableSession, acc: Acc) -> TableSession:
    """The deal of the hand's plan: every seat releases its keys for the others' tiles."""
    hand = s.hand
    assert hand is not None and s.rules is not None
    if hand.deck is None:
        return s
    return run_deck(s, acc, lambda d, st: d.deal(st, hand_plan(s, hand.dice)))


def run_deck(s: TableSession, acc: Acc, command: Any, sending: bool = True) -> TableSession:
    """Run one deck command on our deck; a deck error becomes a problem. ``sending`` False
    replays a command whose messages are already in our chain (resume)."""
    hand = s.hand
    assert hand is not None
    try:
        state, outputs = command(hand.deck, hand.deck_state)
    except IllegalAction as error:
        return _blame(s, acc, error)
    s = evolve(s, hand=evolve(hand, deck_state=state))
    if not sending:
        outputs = tuple(o for o in outputs if not isinstance(o, Send))
    return handle_outputs(s, acc, outputs)


def _blame(s: TableSession, acc: Acc, error: IllegalAction) -> TableSession:
    hand = s.hand
    place = None
    if error.seat is not None and hand is not None and hand.seating is not None:
        place = hand.seating[Seat(error.seat)]
    kind = ProblemKind.FALSE_FACE if isinstance(error, DeckCheat) else ProblemKind.ILLEGAL_ACTION
    return report(s, acc, Problem(kind, place, f"deck: {error.reason}", s.step))


def handle_outputs(s: TableSession, acc: Acc, outputs: Iterable[object]) -> TableSession:
    """Send our deck's messages; learn the faces it shows us; record its verdicts."""
    for out in outputs:
        hand = s.hand
        assert hand is not None and hand.seating is not None and s.rules is not None
        if isinstance(out, Send):
            to = None
            if isinstance(out.message, KeyDelivery) and len(out.to) == 1:
                to = hand.seating[out.to[0]]
            s = send(s, acc, DeckMsg(encode_message(out.message)), to=to)
        elif isinstance(out, Learned):
            rules = s.rules
            engine = hand.engine
            if engine is not None and rules is not None:
                engine = rules.learn(engine, {out.slot: out.kind})
            s = evolve(s, hand=evolve(hand, engine=engine))
        elif isinstance(out, WallReady):
            s = evolve(s, hand=evolve(hand, wall_ready=True))
        elif isinstance(out, Moved) and hand.moving:  # a pass's notice is in (_awaits_a_move)
            moving = {x: w for x, w in hand.moving.items() if x not in out.slots}
            s = evolve(s, hand=evolve(hand, moving=moving))
        elif isinstance(out, AuditFinished):
            for blame in out.blames:
                s = report(
                    s,
                    acc,
                    Problem(
                        ProblemKind.FALSE_FACE,
                        hand.seating[blame.seat],
                        f"deck audit: {blame.cheat.value}: {blame.detail}",
                        s.step,
                    ),
                )
            hand = s.hand
            assert hand is not None
            # the whole wall as the four revealed permutations put it: shown at the hand's
            # end (reveal.py) only when the audit found the wall to be that masking
            revealed = () if out.blames else tuple(out.faces)
            s = evolve(s, hand=evolve(hand, audited=True, revealed=revealed))
        elif isinstance(out, Suspect) and not hand.audit_started:
            s = start_audit(s, acc)
    return s


def start_audit(s: TableSession, acc: Acc) -> TableSession:
    hand = s.hand
    if hand is None or hand.deck is None or hand.audit_started:
        return s
    s = evolve(s, hand=evolve(hand, audit_started=True))
    return run_deck(s, acc, lambda d, st: d.audit(st))


def on_deck_message(s: TableSession, env: Envelope, acc: Acc) -> tuple[TableSession, bool]:
    """A DECK message at the head of a seat's inbox: (new session, consumed)."""
    hand = s.hand
    if hand is None or hand.seating is None or (env.step > s.step and env.seat != s.me):
        return s, False  # made in a step we have not reached: wait
    try:
        body = decode_body(MsgKind.DECK, env.body or b"")
        assert isinstance(body, DeckMsg)
        message = decode_message(body.message)
    except WireError as error:
        return report(
            s, acc, Problem(ProblemKind.MALFORMED, env.seat, error.problem, env.step)
        ), True
    inner = message.body if isinstance(message, Signed) else message
    if getattr(inner, "context", None) != deck_context(s, hand.hand_no):
        return s, False  # for a later hand: wait until we get there
    sender = wind_of(hand.seating, env.seat)
    if getattr(inner, "seat", None) != sender:
        # The envelope's signature proves who sent it; a deck message speaks for its sender
        # only. (Else a seat could replay or forge messages that get another seat blamed.)
        return report(
            s,
            acc,
            Problem(
                ProblemKind.ILLEGAL_ACTION,
                env.seat,
                "a deck message in another seat's name",
                env.step,
            ),
        ), True
    if isinstance(inner, WallPass):
        hand = evolve(hand, passes_seen=hand.passes_seen + 1)
        s = evolve(s, hand=hand)
    if (
        env.seat == s.me
        and hand.deck is not None
        and isinstance(inner, PublicReveal)
        and inner.slot not in hand.deck_state.public
    ):
        # our own reveal, replayed from our records after a restart: redo it, send nothing
        return run_deck(s, acc, lambda d, st: d.reveal(st, inner.slot), sending=False), True
    if s.me is None or env.seat == s.me or hand.deck is None:
        if s.me is None and hasattr(inner, "kind") and hasattr(inner, "slot"):
            s = evolve(s, hand=evolve(hand, shown={**hand.shown, inner.slot: inner.kind}))
        if s.me is None:  # an observer (verify) redoes the audit at the end of the hand
            s = observe(s, env.seat, message, deck_context(s, hand.hand_no), acc)
        return s, True
    if _awaits_a_move(hand, sender, inner):
        return s, False
    wrong = _misdirected(hand, inner)
    if wrong:
        return report(s, acc, Problem(ProblemKind.ILLEGAL_ACTION, env.seat, wrong, env.step)), True
    return run_deck(s, acc, lambda d, st: d.receive(st, message)), True


def _misdirected(hand: Hand, inner: object) -> str:
    """Why a pass's TransferNotice names another receiver than the game's pass of those
    positions (``Hand.moving``: where the engine says each goes), or "" when it does not.

    The deck checks only that the giver holds what it passes; where the tiles go is the
    game's (the Charleston's direction, a blind pass's seat), so a giver that names another
    receiver is refused here, before our deck moves the positions where the game did not."""
    if not isinstance(inner, TransferNotice):
        return ""
    for slot in inner.slots:
        meant = hand.moving.get(slot)
        if meant is not None and meant != inner.receiver:
            return (
                f"a pass of position {slot} to {inner.receiver.name.title()}, where the "
                f"game passes it to {meant.name.title()}"
            )
    return ""


def _awaits_a_move(hand: Hand, sender: Seat, inner: object) -> bool:
    """Whether a peer's deck message names a position still on its way to a new holder
    (``Hand.moving``) while our deck does not yet count the sender as its holder: then it
    waits, like a message made in a step we have not reached.

    A pass's TransferNotice comes from its giver only, yet the receiver may act on the tiles
    at once: East's first discard can be a tile the last Charleston pass gave it. Its reveal
    (or its own pass of the tile onwards, or a complaint about it) may then reach us before
    the giver's notice, from a different sender; taken at once, our deck would blame the
    receiver for a position it does not hold and refuse its ACT. Once the notice is in, the
    message is taken as ever, and a seat that shows a position it really does not hold is
    blamed as ever."""
    moving = hand.moving
    if not moving:
        return False
    if isinstance(inner, (PublicReveal, Complaint)):
        named: tuple[int, ...] = (inner.slot,)
    elif isinstance(inner, TransferNotice):
        named = inner.slots
    elif isinstance(inner, KeyDelivery):
        named = tuple(proof.slot for proof in inner.proofs)
    else:
        return False
    holder = hand.deck_state.holder
    return any(x in moving and 0 <= x < len(holder) and holder[x] != sender for x in named)


def flush(s: TableSession, acc: Acc) -> TableSession:
    """Run the deck work a resolved step caused (the deal, draws, our passes) once the next
    step has started, so the messages it sends are stamped with that step: a seat handles a
    deck message only when it has reached the sender's step (``on_deck_message``), that is
    once it has made the same draws and moves itself."""
    hand = s.hand
    if hand is None or (not hand.pending_deal and not hand.pending_ops):
        return s
    ops, dealing = hand.pending_ops, hand.pending_deal
    s = evolve(s, hand=evolve(hand, pending_ops=(), pending_deal=False))
    if dealing:
        s = deal(s, acc)
    return after_engine(s, acc, ops)


def after_engine(s: TableSession, acc: Acc, ops: Iterable[DeckOp]) -> TableSession:
    """Deck operations for the engine's events: draws (every seat) and our passes."""
    hand = s.hand
    if hand is None or hand.deck is None or hand.seating is None or s.me is None:
        return s
    mine = wind_of(hand.seating, s.me)
    for op in ops:
        if op.kind is DeckOpKind.DRAW and op.seat is not None:
            drawer = op.seat
            for slot in op.slots:
                s = run_deck(s, acc, lambda d, st, x=slot, w=drawer: d.draw(st, x, w))
        elif op.kind is DeckOpKind.TRANSFER and op.seat is not None:
            hand = s.hand
            assert hand is not None
            state = hand.deck_state
            holder = state.holder
            ours = tuple(x for x in op.slots if holder[x] == mine)
            receiver = op.seat
            theirs = {
                x: receiver
                for x in op.slots
                if holder[x] not in (mine, receiver) and x not in state.public
            }
            if theirs:  # another seat's pass: its notice is still to come (_awaits_a_move)
                s = evolve(s, hand=evolve(hand, moving={**hand.moving, **theirs}))
            if ours and receiver != mine:
                s = run_deck(s, acc, lambda d, st, o=ours, r=receiver: d.transfer(st, o, r))
    return s


def reveal_shown(s: TableSession, acc: Acc, slots: Iterable[int]) -> TableSession:
    """Before our action goes out: reveal every tile it shows that we still hold."""
    hand = s.hand
    if hand is None or hand.deck is None or hand.seating is None or s.me is None:
        return s
    mine = wind_of(hand.seating, s.me)
    for slot in slots:
        hand = s.hand
        assert hand is not None
        state = hand.deck_state
        if state.holder[slot] == mine and slot not in state.public:
            if not _opened(state, slot):
                raise LocalProtocolError(f"the keys of slot {slot} have not all arrived yet")
            s = run_deck(s, acc, lambda d, st, x=slot: d.reveal(st, x))
    return s


def public_face(hand: Hand, slot: int) -> Kind | None:
    """The face of a position every seat has seen opened (None: not public)."""
    if hand.deck is None:
        return hand.shown.get(slot)
    state = hand.deck_state
    if slot in state.public:
        face: Kind = state.faces[slot]
        return face
    return None


def _opened(state: Any, slot: int) -> bool:
    """Whether we hold the face and the three other keys of a position we hold (a tile
    passed back to us keeps its face but waits for its keys anew)."""
    return slot in state.faces and len(state.proofs.get(slot, {})) == 3


def ready_to_act(s: TableSession) -> bool:
    """Whether the deck has shown us every tile we hold (always, with the practice deck)."""
    hand = s.hand
    if hand is None or hand.deck is None or hand.seating is None or s.me is None:
        return True
    mine = wind_of(hand.seating, s.me)
    if not _all_opened(hand.deck_state, mine):
        return False
    return s.rules is None or hand.engine is None or s.rules.knows_own_tiles(hand.engine, mine)


def _all_opened(state: WallState, mine: Seat) -> bool:
    """Whether every position ``mine`` holds is open to it; kept with the deck state (a bot
    asks before every move, and the deck state changes far less often than that)."""
    known: dict[Seat, bool] = state.memo.table("all opened")
    found = known.get(mine)
    if found is not None:
        return found
    holder, faces = state.holder, state.faces
    opened = sum(
        1
        for slot, held in state.proofs.items()  # _opened, over the few keyed slots
        if len(held) == 3 and holder[slot] == mine and slot in faces
    )
    result = known[mine] = opened == holder.count(mine)
    return result


__all__ = [
    "SEATS",
    "after_engine",
    "deal",
    "flush",
    "on_deck_message",
    "public_face",
    "ready_to_act",
    "reveal_shown",
    "start_audit",
    "start_wall",
    "wall_built",
]
