"""The z3 plumbing both solver-based methods share: a budgeted solver, model reading, shrinking."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence

import z3


class Undecided(Exception):
    """The method cannot decide (a timeout, ``unknown`` from z3, a model that did not re-check)."""


class Solver:
    """z3 calls within a deadline; counts the calls and the time spent in them.

    ``logic`` names the z3 logic for quantifier-free queries (``"QF_BV"``);
    quantified queries, and every query when ``logic`` is None, use z3's
    default solver.
    """

    def __init__(self, deadline: float, logic: str | None = None) -> None:
        self.deadline = deadline
        self.logic = logic
        self.calls = 0
        self.seconds = 0.0
        #: Every decided query, for the certificate: ``{"role", "answer", "smt2"}`` (the
        #: role is the calling function's name, the query in SMT-LIB 2 as z3 prints it).
        self.queries: list[dict[str, str]] = []

    def check(self, *constraints: z3.BoolRef, quantified: bool = False) -> z3.ModelRef | None:
        """The model of a satisfiable query, None for ``unsat``; raises Undecided otherwise."""
        left = self.deadline - time.monotonic()
        if left <= 0.05:
            raise Undecided("time limit reached")
        s = z3.SolverFor(self.logic) if self.logic and not quantified else z3.Solver()
        s.set("timeout", max(1, int(left * 1000)))
        s.add(*constraints)
        t0 = time.monotonic()
        result = s.check()
        self.calls += 1
        self.seconds += time.monotonic() - t0
        if result in (z3.unsat, z3.sat):
            role = sys._getframe(1).f_code.co_name.strip("_")
            self.queries.append({"role": role, "answer": str(result), "smt2": s.to_smt2()})
        if result == z3.unsat:
            return None
        if result == z3.sat:
            return s.model()
        raise Undecided(f"z3 returned unknown ({s.reason_unknown()})")


def value_of(model: z3.ModelRef, term: z3.ExprRef) -> int:
    """The integer a model gives ``term`` (unconstrained parts completed)."""
    return model.eval(term, model_completion=True).as_long()


def all_of(guards: Sequence[z3.BoolRef]) -> z3.BoolRef:
    """The conjunction of ``guards`` (True when there are none)."""
    g = list(guards)
    return z3.And(*g) if g else z3.BoolVal(True)


def shrink(
    solver: Solver,
    query: Sequence[z3.BoolRef],
    var: z3.ExprRef,
    at_most: Callable[[int], z3.BoolRef],
    rounds: int,
    quantified: bool = False,
) -> int:
    """The smallest value of ``var`` satisfying ``query`` that a binary search of ``rounds`` steps finds.

    ``at_most(k)`` is the constraint ``var <= k`` in the variable's sort. A
    step that z3 cannot decide ends the search with the best value so far.
    """
    model = solver.check(*query, quantified=quantified)
    assert model is not None
    best, lo = value_of(model, var), 0
    for _ in range(rounds):
        if lo >= best:
            break
        mid = (lo + best) // 2
        try:
            found = solver.check(*query, at_most(mid), quantified=quantified)
        except Undecided:
            break
        if found is None:
            lo = mid + 1
        else:
            best = value_of(found, var)
    return best
