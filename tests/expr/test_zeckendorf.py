"""Zeckendorf numeration: the arithmetic, the addition automaton, and its WS1S form in MONA."""

from __future__ import annotations

from itertools import pairwise
from math import isqrt

import numpy as np
import pytest

from nimproof.expr import zeckendorf as z
from nimproof.expr.to_ws1s_zeckendorf import PRELUDE, const_set
from nimproof.provers import mona

needs_mona = pytest.mark.skipif(not mona.available(), reason="mona is not installed")


def test_every_number_has_one_valid_set() -> None:
    seen = set()
    for n in range(5000):
        ps = z.positions(n)
        assert all(b - a >= 2 for a, b in pairwise(ps)), n
        assert z.from_positions(ps) == n
        seen.add(ps)
    assert len(seen) == 5000
    assert [z.weight(i) for i in range(8)] == [1, 2, 3, 5, 8, 13, 21, 34]


def test_the_zeckendorf_functions() -> None:
    assert [z.zlow(n) for n in range(9)] == [0, 1, 2, 3, 1, 5, 1, 2, 8]
    assert [z.zshift(n) for n in range(6)] == [0, 2, 3, 5, 7, 8]
    for n in range(20000):
        assert z.phi_floor(n) == (n + isqrt(5 * n * n)) // 2
        ps = z.positions(n)
        even_low = bool(ps) and ps[0] % 2 == 0
        assert z.phi_floor(n) == z.zshift(n) - int(even_low), n  # the identity WS1S uses
    with pytest.raises(ValueError):
        z.positions(-1)


def _digits(values: np.ndarray, top: int) -> np.ndarray:
    """Zeckendorf digits of many numbers at once: shape (top, len(values))."""
    out = np.zeros((top, len(values)), dtype=np.int8)
    rest = values.copy()
    for i in range(top - 1, -1, -1):
        take = rest >= z.weight(i)
        out[i] = take
        rest = np.where(take, rest - z.weight(i), rest)
    assert not rest.any()
    return out


def test_the_adder_agrees_with_integer_addition_on_all_pairs_below_two_thousand() -> None:
    a = z.adder()
    table = np.full((a.states, 8), -1, dtype=np.int64)
    for (s, (x, y, w)), t in a.delta.items():
        table[s, 4 * x + 2 * y + w] = t
    accepting = np.zeros(a.states, dtype=bool)
    accepting[list(a.accepting)] = True
    x, y = (v.ravel() for v in np.meshgrid(np.arange(2000), np.arange(2000)))
    top = 20  # F(22) > 4000
    dxy = 4 * _digits(x, top) + 2 * _digits(y, top)
    dead = a.states  # an extra row: once a transition is missing, the run stays rejected
    table = np.vstack([np.where(table < 0, dead, table), np.full((1, 8), dead)])
    for delta in (0, 1, -1):
        total = x + y + delta
        ok = total >= 0
        digits = dxy + _digits(np.where(ok, total, 0), top)
        state = np.zeros(len(x), dtype=np.int64)
        for i in range(top - 1, -1, -1):
            state = table[state, digits[i]]
        accepted = (state < dead) & np.append(accepting, False)[state] & ok
        assert accepted.all() if delta == 0 else not accepted.any(), delta


def _valid(text: str) -> str:
    answer = mona.run_text("ws1s;\n" + PRELUDE + text, 60.0)
    return answer.outcome


@needs_mona
def test_the_ws1s_adder_adds_specific_sums() -> None:
    sums = [(1, 1, 2), (2, 3, 5), (3, 5, 8), (4, 6, 10), (0, 7, 7), (12, 21, 33), (100, 233, 333)]
    body = " & ".join(f"plus({const_set(a)}, {const_set(b)}, {const_set(c)})" for a, b, c in sums)
    assert _valid(body + ";\n") == "valid"
    wrong = f"plus({const_set(4)}, {const_set(6)}, {const_set(11)});\n"
    assert _valid(wrong) in ("unsatisfiable", "counterexample")


@needs_mona
def test_the_ws1s_adder_is_total_and_functional() -> None:
    total = "all2 A, B: valid(A) & valid(B) => (ex2 Z: plus(A, B, Z));\n"
    functional = "all2 A, B, Y, Z: plus(A, B, Y) & plus(A, B, Z) => Y = Z;\n"
    commutative = "all2 A, B, Z: plus(A, B, Z) => plus(B, A, Z);\n"
    zero = "all2 A: valid(A) => plus(A, {}, A);\n"
    order = "all2 A, B, Z: plus(A, B, Z) & ~empty(B) => lt(A, Z);\n"
    for text in (total, functional, commutative, zero, order):
        assert _valid(text) == "valid", text


@needs_mona
def test_the_ws1s_functions_on_examples() -> None:
    cases = [("zshift", n, z.zshift(n)) for n in (0, 1, 4, 12, 100)]
    cases += [("zlow", n, z.zlow(n)) for n in (0, 1, 6, 12, 89, 90)]
    cases += [("phifloor", n, z.phi_floor(n)) for n in (0, 1, 2, 3, 4, 12, 100, 1000)]
    body = " & ".join(f"{f}({const_set(a)}, {const_set(b)})" for f, a, b in cases)
    assert _valid(body + ";\n") == "valid"
    assert _valid(f"phifloor({const_set(4)}, {const_set(7)});\n") != "valid"
    functional = "all2 A, B, C: phifloor(A, B) & phifloor(A, C) => B = C;\n"
    total = "all2 A: valid(A) => (ex2 B: phifloor(A, B) & valid(B));\n"
    assert _valid(functional) == "valid" and _valid(total) == "valid"
