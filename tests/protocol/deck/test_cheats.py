"""Every cheat of issue 4 is caught and blamed on the right seat, at once or at the audit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

import pytest

from fourwinds.protocol.deck import group
from fourwinds.protocol.deck.audit import withheld_audit
from fourwinds.protocol.deck.blame import (
    Blame,
    Cheat,
    DeckCheat,
    Diverged,
    When,
    judge_equivocation,
)
from fourwinds.protocol.deck.deck import MaskedDeck
from fourwinds.protocol.deck.events import Message, Output, Send, Suspect, others
from fourwinds.protocol.deck.loopback import Loopback
from fourwinds.protocol.deck.masked_wall import WallState, withheld_pass
from fourwinds.protocol.deck.messages import (
    AuditReveal,
    Complaint,
    KeyDelivery,
    Phase,
    PublicReveal,
    Signed,
    WallPass,
    key_commitment,
    sign,
)
from fourwinds.protocol.deck.operations import missing_keys
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.tiles import Kind

from .helpers import (
    Edit,
    TamperingDeck,
    audit_result,
    description,
    drawing,
    mac_signer,
    masked_decks,
)

SIZE = 16
DESC = description(size=SIZE)
LOW_ORDER = (1).to_bytes(32, "little")  # u = 1: a point of order 4, which X25519 refuses
NOT_CANONICAL = (2**255 - 19 + 9).to_bytes(32, "little")  # u = 9 plus the field prime
Change = Callable[[list[bytes]], None]


def table(cheater: Seat | None = None, edit: Edit | None = None) -> Loopback[WallState]:
    decks: list[MaskedDeck] = masked_decks(DESC, run=7)
    if cheater is not None and edit is not None:
        decks[cheater] = TamperingDeck(decks[cheater].ctx, edit)
    return Loopback(decks)


def deal_all(loop: Loopback[WallState]) -> None:
    """Every position to a seat in turn (four each)."""
    loop.everyone(lambda deck, state: deck.draw(state, 0, Seat.EAST))
    for slot in range(1, SIZE):
        loop.everyone(drawing(slot, SEATS[slot % 4]))


def audit_blames(loop: Loopback[WallState]) -> set[Blame]:
    loop.everyone(lambda deck, state: deck.audit(state))
    results = {audit_result(loop, seat).blames for seat in SEATS}
    assert len(results) == 1, "every seat's audit reaches the same verdict"
    return set(results.pop())


def edit_pass(seat: Seat, phase: Phase, change: Change) -> Edit:
    def edit(message: Message) -> Message | None:
        if (
            isinstance(message, Signed)
            and isinstance(message.body, WallPass)
            and message.body.phase is phase
        ):
            points = list(message.body.points)
            change(points)
            return sign(replace(message.body, points=tuple(points)), mac_signer(seat))
        return message

    return edit


def fresh_point(points: list[bytes]) -> None:
    points[3] = group.hash_to_point(b"a tile that is not in the set", 0)


def related_point(points: list[bytes]) -> None:
    points[3] = group.mult(group.scalar_from_int(2), points[5])  # a tracked duplicate of 5


def test_honest_table_has_no_blame() -> None:
    loop = table()
    deal_all(loop)
    assert audit_blames(loop) == set()


@pytest.mark.parametrize("change", [fresh_point, related_point])
def test_substituted_tile_in_a_shuffle_pass_is_blamed_at_the_audit(change: Change) -> None:
    loop = table(Seat.SOUTH, edit_pass(Seat.SOUTH, Phase.SHUFFLE, change))
    loop.everyone(lambda deck, state: deck.draw(state, 0, Seat.WEST))
    blames = audit_blames(loop)
    assert {(b.seat, b.cheat, b.when) for b in blames} == {
        (Seat.SOUTH, Cheat.SHUFFLE_TAMPERED, When.AT_AUDIT)
    }


def test_drawing_a_substituted_tile_raises_a_complaint_at_once_and_the_audit_names_the_cheat() -> (
    None
):
    loop = table(Seat.SOUTH, edit_pass(Seat.SOUTH, Phase.SHUFFLE, fresh_point))
    deal_all(loop)
    suspects = [e for seat in SEATS for e in loop.events[seat] if isinstance(e, Suspect)]
    assert suspects, "the drawer of the fake tile complains at once"
    blames = audit_blames(loop)
    assert {(b.seat, b.cheat) for b in blames} == {(Seat.SOUTH, Cheat.SHUFFLE_TAMPERED)}


def test_duplicated_point_in_a_shuffle_pass_is_caught_at_once() -> None:
    def duplicate(points: list[bytes]) -> None:
        points[3] = points[5]

    with pytest.raises(DeckCheat) as caught:
        table(Seat.WEST, edit_pass(Seat.WEST, Phase.SHUFFLE, duplicate))
    assert caught.value.blame.seat == Seat.WEST
    assert caught.value.blame.cheat is Cheat.SHUFFLE_TAMPERED


def test_tampered_lock_pass_is_blamed_at_the_audit() -> None:
    loop = table(Seat.EAST, edit_pass(Seat.EAST, Phase.LOCK, fresh_point))
    blames = audit_blames(loop)
    assert {(b.seat, b.cheat) for b in blames} == {(Seat.EAST, Cheat.LOCK_TAMPERED)}


@pytest.mark.parametrize("bad", [LOW_ORDER, NOT_CANONICAL], ids=["low-order", "not-canonical"])
def test_point_of_low_order_or_not_canonical_is_caught_at_once(bad: bytes) -> None:
    def substitute(points: list[bytes]) -> None:
        points[2] = bad

    with pytest.raises(DeckCheat) as caught:
        table(Seat.SOUTH, edit_pass(Seat.SOUTH, Phase.SHUFFLE, substitute))
    assert caught.value.blame.seat == Seat.SOUTH
    assert caught.value.blame.cheat is Cheat.BAD_POINT


BAD_KEY = group.scalar_from_int(12345)


def wrong_keys(seat: Seat, slot: int, committed: bool) -> Edit:
    """Release a wrong key for ``slot``; ``committed``: the lock pass committed to it too
    (the cheater's pass is then wrong, which only the audit can show)."""

    def edit(message: Message) -> Message | None:
        if (
            committed
            and isinstance(message, Signed)
            and isinstance(message.body, WallPass)
            and message.body.phase is Phase.LOCK
        ):
            commitments = list(message.body.key_commitments)
            commitments[slot] = key_commitment(DESC.context, seat, slot, BAD_KEY)
            body = replace(message.body, key_commitments=tuple(commitments))
            return sign(body, mac_signer(seat))
        if not isinstance(message, KeyDelivery):
            return message
        proofs = tuple(replace(p, key=BAD_KEY) if p.slot == slot else p for p in message.proofs)
        return replace(message, proofs=proofs)

    return edit


def test_wrong_key_that_contradicts_its_lock_pass_commitment_is_caught_at_once() -> None:
    loop = table(Seat.EAST, wrong_keys(Seat.EAST, 4, committed=False))
    with pytest.raises(DeckCheat) as caught:
        loop.everyone(lambda deck, state: deck.draw(state, 4, Seat.NORTH))
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.EAST, Cheat.WRONG_KEY)


def test_wrong_key_with_a_matching_commitment_is_detected_at_once_and_blamed_at_the_audit() -> None:
    loop = table(Seat.EAST, wrong_keys(Seat.EAST, 4, committed=True))
    loop.everyone(lambda deck, state: deck.draw(state, 4, Seat.NORTH))
    assert Suspect(Seat.NORTH, 4) in loop.events[Seat.NORTH]
    assert Suspect(Seat.NORTH, 4) in loop.events[Seat.SOUTH]
    blames = audit_blames(loop)
    assert (Seat.EAST, Cheat.WRONG_KEY, When.AT_AUDIT) in {
        (b.seat, b.cheat, b.when) for b in blames
    }
    assert {b.seat for b in blames} == {Seat.EAST}


def test_lock_pass_without_a_commitment_for_every_key_is_refused() -> None:
    def drop(message: Message) -> Message | None:
        if (
            isinstance(message, Signed)
            and isinstance(message.body, WallPass)
            and message.body.phase is Phase.LOCK
        ):
            body = replace(message.body, key_commitments=message.body.key_commitments[1:])
            return sign(body, mac_signer(Seat.SOUTH))
        return message

    with pytest.raises(DeckCheat) as caught:
        table(Seat.SOUTH, drop)
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.SOUTH, Cheat.MALFORMED)


def test_claiming_a_face_the_position_does_not_hold_is_caught_at_once() -> None:
    def lie(message: Message) -> Message | None:
        if isinstance(message, Signed) and isinstance(message.body, PublicReveal):
            kind = Kind.RED if message.body.kind != Kind.RED else Kind.GREEN
            return sign(replace(message.body, kind=kind), mac_signer(Seat.WEST))
        return message

    loop = table(Seat.WEST, lie)
    loop.everyone(lambda deck, state: deck.draw(state, 6, Seat.WEST))
    with pytest.raises(DeckCheat) as caught:
        loop.command(Seat.WEST, lambda deck, state: deck.reveal(state, 6))
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.WEST, Cheat.WRONG_FACE)


def test_revealing_a_position_held_by_another_seat_is_caught_at_once() -> None:
    loop = table()
    loop.everyone(lambda deck, state: deck.draw(state, 6, Seat.WEST))
    deck = loop.decks[Seat.WEST]
    _, out = deck.reveal(loop.states[Seat.WEST], 6)
    message = out[0].message if isinstance(out[0], Send) else None
    assert isinstance(message, Signed) and isinstance(message.body, PublicReveal)
    forged = sign(replace(message.body, seat=Seat.NORTH), mac_signer(Seat.NORTH))
    with pytest.raises(DeckCheat) as caught:
        loop.decks[Seat.EAST].receive(loop.states[Seat.EAST], forged)
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.NORTH, Cheat.NOT_HOLDER)


def test_withheld_key_is_blamed_on_the_seat_that_withholds_it() -> None:
    def drop(message: Message) -> Message | None:
        return None if isinstance(message, KeyDelivery) else message

    loop = table(Seat.NORTH, drop)
    loop.everyone(lambda deck, state: deck.draw(state, 9, Seat.SOUTH))
    assert 9 not in loop.states[Seat.SOUTH].faces
    blames = missing_keys(loop.decks[Seat.SOUTH].ctx, loop.states[Seat.SOUTH])  # type: ignore[attr-defined]
    assert [(b.seat, b.cheat) for b in blames] == [(Seat.NORTH, Cheat.WITHHELD)]


def test_withheld_audit_secrets_are_blamed() -> None:
    def drop(message: Message) -> Message | None:
        return (
            None
            if isinstance(message, Signed) and type(message.body).__name__ == "AuditReveal"
            else message
        )

    loop = table(Seat.WEST, drop)
    loop.everyone(lambda deck, state: deck.audit(state))
    assert [(b.seat, b.cheat) for b in withheld_audit(loop.states[Seat.EAST])] == [
        (Seat.WEST, Cheat.WITHHELD)
    ]


class Splitter(TamperingDeck):
    """South shows East and West its real shuffle pass, and North a reversed one."""

    copies: ClassVar[dict[Seat, Signed[WallPass]]] = {}

    def _tamper(
        self, step: tuple[WallState, tuple[Output, ...]]
    ) -> tuple[WallState, tuple[Output, ...]]:
        state, outputs = step
        split: list[Output] = []
        for output in outputs:
            message = output.message if isinstance(output, Send) else None
            if (
                isinstance(message, Signed)
                and isinstance(message.body, WallPass)
                and message.body.phase is Phase.SHUFFLE
            ):
                body = message.body
                other = sign(replace(body, points=body.points[::-1]), mac_signer(Seat.SOUTH))
                self.copies[Seat.WEST] = Signed(body, message.signature)
                self.copies[Seat.NORTH] = other
                split += [Send((Seat.EAST, Seat.WEST), message), Send((Seat.NORTH,), other)]
            else:
                split.append(output)
        return state, tuple(split)


def test_two_passes_for_one_step_to_different_seats_are_judged_an_equivocation() -> None:
    decks: list[MaskedDeck] = masked_decks(DESC, run=7)
    decks[Seat.SOUTH] = Splitter(decks[Seat.SOUTH].ctx, lambda message: message)
    with pytest.raises(Diverged) as caught:
        Loopback(decks)
    assert (caught.value.owner, caught.value.witness) == (Seat.SOUTH, Seat.WEST)
    copies = Splitter.copies
    verify = decks[0].ctx.verify
    blame = judge_equivocation(copies[Seat.NORTH], copies[Seat.WEST], Seat.WEST, verify)
    assert (blame.seat, blame.cheat) == (Seat.SOUTH, Cheat.EQUIVOCATION)
    forged = Signed(copies[Seat.WEST].body, b"\x00" * 32)
    blame = judge_equivocation(copies[Seat.NORTH], forged, Seat.WEST, verify)
    assert (blame.seat, blame.cheat) == (Seat.WEST, Cheat.BAD_SIGNATURE)


def test_a_second_different_pass_to_the_same_seat_is_an_equivocation_at_once() -> None:
    loop = table()
    held = loop.states[Seat.NORTH].passes[1]
    assert held is not None
    other = sign(replace(held.body, points=held.body.points[::-1]), mac_signer(Seat.SOUTH))
    with pytest.raises(DeckCheat) as caught:
        loop.decks[Seat.NORTH].receive(loop.states[Seat.NORTH], other)
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.SOUTH, Cheat.EQUIVOCATION)


def test_false_complaint_is_blamed_on_the_complainer_at_the_audit() -> None:
    loop = table()
    loop.everyone(lambda deck, state: deck.draw(state, 5, Seat.NORTH))
    state = loop.states[Seat.NORTH]
    proofs = tuple(state.proofs[5][s] for s in sorted(state.proofs[5]))
    complaint = sign(Complaint(DESC.context, Seat.NORTH, 5, proofs), mac_signer(Seat.NORTH))
    loop.command(Seat.NORTH, lambda deck, st: (st, (Send(others(Seat.NORTH), complaint),)))
    assert Suspect(Seat.NORTH, 5) in loop.events[Seat.EAST]
    north = loop.states[Seat.NORTH]
    loop.states[Seat.NORTH] = replace(north, complainers={5: Seat.NORTH}, complaints=(5,))
    blames = audit_blames(loop)
    assert {(b.seat, b.cheat) for b in blames} == {(Seat.NORTH, Cheat.FALSE_COMPLAINT)}


def test_a_forged_key_in_a_reveal_is_blamed_on_the_presenter() -> None:
    loop = table()
    loop.everyone(lambda deck, state: deck.draw(state, 2, Seat.WEST))
    _, out = loop.decks[Seat.WEST].reveal(loop.states[Seat.WEST], 2)
    message = out[0].message if isinstance(out[0], Send) else None
    assert isinstance(message, Signed) and isinstance(message.body, PublicReveal)
    proof = message.body.proofs[0]
    body = replace(message.body, proofs=(replace(proof, key=BAD_KEY), *message.body.proofs[1:]))
    forged = sign(body, mac_signer(Seat.WEST))
    with pytest.raises(DeckCheat) as caught:
        loop.decks[Seat.EAST].receive(loop.states[Seat.EAST], forged)
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.WEST, Cheat.WRONG_KEY)


def test_rejected_messages_leave_the_state_unchanged() -> None:
    loop = table()
    state = loop.states[Seat.EAST]
    bad = sign(
        PublicReveal(DESC.context, Seat.SOUTH, 3, Kind.RED, BAD_KEY, ()), mac_signer(Seat.SOUTH)
    )
    with pytest.raises(DeckCheat):
        loop.decks[Seat.EAST].receive(state, bad)
    assert loop.states[Seat.EAST] is state


def test_final_wall_point_of_low_order_is_blamed_on_the_last_locker() -> None:
    def substitute(points: list[bytes]) -> None:
        points[5] = LOW_ORDER

    loop = table(Seat.NORTH, edit_pass(Seat.NORTH, Phase.LOCK, substitute))
    with pytest.raises(DeckCheat) as caught:
        loop.everyone(drawing(5, Seat.EAST))
    assert (caught.value.blame.seat, caught.value.blame.cheat) == (Seat.NORTH, Cheat.BAD_POINT)


def test_a_final_wall_split_between_seats_shows_at_the_first_key() -> None:
    class SplitWall(TamperingDeck):
        """North sends West a final wall with two positions swapped."""

        def _tamper(
            self, step: tuple[WallState, tuple[Output, ...]]
        ) -> tuple[WallState, tuple[Output, ...]]:
            state, outputs = step
            changed: list[Output] = []
            for output in outputs:
                message = output.message if isinstance(output, Send) else None
                if (
                    isinstance(message, Signed)
                    and isinstance(message.body, WallPass)
                    and message.body.phase is Phase.LOCK
                ):
                    points = list(message.body.points)
                    points[0], points[1] = points[1], points[0]
                    other = sign(
                        replace(message.body, points=tuple(points)), mac_signer(Seat.NORTH)
                    )
                    changed += [Send((Seat.EAST, Seat.SOUTH), message), Send((Seat.WEST,), other)]
                else:
                    changed.append(output)
            return state, tuple(changed)

    decks: list[MaskedDeck] = masked_decks(DESC, run=7)
    decks[Seat.NORTH] = SplitWall(decks[Seat.NORTH].ctx, lambda message: message)
    loop = Loopback(decks)
    with pytest.raises(Diverged) as caught:
        loop.everyone(drawing(0, Seat.WEST))
    assert caught.value.owner == Seat.NORTH


def test_a_withheld_pass_is_blamed_on_the_seat_whose_turn_it_is() -> None:
    def drop(message: Message) -> Message | None:
        return (
            None
            if isinstance(message, Signed)
            and isinstance(message.body, WallPass)
            and message.body.phase is Phase.LOCK
            else message
        )

    loop = table(Seat.WEST, drop)
    assert [(b.seat, b.cheat) for b in withheld_pass(loop.states[Seat.EAST])] == [
        (Seat.WEST, Cheat.WITHHELD)
    ]
    assert withheld_pass(table().states[Seat.EAST]) == ()


def test_keys_before_the_wall_is_built_are_refused() -> None:
    decks = masked_decks(DESC, run=8)
    built = Loopback(masked_decks(DESC, run=8))
    built.everyone(drawing(1, Seat.EAST))
    delivery = next(m for m in built.inbox[Seat.EAST] if isinstance(m, KeyDelivery))
    state, _ = decks[Seat.EAST].start()
    with pytest.raises(DeckCheat) as caught:
        decks[Seat.EAST].receive(state, delivery)
    assert caught.value.blame.cheat is Cheat.MALFORMED


def test_the_deck_says_who_holds_the_hand_up_at_each_stage() -> None:
    def drop_lock(message: Message) -> Message | None:
        return (
            None
            if isinstance(message, Signed)
            and isinstance(message.body, WallPass)
            and message.body.phase is Phase.LOCK
            else message
        )

    stuck = table(Seat.SOUTH, drop_lock)
    assert [b.seat for b in stuck.decks[Seat.EAST].withheld(stuck.states[Seat.EAST])] == [
        Seat.SOUTH
    ]

    def drop_keys(message: Message) -> Message | None:
        return None if isinstance(message, KeyDelivery) else message

    loop = table(Seat.WEST, drop_keys)
    loop.everyone(drawing(3, Seat.EAST))
    assert [b.seat for b in loop.decks[Seat.EAST].withheld(loop.states[Seat.EAST])] == [Seat.WEST]
    loop = table(
        Seat.NORTH,
        lambda m: None if isinstance(m, Signed) and isinstance(m.body, AuditReveal) else m,
    )
    loop.everyone(lambda deck, state: deck.audit(state))
    assert [b.seat for b in loop.decks[Seat.SOUTH].withheld(loop.states[Seat.SOUTH])] == [
        Seat.NORTH
    ]
    assert table().decks[Seat.EAST].withheld(table().states[Seat.EAST]) == ()
