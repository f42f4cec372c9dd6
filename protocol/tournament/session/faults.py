"""The rules of an event's two faults that need several daemons' signatures (docs/TOURNAMENT.md,
"Faults"): a substitute for a seat whose machine is gone for good, and a new director.

What the daemon gathers from the network and its own tables (whether it still reaches a
player's daemon, the hands and scores its table holds) is passed in; what counts is decided
here, once:

* **A substitute** is asked by the director for a table of the round under way that has had
  none; each seat left signs it with the hands its table finished and the scores after them,
  only when its daemon cannot reach the leaving seat's; the director keeps one answer a seat
  (its latest) and takes the record once the three seats signed the same hands and scores.
* **A new director** is proposed by an entrant for an entrant not withdrawn; each entrant's
  signature counts for one proposal at a time (its latest); the record is taken once more
  than half of the entrants not withdrawn signed the same proposal, made for the record's
  current end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..check import Verdict
from ..record_wire import signed_bytes
from ..records import NewDirector, Record, Substitute
from ..round_tables import seated_keys, substitute_at
from ..signing import signed_by
from .outcome import EventRefused

Signatures = tuple[bytes | None, ...]


def slot(seat: int, place: int) -> int:
    """Where the signature of the seat at ``place`` goes in a substitute for ``seat`` (the
    director's first, then the seats left in wind order)."""
    return 1 + (place if place < seat else place - 1)


def blank(body: Substitute) -> Substitute:
    """A substitute as the director asks it: no hands, no scores yet."""
    return replace(body, hands=0, scores=(0, 0, 0, 0))


def substitute_request(
    verdict: Verdict, event: bytes, table: int, seat: int, reserve: bytes | None, reason: str
) -> Substitute:
    """The director's request for a substitute at ``table`` of the round under way
    (``EventRefused`` with the reason when there can be none)."""
    if not verdict.rounds:
        name = verdict.create.name if verdict.create is not None else "the event"
        raise EventRefused(f"no round of {name} has started")
    seating = verdict.rounds[-1]
    if not 0 <= table < len(seating.tables):
        raise EventRefused(f"round {seating.round + 1} has tables 1 to {len(seating.tables)}")
    if not reason.strip():
        raise EventRefused("a substitute is named with a reason")
    if substitute_at(verdict, seating.round, table) is not None:
        raise EventRefused(
            f"table {table + 1} has had a substitute already (a second seat "
            "gone: `tournament correct` sets its scores)"
        )
    leaving = seated_keys(verdict, seating, table)[seat]
    if leaving is None:
        raise EventRefused("that seat is a bot seat")
    return Substitute(event, seating.round, table, seat, leaving, reserve, 0, (0, 0, 0, 0), reason)


def request_refusal(
    verdict: Verdict, director: bytes, key: bytes, me: bytes, template: Substitute, reached: bool
) -> str:
    """Why our seat does not sign the substitute ``key`` asked ("" when it does): only the
    director asks, only for a table of the round under way without a substitute, and only
    while our daemon cannot reach the leaving seat's (``reached``; a request our daemon
    makes of itself, for a bot seat it plays, is not asked that)."""
    if key != director:
        return "a substitute is asked by the director"
    if (
        template.round != len(verdict.rounds) - 1
        or substitute_at(verdict, template.round, template.table) is not None
    ):
        return "that table is not one of the round under way without a substitute"
    if key != me and reached:
        return "our daemon still reaches the leaving player's: it is not gone"
    return ""


def answer_slots(
    verdict: Verdict, template: Substitute | None, key: bytes, me: bytes, record: Record
) -> tuple[tuple[int, ...], str]:
    """The signature slots ``key``'s answer to the director's request fills, or why it is
    not taken (``template``: the request asked, None when none was)."""
    body = record.body
    if not isinstance(body, Substitute) or template is None or blank(body) != template:
        return (), "no such substitute was asked of you"
    seats = seated_keys(verdict, verdict.rounds[body.round], body.table)
    places = [
        p for p, k in enumerate(seats) if p != body.seat and (k == key or (k is None and key == me))
    ]
    sigs = record.signatures
    given = tuple(
        slot(body.seat, p)
        for p in places
        if slot(body.seat, p) < len(sigs) and sigs[slot(body.seat, p)] is not None
    )
    if not given or not all(signed_by(body, sigs[n], key) for n in given):
        return (), "your signature of the substitute does not check"
    return given, ""


@dataclass(frozen=True)
class Answers:
    """The seats' answers to one request: signed bytes -> (the body, its signatures)."""

    by_wire: Mapping[bytes, tuple[Substitute, Signatures]] = field(default_factory=dict)

    def kept(
        self, body: Substitute, director_sig: bytes, given: Sequence[int], record: Record
    ) -> tuple[Answers, Signatures]:
        """The answers with ``record``'s signatures (slots ``given``) kept for ``body``,
        those slots cleared from every other answer first (a seat's latest answer is the one
        that counts, so at most one answer a seat is kept), and ``body``'s signatures now."""
        wire = signed_bytes(body)
        answers: dict[bytes, tuple[Substitute, Signatures]] = {}
        for other, (kept_body, sigs) in self.by_wire.items():
            if other == wire:
                continue
            cleared = tuple(None if n in given else s for n, s in enumerate(sigs))
            if any(s is not None for s in cleared[1:]):
                answers[other] = (kept_body, cleared)
        _, before = self.by_wire.get(wire, (body, (director_sig, None, None, None)))
        sigs = tuple(record.signatures[n] if n in given else s for n, s in enumerate(before))
        answers[wire] = (body, sigs)
        return Answers(answers), sigs


def proposal_refusal(
    verdict: Verdict, me: bytes, director: bytes, proposed: bytes, reason: str
) -> str:
    """Why our player cannot propose ``proposed`` as the new director ("" when it can)."""
    entrants = verdict.entrants
    if me not in entrants:
        return "only an entrant proposes a new director"
    if proposed not in entrants or entrants.index(proposed) in verdict.withdrawn:
        return (
            "the new director is an entrant not withdrawn (its daemon holds "
            "the record and its entrants reach it)"
        )
    if proposed == director:
        return "that key directs the event already"
    if not reason.strip():
        return "a new director is proposed with a reason"
    return ""


def vote_refusal(verdict: Verdict, held: int, key: bytes, record: Record) -> str:
    """Why an entrant's signature of a proposed new director is not kept ("" when it is)."""
    body = record.body
    entrants = verdict.entrants
    if not isinstance(body, NewDirector) or key not in entrants:
        return "only an entrant signs a new director"
    if body.at != held:
        return f"the record holds {held} records, not {body.at}"
    number = entrants.index(key)
    if number >= len(record.signatures) or not signed_by(body, record.signatures[number], key):
        return "your signature of the new director does not check"
    return ""


def majority(verdict: Verdict, sigs: Mapping[int, bytes]) -> Signatures | None:
    """The record's signatures once more than half of the entrants not withdrawn signed
    (each by entrant number, up to the last that counted: a majority is under 64 KiB), else
    None."""
    voters = [n for n in range(len(verdict.entrants)) if n not in verdict.withdrawn]
    counted = [n for n in voters if n in sigs]
    if 2 * len(counted) <= len(voters):
        return None
    voting = set(voters)
    return tuple(sigs.get(n) if n in voting else None for n in range(max(counted) + 1))
