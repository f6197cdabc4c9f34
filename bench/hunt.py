"""The hunt's examples (issue 18's "done when"): time to refute, and region checked per second.

Each example is a claim as ``nimproof check`` builds it (default options,
default timeout), decided in-process with :func:`nimproof.provers.verify_claim`.
For a false claim the figure is the time to a re-checked refutation and the
position named; for the true claim no method proves for all positions, the
region the hunt covered and its rate. The tests (``tests/provers/test_hunt.py``)
use the same examples with small time limits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from nimproof.api import check_claim
from nimproof.provers import verify_claim

#: Grundy's game's P-positions below 2^20 (the sparse-space table to 2^20 has no other).
GRUNDY_P = (0, 1, 2, 4, 7, 10, 20, 23, 26, 50, 53, 270, 273, 276, 282, 285, 288, 316, 334,
            337, 340, 346, 359, 362, 365, 386, 389, 392, 566, 630, 633, 636, 639, 673, 676,
            682, 685, 923, 926, 929, 932, 1222)  # fmt: skip
#: Officers' (0.6) P-positions below 2^20.
OFFICERS_P = (0, 1, 4, 12, 20, 30, 46, 72, 98, 124, 150, 176, 314, 408)
MISERE_NIM = "((xor(h) != 0) if all(x <= 1 for x in h) else (xor(h) == 0))"
HALF_HEAP = "n >> (trailing_ones(n) + 1)"


def one_of(values: tuple[int, ...], leave_out: int | None = None) -> str:
    """The predicate "the heap is one of ``values``" (without ``leave_out``)."""
    return " or ".join(f"h[0] == {v}" for v in values if v != leave_out)


@dataclass(frozen=True)
class Example:
    """One claim of the examples: ``nimproof check`` keyword arguments and the expected end."""

    label: str
    game: str
    options: dict[str, Any]
    wrong_at: Any  # the position the claim is wrong at (None: a true claim)


EXAMPLES: tuple[Example, ...] = (
    Example(
        "Nim, wrong at (2^45, 2^45, 0)",
        "nim",
        {
            "heaps": 3,
            "p_positions": "(xor(h) == 0) != (h[0] == 2**45 and h[1] == 2**45 and h[2] == 0)",
        },
        (2**45, 2**45, 0),
    ),
    Example(
        "misère Nim, wrong at (2^50+1, 2^50+1, 0, 0)",
        "misere:nim",
        {
            "heaps": 4,
            "p_positions": f"{MISERE_NIM} != (h[0] == 2**50 + 1 and h[1] == 2**50 + 1 "
            "and h[2] == 0 and h[3] == 0)",
        },
        (2**50 + 1, 2**50 + 1, 0, 0),
    ),
    Example(
        "Grundy's game P-positions without 316",
        "grundy",
        {"heaps": 1, "p_positions": one_of(GRUNDY_P, 316)},
        (316,),
    ),
    Example(
        "Officers (0.6) P-positions without 408",
        "octal:0.6",
        {"heaps": 1, "p_positions": one_of(OFFICERS_P, 408)},
        (408,),
    ),
    Example("misère Kayles n % 3", "misere:kayles", {"grundy": "n % 3"}, 0),
    Example(
        "Moore's Nim_2, wrong only where a heap is 2^40",
        "moore:2",
        {
            "heaps": 3,
            "p_positions": "all(colsum(h, b) % 3 == 0 for b in bits) and h[1] != 2**40",
        },
        None,  # any position with h[1] = 2^40 that Moore's rule calls P
    ),
    Example(
        "half-heap, wrong only at heap 5000",
        "half-heap",
        {"grundy": f"({HALF_HEAP}) + (1 if n == 5000 else 0)"},
        5000,
    ),
    Example(
        "Grundy's game, its 42 P-positions below 2^20 (true there)",
        "grundy",
        {"heaps": 1, "p_positions": one_of(GRUNDY_P)},
        None,
    ),
)


@dataclass
class HuntRow:
    """One example's outcome."""

    label: str
    status: str
    by: str
    seconds: float
    position: Any
    region: str
    rate: str


def run_example(example: Example, timeout: float = 120.0, only_hunt: bool = False) -> Any:
    """The verdict on ``example`` as ``nimproof check`` decides it (``only_hunt``: the hunt alone)."""
    claim = check_claim(example.game, timeout=timeout, **example.options)
    if only_hunt:
        from dataclasses import replace

        claim = replace(claim, checks={"hunt": {}})
    return verify_claim(claim, timeout=timeout, only_named=only_hunt)


def run_hunt_benchmarks(timeout: float = 120.0) -> list[HuntRow]:
    """Every example with default options: status, time, position, region and its rate."""
    rows = []
    for example in EXAMPLES:
        t0 = time.monotonic()
        verdict = run_example(example, timeout)
        seconds = time.monotonic() - t0
        hunt = next((m for m in verdict.methods if m.method == "hunt"), None)
        region, rate = "", ""
        if hunt is not None and hunt.status == "proved":
            region = hunt.scope.describe()
            covered = hunt.stats.get("heaps") or (hunt.stats.get("box", 0) + 1)
            rate = f"{covered / max(hunt.seconds, 1e-9):,.0f} heaps/s"
        cx = verdict.counterexample
        rows.append(
            HuntRow(
                example.label,
                str(verdict.status),
                ", ".join(verdict.methods_used()) if verdict.status == "refuted" else "hunt",
                seconds,
                cx.position if cx is not None else None,
                region,
                rate,
            )
        )
    return rows


def ws1s_share() -> tuple[int, int, dict[str, int]]:
    """How many of the soundness suite's claims (``tests/provers/false_claims.py``) the
    automata method compiles to WS1S: ``(compiled, total, reasons for the others)``."""
    from nimproof.expr.to_ws1s import NotExpressible
    from nimproof.expr.to_z3 import Unsupported
    from nimproof.provers import automata, prepare
    from tests.provers.false_claims import cases

    compiled, total = 0, 0
    reasons: dict[str, int] = {}
    for case in cases():
        if case.claim.kind not in ("grundy", "p_positions", "identity"):
            continue
        total += 1
        try:
            automata.plan(prepare(case.claim))
            compiled += 1
        except (NotExpressible, Unsupported) as exc:
            why = str(exc).split(":", 1)[-1].strip()
            reasons[why] = reasons.get(why, 0) + 1
    return compiled, total, reasons
