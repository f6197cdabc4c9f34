"""What a claim's preparation parses and folds once (issue 21) is what the compilers would.

``parse_each`` parses several formulas in one call, each as ``parse`` would;
``constant_values`` evaluates the subtrees that read only parameters once, and
both compilers reading those values produce exactly what they produce folding
each subtree themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import z3

from nimproof.errors import ExprError
from nimproof.expr import evaluate, parse
from nimproof.expr.evaluate import constant_values
from nimproof.expr.nodes import children, constant_subtrees
from nimproof.expr.parser import parse_each
from nimproof.expr.to_ws1s import SetVar, compile_all
from nimproof.expr.to_z3 import compile_bv

FORMULAS = [
    "xor(h) == 0 and h[0] != 2**45 + 2**44",
    "(xor(h) != 0) if all(x <= 1 for x in h) else (h[0] == 2**50 + 1) != (xor(h) == 0)",
    "h[0] + k * 3 == h[1] + (k + 1) // 2",
    "sum(x * k for x in h) % (k + 2) == 0",
    "h[0] // (k - 2) == 1",
]
PARAMS = {"k": 2}


def test_parse_each_parses_as_parse_and_keeps_each_error() -> None:
    texts = ["n % 3", "m < n", "n +", "q == 1"]
    out = parse_each([(t, ("n", "m"), (), None) for t in texts])
    assert out[0] == parse("n % 3", ("n", "m")) and out[1] == parse("m < n", ("n", "m"))
    assert isinstance(out[2], ExprError) and isinstance(out[3], ExprError)


def _subtrees(node):  # type: ignore[no-untyped-def]
    yield node
    for child in children(node):
        yield from _subtrees(child)


@pytest.mark.parametrize("text", FORMULAS)
def test_constant_values_are_the_exact_values_of_parameter_only_subtrees(text: str) -> None:
    node = parse(text, scalars=tuple(PARAMS), sequences=("h",), result="bool")
    folded = constant_values(constant_subtrees(node, tuple(PARAMS)), PARAMS)
    ids = {id(n): n for n in _subtrees(node)}
    for key, (sub, value) in folded.items():
        assert ids[key] is sub
        try:
            assert value == evaluate(sub, dict(PARAMS))
        except Exception:
            assert value is None  # undefined there (k - 2 == 0): left for the guards
    if "2**50" in text:
        assert 2**50 + 1 in [v for _, v in folded.values()]


def _outcome(compile_it: Callable[[], Any]) -> Any:
    """What a compilation gives: its result, or the class of what it raised."""
    try:
        return compile_it()
    except Exception as exc:
        return type(exc)


@pytest.mark.parametrize("text", FORMULAS)
def test_compilers_reading_folded_constants_compile_the_same(text: str) -> None:
    node = parse(text, scalars=tuple(PARAMS), sequences=("h",), result="bool")
    folded = constant_values(constant_subtrees(node, tuple(PARAMS)), PARAMS)
    names = {"h": (SetVar("X0"), SetVar("X1")), **PARAMS}
    plain = _outcome(lambda: compile_all([(node, names, None)]))
    assert plain == _outcome(lambda: compile_all([(node, names, None)], folded=folded))
    width = 64
    env = {"h": [z3.BitVec("a", width), z3.BitVec("b", width)], **PARAMS}
    a = _outcome(lambda: compile_bv(node, env, width))
    b = _outcome(lambda: compile_bv(node, env, width, folded))
    if isinstance(a, type):
        assert a is b
        return
    solver = z3.Solver()
    solver.add(z3.Not(z3.And(a.term == b.term, z3.And(*a.guards) == z3.And(*b.guards))))
    assert solver.check() == z3.unsat
