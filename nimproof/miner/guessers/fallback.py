"""Fallback: sympy's sequence guessing, fenced in.

``sympy.concrete.guess`` (``guess``, ``guess_generating_function_rational``,
``find_simple_recurrence``) knows many closed forms but is fragile for our
tables: it raises on sequences that start with 0, often returns nothing, and
can take seconds on a few dozen terms. So it is given a shifted copy of a
short prefix (every value plus one, which avoids the zeros), runs under a
time limit, and any exception it raises means "no guess". What it returns is
used only when it is a polynomial in ``n`` that the formula language can
write and that reproduces the whole table (the held-out part included).
"""

from __future__ import annotations

import contextlib
import gc
import signal
import threading
from collections.abc import Iterator
from typing import Any

import sympy
from sympy.concrete.guess import guess, guess_generating_function_rational

from nimproof.miner.formula import polynomial_text, reproduces_heap_table
from nimproof.miner.guessers.base import Guesser, predicted_guess
from nimproof.miner.model import Guess, HeapTable, Table

TERMS = 20
TIME_LIMIT = 2.0
MIN_TERMS = 12


class _OutOfTime(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeoutError` in the block after ``seconds`` (main thread only; elsewhere no limit).

    Uses ``SIGALRM``/``setitimer``, which interrupts pure-Python code such as
    sympy between bytecodes; the previous handler and timer are restored.
    """
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return
    collecting = [False]

    def track(phase: str, info: dict[str, int]) -> None:
        collecting[0] = phase == "start"

    def handler(signum: int, frame: Any) -> None:
        # An exception raised while the garbage collector runs (inside a gc callback, such
        # as the one hypothesis installs, or a weakref callback or finaliser it triggers)
        # is swallowed and reported as "unraisable": the limit would be lost. Fire again
        # a moment later instead, once the collection is over.
        if collecting[0] or _inside_gc_callback(frame):
            signal.setitimer(signal.ITIMER_REAL, 0.01)
            return
        # Anywhere else that swallows exceptions, the re-armed timer fires again.
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        raise _OutOfTime

    gc.callbacks.insert(0, track)
    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _OutOfTime:
        signal.setitimer(signal.ITIMER_REAL, 0)
        raise TimeoutError(f"sympy took more than {seconds} s") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        gc.callbacks.remove(track)


def _inside_gc_callback(frame: Any) -> bool:
    """True when ``frame`` or a frame it was called from is a garbage-collector callback."""
    codes = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


def polynomial_formula(expr: sympy.Expr, n: sympy.Symbol) -> str | None:
    """``expr`` as a formula in ``n`` when it is a polynomial with rational coefficients, else None."""
    return polynomial_text(expr, n, "n")


def sympy_guesses(values: list[int]) -> list[tuple[str, str]]:
    """Formulas in ``n`` guessed by sympy from ``values`` (heaps 0, 1, ...), with the method used.

    Only the first :data:`TERMS` values are used. Never raises: a sympy
    failure or timeout gives an empty list.
    """
    n = sympy.Symbol("n", integer=True, nonnegative=True)
    shifted = [v + 1 for v in values[:TERMS]]
    if len(shifted) < 2:
        return []
    out: list[tuple[str, str]] = []
    try:
        with time_limit(TIME_LIMIT):
            found = guess(shifted)
    except Exception:
        found = []
    for expr in found or []:
        if not isinstance(expr, sympy.Expr):
            continue
        syms = sorted(expr.free_symbols, key=str)
        if len(syms) > 1:
            continue
        # guess() numbers terms from 1 (variable i0): term i0 is heap n = i0 - 1.
        closed = expr.subs(syms[0], n + 1) - 1 if syms else expr - 1
        text = polynomial_formula(closed, n)
        if text is not None:
            out.append((text, "sympy.concrete.guess.guess"))
    if out:
        return out
    try:
        with time_limit(TIME_LIMIT):
            gf = guess_generating_function_rational(shifted)
    except Exception:
        gf = None
    if gf is not None:
        closed = _polynomial_from_gf(gf, len(values))
        if closed is not None:
            text = polynomial_formula(closed - 1, n)
            if text is not None:
                out.append((text, "sympy.concrete.guess.guess_generating_function_rational"))
    return out


def _polynomial_from_gf(gf: sympy.Expr, terms: int) -> sympy.Expr | None:
    """The polynomial whose values the rational generating function ``gf`` lists, if it is one."""
    x = next(iter(gf.free_symbols), None)
    if x is None:
        return None
    _num, den = sympy.fraction(sympy.together(gf))
    den_poly = sympy.Poly(den, x)
    # Coefficients of a polynomial of degree d have a generating function with denominator (1 - x)^(d+1).
    roots = sympy.roots(den_poly)
    if set(roots) != {1}:
        return None
    degree = sum(roots.values()) - 1
    try:
        coeffs = sympy.series(gf, x, 0, degree + 2).removeO()
    except Exception:
        return None
    n = sympy.Symbol("n", integer=True, nonnegative=True)
    points = [(i, coeffs.coeff(x, i)) for i in range(degree + 1)]
    poly = sympy.interpolate(points, n) if degree > 0 else points[0][1]
    if not isinstance(poly, sympy.Expr) or terms <= degree:
        return None
    return poly


class Fallback(Guesser):
    """sympy's sequence guessing under a time limit; failures are no guess, never a crash."""

    name = "fallback"
    fallback = True

    def why_not(self, table: Table) -> str | None:
        if not isinstance(table, HeapTable):
            return None
        return (
            f"sympy's guess on the first {TERMS} values gave no polynomial in n that predicts "
            "the rest (or ran out of its time)"
        )

    def guess_point(self, table: Table) -> list[Guess]:
        if not isinstance(table, HeapTable):
            return []
        size = len(table.values)
        terms = min(TERMS, size - max(1, size // 4))
        if terms < MIN_TERMS:
            return []
        prefix = [int(v) for v in table.values[:terms]]
        out: list[Guess] = []
        for formula, method in sympy_guesses(prefix):
            if not reproduces_heap_table(formula, table):
                continue
            found = f"{method} on heaps 0..{terms - 1}; it predicted heaps {terms}..{size - 1}"
            out.append(predicted_guess(self.name, table, formula, terms, (found,)))
        return out
