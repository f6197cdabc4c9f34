"""Grundy claims of one-heap rules that leave several heaps, proved for every heap with MONA.

For a rule described by :class:`~nimproof.games.base.PartMoves` (Lasker's
Nim, Ruler, Mock Turtles) a move turns a heap of ``n`` into heaps
``a1, ..., ak``; by Sprague–Grundy the value of what is left is
``g(a1) xor ... xor g(ak)``. For a claimed value function ``G`` (a formula in
``n``) the obligations are, over every heap ``N`` (numbers as finite sets of
bit positions, as in :mod:`nimproof.expr.to_ws1s`):

* (wf) every part of every move is smaller than ``N``;
* (g1) no option value ``G(a1) xor ... xor G(ak)`` equals ``G(N)``;
* (g2) every ``V < G(N)`` is such an option value.

By strong induction on ``n`` (assume ``G = g`` below ``n``; by (wf) the parts
are below ``n``, so the option values are exactly those of ``G``), (g1) and
(g2) give ``G(n) = mex = g(n)`` for every ``n``: a proof for all heaps, and
through Sprague–Grundy for every sum of heaps.

A *run* move (Ruler: the heaps ``j + 1, ..., n - 1``) has the value
``Pre(n - 1) xor Pre(j)`` where ``Pre(m) = G(1) xor ... xor G(m)``, which WS1S
cannot fold. The claim names a candidate ``Pre`` as the option
``prefix_xor`` (a formula in ``m``); two more obligations prove it is the
prefix xor (``Pre(0) = 0``, ``Pre(m) = Pre(m - 1) xor G(m)`` for ``m >= 1``).
A wrong candidate makes an obligation fail, which is never a refutation.

A failed obligation is only a hint: the method then computes the reference
table (the family's own moves, :func:`nimproof.engines.reference.heap_table`)
up to the failing heap and refutes only with a heap where the claimed value
and the reference differ.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import singledispatch
from typing import Any

from nimproof.certificates import parts as certificate_parts
from nimproof.engines.reference import heap_table
from nimproof.errors import EvalError
from nimproof.expr import parse
from nimproof.expr.evaluate import evaluate
from nimproof.expr.to_ws1s import PRELUDE, NotExpressible, SetVar, compile_bool, compile_equals
from nimproof.games.base import Game, MoveDescription, PartMoves
from nimproof.provers import mona, settle
from nimproof.provers.context import ClaimContext
from nimproof.verdict import MethodResult, Scope

#: A failing obligation's heap is re-checked by the reference up to this heap.
RECHECK_LIMIT = 400


def part_moves(game: Game | None) -> PartMoves | None:
    """The :class:`PartMoves` description of ``game`` (normal play), or None."""
    if game is None or game.misere:
        return None
    return _part_moves(game.moves_spec)


@singledispatch
def _part_moves(spec: MoveDescription) -> PartMoves | None:
    return None


@_part_moves.register
def _(spec: PartMoves) -> PartMoves:
    return spec


def _xor(out: str, ins: list[str]) -> str:
    """MONA: ``out`` is the bitwise xor of ``ins`` (the empty xor is 0)."""
    if not ins:
        return f"empty({out})"
    par = f"(p in {ins[0]})"
    for x in ins[1:]:
        par = f"~({par} <=> (p in {x}))"
    return f"(all1 p: (p in {out}) <=> {par})"


def obligations(
    ctx: ClaimContext, spec: PartMoves, options: Mapping[str, Any]
) -> tuple[str, list[tuple[str, str]]]:
    """The header (prelude, ``G``, one ``S<i>`` per shape, ``Pre`` for runs, ``Opt``) and the
    obligations (name, body after the header) that prove ``ctx``'s Grundy claim for every heap."""
    assert ctx.formula is not None
    env: dict[str, object] = dict(ctx.params)
    g = compile_equals(ctx.formula, SetVar("V"), {**env, "n": SetVar("N")})
    header = "ws1s;\n" + PRELUDE + f"pred G(var2 N, var2 V) = {g.formula};\n"
    files: list[tuple[str, str]] = []
    if g.guard != "true":
        header += f"pred GG(var2 N, var2 V) = {g.guard};\n"
        files.append(("guard", "var2 N, V;\nGG(N, V);\n"))
    cases = []
    for i, (k, text) in enumerate(spec.shapes):
        parts = [f"A{j}" for j in range(1, k + 1)]
        names = {f"a{j}": SetVar(f"A{j}") for j in range(1, k + 1)}
        rel = compile_bool(
            parse(text, scalars=("n", *names), result="bool"), {**env, "n": SetVar("N"), **names}
        )
        params = ", ".join(f"var2 {v}" for v in ["N", *parts])
        header += f"pred S{i}({params}) = {rel.formula};\n"
        decl = f"var2 {', '.join(['N', *parts])};\n"
        if rel.guard != "true":
            files.append((f"rule-guard {i}", decl + f"{rel.guard};\n"))
        if parts:
            smaller = " & ".join(f"lt({a}, N)" for a in parts)
            files.append((f"wf {i}", decl + f"S{i}(N, {', '.join(parts)}) => ({smaller});\n"))
        ws = [f"W{j}" for j in range(1, k + 1)]
        bound = ", ".join(parts + ws)
        body = " & ".join(
            [
                f"S{i}({', '.join(['N', *parts])})",
                *(f"G({a}, {w})" for a, w in zip(parts, ws, strict=True)),
                _xor("V", ws),
            ]
        )
        cases.append(f"(ex2 {bound}: {body})" if bound else f"({body})")
    if spec.runs:
        header, more = _runs(ctx, header, env, options)
        files += more
        cases.append(
            "(ex2 J, K, P1, P2: lt(J, N) & plus(K, {0}, N) & Pre(K, P1) & Pre(J, P2) & "
            + _xor("V", ["P1", "P2"])
            + ")"
        )
    header += "pred Opt(var2 N, var2 V) = " + ("\n  | ".join(cases) or "false") + ";\n"
    files.append(("g1", "var2 N, V;\nG(N, V) => ~Opt(N, V);\n"))
    files.append(("g2", "var2 N, V, W;\nG(N, W) & lt(V, W) => Opt(N, V);\n"))
    return header, files


def _runs(
    ctx: ClaimContext, header: str, env: dict[str, object], options: Mapping[str, Any]
) -> tuple[str, list[tuple[str, str]]]:
    hint = options.get("prefix_xor")
    if not isinstance(hint, str):
        raise NotExpressible(
            "a run move needs the prefix xor of the claimed values as the option "
            "prefix_xor (a formula in m)"
        )
    pre = compile_equals(parse(hint, scalars=("m",)), SetVar("V"), {**env, "m": SetVar("M")})
    header += f"pred Pre(var2 M, var2 V) = {pre.formula};\n"
    files = []
    if pre.guard != "true":
        header += f"pred PreG(var2 M, var2 V) = {pre.guard};\n"
        files.append(("prefix guard", "var2 M, V;\nPreG(M, V);\n"))
    files.append(("prefix 0", "var2 M, V;\nempty(M) & Pre(M, V) => empty(V);\n"))
    files.append(
        (
            "prefix step",
            "var2 M, K, P1, P0, W;\n~empty(M) & plus(K, {0}, M) & Pre(M, P1) & Pre(K, P0) & G(M, W)"
            f" => {_xor('P1', ['P0', 'W'])};\n",
        )
    )
    return header, files


def run(ctx: ClaimContext, spec: PartMoves, options: Mapping[str, Any], name: str) -> MethodResult:
    """Prove, refute (with a reference-checked heap) or leave unknown a one-heap Grundy claim."""
    t0 = time.monotonic()
    stats: dict[str, Any] = {"heaps": 1, "mona_runs": 0, "mona_seconds": 0.0}
    if not ctx.spec.states_values or not ctx.one_heap:
        return MethodResult(name, "unknown", detail="only one-heap Grundy claims of this family")
    try:
        header, files = obligations(ctx, spec, options)
    except (NotExpressible, EvalError) as exc:
        return MethodResult(name, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    timeout = float(options.get("timeout", 60.0))
    memory = int(options.get("memory_mb", mona.DEFAULT_MEMORY_MB))
    ran = mona.run_obligations(
        [(ob, header + text) for ob, text in files], timeout, memory, ctx.time_left
    )
    ran.record(stats)
    ob, answer, done = ran.failed, ran.answer, ran.done
    if ob is not None and answer is None:
        return _unknown(name, f"out of time before obligation {ob}", t0, stats)
    if ob is not None and answer is not None:
        if answer.outcome in ("counterexample", "unsatisfiable"):
            return _settle(ctx, name, ob, answer.assignment.get("N", RECHECK_LIMIT), t0, stats)
        return _unknown(
            name, f"obligation {ob}: MONA {answer.outcome} ({answer.message})", t0, stats
        )
    stats["obligations"] = done
    detail = f"WS1S obligations {', '.join(done)} valid (MONA), every heap size"
    part = certificate_parts.ws1s_parts(
        [k for k, _ in spec.shapes], spec.runs, header, [(ob, text, "valid") for ob, text in files]
    )
    return MethodResult(
        name,
        "proved",
        Scope("all", measure="heap"),
        detail,
        time.monotonic() - t0,
        stats=stats,
        certificate=part,
    )


def _settle(
    ctx: ClaimContext, name: str, ob: str, at: int, t0: float, stats: dict[str, Any]
) -> MethodResult:
    """Look for the claim's first wrong heap up to the failing one with the reference."""
    game = ctx.heap_game
    assert game is not None and ctx.formula is not None
    top = min(at, RECHECK_LIMIT)
    table = heap_table(game, top)
    for n, true in enumerate(table):
        try:
            claimed = evaluate(ctx.formula, {**ctx.params, "n": n})
        except EvalError:
            claimed = None
        if claimed != true:
            text = f"the claim gives {claimed} at heap {n}, the reference implementation {true}"
            cx = settle.heap_counterexample(ctx, n) or settle.candidate(
                n, "value", text, claimed, true
            )
            return MethodResult(
                name,
                "refuted",
                detail=f"obligation {ob} fails; heap {n} re-checked by the reference",
                seconds=time.monotonic() - t0,
                counterexample=cx,
                stats=stats,
            )
    return _unknown(
        name,
        f"obligation {ob} fails near heap {at}, but the claim agrees with the reference "
        f"up to heap {top}",
        t0,
        stats,
    )


def _unknown(name: str, detail: str, t0: float, stats: dict[str, Any]) -> MethodResult:
    return MethodResult(name, "unknown", detail=detail, seconds=time.monotonic() - t0, stats=stats)
