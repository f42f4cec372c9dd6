"""A round's seed made ahead (``SeedSteps.AHEAD``): the rules every checker applies.

The steps are the round seed's (round_seed.py: commit, echo, reveal), but the commitments and
echoes of round ``r`` may be made as soon as round ``r - 1`` has started (round 1's during
entries), and the reveals only after the director's signed ``RoundCall`` for round ``r``:
``tournament start`` then waits for the reveals alone.

Who makes the seed: until the call, every entrant admitted and not withdrawn (``live``);
the call fixes that set as the round's roster. An entry or a withdrawal before the call
changes the set, so the commitments' digest changes and every echo made before no longer
counts: each contributor echoes the new digest (the commit step is re-opened for the new
entrant). So the seed of every round is made by exactly the entrants it seats, as when every
step came after the call, and nobody learns it before the call closes the roster and the
results it is seated after: a reveal before the call is refused (``UNCALLED_REVEAL``).

Pure; ``AheadSeed`` is the state the checker keeps, changed only through these functions.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from .problems import ProblemKind
from .records import SeedCommit, SeedEcho, SeedReveal
from .round_seed import commitment, echo

Refusal = tuple[ProblemKind, str]


@dataclass
class AheadSeed:
    """The next round's seed made ahead: the steps taken, and the roster once called."""

    commits: dict[int, bytes] = field(default_factory=dict)
    echoes: dict[int, bytes] = field(default_factory=dict)  # each one's last echo
    reveals: dict[int, bytes] = field(default_factory=dict)
    roster: tuple[int, ...] | None = None  # fixed by the round's call
    # excused by the director's RevealLapse: no reveal in time; they sit the round out
    excused: frozenset[int] = frozenset()

    def copy(self) -> AheadSeed:
        return AheadSeed(
            dict(self.commits), dict(self.echoes), dict(self.reveals), self.roster, self.excused
        )

    def seeders(self) -> tuple[int, ...]:
        """Who makes the called round's seed and is seated in it: the roster less the
        excused (the echoes stay those of the whole roster's commitments)."""
        return tuple(n for n in self.roster or () if n not in self.excused)

    @property
    def called(self) -> bool:
        return self.roster is not None

    def contributors(self, live: Sequence[int]) -> tuple[int, ...]:
        """Who makes the seed: the call's roster, or before the call the entrants now in."""
        return self.roster if self.roster is not None else tuple(live)

    def digest(self, contributors: Sequence[int]) -> bytes | None:
        """What each contributor echoes now (None while a commitment is missing)."""
        if any(n not in self.commits for n in contributors):
            return None
        return echo([self.commits[n] for n in contributors])

    def echoed(self, contributors: Sequence[int]) -> dict[int, bytes]:
        """The echoes that count: those of the present digest."""
        now = self.digest(contributors)
        return {n: d for n, d in self.echoes.items() if d == now and n in contributors}


def take_step(
    state: AheadSeed,
    live: Sequence[int],
    event: bytes,
    number: int,
    body: SeedCommit | SeedEcho | SeedReveal,
    name: str,
) -> Refusal | None:
    """Take one entrant's step into ``state`` (its round already checked as the next one),
    or say why it is refused (``state`` unchanged then)."""
    who = state.contributors(live)
    if number not in who:
        after = " (entered or withdrawn after the round's call)" if state.called else ""
        return ProblemKind.NOT_IN_ROUND, f"{name!r}{after}"
    if isinstance(body, SeedCommit):
        if number in state.commits:
            return ProblemKind.DUPLICATE, f"a second commitment of {name!r}"
        state.commits[number] = body.commitment
        return None
    digest = state.digest(who)
    if digest is None:
        return ProblemKind.OUT_OF_ORDER, "before every entrant committed"
    if isinstance(body, SeedEcho):
        if body.commitments != digest:
            return ProblemKind.BAD_ECHO, name
        if state.echoes.get(number) == digest:
            return ProblemKind.DUPLICATE, f"a second echo of {name!r}"
        state.echoes[number] = digest
        return None
    if not state.called:
        return ProblemKind.UNCALLED_REVEAL, name
    if number in state.excused:
        return ProblemKind.NOT_IN_ROUND, f"{name!r} (excused: no reveal in time)"
    if len(state.echoed(who)) < len(who):
        return ProblemKind.EARLY_REVEAL, name
    if commitment(event, body.round, body.player, body.nonce) != state.commits[number]:
        return ProblemKind.BAD_REVEAL, name
    if number in state.reveals:
        return ProblemKind.DUPLICATE, f"a second reveal of {name!r}"
    state.reveals[number] = body.nonce
    return None


def call_round(
    state: AheadSeed, live: Sequence[int], missing_results: Collection[int]
) -> Refusal | None:
    """The director's call: refused when the round is called already or a table of the
    round before has no result (``missing_results``: their numbers, from 0); else the
    roster is fixed."""
    if state.called:
        return ProblemKind.DUPLICATE, "the round is called already"
    if missing_results:
        tables = ", ".join(str(t + 1) for t in sorted(missing_results)[:5])
        return ProblemKind.MISSING_RESULT, f"the round before has no result at table(s) {tables}"
    state.roster = tuple(live)
    return None


def excuse(state: AheadSeed, numbers: Sequence[int], names: Sequence[str]) -> Refusal | None:
    """The director's ``RevealLapse``: the called round is seeded and seated without
    ``numbers`` (entrants of its roster who have not revealed; ``names`` theirs, for the
    refusal); refused before the call, for an entrant outside the roster, one who revealed
    or is excused already, or none at all."""
    if not state.called:
        return ProblemKind.OUT_OF_ORDER, "a reveal lapse before the round's call"
    if not numbers:
        return ProblemKind.OUT_OF_ORDER, "a reveal lapse that excuses nobody"
    for number, name in zip(numbers, names, strict=True):
        if number not in (state.roster or ()):
            return ProblemKind.NOT_IN_ROUND, f"{name!r} is not of the called round"
        if number in state.reveals:
            return ProblemKind.OUT_OF_ORDER, f"{name!r} revealed: not excused"
        if number in state.excused or list(numbers).count(number) > 1:
            return ProblemKind.DUPLICATE, f"{name!r} excused twice"
    state.excused = state.excused | frozenset(numbers)
    return None
