"""Differential tests of the WS1S back end against exact numeric evaluation.

Random formulas are compiled to WS1S and checked by MONA at random points
against :func:`nimproof.expr.evaluate`: at each point the compiled formula
must agree with the numeric value wherever the compiler's guard holds, and
the guard must fail where the formula is undefined. Many points of one
formula go into one MONA file (a conjunction of "these values => this
answer"), so that a few MONA runs test many cases. The vacuity guard at the
end compares the compiled move relations and P-sets of the automata method
with the families' own Python definitions.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nimproof.claims import Claim
from nimproof.errors import EvalError
from nimproof.expr import evaluate, parse
from nimproof.expr.to_ws1s import PRELUDE, NotExpressible, SetVar, compile_bool, const_set
from nimproof.provers import automata, mona, prepare
from nimproof.provers.moves import is_move

needs_mona = pytest.mark.skipif(not mona.available(), reason="mona is not installed")


def test_ci_has_mona() -> None:
    """CI installs MONA (make test does), so the tests below never skip there."""
    if os.environ.get("CI"):
        assert mona.available(), "CI must install mona (make mona)"


VARS = ("x", "y", "z")

_int_leaf = st.sampled_from(["x", "y", "z", "0", "1", "2", "3", "5", "12"])
_small = st.integers(1, 7).map(str)
_shift = st.integers(0, 3).map(str)


def _int_node(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        pair.map(lambda ab: f"({ab[0]} + {ab[1]})"),
        pair.map(lambda ab: f"({ab[0]} - {ab[1]})"),
        st.tuples(children, _small).map(lambda ac: f"({ac[0]} * {ac[1]})"),
        st.tuples(children, _small).map(lambda ac: f"({ac[0]} // {ac[1]})"),
        st.tuples(children, _small).map(lambda ac: f"({ac[0]} % {ac[1]})"),
        pair.map(lambda ab: f"({ab[0]} ^ {ab[1]})"),
        pair.map(lambda ab: f"({ab[0]} & {ab[1]})"),
        pair.map(lambda ab: f"({ab[0]} | {ab[1]})"),
        st.tuples(children, _shift).map(lambda ac: f"({ac[0]} >> {ac[1]})"),
        st.tuples(children, _shift).map(lambda ac: f"({ac[0]} << {ac[1]})"),
        pair.map(lambda ab: f"max({ab[0]}, {ab[1]})"),
        pair.map(lambda ab: f"min({ab[0]}, {ab[1]})"),
        st.tuples(children, _shift).map(lambda ac: f"bit({ac[0]}, {ac[1]})"),
        st.tuples(children, children, children, children).map(
            lambda t: f"({t[0]} if {t[1]} < {t[2]} else {t[3]})"
        ),
    )


INTS = st.recursive(_int_leaf, _int_node, max_leaves=5)
_CMP = st.sampled_from(["<", "<=", "==", "!=", ">", ">="])
ATOMS = st.tuples(INTS, _CMP, INTS).map(lambda t: f"{t[0]} {t[1]} {t[2]}")
CONDS = st.recursive(
    ATOMS,
    lambda c: st.one_of(
        c.map(lambda a: f"not ({a})"),
        st.tuples(c, c).map(lambda ab: f"({ab[0]}) and ({ab[1]})"),
        st.tuples(c, c).map(lambda ab: f"({ab[0]}) or ({ab[1]})"),
    ),
    max_leaves=3,
)
VALUES = st.one_of(
    st.integers(0, 3), st.integers(0, 63), st.integers(0, 4095), st.integers(2**40, 2**40 + 9)
)
POINTS = st.lists(st.tuples(VALUES, VALUES, VALUES), min_size=4, max_size=8)


def _pin(names: list[str], values: tuple[int, ...]) -> str:
    return " & ".join(f"{n} = {const_set(v)}" for n, v in zip(names, values, strict=True))


def _disagreements(text: str, points: list[tuple[int, ...]]) -> list[tuple[int, ...]] | None:
    """Points where the compiled formula and exact evaluation disagree (None: not in WS1S)."""
    node = parse(text, scalars=VARS, result="bool")
    names = ["V0", "V1", "V2"]
    try:
        c = compile_bool(node, {v: SetVar(n) for v, n in zip(VARS, names, strict=True)})
    except NotExpressible:
        return None
    cases = []
    for p in points:
        try:
            truth = bool(evaluate(node, dict(zip(VARS, p, strict=True))))
        except EvalError:
            cases.append((p, f"({_pin(names, p)}) => ~({c.guard})"))
            continue
        want = c.formula if truth else f"~({c.formula})"
        cases.append((p, f"({_pin(names, p)}) => (~({c.guard}) | {want})"))
    head = "ws1s;\n" + PRELUDE + "var2 V0, V1, V2;\n"
    answer = mona.run_text(head + " & ".join(f"({f})" for _, f in cases) + ";\n", 60)
    if answer.outcome == "valid":
        return []
    if answer.outcome not in ("counterexample", "unsatisfiable"):
        return None  # no verdict (timeout, automaton too large): not counted as agreement
    bad = []
    for p, f in cases:  # bisect: one case per run
        one = mona.run_text(head + f + ";\n", 60)
        if one.outcome in ("counterexample", "unsatisfiable"):
            bad.append(p)
    return bad


@needs_mona
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(CONDS, POINTS)
def test_compiled_formula_agrees_with_exact_evaluation(
    text: str, points: list[tuple[int, ...]]
) -> None:
    bad = _disagreements(text, points)
    assert not bad, (text, bad)


@needs_mona
@pytest.mark.parametrize(
    "text",
    [
        "x - 1 - y >= 0",
        "(x - y) ^ z == 3",
        "x % 7 == (y // 3) % 7",
        "(x * 5 + 3) // 4 == y",
        "max(x, y) - min(x, y) == x ^ y",
        "bit(x, 2) + bit(y, 0) == 1",
        "(x << 3) >> 1 == 4 * x",
        "(x - 3 if x > 2 else y) < z",
        "popcount(x) % 2 == bit(y, 0)",
        "popcount(x ^ (y + 1)) % 2 == 1",
        "(2 * x + 1 if popcount(x) % 2 == 0 else 2 * x) == z",
    ],
)
def test_hand_picked_formulas_agree_with_exact_evaluation(text: str) -> None:
    rng = random.Random(text)
    points = [(rng.randrange(64), rng.randrange(64), rng.randrange(64)) for _ in range(24)]
    points += [(0, 0, 0), (3, 0, 0), (2**40, 5, 2**41 + 1)]
    assert _disagreements(text, points) == []


def test_a_broken_translation_is_caught() -> None:
    """The harness has teeth: a formula compiled for the wrong operator disagrees."""
    if not mona.available():
        pytest.skip("mona is not installed")
    node = parse("x + y == z", scalars=VARS, result="bool")
    wrong = compile_bool(
        parse("(x ^ y) == z", scalars=VARS, result="bool"),
        {v: SetVar(n) for v, n in zip(VARS, ["V0", "V1", "V2"], strict=True)},
    )
    pin = _pin(["V0", "V1", "V2"], (1, 1, 2))
    assert bool(evaluate(node, {"x": 1, "y": 1, "z": 2}))
    text = "ws1s;\n" + PRELUDE + "var2 V0, V1, V2;\n" + f"({pin}) => {wrong.formula};\n"
    assert mona.run_text(text, 30).outcome == "counterexample"


@pytest.mark.parametrize(
    "text",
    ["x * y == 0", "(x >> y) == 0", "popcount(x) == 1", "bit_length(x) < 5", "x ** 2 == y"],
)
def test_outside_the_fragment_is_refused(text: str) -> None:
    node = parse(text, scalars=VARS, result="bool")
    with pytest.raises(NotExpressible, match="not expressible in WS1S"):
        compile_bool(node, {v: SetVar(v.upper()) for v in VARS})


def test_negative_indexes_follow_python() -> None:
    """``h[-1]`` is the last heap, as in Python; ``h[-4]`` of three heaps is out of range."""
    heaps = (SetVar("A"), SetVar("B"), SetVar("C"))

    def compiled(text: str) -> str:
        node = parse(text, sequences=["h"], result="bool")
        return compile_bool(node, {"h": heaps}).formula

    assert compiled("h[-1] ^ h[-3] == h[-2]") == compiled("h[2] ^ h[0] == h[1]")
    with pytest.raises(NotExpressible, match="index -4 is out of range"):
        compiled("h[-4] == 0")


@pytest.mark.parametrize("text", ["(x << 5000) >> 5000 == x", "(1 << 100000) > x"])
def test_shifts_the_language_leaves_undefined_are_refused(text: str) -> None:
    """A left shift by more than ``MAX_SHIFT`` is undefined numerically, so never compiled."""
    node = parse(text, scalars=VARS, result="bool")
    with pytest.raises(EvalError):
        evaluate(node, {"x": 1, "y": 0, "z": 0})
    with pytest.raises(NotExpressible, match="is undefined"):
        compile_bool(node, {v: SetVar(v.upper()) for v in VARS})


def test_formula_without_subtraction_needs_no_guard() -> None:
    node = parse("(x ^ y) % 5 < z // 3 + 2 * x", scalars=VARS, result="bool")
    assert compile_bool(node, {v: SetVar(v.upper()) for v in VARS}).guard == "true"


# ---------------------------------------------------------------------------
# vacuity guard: the compiled move relation and P-set against the Python definitions
# ---------------------------------------------------------------------------

FAMILIES = [
    ("nim", 2, "xor(h) == 0"),
    ("knim:3", 2, "h[0] % 4 == h[1] % 4"),
    ("subtraction:1,3,4", 1, "h[0] % 7 == 0 or h[0] % 7 == 2"),
    ("subtraction:2,5..7,11", 2, "h[0] < h[1]"),
    ("subtraction:multiples-of:3", 1, "h[0] < 3"),
    ("subtraction:all-but:1,2", 1, "h[0] < 3"),
    ("half-heap", 1, "(h[0] + 1) & h[0] == 0"),
    ("take-fraction:2/3", 1, "h[0] % 3 == 0"),
    ("rule:(n + 1)//2 <= m < n", 1, "h[0] % 2 == 1"),
    ("misere:nim", 3, "(xor(h) != 0) if all(x <= 1 for x in h) else (xor(h) == 0)"),
    ("moore:2", 3, "all(colsum(h, b) % 3 == 0 for b in bits)"),
    ("staircase", 3, "xor(h[::2]) == 0"),
    ("sum:nim+knim:2", 2, "h[0] == h[1] % 3"),
]


@needs_mona
@pytest.mark.parametrize(("game", "heaps", "predicate"), FAMILIES)
def test_compiled_moves_and_p_set_match_the_python_definitions(
    game: str, heaps: int, predicate: str
) -> None:
    ctx = prepare(
        Claim(
            id="vacuity",
            kind="p_positions",
            statement="",
            game=game,
            formula=predicate,
            heaps=heaps,
        )
    )
    plan = automata.plan(ctx)
    rng = random.Random(game)
    xs, ys = [f"X{i}" for i in range(heaps)], [f"Y{i}" for i in range(heaps)]
    cases = []
    moves_seen = 0
    for _ in range(60):
        p = tuple(rng.randrange(12) for _ in range(heaps))
        if rng.random() < 0.5 and sum(p):  # a real move half of the time
            from nimproof.provers.moves import fixed_moves

            options = fixed_moves(ctx.game, p)
            q = rng.choice(options) if options else p
        else:
            q = tuple(rng.randrange(12) for _ in range(heaps))
        legal = is_move(ctx.game, p, q)
        moves_seen += legal
        inter = ", ".join(f"{x}, {y}" for x, y in zip(xs, ys, strict=True))
        move = f"move({inter})"
        pin = f"{_pin(xs, p)} & {_pin(ys, q)}"
        cases.append(f"(({pin}) => {'' if legal else '~'}{move})")
        node = parse(predicate, sequences=("h",), result="bool")
        inside = bool(evaluate(node, {"h": p}))
        cases.append(f"(({_pin(xs, p)}) => {'' if inside else '~'}S({', '.join(xs)}))")
    assert moves_seen >= 10  # the sample exercises legal moves, not only illegal ones
    decl = f"var2 {', '.join(v for pair in zip(xs, ys, strict=True) for v in pair)};\n"
    answer = mona.run_text(plan.header + decl + " & ".join(cases) + ";\n", 60)
    assert answer.outcome == "valid", (game, answer)
