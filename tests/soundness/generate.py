"""The generated soundness suite: false claims across every family, kind and method.

:func:`false_claims` lists every case: a claim (with no checks of its own),
the options with which each proof method is run on it alone, and the
independent judgement of :mod:`tests.soundness.truth` of where it is wrong.
Claims are derived from true statements by a change that makes them wrong
everywhere, near 0, at one far position (heap 1000 or 20000), only beyond
``2**32``, or only beyond ``2**64``. Every case is checked to be false by
the truth reference when the list is built, so a case cannot silently be
true.

Formulas are written in the README's formula language, which for the
functions used here is also Python: the tests evaluate them with Python
(:func:`python_value`) rather than nimproof's parser, so the judgement of a
verdict does not depend on the code being judged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nimproof.claims import Claim
from tests.soundness import truth

#: Where single-position changes are made.
NEAR = (0, 1, 5, 17, 40)
FAR = (300, 1000, 5000, 20000)
BEYOND_32 = 2**33 + 5
BEYOND_64 = 2**65 + 3
POSITIONS = (*NEAR, *FAR, BEYOND_32, BEYOND_64)

Z3_WIDTHS = [8, 40, 64]
Z3 = {"widths": Z3_WIDTHS, "timeout": 20}
HYPOTHESIS = {"examples": 200}


@dataclass(frozen=True)
class SoundCase:
    """One false claim, how to run each method on it, and where it is wrong."""

    claim: Claim
    options: dict[str, dict[str, Any]]
    wrong: Any  # a position (or assignment) where the truth reference says the claim is wrong
    where: str  # "everywhere", "near", "far", "beyond-2^32" or "beyond-2^64"
    family: str
    tags: tuple[str, ...] = field(default=())

    @property
    def id(self) -> str:
        return self.claim.id

    def with_checks(self, method: str) -> Claim:
        """The claim with only ``method`` in its checks."""
        from dataclasses import replace

        return replace(self.claim, checks={method: dict(self.options[method])})


def _bits_of(x: int) -> int:
    return max(1, x.bit_length())


PY_FUNCTIONS: dict[str, Any] = {
    "xor": truth.xor_all,
    "trailing_ones": lambda x: _check_nonneg(x) and (~x & (x + 1)).bit_length() - 1,
    "trailing_zeros": lambda x: _check_nonneg(x) and ((x & -x).bit_length() - 1 if x else 64),
    "bit_length": lambda x: _check_nonneg(x) and x.bit_length(),
    "popcount": lambda x: _check_nonneg(x) and bin(x).count("1"),
    "colsum": lambda s, b: sum((x >> b) & 1 for x in s),
    "bits": range(64),
    "implies": lambda p, q: (not p) or q,
    "max": max,
    "min": min,
    "sum": sum,
    "all": all,
    "any": any,
    "len": len,
}


def _check_nonneg(x: int) -> bool:
    if x < 0:
        raise ValueError("negative")
    return True


def python_value(formula: str, env: dict[str, Any]) -> Any:
    """The formula's value by Python itself (the suite's own formulas only; raises where undefined)."""
    return eval(formula, {"__builtins__": {}, **PY_FUNCTIONS, **env})


# ---------------------------------------------------------------------------
# one heap
# ---------------------------------------------------------------------------

SUB134 = "(n % 7) % 2 if n % 7 < 4 else (n % 7) - 2 if n % 7 < 6 else 2"
MISERE_NIM = "1 if n == 0 else 0 if n == 1 else n"
HALF_HEAP = "n >> (trailing_ones(n) + 1)"
HALF_HEAP_WITNESS = (
    "(v << (bit_length(n) - bit_length(v) + j - 2)) | "
    "((1 << (bit_length(n) - bit_length(v) + j - 3)) - 1)"
)

#: (game, true formula, truth function, symbolic moves for z3, bitwise formula?)
ONE_HEAP: list[tuple[str, str, Callable[[int], int], bool, bool]] = [
    ("nim", "n", lambda n: n, True, False),
    *[(f"knim:{k}", f"n % {k + 1}", lambda n, k=k: n % (k + 1), True, False) for k in range(1, 7)],
    ("subtraction:1,3,4", SUB134, lambda n: truth.heap_value("subtraction:1,3,4", n), True, False),
    ("misere:nim", MISERE_NIM, truth.misere_nim_heap, True, False),
    ("half-heap", HALF_HEAP, lambda n: truth.heap_value("half-heap", n), True, True),
    (
        "rule:(n+1)//2 <= m < n",
        HALF_HEAP,
        lambda n: truth.heap_value("half-heap", n),
        False,
        True,
    ),
]


def _where(k: int) -> str:
    if k >= 2**64:
        return "beyond-2^64"
    if k >= 2**32:
        return "beyond-2^32"
    return "far" if k >= 300 else "near"


def _one_heap_options(game: str, symbolic: bool, bitwise: bool) -> dict[str, dict[str, Any]]:
    limit = 3000 if game.startswith("rule:") else 30000
    out: dict[str, dict[str, Any]] = {"exhaustive": {"max_n": limit}, "hypothesis": HYPOTHESIS}
    if symbolic:
        out["z3_bitvec"] = dict(Z3)
        if game == "half-heap":
            out["z3_bitvec"]["witness_candidates"] = 5
        if not bitwise:
            out["z3_int"] = {"timeout": 20}
    return out


def _one_heap_cases() -> list[SoundCase]:
    cases = []
    for game, base, value, symbolic, bitwise in ONE_HEAP:
        witness = HALF_HEAP_WITNESS if game == "half-heap" else None
        changes: list[tuple[str, int, str]] = []
        for k in POSITIONS:
            changes.append((f"({base}) + (1 if n == {k} else 0)", k, _where(k)))
            changes.append((f"({base}) ^ (2 if n == {k} else 0)", k, _where(k)))
        changes += [
            (f"({base}) + 1", 0, "everywhere"),
            (f"({base}) * 2", 1 if value(1) else 2, "everywhere"),
            (f"({base}) // 2", _first(lambda n, v=value: v(n) // 2 != v(n)), "everywhere"),
        ]
        for formula, wrong, where in changes:
            fn = _one_heap_fn(formula)
            assert fn(wrong) != value(wrong), (game, formula, wrong)
            uses_bits = bitwise or "^" in formula
            claim = Claim(
                id=f"sound.grundy.{game}.{formula}",
                kind="grundy",
                statement=f"{game}: g(n) = {formula}",
                game=game,
                formula=formula,
                witness=witness,
                expect="refuted",
            )
            cases.append(
                SoundCase(claim, _one_heap_options(game, symbolic, uses_bits), wrong, where, game)
            )
    return cases


def _first(pred: Callable[[int], bool]) -> int:
    return next(n for n in range(10_000) if pred(n))


def _one_heap_fn(formula: str) -> Callable[[int], int]:
    return lambda n: int(python_value(formula, {"n": n}))


# ---------------------------------------------------------------------------
# several heaps
# ---------------------------------------------------------------------------

#: (game, heaps, true P-rule, witness)
MULTI: list[tuple[str, int, str, str | None]] = [
    ("nim", 2, "xor(h) == 0", "nim"),
    ("nim", 3, "xor(h) == 0", "nim"),
    ("misere:nim", 2, "(xor(h) == 1) if max(h) <= 1 else (xor(h) == 0)", "misere-nim"),
    ("misere:nim", 3, "(xor(h) == 1) if max(h) <= 1 else (xor(h) == 0)", "misere-nim"),
    ("moore:2", 3, "all(colsum(h, b) % 3 == 0 for b in bits)", "moore"),
    ("staircase", 3, "xor(h[::2]) == 0", "staircase"),
    ("knim:3", 2, "h[0] % 4 == h[1] % 4", None),
]


def _multi_cases() -> list[SoundCase]:
    cases = []
    for game, heaps, base, witness in MULTI:
        changes: list[tuple[str, tuple[int, ...], str]] = []
        for k in (1, 3, 6, 100, 1000, BEYOND_32, BEYOND_64):
            pos = (k, k, *([0] * (heaps - 2)))
            if game == "staircase":
                pos = (k, 0, k)[:heaps]
            if game.startswith("moore"):
                pos = (k, k, k)
            test = " and ".join(f"h[{i}] == {v}" for i, v in enumerate(pos))
            changes.append((f"({base}) != ({test})", pos, _where(k)))
            if not game.startswith("misere"):
                extra = f"h[{heaps - 1}] != {k}"
                flipped = _flip_keeping(base, heaps, k, game)
                if flipped is not None:
                    changes.append((f"({base}) and {extra}", flipped, _where(k)))
        changes += [
            ("xor(h) == 1", _first_wrong_multi(game, heaps, "xor(h) == 1"), "everywhere"),
            ("sum(h) % 2 == 0", _first_wrong_multi(game, heaps, "sum(h) % 2 == 0"), "everywhere"),
        ]
        for formula, wrong, where in changes:
            claimed = bool(python_value(formula, {"h": wrong}))
            assert claimed != truth.is_p(game, wrong), (game, formula, wrong)
            claim = Claim(
                id=f"sound.p.{game}.{heaps}.{formula}",
                kind="p_positions",
                statement=f"{game}, {heaps} heaps: P iff {formula}",
                game=game,
                formula=formula,
                heaps=heaps,
                witness=witness,
                expect="refuted",
            )
            options: dict[str, dict[str, Any]] = {
                "exhaustive": {"max_total" if game == "staircase" else "max_heap": 15},
                "z3_bitvec": dict(Z3),
                "hypothesis": HYPOTHESIS,
            }
            cases.append(SoundCase(claim, options, wrong, where, game))
    return cases


def _flip_keeping(base: str, heaps: int, k: int, game: str) -> tuple[int, ...] | None:
    """A P-position with last heap ``k`` (the change ``and h[-1] != k`` makes it wrong)."""
    if game == "knim:3":
        return (k, k)
    if game == "nim":
        return (k, *([0] * (heaps - 2)), k)
    if game == "staircase":
        return (k, 0, k) if heaps == 3 else None
    if game.startswith("moore"):
        return (k, k, k)
    return None


def _first_wrong_multi(game: str, heaps: int, formula: str) -> tuple[int, ...]:
    import itertools

    for pos in sorted(itertools.product(range(8), repeat=heaps), key=lambda p: (sum(p), p)):
        if bool(python_value(formula, {"h": pos})) != truth.is_p(game, pos):
            return pos
    raise AssertionError((game, formula))


# ---------------------------------------------------------------------------
# identities, periods, listed values and sequences
# ---------------------------------------------------------------------------

IDENTITIES = [
    "(x ^ y) <= x + y",
    "(x & y) + (x | y) == x + y",
    "(x ^ y) == (x | y) - (x & y)",
    "x * (y + 1) >= x",
]


def _identity_cases() -> list[SoundCase]:
    cases = []
    options = {
        "exhaustive": {"max_value": 63},
        "z3_bitvec": dict(Z3),
        "hypothesis": HYPOTHESIS,
    }
    for base in IDENTITIES:
        for k in POSITIONS:
            for formula, wrong in (
                (f"({base}) and not (x == {k} and y == 3)", {"x": k, "y": 3}),
                (f"({base}) and x + y != {k + 7}", {"x": k, "y": 7}),
            ):
                assert not python_value(formula, wrong)
                claim = Claim(
                    id=f"sound.identity.{formula}",
                    kind="identity",
                    statement=formula,
                    variables=("x", "y"),
                    formula=formula,
                    expect="refuted",
                )
                cases.append(SoundCase(claim, options, wrong, _where(k), "identity"))
    return cases


#: (game, period, preperiod, least): each wrong as the README defines a period
#: (or, with ``least``, valid but not the least).
PERIODS = [
    ("kayles", 11, 71, False),
    ("kayles", 13, 71, False),
    ("kayles", 12, 70, False),
    ("kayles", 6, 71, False),
    ("kayles", 12, 0, False),
    ("kayles", 24, 69, False),
    ("kayles", 36, 60, False),
    ("kayles", 24, 71, True),
    ("kayles", 12, 72, True),
    ("kayles", 36, 80, True),
    ("dawsons-kayles", 34, 52, False),
    ("dawsons-kayles", 17, 53, False),
    ("dawsons-kayles", 34, 0, False),
    ("dawsons-kayles", 33, 53, False),
    ("dawsons-kayles", 68, 53, True),
    ("dawsons-kayles", 34, 54, True),
    ("subtraction:1,3,4", 6, 0, False),
    ("subtraction:1,3,4", 3, 0, False),
    ("subtraction:1,3,4", 5, 2, False),
    ("subtraction:1,3,4", 8, 0, False),
    ("subtraction:1,3,4", 14, 0, True),
    ("subtraction:1,3,4", 7, 1, True),
    ("knim:3", 3, 0, False),
    ("knim:3", 8, 0, True),
    ("knim:5", 6, 1, True),
]


def period_is_wrong(game: str, p: int, n0: int, least: bool) -> Any:
    """Where a period claim fails by the truth reference (a heap, or the least pair)."""
    top = n0 + 4 * p + 200
    g = [truth.heap_value(game, n) for n in range(top + p)]
    for n in range(n0, top):
        if g[n + p] != g[n]:
            return n + p
    if not least:
        return None
    for d in range(1, p):
        if p % d == 0 and all(g[n + d] == g[n] for n in range(n0, top)):
            return ("least-period", d)
    if n0 > 0 and g[n0 - 1 + p] == g[n0 - 1]:
        return ("least-preperiod", n0 - 1)
    return None


def _period_cases() -> list[SoundCase]:
    cases = []
    for game, p, n0, least in PERIODS:
        wrong = period_is_wrong(game, p, n0, least)
        assert wrong is not None, (game, p, n0, least)
        claim = Claim(
            id=f"sound.periodic.{game}.{p}.{n0}{'.least' if least else ''}",
            kind="periodic",
            statement=f"{game}: period {p} from {n0}",
            game=game,
            period=p,
            preperiod=n0,
            least=least,
            expect="refuted",
        )
        cases.append(SoundCase(claim, {"periodicity": {}}, wrong, "near", game))
    return cases


def _value_cases() -> list[SoundCase]:
    cases = []
    rng = random.Random(11)
    for game in ("nim", "kayles", "dawsons-kayles", "subtraction:1,3,4", "knim:4", "half-heap"):
        for k in (*NEAR, *FAR, 70, 71, 83):
            v = truth.heap_value(game, k)
            cases.append(
                _value(game, [k], [v + 1 + rng.randrange(3)], (k,), "far" if k >= 300 else "near")
            )
    for k in (5, 1000, 2**20, BEYOND_32, BEYOND_64):
        pos = [k + 3, k, 3]
        cases.append(_value("nim", [pos], [1], tuple(pos), _where(k)))
    for k in (7, 300, 4000):
        # a wrong winning move: the true one from (1, 2, k) takes heap k to 3
        claim = _value("nim", [[1, 2, k]], [k ^ 3], (1, 2, k), "near", moves=[[[1, 2, k - 1]]])
        cases.append(claim)
    return cases


def _value(
    game: str,
    positions: list[Any],
    values: list[int],
    wrong: Any,
    where: str,
    moves: list[Any] | None = None,
) -> SoundCase:
    claim = Claim(
        id=f"sound.value.{game}.{positions}.{values}{'.moves' if moves else ''}",
        kind="value",
        statement=f"{game}: values of {positions}",
        game=game,
        positions=tuple(tuple(p) if isinstance(p, list) else p for p in positions),
        values=tuple(values),
        winning_moves=tuple(moves or ()),
        expect="refuted",
    )
    return SoundCase(claim, {"reference": {}}, wrong, where, game)


def _sequence_cases() -> list[SoundCase]:
    cases = []
    for game in ("kayles", "dawsons-kayles", "subtraction:1,3,4", "half-heap", "knim:2"):
        for length in (5, 60, 150, 400):
            values = [truth.heap_value(game, n) for n in range(length)]
            values[-1] += 1
            claim = Claim(
                id=f"sound.sequence.{game}.{length}",
                kind="sequence",
                statement=f"{game}: the first {length} values",
                game=game,
                values=tuple(values),
                expect="refuted",
            )
            cases.append(SoundCase(claim, {"reference": {}}, length - 1, "near", game))
    return cases


def false_claims() -> list[SoundCase]:
    """Every case of the suite, in a fixed order."""
    return [
        *_one_heap_cases(),
        *_multi_cases(),
        *_identity_cases(),
        *_period_cases(),
        *_value_cases(),
        *_sequence_cases(),
    ]


def sample(count: int, seed: int = 2026) -> list[SoundCase]:
    """A fixed sample of the suite that still includes each family and each kind of change."""
    cases = false_claims()
    rng = random.Random(seed)
    chosen: dict[str, SoundCase] = {}
    for case in cases:  # one of each (kind of claim, kind of change) first
        chosen.setdefault(f"{case.claim.kind}/{case.where}", case)
    picked = list(chosen.values())
    rest = [c for c in cases if c not in picked]
    picked += rng.sample(rest, max(0, count - len(picked)))
    return picked[: max(count, len(chosen))]
