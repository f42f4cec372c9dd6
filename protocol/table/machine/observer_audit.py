"""The deck audit redone by an observer (``fourwinds verify`` on a masked-deck transcript).

A seat at the table audits its hand with its own deck (protocol/deck/audit.py). An observer
has no deck of its own, only the public messages: the eight signed wall passes, every public
reveal and, at the end of the hand, the four seats' revealed secrets. From those it redoes the
audit on its own: every pass is recomputed from its published input and the revealer's
secrets (one multiplication per position and pass), the final order of the tiles follows from
the four permutations, and every face shown during the hand is checked against it, with the
keys each reveal showed against the keys their issuers revealed. Whatever does not check out is
reported with the table place to blame, like any other problem of the transcript.
"""

from __future__ import annotations

from typing import Any

from fourwinds.protocol.deck.audit import (
    check_reveal_shape,
    composed_permutation,
    first_unexplained,
    tampered_cheat,
)
from fourwinds.protocol.deck.blame import Cheat, DeckCheat
from fourwinds.protocol.deck.masked_wall import PASSES, TileTable
from fourwinds.protocol.deck.messages import (
    AuditReveal,
    Phase,
    PublicReveal,
    Signed,
    WallPass,
    body_digest,
    key_commitment,
    signed_by,
)
from fourwinds.protocol.seats import SEATS, Seat
from fourwinds.protocol.table.machine.acc import Acc, report
from fourwinds.protocol.table.machine.problems import Problem, ProblemKind
from fourwinds.protocol.table.machine.state import TableSession
from fourwinds.protocol.table.machine.wall import deck_description
from fourwinds.protocol.table.rules.rotation import wind_of
from fourwinds.protocol.values import evolve

KEPT = (WallPass, PublicReveal, AuditReveal)


def observe(s: TableSession, place: Seat, message: Any, context: bytes, acc: Acc) -> TableSession:
    """Keep a deck message of the hand; once the four seats' secrets are in, audit it."""
    hand = s.hand
    assert hand is not None
    if not isinstance(message, Signed) or not isinstance(message.body, KEPT):
        return s
    observed = (*hand.observed, (place, message))
    s = evolve(s, hand=evolve(hand, observed=observed))
    audits = {p for p, m in observed if isinstance(m.body, AuditReveal)}
    if isinstance(message.body, AuditReveal) and len(audits) == 4:
        for wind, cheat, detail in audit_hand(s, observed, context):
            assert hand.seating is not None
            s = report(
                s,
                acc,
                Problem(
                    ProblemKind.FALSE_FACE,
                    hand.seating[wind],
                    f"deck audit: {cheat.value}: {detail}",
                    s.step,
                ),
            )
    return s


Finding = tuple[Seat, Cheat, str]  # the wind to blame, what, and where


def audit_hand(
    s: TableSession, observed: tuple[tuple[Seat, Any], ...], context: bytes
) -> list[Finding]:
    """Everything wrong with one hand's deck, from its public messages and revealed secrets."""
    hand = s.hand
    assert hand is not None and hand.seating is not None and s.rules is not None
    seating, verifiers = hand.seating, s.verifiers
    checked: set[bytes] = set()

    def verify(wind: Seat, data: bytes, signature: bytes) -> bool:
        if signature in checked:
            return True
        verifier = verifiers[seating[wind]]
        if verifier is None or not verifier.check(signature, data):
            return False
        checked.add(signature)
        return True

    found: list[Finding] = []
    passes: dict[int, WallPass] = {}
    audits: dict[Seat, AuditReveal] = {}
    reveals: list[PublicReveal] = []
    for place, message in observed:
        wind = wind_of(seating, place)
        body = message.body
        if body.seat != wind:
            found.append((wind, Cheat.MALFORMED, "sent a deck message in another seat's name"))
            continue
        if not signed_by(message, wind, verify):
            found.append((wind, Cheat.BAD_SIGNATURE, f"a {type(body).__name__} it did not sign"))
            continue
        if isinstance(body, WallPass):
            index = (0 if body.phase is Phase.SHUFFLE else 4) + int(wind)
            if index in passes and passes[index] != body:
                found.append((wind, Cheat.EQUIVOCATION, f"two different {body.phase.value} passes"))
            passes.setdefault(index, body)
        elif isinstance(body, AuditReveal):
            audits.setdefault(wind, body)
        else:
            reveals.append(body)
    tiles = TileTable.build(deck_description(s, context))
    for wind in SEATS:
        audit = audits.get(wind)
        if audit is None:  # its reveal was refused above (e.g. not its signature)
            found.append((wind, Cheat.WITHHELD, "no audit secrets it signed"))
            continue
        try:
            check_reveal_shape(audit, tiles.size)
        except DeckCheat as error:
            found.append((wind, Cheat.MALFORMED, error.reason))
    if found:
        return found
    found += _recompute(tiles, passes, audits, context)
    order = composed_permutation(tuple(audits[w] for w in SEATS))
    found += _faces(tiles, order, audits, reveals, passes, context)
    return list(dict.fromkeys(found))


def _recompute(
    tiles: TileTable, passes: dict[int, WallPass], audits: dict[Seat, AuditReveal], context: bytes
) -> list[Finding]:
    """Every pass from its published input and its seat's secrets."""
    found: list[Finding] = []
    points, digest_in = tiles.points, tiles.points_digest
    for index in range(PASSES):
        wind = SEATS[index % 4]
        body = passes.get(index)
        if body is None:
            found.append((wind, Cheat.WITHHELD, f"pass {index + 1} of {PASSES} is missing"))
            return found
        secrets = audits[wind]
        if body.input_digest != digest_in:
            found.append(
                (wind, Cheat.MALFORMED, f"its {body.phase.value} pass names another input")
            )
        wrong = tampered_cheat(body.phase)
        if len(body.points) != len(points):
            found.append((wind, wrong, f"its {body.phase.value} pass has the wrong size"))
            return found
        if body.phase is Phase.LOCK and body.key_commitments != tuple(
            key_commitment(context, wind, p, k) for p, k in enumerate(secrets.keys)
        ):
            found.append(
                (wind, Cheat.WRONG_KEY, "its lock pass committed to keys it does not reveal")
            )
        position = first_unexplained(body.phase, secrets, points, body.points)
        if position is not None:
            found.append(
                (
                    wind,
                    wrong,
                    f"its {body.phase.value} pass is not explained by "
                    f"its revealed secrets at position {position}",
                )
            )
        points, digest_in = body.points, body_digest(body)
    return found


def _faces(
    tiles: TileTable,
    order: tuple[int, ...],
    audits: dict[Seat, AuditReveal],
    reveals: list[PublicReveal],
    passes: dict[int, WallPass],
    context: bytes,
) -> list[Finding]:
    """Every face shown during the hand, and the keys shown with it."""
    found: list[Finding] = []
    for body in reveals:
        holder, slot = body.seat, body.slot
        if not 0 <= slot < tiles.size:
            found.append((holder, Cheat.MALFORMED, f"revealed position {slot} of no wall"))
            continue
        actual = tiles.kinds[order[slot]]
        if body.kind != actual:
            found.append(
                (
                    holder,
                    Cheat.WRONG_FACE,
                    f"showed position {slot} as {body.kind.name}, it held {actual.name}",
                )
            )
        if body.own_key != audits[holder].keys[slot]:
            found.append(
                (holder, Cheat.WRONG_KEY, f"showed a key for position {slot} it does not reveal")
            )
        for proof in body.proofs:
            issuer = proof.issuer
            lock = passes.get(4 + int(issuer))
            if lock is None:
                continue  # a missing lock pass is reported by _recompute
            if (
                proof.slot != slot
                or len(lock.key_commitments) != tiles.size
                or key_commitment(context, issuer, slot, proof.key) != lock.key_commitments[slot]
            ):
                found.append(
                    (
                        holder,
                        Cheat.WRONG_KEY,
                        f"showed a key for position {slot} "
                        f"that {issuer.name}'s lock pass did not commit to",
                    )
                )
    return found
