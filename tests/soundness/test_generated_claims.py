"""The generated soundness suite: no false claim is proved where it is wrong.

Every case of :mod:`tests.soundness.generate` is run through each proof
method that applies to it, one at a time, as :func:`verify_claim` runs a
claim that names that method (the all-positions ``automata`` method runs
first wherever it applies, as it does for every user's claim). The verdict
is judged with the independent truth reference (never with nimproof's
engines):

* ``proved`` never (the claim is false on its domain);
* ``checked``: no method saw a counterexample, and the region does not
  contain the position where the truth reference says the claim is wrong;
* ``refuted``: the counterexample is re-checked and really shows the claim
  wrong (the value there, a move joining equal values, a mex that fails, an
  undefined formula, a broken period);
* ``unknown`` is allowed.

``make test`` runs a fixed sample (one case of each kind of change for each
kind of claim); ``make test-all`` runs every case.
"""

from __future__ import annotations

from typing import Any

import pytest

from nimproof.provers import verify_claim
from nimproof.verdict import Counterexample, Scope, Verdict
from tests.soundness import truth
from tests.soundness.generate import SoundCase, false_claims, python_value, sample

ALL = false_claims()
FAST = sample(24)


def _runs(cases: list[SoundCase], one_method: bool) -> list[Any]:
    out = []
    for i, case in enumerate(cases):
        methods = sorted(case.options)
        if one_method:  # rotate through the methods so that the sample covers each
            methods = [methods[i % len(methods)]]
        out += [pytest.param(case, m, id=f"{m}:{case.id}") for m in methods]
    return out


def test_suite_is_large_and_covers_every_kind_of_change() -> None:
    assert len(ALL) >= 500
    wheres = {c.where for c in ALL}
    assert {"everywhere", "near", "far", "beyond-2^32", "beyond-2^64"} <= wheres
    kinds = {c.claim.kind for c in ALL}
    assert kinds == {"grundy", "p_positions", "identity", "periodic", "value", "sequence"}
    methods = {m for c in ALL for m in c.options}
    assert methods == {
        "exhaustive",
        "z3_bitvec",
        "z3_int",
        "hypothesis",
        "periodicity",
        "reference",
    }
    assert len({c.id for c in ALL}) == len(ALL)


@pytest.mark.parametrize(("case", "method"), _runs(FAST, one_method=True))
def test_sample_of_false_claims(case: SoundCase, method: str) -> None:
    judge(case, verify_claim(case.with_checks(method), timeout=60))


@pytest.mark.parametrize("case", FAST, ids=[c.id for c in FAST])
def test_sample_of_false_claims_with_default_options(case: SoundCase) -> None:
    """As a user runs a claim: no checks named, every default method."""
    judge(case, verify_claim(case.claim, timeout=30))


@pytest.mark.slow
@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_every_false_claim_with_default_options(case: SoundCase) -> None:
    judge(case, verify_claim(case.claim, timeout=30))


@pytest.mark.slow
@pytest.mark.parametrize(("case", "method"), _runs(ALL, one_method=False))
def test_every_false_claim(case: SoundCase, method: str, record_property: Any) -> None:
    verdict = verify_claim(case.with_checks(method), timeout=60)
    # For the suite's tally (``--junitxml``): what each run ended as.
    record_property("status", verdict.status)
    record_property("scope", verdict.scope.kind if verdict.status == "checked" else "")
    record_property("where", case.where)
    judge(case, verdict)


def judge(case: SoundCase, verdict: Verdict) -> None:
    """Fail if the verdict proves the claim where it is wrong or refutes it wrongly."""
    seen = [m for m in verdict.methods if m.counterexample is not None]
    assert verdict.status != "proved", f"a false claim proved: {verdict}"
    if verdict.status == "checked":
        assert not seen, f"checked although a method saw a counterexample: {verdict}"
        assert not covers(verdict.scope, case), f"checked over {case.wrong!r}: {verdict}"
    elif verdict.status == "refuted":
        cx = verdict.counterexample
        assert cx is not None and cx.rechecked, verdict
        assert really_wrong(case, cx), f"wrong refutation: {cx}"
    else:
        assert verdict.counterexample is None or not verdict.counterexample.rechecked


def covers(scope: Scope, case: SoundCase) -> bool:
    """Whether ``scope`` contains the position where the claim is wrong."""
    if scope.kind == "all" or scope.measure == "listed":
        return True
    wrong = case.wrong
    if case.claim.kind == "periodic":
        return not isinstance(wrong, int) or scope.kind == "all" or wrong <= (scope.bound or 0)
    if isinstance(wrong, dict):
        size = max(wrong.values())
    elif isinstance(wrong, tuple):
        size = sum(wrong) if scope.measure == "total" else max(wrong)
    else:
        size = int(wrong)
    if scope.kind == "width":
        return size < 2 ** (scope.width or 0)
    if scope.kind == "bound":
        return size <= (scope.bound or 0)
    return False


def really_wrong(case: SoundCase, cx: Counterexample) -> bool:
    """The independent judgement of one counterexample."""
    c = case.claim
    if c.kind == "identity":
        return _fails(lambda: not python_value(c.formula or "", dict(cx.position)))
    if c.kind == "periodic":
        return _period_wrong(case, cx)
    if c.kind == "value":
        return _value_wrong(case, cx)
    if c.kind == "sequence":
        n = int(cx.position)
        return truth.heap_value(c.game or "", n) != c.values[n - c.offset]
    if c.kind == "grundy":
        return _grundy_wrong(case, cx)
    return _p_wrong(case, cx)


def _fails(test: Any) -> bool:
    try:
        return bool(test())
    except (ValueError, ZeroDivisionError, IndexError, OverflowError):
        return True  # undefined counts as false


def _grundy_wrong(case: SoundCase, cx: Counterexample) -> bool:
    game, formula = case.claim.game or "", case.claim.formula or ""
    n = int(cx.position)

    def f(x: int) -> int:
        return int(python_value(formula, {"n": x}))

    if cx.condition == "undefined":
        return _fails(lambda: f(n) is None)
    misere = game.startswith("misere:")

    def true(x: int) -> int:
        return truth.misere_nim_heap(x) if misere else truth.heap_value(game, x)

    if cx.condition == "value":
        return f(n) != true(n)
    if cx.condition == "condition-1":
        m = int(cx.move)
        return truth.legal_heap_move(game, n, m) and f(m) == f(n)
    if n > 100_000:  # too many options to list: the claim must be wrong here or at an option
        k = case.wrong
        return f(n) != true(n) or (truth.legal_heap_move(game, n, k) and f(k) != true(k))
    options = list(truth.FAMILIES[game.removeprefix("misere:")](n))
    values = set()
    for parts in options:
        v = 0
        for a in parts or (0,):
            v ^= f(a)
        values.add(v)
    if misere and not options:
        return f(n) != 1
    return f(n) != truth.mex(values)


def _p_wrong(case: SoundCase, cx: Counterexample) -> bool:
    game, formula = case.claim.game or "", case.claim.formula or ""
    pos = tuple(int(x) for x in cx.position)

    def p(h: tuple[int, ...]) -> bool:
        return bool(python_value(formula, {"h": h}))

    if cx.condition == "undefined":
        return _fails(lambda: p(pos) is None)
    if cx.condition == "value":
        return p(pos) != truth.is_p(game, pos)
    if cx.condition == "condition-1":
        q = tuple(int(x) for x in cx.move)
        return truth.legal_multi_move(game, pos, q) and p(pos) and p(q)
    if p(pos) != truth.is_p(game, pos):
        return True
    wins = truth.winning_moves(game, pos)
    if wins is not None:  # an N-position the claim calls N: wrong at a move to a P-position?
        return not p(pos) and any(not p(q) for q in wins)
    if max(pos) > 3000:  # too many moves to list: the claim must be wrong here or one move below
        k = tuple(case.wrong)
        return p(pos) != truth.is_p(game, pos) or (
            truth.legal_multi_move(game, pos, k) and p(k) != truth.is_p(game, k)
        )
    moves = list(truth.multi_moves(game, pos))
    if game.startswith("misere:") and not moves:
        return p(pos)
    return not p(pos) and not any(p(q) for q in moves)


def _period_wrong(case: SoundCase, cx: Counterexample) -> bool:
    c = case.claim
    if cx.condition.startswith("least-"):
        return c.least and isinstance(case.wrong, tuple)
    m, p = int(cx.position), c.period or 1
    return truth.heap_value(c.game or "", m) != truth.heap_value(c.game or "", m - p) + c.saltus


def _value_wrong(case: SoundCase, cx: Counterexample) -> bool:
    c = case.claim
    i = [tuple(p) if isinstance(p, list | tuple) else p for p in c.positions].index(
        tuple(cx.position) if isinstance(cx.position, list | tuple) else cx.position
    )
    pos = c.positions[i]
    heaps = pos if isinstance(pos, tuple) else (pos,)
    true = 0
    for x in heaps:
        true ^= truth.heap_value(c.game or "", x)
    if cx.condition == "value":
        return true != c.values[i]
    listed = {tuple(sorted(x for x in m if x)) for m in c.winning_moves[i]}
    winning = {
        tuple(sorted(x for x in q if x))
        for q in truth.multi_moves(c.game or "", heaps)
        if truth.is_p("nim", q)
    }
    return listed != winning
