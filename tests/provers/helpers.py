"""Shared helpers for prover tests: build claims, re-check verdicts independently."""

from __future__ import annotations

from typing import Any

from nimproof.api import misere_check, misere_quotient
from nimproof.claims import Claim
from nimproof.engines import reference
from nimproof.expr import evaluate, parse
from nimproof.games import HeapGame, parse_spec
from nimproof.games.misere import Misere
from nimproof.games.sums import Sum
from nimproof.verdict import Verdict


def claim(
    kind: str, game: str | None, formula: str | None, checks: dict[str, dict[str, Any]], **kw: Any
) -> Claim:
    """A claim built in code (ids are unique per test via the formula text)."""
    cid = kw.pop("id", f"{kind}-{game}-{formula}-{sorted(checks)}".replace(" ", ""))
    return Claim(
        id=cid, kind=kind, statement=str(formula), game=game, formula=formula, checks=checks, **kw
    )


def true_value(game_spec: str, position: Any) -> int:
    """The reference value of a position: one heap (int) or several (tuple)."""
    game = parse_spec(game_spec)
    if isinstance(game, Sum):
        return reference.value(game, game.position(position))
    if isinstance(game, HeapGame) and isinstance(position, int):
        return reference.heap_table(game, position)[position]
    if isinstance(game, HeapGame) and len(position) == 1:
        n = int(position[0])
        return reference.heap_table(game, n)[n]
    if isinstance(game, Misere) and isinstance(position, int):
        return reference.value(game, position)
    return reference.value(game, tuple(position))


def assert_refutation_holds(c: Claim, verdict: Verdict) -> None:
    """Re-check a refutation without the verifier: the claim really is false at the counterexample.

    For a value/outcome counterexample, the reference value at the position
    contradicts the formula. For a condition-1 counterexample, the move is
    legal by the reference move generator and the claim gives both ends the
    same value (or calls both P), which no Grundy function allows.
    """
    assert verdict.status == "refuted", verdict
    cx = verdict.counterexample
    assert cx is not None and cx.rechecked
    if c.kind == "identity":
        env = {**c.params, **cx.position}
        node = parse(c.formula or "", scalars=tuple(env), result="bool")
        try:
            assert not evaluate(node, env)
        except Exception as exc:  # undefined is false too
            assert "EvalError" in type(exc).__name__
        return
    if c.kind == "misere_quotient":
        _assert_quotient_figure_wrong(c, cx.claimed, cx.actual)
        return
    if c.kind == "periodic":
        game = parse_spec(c.game or "")
        assert isinstance(game, HeapGame)
        table = reference.heap_table(game, (c.preperiod or 0) + 3 * (c.period or 1) + 200)
        p, n0, s = c.period or 1, c.preperiod or 0, c.saltus
        holds = all(table[n + p] == table[n] + s for n in range(n0, len(table) - p))
        least_pre = n0 == 0 or table[n0 - 1 + p] != table[n0 - 1] + s
        least_per = not any(
            p % d == 0
            and (s * d) % p == 0
            and all(table[n + d] == table[n] + s * d // p for n in range(n0, len(table) - d))
            for d in range(1, p)
        )
        assert not (holds and (not c.least or (least_pre and least_per)))
        return
    if cx.condition == "outcome":
        _assert_loopy_outcome(c, tuple(cx.position))
        return
    one_heap = isinstance(cx.position, int)
    scalars = ("n", *c.params) if one_heap else tuple(c.params)
    node = parse(c.formula or "", scalars=scalars, sequences=() if one_heap else ("h",))

    def f(pos: Any) -> Any:
        env: dict[str, Any] = dict(c.params)
        env["n" if one_heap else "h"] = pos
        return evaluate(node, env)

    if cx.condition == "condition-1":
        game = parse_spec(c.game or "")
        start = cx.position if one_heap else tuple(cx.position)
        target = cx.move if one_heap else tuple(cx.move)
        options = list(game.moves(start))
        from nimproof.games import canonical_heaps

        if one_heap:
            assert canonical_heaps((target,)) in options
        else:
            assert canonical_heaps(target) in options or target in options
        if c.kind == "p_positions":
            assert f(start) and f(target)
        else:
            assert f(start) == f(target)
        return
    if cx.condition == "undefined":
        try:
            f(cx.position)
        except Exception:
            return
        raise AssertionError("formula defined at the 'undefined' counterexample")
    if cx.condition in ("condition-2", "terminal"):
        # The local conditions fail at the position: its claimed value is not the mex of
        # its options' claimed values (or, for P-sets, a claimed N-position has no move
        # into the claimed P-set), which no Grundy function allows.
        game = parse_spec(c.game or "")
        start = cx.position if one_heap else tuple(cx.position)
        here = f(start)
        if one_heap:
            assert isinstance(game, HeapGame)
            seen = set()
            for parts in game.options(start):
                v = 0
                for part in parts:
                    v ^= f(part)
                seen.add(v)
        else:
            seen = {f(q) if c.kind != "p_positions" else bool(f(q)) for q in _ordered(game, start)}
        if c.kind == "p_positions":
            if game.misere and not seen:
                assert here
            else:
                assert not here and True not in seen
        elif game.misere and not seen:
            assert here != 1
        else:
            mex = 0
            while mex in seen:
                mex += 1
            assert here != mex
        return
    actual = true_value(c.game or "", cx.position)
    claimed = f(cx.position)
    if c.kind == "p_positions":
        assert bool(claimed) != (actual == 0)
    else:
        assert claimed != actual


def _assert_loopy_outcome(c: Claim, pos: tuple[int, ...]) -> None:
    """A loopy game's counterexample: the claim (P = a loss for the mover, otherwise a win) is
    wrong at ``pos`` by the plain fixed point over every position reachable from it."""
    from nimproof.engines.loopy import closure, fixpoint

    game = parse_spec(c.game or "")
    outcome = fixpoint(closure(game, [pos]))[pos]
    says_p = bool(evaluate(parse(c.formula or "", sequences=("h",)), {**c.params, "h": pos}))
    assert outcome == "draw" or says_p != (outcome == "loss"), (pos, outcome)


def _ordered(game: Any, p: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The moves of a multi-heap position with heap ``i`` kept at index ``i``."""
    base = game.base if game.misere and hasattr(game, "base") else game
    if isinstance(base, HeapGame):
        out = []
        for i, a in enumerate(p):
            for parts in base.options(a):
                assert len(parts) <= 1, "a split changes the number of heaps"
                out.append((*p[:i], parts[0] if parts else 0, *p[i + 1 :]))
        return out
    return [tuple(q) for q in base.moves(p)]


def _assert_quotient_figure_wrong(c: Claim, claimed: Any, actual: Any) -> None:
    """The quotient, proved for every heap and agreeing with brute-force misère outcomes of
    every sum of up to three heaps of total <= 20, has a figure the claim gets wrong."""
    q = misere_quotient(parse_spec(c.game or "").normal.spec, 400)
    assert q.proved_all
    compared, disagreements = misere_check(q, max_heaps=3, max_total=20)
    assert compared > 0 and not disagreements
    assert claimed != actual
    if (claimed, actual) in ((c.order, q.order), (c.p_portion, len(q.monoid.p))):
        return
    # A wrong heap-map period: some heap n >= start maps elsewhere than heap n + period.
    start = c.preperiod or 0
    assert c.period is not None and tuple(claimed) == (c.period, start)
    assert any(q.element(n + c.period) != q.element(n) for n in range(start, start + 400))
