"""Known constructions of seatings with no repeated meeting, the seating method's start.

Slots ``g * q + x`` (group ``g`` in 0..3, ``x`` in 0..q-1) fill ``q`` tables of four. In
round ``r`` table ``b`` holds one slot of each group, ``(g, b + r * c_g)``: two slots of
different groups meet in round ``r`` only when their difference is ``r * (c_h - c_g)``, so
they meet at most once over the rounds while those products stay distinct. Over a finite
field GF(q) (q a prime power, q >= 4; "a resolvable transversal design") any four distinct
``c_g`` give ``q`` rounds with no repeat; for q = 4 the groups themselves are a fifth round
(the affine plane of order 4: 16 players x 5 rounds). For other ``q`` the integers modulo q
are used, with the multipliers that repeat least (40 players, q = 10: 5 rounds with none).
Slots of one group never meet each other, which is where bot seats go.

Six tables (24 players) have no such design (q = 6 has no two orthogonal Latin squares), and
an exact search for 24 x 6 takes hours; a design with a symmetry is quicker to find. Write
slot ``3 * x + i`` as (i, x), i in Z_3, and let sigma add one to i. If two rounds ``A`` and
``B`` together hold at most one pair of every orbit of sigma on pairs, then A, sigma A,
sigma^2 A, B, sigma B, sigma^2 B are six rounds with no repeat. ``_SIX_TABLES`` are such an
A and B, found once by a simulated-annealing search over that reduced problem (seconds)
and checked by tests/protocol/tournament/test_seating.py. Whatever these constructions
leave (more rounds than they reach), the local search (search.py) improves.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

Design = tuple[tuple[tuple[int, int, int, int], ...], ...]

_MAX_FIELD = 256
_MAX_MULTIPLIER = 16

_SIX_TABLES: tuple[tuple[tuple[int, int, int, int], ...], ...] = (
    (
        (0, 4, 6, 13),
        (3, 17, 21, 22),
        (2, 14, 16, 18),
        (5, 10, 12, 20),
        (7, 8, 9, 15),
        (1, 11, 19, 23),
    ),
    (
        (10, 13, 14, 17),
        (4, 7, 12, 21),
        (8, 18, 20, 23),
        (3, 15, 16, 19),
        (1, 2, 6, 22),
        (0, 5, 9, 11),
    ),
)


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with p**k == q and p prime, or None."""
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


def _poly_mul_mod(a: list[int], b: list[int], f: list[int], p: int) -> list[int]:
    """a * b modulo the monic polynomial f, coefficients mod p, lowest degree first."""
    k = len(f) - 1
    out = [0] * (2 * k)
    for i, ai in enumerate(a):
        for j, bj in enumerate(b):
            out[i + j] = (out[i + j] + ai * bj) % p
    for top in range(2 * k - 1, k - 1, -1):
        coef = out[top]
        if coef:
            for i in range(k + 1):
                out[top - k + i] = (out[top - k + i] - coef * f[i]) % p
    return out[:k]


def _digits(value: int, p: int, k: int) -> list[int]:
    return [(value // p**i) % p for i in range(k)]


def _number(digits: list[int], p: int) -> int:
    return sum(d * p**i for i, d in enumerate(digits))


def _irreducible(p: int, k: int) -> list[int]:
    """The first monic polynomial of degree k over GF(p) that has no factor of lower degree."""
    for body in range(p**k):
        f = [*_digits(body, p, k), 1]
        if all(
            _remainder(f, [*_digits(low, p, d), 1], p)
            for d in range(1, k // 2 + 1)
            for low in range(p**d)
        ):
            return f
    raise AssertionError("no irreducible polynomial")  # pragma: no cover - one always exists


def _remainder(f: list[int], g: list[int], p: int) -> bool:
    """Whether monic g leaves a non-zero remainder dividing f (coefficients mod p)."""
    rest = list(f)
    d = len(g) - 1
    for top in range(len(rest) - 1, d - 1, -1):
        coef = rest[top]
        if coef:
            for i in range(d + 1):
                rest[top - d + i] = (rest[top - d + i] - coef * g[i]) % p
    return any(rest[:d])


@lru_cache(maxsize=16)
def field_tables(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Addition and multiplication tables of GF(q), elements numbered 0..q-1 (0 and 1 are
    the field's zero and one)."""
    found = _prime_power(q)
    if found is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = found
    if k == 1:
        return (
            tuple(tuple((a + b) % p for b in range(q)) for a in range(q)),
            tuple(tuple((a * b) % p for b in range(q)) for a in range(q)),
        )
    f = _irreducible(p, k)
    digits = [_digits(v, p, k) for v in range(q)]
    add = tuple(
        tuple(
            _number([(x + y) % p for x, y in zip(digits[a], digits[b], strict=True)], p)
            for b in range(q)
        )
        for a in range(q)
    )
    mul = tuple(
        tuple(_number(_poly_mul_mod(digits[a], digits[b], f, p), p) for b in range(q))
        for a in range(q)
    )
    return add, mul


def _table(*slots: int) -> tuple[int, int, int, int]:
    east, south, west, north = slots
    return east, south, west, north


def _field_design(q: int, rounds: int) -> Design:
    add, mul = field_tables(q)
    multipliers = (0, 1, 2, 3)
    out: list[tuple[tuple[int, int, int, int], ...]] = []
    for r in range(rounds):
        if q == 4 and r % 5 == 4:  # the affine plane's fifth parallel class: the groups
            out.append(tuple(_table(g * q, g * q + 1, g * q + 2, g * q + 3) for g in range(4)))
            continue
        a = (r - r // 5) % q if q == 4 else r % q
        out.append(
            tuple(
                _table(*(g * q + add[mul[a][multipliers[g]]][b] for g in range(4)))
                for b in range(q)
            )
        )
    return tuple(out)


def _cyclic_cost(q: int, rounds: int, multipliers: tuple[int, ...]) -> int:
    """Sum over pairs of (meetings - 1)**2 of the cyclic design with these multipliers."""
    cost = 0
    for cg, ch in combinations(multipliers, 2):
        diff = (ch - cg) % q
        seen: dict[int, int] = {}
        for r in range(rounds):
            shift = (r * diff) % q
            seen[shift] = seen.get(shift, 0) + 1
        cost += q * sum((m - 1) ** 2 for m in seen.values())
    return cost


def _cyclic_design(q: int, rounds: int) -> Design:
    top = min(q, _MAX_MULTIPLIER)
    choices = [(0, *rest) for rest in combinations(range(1, top), 3)] or [(0, 0, 0, 0)]
    best = min(choices, key=lambda m: (_cyclic_cost(q, rounds, m), m))
    return tuple(
        tuple(_table(*(g * q + (b + r * best[g]) % q for g in range(4))) for b in range(q))
        for r in range(rounds)
    )


def zero_repeat_rounds(q: int) -> int:
    """How many rounds the field construction seats with no repeat (0 when there is none)."""
    if q == 6:
        return 0
    if q < 4 or q > _MAX_FIELD or _prime_power(q) is None:
        return 0
    return 5 if q == 4 else q


def _six_tables(rounds: int) -> Design:
    """24 players: six rounds with no repeat (see above), any rounds after them cyclic."""

    def shift(slot: int, k: int) -> int:
        return 3 * (slot // 3) + (slot % 3 + k) % 3

    six = tuple(
        tuple(_table(*(shift(s, k) for s in table)) for table in base)
        for base in _SIX_TABLES
        for k in range(3)
    )
    return six[:rounds] + (_cyclic_design(6, rounds - 6) if rounds > 6 else ())


@lru_cache(maxsize=32)
def base_design(tables: int, rounds: int) -> Design:
    """``rounds`` rounds of ``tables`` tables of slots 0..4*tables-1, as few repeats as these
    constructions give (none while ``rounds`` is within what they reach)."""
    if tables < 1 or rounds < 1:
        raise ValueError("a design needs a table and a round")
    if rounds <= zero_repeat_rounds(tables):
        return _field_design(tables, rounds)
    if tables == 6:
        return _six_tables(rounds)
    return _cyclic_design(tables, rounds)
