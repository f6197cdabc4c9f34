"""Verifier benchmarks: z3 times at the widths ``make verify`` proves, exhaustive throughput.

Each row runs one proof method on one true claim through
:func:`nimproof.provers.verify_claim` and reports its wall time, the scope it
reached and, for exhaustive checks, positions per second.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from typing import Any

from nimproof.claims import Claim
from nimproof.provers import verify_claim as _verify_claim

# One method per row: run exactly the method each claim names.
verify_claim = partial(_verify_claim, only_named=True)

HALF_HEAP_WITNESS = "(v << (bit_length(n) - bit_length(v) + j - 2)) | ((1 << (bit_length(n) - bit_length(v) + j - 3)) - 1)"
MISERE = "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0"


@dataclass
class Row:
    """One verifier measurement."""

    name: str
    method: str
    status: str
    scope: str
    seconds: float
    positions: int | None
    stats: dict[str, Any]

    @property
    def rate(self) -> str:
        if not self.positions or self.seconds <= 0:
            return "-"
        return f"{self.positions / self.seconds:,.0f} positions/s"


def _claim(
    name: str,
    kind: str,
    game: str | None,
    formula: str,
    method: str,
    options: dict[str, Any],
    **kw: Any,
) -> Claim:
    return Claim(
        id=name,
        kind=kind,
        statement=name,
        game=game,
        formula=formula,
        checks={method: options},
        **kw,
    )


def _cases() -> list[tuple[str, Claim]]:
    cases: list[tuple[str, Claim]] = []
    for h in (2, 3, 4, 6, 8):
        cases.append(
            (
                f"Bouton, {h} heaps",
                _claim(
                    "bouton",
                    "p_positions",
                    "nim",
                    "xor(h) == 0",
                    "z3_bitvec",
                    {"width": 64},
                    heaps=h,
                    witness="nim",
                ),
            )
        )
    for w in (8, 16, 32, 64, 128, 256):
        cases.append(
            (
                f"xor lemma, width {w}",
                _claim(
                    "xor-lemma",
                    "identity",
                    None,
                    "implies(k < (x ^ y), (k ^ y) < x or (k ^ x) < y)",
                    "z3_bitvec",
                    {"width": w},
                    variables=("k", "x", "y"),
                ),
            )
        )
    for h in (2, 3, 4, 5, 6):
        cases.append(
            (
                f"misère Nim, {h} heaps",
                _claim(
                    "misere",
                    "p_positions",
                    "misere:nim",
                    MISERE,
                    "z3_bitvec",
                    {"width": 64},
                    heaps=h,
                    witness="misere-nim",
                ),
            )
        )
    for h in (2, 3, 4, 5, 6):
        cases.append(
            (
                f"staircase, {h} stairs",
                _claim(
                    "staircase",
                    "p_positions",
                    "staircase",
                    "xor(h[::2]) == 0",
                    "z3_bitvec",
                    {"width": 32},
                    heaps=h,
                    witness="staircase",
                ),
            )
        )
    for k, h, w in ((1, 3, 32), (2, 3, 32), (2, 4, 16), (3, 5, 12)):
        cases.append(
            (
                f"Moore k={k}, {h} heaps",
                _claim(
                    "moore",
                    "p_positions",
                    f"moore:{k}",
                    f"all(colsum(h, b) % {k + 1} == 0 for b in bits)",
                    "z3_bitvec",
                    {"width": w},
                    heaps=h,
                    witness="moore",
                ),
            )
        )
    cases.append(
        (
            "half-heap rule",
            _claim(
                "half-heap",
                "grundy",
                "half-heap",
                "n >> (trailing_ones(n) + 1)",
                "z3_bitvec",
                {"width": 64, "witness_candidates": 5, "timeout": 600},
                witness=HALF_HEAP_WITNESS,
            ),
        )
    )
    for k in (1, 5, 10):
        cases.append(
            (
                f"k-Nim k={k}, all n",
                _claim("knim", "grundy", f"knim:{k}", f"n % {k + 1}", "z3_int", {}),
            )
        )
    cases.append(
        (
            "k-Nim k=10, exhaustive",
            _claim("knim-ex", "grundy", "knim:10", "n % 11", "exhaustive", {"max_n": 1_000_000}),
        )
    )
    cases.append(
        (
            "half-heap, exhaustive",
            _claim(
                "hh-ex",
                "grundy",
                "half-heap",
                "n >> (trailing_ones(n) + 1)",
                "exhaustive",
                {"max_n": 20_000},
            ),
        )
    )
    cases.append(
        (
            "Bouton 4 heaps, exhaustive",
            _claim(
                "bouton-ex",
                "p_positions",
                "nim",
                "xor(h) == 0",
                "exhaustive",
                {"max_heap": 31},
                heaps=4,
            ),
        )
    )
    cases.append(
        (
            "Moore k=2 4 heaps, exhaustive",
            _claim(
                "moore-ex",
                "p_positions",
                "moore:2",
                "all(colsum(h, b) % 3 == 0 for b in bits)",
                "exhaustive",
                {"max_heap": 15},
                heaps=4,
            ),
        )
    )
    cases.append(
        (
            "misère Nim 4 heaps, exhaustive",
            _claim(
                "misere-ex",
                "p_positions",
                "misere:nim",
                MISERE,
                "exhaustive",
                {"max_heap": 15},
                heaps=4,
            ),
        )
    )
    return cases


def run_verifier_benchmarks() -> list[Row]:
    """Run every verifier case once (a warm-up claim first, so numba compilation is not counted)."""
    verify_claim(_claim("warm", "grundy", "knim:3", "n % 4", "exhaustive", {"max_n": 100}))
    verify_claim(
        _claim("warm2", "p_positions", "nim", "xor(h) == 0", "exhaustive", {"max_heap": 3}, heaps=2)
    )
    rows = []
    for name, claim in _cases():
        t0 = time.perf_counter()
        verdict = verify_claim(claim, timeout=900)
        seconds = time.perf_counter() - t0
        m = verdict.methods[0]
        rows.append(
            Row(
                name,
                m.method,
                verdict.status,
                m.scope.describe() if m.status == "proved" else m.detail,
                seconds,
                m.stats.get("positions"),
                m.stats,
            )
        )
    return rows
