"""The shared suite of false claims that every proof method must not prove.

Each case is a claim derived from a true one by a small change, with the
methods that are complete on it (they must refute it; every other method may
answer ``unknown``). :func:`cases` lists them all; the conformance test in
``test_soundness.py`` runs every registered proof method on every case, so a
new case or a new method is covered without editing the test.
"""

from __future__ import annotations

from dataclasses import dataclass

from nimproof.claims import Claim
from tests.conftest import claim

# (game, formula, methods that must refute it)
ONE_HEAP_FALSE: list[tuple[str, str, tuple[str, ...]]] = []
for k in range(1, 11):
    spec = f"knim:{k}"
    ONE_HEAP_FALSE += [
        (spec, f"n % {k + 2}", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"(n + 1) % {k + 1}", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"n % {k + 1} + 1", ("exhaustive", "z3_int", "z3_bitvec")),
        (spec, f"(n % {k + 1}) ^ 1", ("exhaustive", "z3_bitvec")),
    ]
    if k > 1:
        ONE_HEAP_FALSE.append((spec, f"n % {k}", ("exhaustive", "z3_int", "z3_bitvec")))
ONE_HEAP_FALSE += [
    ("half-heap", "n >> trailing_ones(n)", ("exhaustive", "z3_bitvec")),
    ("half-heap", "(n >> (trailing_ones(n) + 1)) + 1", ("exhaustive", "z3_bitvec")),
    ("half-heap", "n // 2", ("exhaustive", "z3_bitvec")),
    ("half-heap", "n >> (trailing_zeros(n) + 1)", ("exhaustive", "z3_bitvec")),
    ("nim", "n + 1", ("exhaustive", "z3_int", "z3_bitvec")),
    ("nim", "n - 1 if n > 0 else 0", ("exhaustive", "z3_int", "z3_bitvec")),
    ("nim", "n // 1 if n != 7 else 6", ("exhaustive", "z3_int", "z3_bitvec")),
    ("subtraction:1,3,4", "n % 7", ("exhaustive", "z3_int", "z3_bitvec")),
    ("subtraction:1,3,4", "n % 2", ("exhaustive", "z3_int", "z3_bitvec")),
    ("kayles", "n % 4", ("exhaustive",)),
    ("dawsons-kayles", "n % 2", ("exhaustive",)),
    ("misere:nim", "n", ("exhaustive", "z3_int", "z3_bitvec")),
    ("misere:nim", "1 if n == 0 else n + 1", ("exhaustive", "z3_int", "z3_bitvec")),
    ("misere:knim:3", "n % 4", ("exhaustive", "z3_int")),
    ("rule:(n+1)//2 <= m < n", "n // 2", ("exhaustive",)),
]

MULTI_FALSE: list[tuple[str, str, int, str | None, tuple[str, ...]]] = []
for h in (2, 3, 4):
    MULTI_FALSE += [
        ("nim", "xor(h) == 1", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "sum(h) % 2 == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "xor(h[1:]) == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "(xor(h) & 1) == 0", h, "nim", ("exhaustive", "z3_bitvec")),
        ("nim", "xor(h) == 0 and h[0] != 3", h, "nim", ("exhaustive", "z3_bitvec")),
    ]
for h in (2, 3, 4, 5, 6):
    MULTI_FALSE += [
        # misère Nim without its exception
        ("misere:nim", "xor(h) == 0", h, "misere-nim", ("exhaustive", "z3_bitvec")),
        # the exception with the wrong parity
        (
            "misere:nim",
            "count(x == 1 for x in h) % 2 == 0 if all(x <= 1 for x in h) else xor(h) == 0",
            h,
            "misere-nim",
            ("exhaustive", "z3_bitvec"),
        ),
        # staircase Nim with the wrong stairs
        ("staircase", "xor(h[1::2]) == 0", h, "staircase", ("exhaustive", "z3_bitvec")),
        ("staircase", "xor(h) == 0", h, "staircase", ("exhaustive", "z3_bitvec")),
    ]
for k in (1, 2, 3):
    for h in (2, 3, 4):
        if k >= h:
            continue
        MULTI_FALSE += [
            (
                f"moore:{k}",
                f"all(colsum(h, b) % {k + 2} == 0 for b in bits)",
                h,
                "moore",
                ("exhaustive", "z3_bitvec"),
            ),
            (
                f"moore:{k}",
                "xor(h) == 0" if k > 1 else "xor(h) == 1",
                h,
                "moore",
                ("exhaustive", "z3_bitvec"),
            ),
        ]
        if k > 1:
            MULTI_FALSE.append(
                (
                    f"moore:{k}",
                    f"all(colsum(h, b) % {k} == 0 for b in bits)",
                    h,
                    "moore",
                    ("exhaustive", "z3_bitvec"),
                )
            )

IDENTITIES_FALSE = [
    "implies(k < (x ^ y), (k ^ y) < x and (k ^ x) < y)",
    "implies(k <= (x ^ y), (k ^ y) < x or (k ^ x) < y)",
    "implies(k < (x ^ y), (k ^ y) <= x and (k ^ x) <= y)",
    "(x ^ y) <= x + y - 1",
    "(x ^ y) == (x | y)",
    "(x + y) % 2 == (x ^ y) % 3",
]


#: (period, preperiod, least): wrong periods of Kayles; (24, 71) and (12, 72) hold as the
#: README defines a period and are wrong only when the claim asks for the least ones.
KAYLES_WRONG_PERIODS = [
    (11, 71, False),
    (13, 71, False),
    (24, 71, True),
    (12, 70, False),
    (12, 72, True),
    (6, 71, False),
    (12, 0, False),
]

#: A witness for the half-heap claims (z3_bitvec needs one for condition 2).
HALF_HEAP_WITNESS = "(v << (j + 1)) | ((1 << j) - 1)"


@dataclass(frozen=True)
class FalseCase:
    """A false claim (without checks) and the methods that must refute it."""

    claim: Claim
    refuted_by: tuple[str, ...]
    multi: bool = False

    @property
    def id(self) -> str:
        return self.claim.id


#: Mutants whose only counterexamples lie beyond 2^32 or 2^64: (game, predicate, heaps, bits).
#: Bounded methods may prove them within their bound (their scope says so); the automata
#: method, whose proofs cover every position, must refute them there.
FAR_FALSE: list[tuple[str, str, int, int]] = [
    ("nim", f"xor(h) == 0 and h[0] != {2**45 + 2**44}", 3, 45),
    ("nim", f"xor(h) == 0 and h[0] < {2**33}", 2, 33),
    ("nim", f"xor(h) == 0 or h[1] == {2**40 + 5}", 3, 40),
    ("nim", f"xor(h) == 0 and h[2] != {2**70}", 3, 70),
    ("nim", f"xor(h) == 0 or h[0] == {2**64 + 1}", 2, 64),
    ("nim", f"all(colsum(h, b) % 2 == 0 for b in bits) and h[0] < {2**65}", 2, 65),
    (
        "misere:nim",
        f"(xor(h) != 0 if all(x <= 1 for x in h) else xor(h) == 0) and h[0] < {2**66}",
        2,
        66,
    ),
    ("staircase", f"xor(h[::2]) == 0 and h[1] != {2**50}", 3, 50),
    ("staircase", f"xor(h[::2]) == 0 or h[0] == {2**64 + 7}", 4, 64),
    ("moore:2", f"all(colsum(h, b) % 3 == 0 for b in bits) and h[0] < {2**36}", 3, 36),
    ("moore:2", f"all(colsum(h, b) % 3 == 0 for b in bits) or h[2] == {2**67 + 2}", 3, 67),
]
FAR_ONE_HEAP: list[tuple[str, str, int]] = [
    ("knim:3", f"n % 4 if n < {2**40} else 0", 40),
    ("knim:5", f"n % 6 if n != {2**64 + 3} else 0", 64),  # n % 6 is 1 there
    ("nim", f"n if n < {2**80} else n + 1", 80),
    ("subtraction:1,2", f"n % 3 if n < {2**35} else n % 4", 35),
]

#: What the automata method cannot express (splitting moves, counting functions as numbers).
_NOT_WS1S = ("kayles", "trailing_", "bit_length", "popcount")


def _complete(methods: tuple[str, ...], *texts: str | None) -> tuple[str, ...]:
    """``methods`` plus ``automata`` when the case is in WS1S (where that method is complete)."""
    if any(word in (t or "") for t in texts for word in _NOT_WS1S):
        return methods
    return (*methods, "automata")


def cases() -> list[FalseCase]:
    """Every false claim of the suite."""
    out: list[FalseCase] = []
    for game, formula, methods in ONE_HEAP_FALSE:
        witness = HALF_HEAP_WITNESS if "half-heap" in game else None
        c = claim("grundy", game, formula, {}, witness=witness)
        out.append(FalseCase(c, _complete(methods, game, formula)))
    for game, formula, heaps, witness, methods in MULTI_FALSE:
        c = claim("p_positions", game, formula, {}, heaps=heaps, witness=witness)
        out.append(FalseCase(c, _complete(methods, game, formula), multi=True))
    for formula in IDENTITIES_FALSE:
        c = claim("identity", None, formula, {}, variables=("k", "x", "y"))
        out.append(FalseCase(c, ("exhaustive", "z3_bitvec", "hypothesis", "automata")))
    for period, preperiod, least in KAYLES_WRONG_PERIODS:
        c = claim(
            "periodic",
            "kayles",
            None,
            {},
            period=period,
            preperiod=preperiod,
            least=least,
            id=f"kayles-{period}-{preperiod}{'-least' if least else ''}",
        )
        out.append(FalseCase(c, ("periodicity",)))
    return out
