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
    # games with a proved period (the periodic-table reduction must refute these)
    ("kayles", "0 if n == 0 else 1 + n % 3", ("exhaustive", "periodic_table")),
    (
        "subtraction:all-but:1,2",
        "n // 3 + (1 if n == 250 else 0)",
        ("exhaustive", "periodic_table"),
    ),
    ("subtraction:all-but:1,2", "n // 3 + n % 3", ("exhaustive", "periodic_table")),
    ("subtraction:all-but:2,5", "n // 2", ("exhaustive", "periodic_table")),
    (
        "subtraction:all-but:1,3",
        "n // 2 if n < 200 else n // 2 + 1",
        ("exhaustive", "periodic_table"),
    ),
    ("nim", "n if n < 250 else n + 1", ("exhaustive", "periodic_table")),
    ("octal:4.7", "n % 3", ("exhaustive", "periodic_table")),
    # the classic families (automata proves their true values through PartMoves)
    ("lasker", "n", ("exhaustive",)),
    (
        "lasker",
        "0 if n == 0 else (n + 1 if n % 4 == 1 else (n - 1 if n % 4 == 2 else n))",
        ("exhaustive",),
    ),
    (
        "lasker",
        "0 if n == 0 or n == 300 else (n + 1 if n % 4 == 3 else (n - 1 if n % 4 == 0 else n))",
        ("automata",),
    ),
    ("mock-turtles", "0 if n == 0 else 2 * n - 1", ("exhaustive",)),
    (
        "mock-turtles",
        "0 if n == 0 else (2 * n - 1 if popcount(n - 1) % 2 == 1 else 2 * n - 2)",
        ("exhaustive",),
    ),
    ("ruler", "n % 4", ("exhaustive",)),
    ("ruler", "0 if n == 0 else n ^ (n & (n - 1)) if n != 96 else 16", ("exhaustive",)),
    ("cgsuite:4!.1", "n % 3", ("exhaustive",)),
    ("cgsuite:0.&32;", "n // 5", ("exhaustive",)),
    ("octal:4.07", "(n - 1) % 4 if n > 0 else 1", ("exhaustive", "periodic_table")),
]

#: Dawson's Kayles (0.07): P-positions 0, 1, 15, 35 and n = 5, 9, 21, 25, 29 (mod 34).
DAWSON_P = (
    "h[0] == 0 or h[0] == 1 or h[0] == 15 or h[0] == 35 or h[0] % 34 == 5 or h[0] % 34 == 9 "
    "or h[0] % 34 == 21 or h[0] % 34 == 25 or h[0] % 34 == 29"
)

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

#: Wythoff's game: the P-positions are the Beatty pairs (floor(k*phi), floor(k*phi) + k).
WYTHOFF_P = (
    "(h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0]))"
    " or (h[1] <= h[0] and h[1] == phi_floor(h[0] - h[1]))"
)
MULTI_FALSE += [
    # the shift without its correction, one side only, one pair left out, one added
    ("wythoff", WYTHOFF_P.replace("phi_floor", "zshift"), 2, None, ("exhaustive",)),
    ("wythoff", "h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0])", 2, None, ("exhaustive",)),
    ("wythoff", f"({WYTHOFF_P}) or h[0] == h[1]", 2, None, ("exhaustive",)),
    ("wythoff", "h[1] == zshift(h[0]) or h[0] == zshift(h[1])", 2, None, ("exhaustive",)),
    # Welter's game is not Nim: equal-xor positions of distinct squares are not all P
    ("welter:3", "h[0] ^ h[1] ^ h[2] == 0", 3, None, ("exhaustive",)),
    ("welter:2", "h[0] == h[1] or h[0] ^ h[1] == 2", 2, None, ("exhaustive",)),
    # Euclid's game: the golden-ratio criterion with the wrong boundary or constant
    (
        "euclid",
        "h[0] == 0 or h[1] == 0 or max(h[0], h[1]) <= phi_floor(min(h[0], h[1]))",
        2,
        None,
        ("exhaustive",),
    ),
    (
        "euclid",
        "h[0] == 0 or h[1] == 0 or (h[0] != h[1] and max(h[0], h[1]) < 2 * min(h[0], h[1]))",
        2,
        None,
        ("exhaustive",),
    ),
    # Fibonacci Nim: P-positions are n = 0 or t below the smallest Zeckendorf term of n
    ("fibonacci-nim", "h[0] == 0 or h[1] <= zlow(h[0])", 2, None, ("exhaustive",)),
    ("fibonacci-nim", "h[1] < zlow(h[0])", 2, None, ("exhaustive",)),
    ("fibonacci-nim", "h[0] == 0 or 2 * h[1] < zlow(h[0])", 2, None, ("exhaustive",)),
    ("fibonacci-nim", "h[0] == 0 or h[1] < zlow(h[0]) or h[0] == 4", 2, None, ("exhaustive",)),
]

MULTI_FALSE += [
    # one heap of a game with a proved period, and sums of such games
    ("kayles", "h[0] == 0 or h[0] == 6", 1, None, ("exhaustive", "periodic_table")),
    (
        "dawsons-kayles",
        DAWSON_P.replace(" or h[0] == 1 ", " "),
        1,
        None,
        ("exhaustive", "periodic_table"),
    ),
    ("dawsons-kayles", DAWSON_P + " or h[0] == 7", 1, None, ("exhaustive", "periodic_table")),
    (
        "sum:knim:3+knim:5",
        "h[0] % 4 == h[1] % 6 or h[0] == 7",
        2,
        None,
        ("exhaustive", "periodic_table"),
    ),
    ("sum:knim:3+kayles", "h[0] % 4 == 0 and h[1] == 0", 2, None, ("exhaustive", "periodic_table")),
    ("knim:2", "(h[0] + h[1]) % 3 == 0", 2, None, ("exhaustive", "periodic_table")),
    ("knim:2", "h[0] % 3 == h[1] % 3 and h[2] % 3 == 0", 3, None, ("exhaustive", "periodic_table")),
]

#: Conditions compared with each other (``==``/``!=``), read as 0 or 1 inside arithmetic, and
#: ``if``-expressions on conditions: the automata method compiles these since the fragment
#: was widened, so it must refute them (``_complete`` adds it).
_MISERE_NIM = "((xor(h) != 0) if all(x <= 1 for x in h) else (xor(h) == 0))"
MULTI_FALSE += [
    ("nim", "(xor(h) == 0) != (h[0] == 3 and h[1] == 3)", 2, None, ("exhaustive",)),
    ("nim", "(xor(h) == 0) == (h[0] != 5)", 2, None, ("exhaustive",)),
    ("nim", "(h[0] == h[1]) != (h[0] == 2) != (h[1] == 6)", 2, None, ("exhaustive",)),
    (
        "nim",
        "(1 if h[0] == 6 else 0) + (1 if h[1] == 6 else 0) == 2 or h[0] == h[1] + 1",
        2,
        None,
        ("exhaustive",),
    ),
    ("nim", "xor(h) + (1 if h[2] == 4 else 0) == 0", 3, None, ("exhaustive",)),
    ("nim", "(xor(h) == 0) if h[0] != 7 else (h[1] == 1)", 2, None, ("exhaustive",)),
    (
        "misere:nim",
        _MISERE_NIM + " != (h[0] == 4 and h[1] == 4)",
        2,
        None,
        ("exhaustive",),
    ),
    (
        "moore:2",
        "all(colsum(h, b) % 3 == 0 for b in bits) != (h[0] == 1 and h[1] == 1 and h[2] == 1)",
        3,
        None,
        ("exhaustive",),
    ),
    ("knim:2", "(h[0] % 3 == h[1] % 3) == (h[0] != 4)", 2, None, ("exhaustive",)),
    ("staircase", "(xor(h[::2]) == 0) != (h[1] == 2 and h[0] == 0)", 3, None, ("exhaustive",)),
]

# Northcott's game (loopy): only the loopy method decides it (the others answer unknown)
MULTI_FALSE += [
    ("northcott:2", "(h[0] + h[3]) % 2 == 0", 6, None, ("loopy",)),
    ("northcott:2", "(h[0] ^ h[3]) == 0 and h[1] == 0", 6, None, ("loopy",)),
    ("northcott:3", "(h[0] ^ h[3] ^ h[6] ^ h[1]) == 0", 9, None, ("loopy",)),
    ("northcott:1", "h[0] == 0 and h[2] == 0", 3, None, ("loopy",)),
]

# Misère sums of octal heaps with a proved quotient (the misère-quotient method must refute these).
R8_TWO_HEAPS = (
    "(h[0] == 0 and (h[1] == 1 or h[1] == 3)) or (h[1] == 0 and (h[0] == 1 or h[0] == 3)) or "
    "(h[0] > 0 and h[1] > 0 and h[0] % 2 == h[1] % 2 and "
    "not (h[0] % 2 == 1 and min(h[0], h[1]) <= 3 and max(h[0], h[1]) <= 7))"
)
MULTI_FALSE += [
    (
        "misere:octal:0.75",
        R8_TWO_HEAPS + " or (h[0] == 4 and h[1] == 3)",
        2,
        None,
        ("misere_quotient",),
    ),
    ("misere:octal:0.75", R8_TWO_HEAPS.replace("<= 7", "<= 5"), 2, None, ("misere_quotient",)),
    ("misere:octal:0.75", "h[0] % 2 == h[1] % 2", 2, None, ("exhaustive", "misere_quotient")),
    (
        "misere:kayles",
        "h[0] == 1 or h[0] == 9 or h[0] == 12 or h[0] == 20",
        1,
        None,
        ("misere_quotient",),
    ),
    ("misere:kayles", "h[0] % 12 == 1", 1, None, ("exhaustive", "misere_quotient")),
    (
        "misere:octal:0.31",
        "(h[0] + h[1] + h[2]) % 2 == 1",
        3,
        None,
        ("exhaustive", "misere_quotient"),
    ),
    # A hexadecimal code (moves may leave three heaps), proved by the longer window.
    ("misere:octal:0.b1", "h[0] % 2 == h[1] % 2", 2, None, ("exhaustive", "misere_quotient")),
]

#: (game, order, P-portion size, heap-map period, its preperiod): wrong figures of misère
#: quotients proved for every heap (0.75: order 8, P-portion 2; Kayles: order 40, period 12
#: from heap 71, as computed by nimproof.misere); the misère-quotient method must refute them.
QUOTIENT_WRONG: list[tuple[str, int, int | None, int | None, int | None]] = [
    ("misere:octal:0.75", 7, None, None, None),
    ("octal:0.75", 8, 3, None, None),
    ("misere:octal:0.75", 8, 2, 3, 8),
    ("misere:kayles", 36, None, None, None),
    ("misere:kayles", 40, None, 12, 70),
    # 0.b1 (hexadecimal; order 16, P-portion 4, period 2 from heap 11, proved by the longer window).
    ("misere:octal:0.b1", 14, None, None, None),
    ("misere:octal:0.b1", 16, 4, 2, 10),
]

IDENTITIES_FALSE = [
    "implies(k < (x ^ y), (k ^ y) < x and (k ^ x) < y)",
    "implies(k <= (x ^ y), (k ^ y) < x or (k ^ x) < y)",
    "implies(k < (x ^ y), (k ^ y) <= x and (k ^ x) <= y)",
    "(x ^ y) <= x + y - 1",
    "(x ^ y) == (x | y)",
    "(x + y) % 2 == (x ^ y) % 3",
    "((x ^ y) == 0) == (x == y) != (k % 2 == 1)",
    "(1 if x < y else 0) + (1 if y < x else 0) == (1 if x != y else 0) + (1 if k % 2 == 1 else 0)",
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
#: (game, period, preperiod, saltus): false periodic claims for the other theorems' windows.
WRONG_PERIODS = [
    ("subtraction:all-but:1,2", 3, 0, 2),
    ("subtraction:all-but:1,2", 2, 0, 1),
    ("subtraction:all-but:2,5", 4, 0, 1),
    ("subtraction:all-but:1,3", 2, 0, 2),
    ("nim", 2, 0, 1),
    ("octal:4.7", 3, 1, 0),
    ("octal:4.07", 4, 0, 0),
    ("octal:0.f", 3, 0, 0),
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
    # conditions compared with each other (in the automata fragment since it was widened)
    ("nim", f"(xor(h) == 0) != (h[0] == {2**45} and h[1] == {2**45} and h[2] == 0)", 3, 45),
    ("misere:nim", f"{_MISERE_NIM} != (h[0] == {2**50 + 1} and h[1] == {2**50 + 1})", 4, 50),
    # Wythoff's game in Zeckendorf numeration: one P-pair left out
    ("wythoff", f"({WYTHOFF_P}) and h[1] != 54", 2, 6),
    ("wythoff", f"({WYTHOFF_P}) and h[0] != 144", 2, 8),
    ("fibonacci-nim", "h[0] == 0 or h[1] < zlow(h[0]) and h[0] != 89", 2, 7),
]
FAR_ONE_HEAP: list[tuple[str, str, int]] = [
    ("knim:3", f"n % 4 if n < {2**40} else 0", 40),
    ("knim:5", f"n % 6 if n != {2**64 + 3} else 0", 64),  # n % 6 is 1 there
    ("nim", f"n if n < {2**80} else n + 1", 80),
    ("subtraction:1,2", f"n % 3 if n < {2**35} else n % 4", 35),
]

#: What the automata method cannot express (splitting moves, counting functions as numbers).
_NOT_WS1S = (
    "kayles",
    "octal:",
    "cgsuite:",
    "ruler",
    "trailing_",
    "bit_length",
    "popcount",
    "euclid",
    "northcott",
)


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
    for game, order, p_portion, period, preperiod in QUOTIENT_WRONG:
        c = claim(
            "misere_quotient",
            game,
            None,
            {},
            order=order,
            p_portion=p_portion,
            period=period,
            preperiod=preperiod,
            id=f"quotient-{game}-{order}-{p_portion}-{period}-{preperiod}",
        )
        out.append(FalseCase(c, ("misere_quotient",)))
    for game, period, preperiod, saltus in WRONG_PERIODS:
        c = claim(
            "periodic",
            game,
            None,
            {},
            period=period,
            preperiod=preperiod,
            saltus=saltus,
            id=f"{game}-{period}-{preperiod}-{saltus}",
        )
        out.append(FalseCase(c, ("periodicity",)))
    return out
