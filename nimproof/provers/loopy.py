"""P-position claims of loopy games: exact outcomes on small boards, and a strategy proof for all.

A loopy game (:attr:`~nimproof.games.base.MoveDescription.loopy`, e.g.
Northcott's game) has outcomes, not Grundy values. For such a game a
``p_positions`` claim with predicate ``S`` says: **where ``S`` holds the
player to move loses, and where it fails the player to move wins; either way
in finitely many moves whatever the loser does** (so no position is a draw).

Two parts, both from the game's own definition:

1. **Exact outcomes** (:mod:`nimproof.engines.loopy`): every position whose
   numbers sum to at most ``max_total``, with everything reachable from it, is
   solved by retrograde analysis (win / loss / draw) over the family's own
   moves, and compared with the claim. A disagreement is re-checked by the
   plain fixed-point computation before it is reported.
2. **For every position** (MONA, WS1S; numbers as finite sets of bit
   positions): with the move relation ``M`` of the description (a formula in
   ``h`` before and ``k`` after) and a ranking ``rank`` given as the claim's
   option (a list of formulas in ``h``, compared lexicographically), two
   obligations:

   * (win) ``not S(X)`` implies some move ``M(X, Y)`` with ``S(Y)``;
   * (answer) ``S(X)`` and ``M(X, Y)`` imply some move ``M(Y, Z)`` with ``S(Z)``
     and ``rank(Z) < rank(X)``.

   **Why this proves the claim.** By well-founded induction on ``rank`` (a
   tuple of natural numbers, ordered lexicographically) every position ``X``
   with ``S(X)`` is a loss for the mover in finitely many moves: with no move
   the mover has lost; otherwise each move ``X -> Y`` has the answer
   ``Y -> Z`` of (answer), ``Z`` is again in ``S`` and of smaller rank, so a
   loss for the mover by induction. Then by (win) every position outside
   ``S`` has a move into ``S``: a win in finitely many moves. So ``S`` is
   exactly the set of losses and there are no draws.

An optional ``answer`` hint (the claim's option, else the family's) names the
winner's answer ``Z`` as formulas in ``x`` (= ``X``) and ``h`` (= ``Y``); it is
one more conjunct inside the ``ex Z`` of (answer), so it narrows MONA's search
but cannot make a false obligation valid.

A proof for every position attaches a ``loopy`` certificate part (the claimed
set, the rank, the hint, the header and both obligations as MONA read them,
with MONA's answers; ``docs/certificates.md``), which the independent checker
re-checks with its own moves, WS1S encoding, obligations and outcomes.

A failing obligation is never a refutation by itself (a wrong ``rank`` or
``answer`` fails too): the position MONA names is solved exactly when it is small enough and
refutes only where the claim is wrong there; otherwise the method keeps the
bounded scope of part 1.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
import time
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple, TypedDict

from nimproof.certificates import parts as certificate_parts
from nimproof.engines.loopy import Outcome, closure, fixpoint, retrograde
from nimproof.errors import EvalError, UsageError
from nimproof.expr import parse
from nimproof.expr.evaluate import evaluate
from nimproof.expr.to_ws1s import PRELUDE, NotExpressible, SetVar, compile_bool, compile_equals
from nimproof.provers import deadline, mona
from nimproof.provers.context import ClaimContext
from nimproof.verdict import Counterexample, MethodResult, Scope

NAME = "loopy"
#: Most positions (start positions and those reachable from them) solved exactly.
DEFAULT_POSITIONS = 60_000
DEFAULT_TIMEOUT = 120.0
#: A position MONA names is solved exactly when its numbers sum to at most this.
CONFIRM_TOTAL = 40
RECHECK = "plain fixed-point outcome computation over the family's own moves"


class Options(TypedDict, total=False):
    """``max_total``: solve every position whose numbers sum to at most this (default: the
    largest within ``max_positions``); ``rank``: formulas in ``h`` ordered lexicographically
    (needed for the all-positions proof); ``answer``: the winner's answer as one formula
    per number, in ``x`` (before the loser's move) and ``h`` (after it), a hint that narrows
    MONA's search (optional); ``timeout``: seconds per MONA obligation;
    ``memory_mb``: MONA's memory limit."""

    max_total: int
    max_positions: int
    rank: list[str | list[str]]
    answer: list[str]
    timeout: float
    memory_mb: int


def applies(ctx: ClaimContext) -> bool:
    """A P-position claim about a loopy game."""
    return ctx.spec.states_p_positions and ctx.game is not None and ctx.game.moves_spec.loopy


def run(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Refute with a re-checked position, prove for every position, or say what was checked."""
    t0 = time.monotonic()
    if not applies(ctx):
        return MethodResult(NAME, "unknown", detail="applies to P-position claims of loopy games")
    assert ctx.game is not None and ctx.heaps is not None and ctx.formula is not None
    try:
        total = _max_total(ctx.heaps, options)
        cx, solved = _exhaustive(ctx, total)
    except (UsageError, EvalError) as exc:
        return MethodResult(NAME, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    stats: dict[str, Any] = {"max_total": total, "positions_solved": solved}
    if cx is not None:
        detail = f"exact outcomes of every position of total <= {total}: {cx.explanation}"
        return _result("refuted", detail, t0, stats, counterexample=cx)
    bounded = Scope("bound", bound=total, measure="total", heaps=ctx.heaps)
    checked = (
        f"every position of total <= {total} and all {solved:,} positions reachable from them "
        "solved exactly (retrograde analysis): losses exactly where the claim holds, no draws"
    )
    rank = options.get("rank") or [list(lv) for lv in getattr(ctx.game.moves_spec, "rank", ())]
    if not rank:
        why = "; no 'rank' option (nor one from the family), so no proof for all"
        return _result("proved", checked + why, t0, stats, bounded)
    if not mona.available():
        return _result("proved", f"{checked}; {mona.MISSING}", t0, stats, bounded)
    family_answer = list(getattr(ctx.game.moves_spec, "answer", ()))
    answer = options.get("answer", family_answer)
    hint = [str(a) for a in answer]
    try:
        header, files = written(ctx, list(rank), hint)
    except (NotExpressible, UsageError) as exc:
        return _result("proved", f"{checked}; {exc}", t0, stats, bounded)
    proof = _Proof(header, files, _levels(rank), hint)
    return _prove(ctx, proof, options, (checked, bounded), t0, stats)


class _Proof(NamedTuple):
    """The all-positions proof as written: the header, the obligation files (name, body after
    the header), the rank's levels and the answer hint (for the certificate)."""

    header: str
    files: list[tuple[str, str]]
    rank: list[list[str]]
    answer: list[str]


def _levels(rank: list[Any]) -> list[list[str]]:
    return [[str(level)] if isinstance(level, str) else [str(t) for t in level] for level in rank]


def _result(
    status: Any,
    detail: str,
    t0: float,
    stats: dict[str, Any],
    scope: Scope | None = None,
    counterexample: Counterexample | None = None,
) -> MethodResult:
    return MethodResult(
        NAME,
        status,
        scope or Scope("none"),
        detail,
        time.monotonic() - t0,
        counterexample=counterexample,
        stats=stats,
    )


def _max_total(heaps: int, options: Mapping[str, Any]) -> int:
    """The largest total whose positions (``C(total + heaps, heaps)`` of them) fit the budget."""
    if "max_total" in options:
        return int(options["max_total"])
    budget = int(options.get("max_positions", DEFAULT_POSITIONS))
    total = 0
    while math.comb(total + 1 + heaps, heaps) <= budget:
        total += 1
    return total


def _positions(heaps: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``heaps`` natural numbers with sum at most ``total``, smallest sums first."""
    for s in range(total + 1):
        for cut in itertools.combinations(range(s + heaps - 1), heaps - 1):
            edges = (-1, *cut, s + heaps - 1)
            yield tuple(edges[i + 1] - edges[i] - 1 for i in range(heaps))


def _claimed(ctx: ClaimContext, position: tuple[int, ...]) -> bool:
    assert ctx.formula is not None
    return bool(evaluate(ctx.formula, {**ctx.params, "h": position}))


def _wrong(claimed: bool, outcome: Outcome) -> bool:
    return outcome == "draw" or claimed != (outcome == "loss")


def _exhaustive(ctx: ClaimContext, total: int) -> tuple[Counterexample | None, int]:
    """The first position of total <= ``total`` where the claim is wrong (re-checked), and how
    many positions were solved."""
    assert ctx.game is not None and ctx.heaps is not None
    starts = list(_positions(ctx.heaps, total))
    check = lambda: deadline.check(ctx.deadline, "solving the loopy game")  # noqa: E731
    graph = closure(ctx.game, starts, check=check)
    labels = retrograde(graph)
    for pos in starts:
        claimed = _claimed(ctx, pos)
        if _wrong(claimed, labels[pos]):
            return _confirm(ctx, pos, claimed, labels[pos]), len(graph)
    return None, len(graph)


def _confirm(
    ctx: ClaimContext, pos: tuple[int, ...], claimed: bool, found: Outcome
) -> Counterexample:
    """The counterexample retrograde analysis found at ``pos``, confirmed by the plain
    fixed point (:func:`outcome_counterexample`); a disagreement is an internal error."""
    cx = outcome_counterexample(ctx, pos)
    if cx is None or cx.actual != found:
        raise RuntimeError(f"retrograde analysis and the fixed point disagree at {pos}")
    return cx


def outcome_counterexample(ctx: ClaimContext, pos: tuple[int, ...]) -> Counterexample | None:
    """The counterexample at ``pos`` when the claim is wrong there, else None (a candidate:
    :func:`nimproof.provers.settle.confirm` marks it confirmed by :data:`RECHECK`).

    The outcome comes from the plain fixed point over every position reachable
    from ``pos`` (the family's own moves, no predecessor lists or counters), never
    from retrograde analysis; the claim is evaluated exactly.
    """
    assert ctx.game is not None
    graph = closure(ctx.game, [pos])
    labels = fixpoint(graph)
    actual = labels[pos]
    claimed = _claimed(ctx, pos)
    if not _wrong(claimed, actual):
        return None
    says = "a P-position (a loss for the mover)" if claimed else "a win for the mover"
    truth = {"loss": "a loss", "win": "a win", "draw": "a draw (neither player can force a win)"}
    text = f"At {pos} the claim says {says}, but the exact outcome is {truth[actual]}"
    move = next((q for q in graph[pos] if labels[q] == "loss"), None)
    if move is not None:
        text += f"; winning move: to {move}"
    return Counterexample(pos, "outcome", text + ".", claimed, actual, move)


def obligations(
    ctx: ClaimContext, rank: list[Any], answer: list[str] | None = None
) -> list[tuple[str, str]]:
    """The MONA files (name, text) of the all-positions proof (see the module docstring)."""
    header, files = written(ctx, rank, answer)
    return [(name, header + body) for name, body in files]


def written(
    ctx: ClaimContext, rank: list[Any], answer: list[str] | None = None
) -> tuple[str, list[tuple[str, str]]]:
    """The header (prelude, ``M``, ``S``, the rank's and the hint's predicates) and the MONA
    obligations (name, text after the header) of the all-positions proof."""
    assert ctx.game is not None and ctx.heaps is not None and ctx.formula is not None
    n = ctx.heaps
    a = [f"A{i}" for i in range(n)]
    b = [f"B{i}" for i in range(n)]
    env = dict(ctx.params)
    on_a: dict[str, object] = {**env, "h": tuple(SetVar(x) for x in a)}
    rel_node = parse(ctx.game.moves_spec.position_formula(n), sequences=("h", "k"), result="bool")
    rel = compile_bool(rel_node, {**on_a, "k": tuple(SetVar(y) for y in b)})
    claim = compile_bool(ctx.formula, on_a)
    header = "ws1s;\n" + PRELUDE
    header += f"pred M({_params(a + b)}) = {rel.formula};\n"
    header += f"pred S({_params(a)}) = {claim.formula};\n"
    guards = [("move guard", a + b, rel.guard), ("claim guard", a, claim.guard)]
    levels = _levels(rank)
    for i, level in enumerate(levels):
        for j, text in enumerate(level):
            if _PLAIN.fullmatch(text):
                continue  # a number of the position itself: compared directly
            node = parse(text, scalars=tuple(env), sequences=("h",), result="int")
            r = compile_equals(node, SetVar("V"), on_a)
            header += f"pred R{i}_{j}({_params([*a, 'V'])}) = {r.formula};\n"
            guards.append((f"rank {i}.{j} guard", [*a, "V"], r.guard))
    files = [
        (name, f"var2 {', '.join(names)};\n{guard};\n")
        for name, names, guard in guards
        if guard != "true"
    ]
    if answer:
        header += _answer_predicate(ctx, answer, a, b)
    x, y, z = ([f"{c}{i}" for i in range(n)] for c in "XYZ")
    win = f"~S({_args(x)}) => ex2 {', '.join(y)}: M({_args(x + y)}) & S({_args(y)})"
    files.append(("win", f"var2 {', '.join(x)};\n{win};\n"))
    lower = _lex_lower(x, z, levels)
    reply = (
        f"S({_args(x)}) & M({_args(x + y)}) =>\n  ex2 {', '.join(z)}: "
        + (f"F({_args(x + y + z)}) & " if answer else "")
        + f"M({_args(y + z)}) & S({_args(z)}) & {lower}"
    )
    pairs = [v for pair in zip(x, y, strict=True) for v in pair]  # interleaved: a better BDD order
    files.append(("answer", f"var2 {', '.join(pairs)};\n{reply};\n"))
    return header, files


def _answer_predicate(ctx: ClaimContext, answer: list[str], a: list[str], b: list[str]) -> str:
    """``pred F(A.., B.., C..)``: ``C`` is the answer the hint names to the loser's move ``A -> B``.

    Only a conjunct inside the answer obligation's ``ex2 Z``: it narrows the
    search and can never make a false obligation valid (the move, the claim and
    the rank are still required of ``Z``), so it needs no guard of its own.
    """
    assert ctx.heaps is not None
    if len(answer) != ctx.heaps:
        raise UsageError(f"the answer hint needs {ctx.heaps} formulas, one per number")
    c = [f"C{i}" for i in range(ctx.heaps)]
    env: dict[str, object] = {
        **ctx.params,
        "x": tuple(SetVar(v) for v in a),
        "h": tuple(SetVar(v) for v in b),
    }
    parts = [
        compile_equals(
            parse(text, scalars=tuple(ctx.params), sequences=("x", "h"), result="int"),
            SetVar(target),
            env,
        ).formula
        for text, target in zip(answer, c, strict=True)
    ]
    return f"pred F({_params(a + b + c)}) = {' & '.join(parts)};\n"


def _params(names: list[str]) -> str:
    return ", ".join(f"var2 {v}" for v in names)


def _args(names: list[str]) -> str:
    return ", ".join(names)


#: A rank entry that is one number of the position, ``h[i]``.
_PLAIN = re.compile(r"\s*h\[(\d+)\]\s*")


def _lex_lower(x: list[str], z: list[str], levels: list[list[str]]) -> str:
    """``rank(Z) < rank(X)``: lexicographic over the levels, each level a tuple compared
    componentwise (every entry ``<=`` and one ``<``); entry ``j`` of level ``i`` is the
    predicate ``R{i}_{j}``, or the position's own number for an entry ``h[k]``."""
    bound: list[str] = []
    values: list[str] = []
    pairs: list[list[tuple[str, str]]] = []
    for i, level in enumerate(levels):
        row = []
        for j, text in enumerate(level):
            plain = _PLAIN.fullmatch(text)
            if plain and int(plain.group(1)) < len(x):
                k = int(plain.group(1))
                row.append((x[k], z[k]))
                continue
            p, q = f"P{i}_{j}", f"Q{i}_{j}"
            bound += [p, q]
            values += [f"R{i}_{j}({_args(x)}, {p})", f"R{i}_{j}({_args(z)}, {q})"]
            row.append((p, q))
        pairs.append(row)
    cases = []
    for i, row in enumerate(pairs):
        same = [f"{q} = {p}" for earlier in pairs[:i] for p, q in earlier]
        le = [f"le({q}, {p})" for p, q in row]
        some = " | ".join(f"lt({q}, {p})" for p, q in row)
        cases.append("(" + " & ".join([*same, *le, f"({some})"]) + ")")
    body = " & ".join([*values, f"({' | '.join(cases)})"])
    return f"(ex2 {', '.join(bound)}: {body})" if bound else f"({body})"


def _prove(
    ctx: ClaimContext,
    proof: _Proof,
    options: Mapping[str, Any],
    bounded: tuple[str, Scope],
    t0: float,
    stats: dict[str, Any],
) -> MethodResult:
    checked, scope = bounded
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    memory = int(options.get("memory_mb", mona.DEFAULT_MEMORY_MB))
    files = [(name, proof.header + body) for name, body in proof.files]
    ran = mona.run_obligations(files, timeout, memory, ctx.time_left)
    ran.record(stats)
    if ran.failed is not None:
        answer = ran.answer
        if answer is None:
            why = f"out of time before obligation {ran.failed}"
            return _result("proved", f"{checked}; {why}", t0, stats, scope)
        why = f"obligation {ran.failed}: MONA {answer.outcome}"
        if answer.outcome in ("counterexample", "unsatisfiable"):
            cx = _at_failure(ctx, answer.assignment)
            if cx is not None:
                return _result("refuted", f"{why}; {cx.explanation}", t0, stats, counterexample=cx)
            why += " (the position it names is not wrong, or too large to solve: a wrong rank?)"
        return _result("proved", f"{checked}; {why}", t0, stats, scope)
    done = ran.done
    stats["obligations"] = done
    detail = (
        f"{checked}; WS1S obligations {', '.join(done)} valid (MONA) for every position: the "
        "player to move loses exactly where the claim holds and wins elsewhere, in finitely "
        "many moves (the winner's answers lower the rank lexicographically); no draws"
    )
    result = _result("proved", detail, t0, stats, Scope("all", heaps=ctx.heaps))
    return dataclasses.replace(result, certificate=_certificate(ctx, proof, stats))


def _certificate(ctx: ClaimContext, proof: _Proof, stats: dict[str, Any]) -> dict[str, Any]:
    """The certificate part (docs/certificates.md, ``loopy``): the claimed set, the rank, the
    hint, the header and every obligation as MONA read it, with MONA's answer."""
    assert ctx.heaps is not None
    return certificate_parts.loopy(
        str(ctx.claim.formula),
        ctx.heaps,
        proof.rank,
        proof.answer,
        proof.header,
        [(name, body, "valid") for name, body in proof.files],
        max_total=stats["max_total"],
        positions_solved=stats["positions_solved"],
    )


def _at_failure(ctx: ClaimContext, assignment: dict[str, int]) -> Counterexample | None:
    """The position MONA names (``X0..``), solved exactly if small; a counterexample or None."""
    assert ctx.heaps is not None
    pos = tuple(int(assignment.get(f"X{i}", 0)) for i in range(ctx.heaps))
    if sum(pos) > CONFIRM_TOTAL:
        return None
    assert ctx.game is not None
    try:
        graph = closure(ctx.game, [pos])
        claimed = _claimed(ctx, pos)
    except (UsageError, EvalError):
        return None
    found = retrograde(graph)[pos]
    return _confirm(ctx, pos, claimed, found) if _wrong(claimed, found) else None
