"""Commit-reveal dice: one seed for all, echoes catch split commitments, no re-roll."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourwinds.protocol.american.tileset import AMERICAN_SET
from fourwinds.protocol.deck import commit_reveal as cr
from fourwinds.protocol.deck import dice
from fourwinds.protocol.deck.blame import Cheat, DeckCheat
from fourwinds.protocol.deck.events import Output, SeedReady, Send
from fourwinds.protocol.deck.messages import Body, Commit, CommitEvidence, Reveal, Signed, sign
from fourwinds.protocol.mcr.tileset import MCR_SET
from fourwinds.protocol.seats import SEATS, Seat

from .helpers import entropy, mac_signer, mac_verify

CONTEXT = b"table/dice hand 1"
Edit = Callable[[Seat, Seat, Signed[Body]], Signed[Body] | None]


def run_round(
    edit: Edit | None = None, run: int = 0
) -> tuple[list[cr.DiceState], list[list[Output]]]:
    """Four seats run a round; ``edit(sender, target, message)`` may alter or drop a message."""
    states: list[cr.DiceState] = []
    events: list[list[Output]] = [[], [], [], []]
    queue: deque[tuple[Seat, Output]] = deque()
    for seat in SEATS:
        state, out = cr.start(CONTEXT, seat, entropy(seat, run, "dice"), mac_signer(seat))
        states.append(state)
        queue.extend((seat, o) for o in out)
    while queue:
        origin, output = queue.popleft()
        if not isinstance(output, Send):
            events[origin].append(output)
            continue
        for target in output.to:
            message = output.message
            assert isinstance(message, Signed)
            if edit is not None:
                edited = edit(origin, target, message)
                if edited is None:
                    continue
                message = edited
            state, more = cr.receive(states[target], message, mac_signer(target), mac_verify)
            states[target] = state
            queue.extend((target, o) for o in more)
    return states, events


def test_four_seats_agree_on_one_seed() -> None:
    states, events = run_round()
    seeds = {e.seed for seat_events in events for e in seat_events if isinstance(e, SeedReady)}
    assert len(seeds) == 1
    assert all(s.seed in seeds for s in states)
    nonces = tuple(s.nonce for s in states)
    assert seeds == {cr.seed_of(CONTEXT, nonces)}


def test_echo_mismatch_is_detected_and_the_splitting_seat_blamed() -> None:
    other_commit = sign(
        Commit(CONTEXT, Seat.WEST, cr.commitment(CONTEXT, Seat.WEST, b"n" * 32)),
        mac_signer(Seat.WEST),
    )

    def split(sender: Seat, target: Seat, message: Signed[Body]) -> Signed[Body] | None:
        if sender == Seat.WEST and target == Seat.NORTH and isinstance(message.body, Commit):
            return other_commit  # North sees a different commitment from West
        return message

    with pytest.raises(DeckCheat) as caught:
        run_round(split)
    assert caught.value.blame.seat == Seat.WEST
    assert caught.value.blame.cheat is Cheat.EQUIVOCATION


def test_nobody_reveals_before_the_echoes_agree() -> None:
    other_commit = sign(Commit(CONTEXT, Seat.WEST, b"\x01" * 32), mac_signer(Seat.WEST))

    def split(sender: Seat, target: Seat, message: Signed[Body]) -> Signed[Body] | None:
        if sender == Seat.WEST and target == Seat.NORTH and isinstance(message.body, Commit):
            return other_commit
        if isinstance(message.body, CommitEvidence):
            return None  # keep the mismatch unresolved: check that no nonce left any seat
        return message

    states, events = run_round(split)
    assert not any(isinstance(e, SeedReady) for seat_events in events for e in seat_events)
    assert all(not s.revealed for s in states)


def test_withheld_reveal_is_blamed_and_there_is_no_seed() -> None:
    def withhold(sender: Seat, target: Seat, message: Signed[Body]) -> Signed[Body] | None:
        return None if sender == Seat.SOUTH and isinstance(message.body, Reveal) else message

    states, _events = run_round(withhold)
    for seat in (Seat.EAST, Seat.WEST, Seat.NORTH):
        assert states[seat].seed is None
        assert cr.waiting_on(states[seat]) == (Seat.SOUTH,)
        (blame,) = cr.withheld(states[seat])
        assert blame.seat == Seat.SOUTH and blame.cheat is Cheat.WITHHELD


def test_a_reveal_that_does_not_open_its_commitment_is_blamed() -> None:
    def lie(sender: Seat, target: Seat, message: Signed[Body]) -> Signed[Body] | None:
        if sender == Seat.NORTH and isinstance(message.body, Reveal):
            return sign(Reveal(CONTEXT, Seat.NORTH, b"\x00" * 32), mac_signer(Seat.NORTH))
        return message

    with pytest.raises(DeckCheat) as caught:
        run_round(lie)
    assert caught.value.blame.seat == Seat.NORTH
    assert caught.value.blame.cheat is Cheat.BAD_REVEAL


def test_a_forged_signature_is_refused() -> None:
    def forge(sender: Seat, target: Seat, message: Signed[Body]) -> Signed[Body] | None:
        if sender == Seat.EAST and isinstance(message.body, Commit):
            return Signed(message.body, b"\x00" * 32)
        return message

    with pytest.raises(DeckCheat) as caught:
        run_round(forge)
    assert caught.value.blame.cheat is Cheat.BAD_SIGNATURE


def test_dice_by_rejection_sampling_are_unbiased() -> None:
    rolls = Counter(d for n in range(3000) for d in dice.dice(n.to_bytes(32, "big"), 2))
    expected = 6000 / 6
    chi_square = sum((rolls[v] - expected) ** 2 / expected for v in range(1, 7))
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert chi_square < 20.5  # 5 degrees of freedom, p = 0.001


def test_dice_depend_on_the_seed_and_label_only() -> None:
    seeds = [n.to_bytes(32, "big") for n in range(40)]
    assert all(dice.dice(s, 4) == dice.dice(s, 4) for s in seeds)
    assert any(dice.dice(s, 2, label="east") != dice.dice(s, 2) for s in seeds)
    assert {dice.draw_below(s, 4, "first east") for s in seeds} == {0, 1, 2, 3}


def test_a3_first_east_is_the_highest_two_dice_total_and_ties_roll_again() -> None:
    seeds = [n.to_bytes(32, "big") for n in range(400)]
    picks = Counter(dice.first_east(s) for s in seeds)
    assert set(picks) == {0, 1, 2, 3}
    assert all(count > 60 for count in picks.values())  # each about 100 of 400
    for seed in seeds[:50]:
        east = dice.first_east(seed)
        totals = [sum(dice.dice(seed, 2, label=f"first east/0/{p}")) for p in range(4)]
        assert totals[east] == max(totals)  # the winner of the first round, or of a tie


def test_a3_east_breaks_the_american_wall_with_two_dice() -> None:
    seed = b"\x05" * 32
    plan = dice.wall_plan(AMERICAN_SET, seed)
    assert plan.dice == dice.break_dice(AMERICAN_SET, seed)
    assert len(plan.dice) == 2 and sum(len(hand) for hand in plan.deal) == 53


def test_b3_the_mcr_wall_is_broken_with_four_dice() -> None:
    seed = b"\x06" * 32
    plan = dice.wall_plan(MCR_SET, seed)
    assert len(plan.dice) == 4 and all(1 <= d <= 6 for d in plan.dice)
    assert plan.dice == dice.break_dice(MCR_SET, seed)


def test_b2_seat_winds_are_one_uniform_draw() -> None:
    draws = Counter(dice.seat_winds(n.to_bytes(32, "big")) for n in range(1200))
    assert all(sorted(w) == list(SEATS) for w in draws)
    expected = 1200 / 24
    chi_square = (
        sum((c - expected) ** 2 / expected for c in draws.values()) + (24 - len(draws)) * expected
    )
    assert chi_square < 49.7  # 23 degrees of freedom, p = 0.001


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_delivery_order_gives_every_seat_the_same_seed(rng: Random) -> None:
    """Messages between different pairs of seats arrive in any order (each pair in order)."""
    states: list[cr.DiceState] = []
    links: dict[tuple[Seat, Seat], deque[Signed[Body]]] = {}
    seeds: dict[Seat, bytes] = {}

    def post(origin: Seat, outputs: tuple[Output, ...]) -> None:
        for output in outputs:
            if isinstance(output, SeedReady):
                seeds[origin] = output.seed
            elif isinstance(output, Send):
                assert isinstance(output.message, Signed)
                for target in output.to:
                    links.setdefault((origin, target), deque()).append(output.message)

    for seat in SEATS:
        state, out = cr.start(CONTEXT, seat, entropy(seat, 9, "order"), mac_signer(seat))
        states.append(state)
        post(seat, out)
    while any(links.values()):
        origin, target = rng.choice(sorted(k for k, q in links.items() if q))
        message = links[(origin, target)].popleft()
        states[target], out = cr.receive(states[target], message, mac_signer(target), mac_verify)
        post(target, out)
    assert len(seeds) == 4 and len(set(seeds.values())) == 1
