"""The automata method: proofs for **every** position with MONA (WS1S).

Numbers are finite sets of bit positions (:mod:`nimproof.expr.to_ws1s`), so a
claim and a game's move relation become WS1S formulas over one set variable
per heap, and MONA decides them for heaps of every size. For a claimed P-set
``S`` on ``h`` heaps the method proves (the local conditions of docs/theorems.md, on the
domain of all ``h``-tuples, which every move keeps):

* (a) ``S(X) & move(X, Y) => ~S(Y)``: no move stays in ``S``;
* (b) ``~S(X) [& X not terminal, misère] => some move from X enters S``;
* (c) misère only: ``terminal(X) => ~S(X)``.

Every move lowers the sum of the heaps (staircase Nim: the weighted sum
``sum(i * X_i)``), so induction on it turns (a)-(c) into ``S = P``. For a
claimed Grundy function ``G``: (g1) no move joins two positions of equal
``G``; (g2) every value below ``G(X)`` is reached by a move; misère adds
``terminal(X) => G(X) = 1``. An identity is one validity check. Before any of
these, the formula's guard (no negative intermediate value) is proved for
every position, so the compiled formula is exact everywhere.

A counterexample from MONA is shrunk (the smallest largest heap, by bisection
with extra MONA runs) and then re-checked without MONA: exact evaluation of
the claim, the family's own move definition, the reference implementation on
small positions and z3 on the concrete position when it is too large to
enumerate. Only a re-checked counterexample refutes; a timeout, an automaton
that outgrows MONA's tables, or a counterexample that does not re-check is
``unknown``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import singledispatch
from itertools import combinations
from typing import Any, TypedDict

from nimproof.certificates import parts as certificate_parts
from nimproof.expr import to_ws1s_zeckendorf as zws1s
from nimproof.expr import zeckendorf
from nimproof.expr.to_ws1s import (
    PRELUDE,
    Compiled,
    NotExpressible,
    Request,
    Ws1sCompiler,
    _Core,
    compile_all,
)
from nimproof.expr.to_z3 import Unsupported
from nimproof.games.base import (
    Game,
    GameDescription,
    MoveDescription,
    NotAFormula,
    StairToStair,
    UpToKHeaps,
)
from nimproof.provers import automata_parts, mona
from nimproof.provers.automata_recheck import candidate
from nimproof.provers.context import ClaimContext
from nimproof.verdict import MethodResult, Scope

NAME = "automata"


class Options(TypedDict, total=False):
    """``[claim.checks] automata = { ... }``: limits per MONA run, and the numeration."""

    timeout: float  #: seconds per obligation (default 60; the claim's deadline also applies)
    memory_mb: int  #: address-space limit of each MONA process (default 4096)
    prefix_xor: str  #: run moves (Ruler): the prefix xor of the claimed values, a formula in m
    #: "binary", "zeckendorf", or "auto" (default: binary, then Zeckendorf where binary cannot)
    numeration: str


@dataclass(frozen=True)
class Numeration:
    """How numbers are sets of positions: the prelude, the compiler, constants, decoding.

    ``valid`` is False in binary (every finite set is a number); in Zeckendorf
    numeration only sets without two consecutive positions are numbers, so
    every obligation assumes its free variables valid (MONA's ``assert``) and
    every quantified number is valid.
    """

    name: str
    prelude: str
    compiler: type[_Core]
    #: The value of each position and the validity assumption, as data for MONA's side.
    numbers: mona.Numbers
    valid: bool


#: Positions whose values MONA's side knows (a counterexample or bound past them is an error).
PLACES = 1024

NUMERATIONS: dict[str, Numeration] = {
    "binary": Numeration(
        "binary",
        PRELUDE + "pred valid(var2 A) = true;\n",
        Ws1sCompiler,
        mona.Numbers(tuple(1 << i for i in range(PLACES)), False),
        False,
    ),
    "zeckendorf": Numeration(
        "Zeckendorf",
        zws1s.PRELUDE,
        zws1s.ZeckendorfCompiler,
        mona.Numbers(tuple(zeckendorf.weight(i) for i in range(PLACES)), True),
        True,
    ),
}
BINARY = NUMERATIONS["binary"]


DEFAULT_TIMEOUT = 60.0
#: Staircase Nim from this many stairs on splits (b) with a witness hint first.
HINT_FROM_STAIRS = 10


# ---------------------------------------------------------------------------
# the move structure of a family (the one place that looks at game classes)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveShape:
    """How the moves of a multi-heap position look in WS1S.

    ``kind`` is ``"heaps"`` (a move changes one heap ``i`` by the relation
    ``heap_preds[i]``), ``"moore"`` (1..k heaps decrease) or ``"staircase"``.
    ``preds`` is MONA text defining the relations; ``guards`` are formulas over
    ``N``, ``M`` that must be valid for the relations to be exact.
    """

    kind: str
    heap_preds: tuple[str, ...] = ()
    preds: str = ""
    guards: tuple[str, ...] = ()
    k: int = 0
    measure: str = ""


@dataclass(frozen=True)
class _Draft:
    """A move structure before its relations are compiled: its kind, the compilations it
    needs (requests of :func:`nimproof.expr.to_ws1s.compile_all`, asked together with the
    claim's) and how the structure is finished from their results."""

    kind: str
    requests: list[Request]
    finish: Callable[[list[Compiled]], MoveShape]


def move_shape(game: Game, heaps: int, num: Numeration = BINARY) -> MoveShape:
    """The WS1S move structure of ``heaps`` heaps of ``game`` (misère: its rule's), asked of
    the family's move description (:attr:`Game.moves_spec`).

    Raises :class:`NotExpressible` for families outside the fragment (moves
    that split heaps, subtraction sets that are not regular in binary,
    plugins).
    """
    draft = _draft(game, heaps, num)
    return draft.finish(compile_all(draft.requests, num.compiler))


def _draft(
    game: Game, heaps: int, num: Numeration, described: GameDescription | None = None
) -> _Draft:
    """:func:`move_shape` before the compilation (``described``: the claim's game description,
    whose relations are read instead of asking the game again)."""
    known = None
    if described is not None and described.game is game and described.parts_heaps == heaps:
        known = described
    try:
        draft = _shape(game.moves_spec, game, heaps, num, known)
    except NotAFormula as exc:
        raise NotExpressible(f"the moves of {game.spec}: {exc}") from None
    if num.valid and draft.kind in ("moore", "staircase"):
        raise NotExpressible(f"the moves of {game.spec} in {num.name} numeration")
    return draft


@singledispatch
def _shape(
    spec: MoveDescription, game: Game, heaps: int, num: Numeration, known: GameDescription | None
) -> _Draft:
    """A sum of one-heap rules (each heap's relation in ``n``, ``m``: from ``known``, the
    game's description for ``heaps`` heaps, else asked in one call) or a relation over the
    whole position (``h``, ``k``)."""
    if known is None:
        texts = spec.heap_formulas(game, heaps)
    elif known.relation_error is not None:
        raise known.relation_error
    else:
        texts = known.relations
    if texts is None:
        return _relation_shape(spec, heaps)
    defined: dict[str, str] = {}  # relation text -> predicate name
    for rel in texts:
        defined.setdefault(rel, f"hm{len(defined)}")

    def finish(compiled: list[Compiled]) -> MoveShape:
        preds = []
        guards = []
        for name, c in zip(defined.values(), compiled, strict=True):
            preds.append(f"pred {name}(var2 N, var2 M) = (valid(M) & lt(M, N) & {c.formula});\n")
            if c.guard != "true":
                guards.append(f"var2 N, M;\n(lt(M, N) => {c.guard})")
        names = tuple(defined[rel] for rel in texts)
        return MoveShape("heaps", names, "".join(preds), tuple(guards))

    requests: list[Request] = [(rel, {"n": "N", "m": "M"}, None) for rel in defined]
    return _Draft("heaps", requests, finish)


@_shape.register
def _(
    spec: UpToKHeaps, game: Game, heaps: int, num: Numeration, known: GameDescription | None
) -> _Draft:
    return _Draft("moore", [], lambda _: MoveShape("moore", k=spec.k))


@_shape.register
def _(
    spec: StairToStair, game: Game, heaps: int, num: Numeration, known: GameDescription | None
) -> _Draft:
    return _Draft("staircase", [], lambda _: MoveShape("staircase"))


def _relation_shape(spec: MoveDescription, heaps: int) -> _Draft:
    """``pred rel(X0, Y0, ...)``: the description's relation over the whole position, and the
    obligation (w) that every move lowers its measure (so induction on it is sound)."""
    text = spec.position_formula(heaps)
    xs, ys, inter = _move_vars(heaps)
    names: dict[str, object] = {"h": tuple(xs), "k": tuple(ys)}
    weights = spec.weights(heaps)
    lower = " + ".join(f"{w} * k[{i}]" for i, w in enumerate(weights))
    upper = " + ".join(f"{w} * h[{i}]" for i, w in enumerate(weights))

    def finish(compiled: list[Compiled]) -> MoveShape:
        rel, drop = compiled
        params = ", ".join(f"var2 {v}" for v in inter)
        valid = " & ".join(f"valid({y})" for y in ys)
        preds = f"pred rel({params}) = ({valid} & {rel.formula});\n"
        guards = [f"var2 {', '.join(inter)};\n{rel.guard}"] if rel.guard != "true" else []
        lowered = drop.formula if drop.guard == "true" else f"({drop.guard} & {drop.formula})"
        measure = f"var2 {', '.join(inter)};\n{_call('rel', inter)} => {lowered}"
        return MoveShape("relation", preds=preds, guards=tuple(guards), measure=measure)

    return _Draft("relation", [(text, names, None), (f"{lower} < {upper}", names, None)], finish)


# ---------------------------------------------------------------------------
# obligations
# ---------------------------------------------------------------------------


@dataclass
class Obligation:
    """One MONA file: its name (a, b, c, g1, g2, guard, ...) and text."""

    name: str
    text: str
    fallback: list[Obligation] = field(default_factory=list)


@dataclass
class Plan:
    """Everything needed to prove one claim: the obligations and how to re-check failures."""

    heaps: int
    obligations: list[Obligation]
    header: str
    free: list[str]
    measure: str = "heap"
    numeration: Numeration = BINARY


def _xs(h: int, prefix: str = "X") -> list[str]:
    return [f"{prefix}{i}" for i in range(h)]


def _move_vars(h: int) -> tuple[list[str], list[str], list[str]]:
    """The position ``X0..``, the position moved to ``Y0..``, and both interleaved
    (``X0, Y0, X1, Y1, ...``: the arguments of ``move``)."""
    xs, ys = _xs(h), _xs(h, "Y")
    return xs, ys, [v for pair in zip(xs, ys, strict=True) for v in pair]


def _call(pred: str, args: list[str]) -> str:
    return f"{pred}({', '.join(args)})"


def _replace(xs: list[str], changes: dict[int, str]) -> list[str]:
    return [changes.get(i, x) for i, x in enumerate(xs)]


def _move_pred(shape: MoveShape, h: int) -> str:
    """``pred move(X0, Y0, ...)``: one move from X to Y."""
    xs, ys = _xs(h), _xs(h, "Y")
    params = ", ".join(f"var2 {x}, var2 {y}" for x, y in zip(xs, ys, strict=True))

    def same(skip: set[int]) -> list[str]:
        return [f"{ys[j]} = {xs[j]}" for j in range(h) if j not in skip]

    cases = []
    if shape.kind == "relation":
        cases.append(_call("rel", [v for pair in zip(xs, ys, strict=True) for v in pair]))
    elif shape.kind == "heaps":
        for i in range(h):
            cases.append(" & ".join([_call(shape.heap_preds[i], [xs[i], ys[i]]), *same({i})]))
    elif shape.kind == "moore":
        for size in range(1, min(shape.k, h) + 1):
            for chosen in combinations(range(h), size):
                parts = [f"lt({ys[i]}, {xs[i]})" for i in chosen] + same(set(chosen))
                cases.append(" & ".join(parts))
    else:
        for i in range(h):
            parts = [f"lt({ys[i]}, {xs[i]})"]
            if i > 0:
                parts.append(
                    f"(ex2 C: plus({ys[i]}, C, {xs[i]}) & plus({xs[i - 1]}, C, {ys[i - 1]}))"
                )
            cases.append(" & ".join(parts + same({i, i - 1} if i else {i})))
    body = "\n  | ".join(f"({c})" for c in cases)
    return f"pred move({params}) =\n    {body};\n"


def _terminal_pred(shape: MoveShape, h: int) -> str:
    xs = _xs(h)
    params = ", ".join(f"var2 {x}" for x in xs)
    if shape.kind == "heaps":
        body = " & ".join(f"~(ex2 M: {_call(shape.heap_preds[i], [xs[i], 'M'])})" for i in range(h))
    elif shape.kind == "relation":
        us = _xs(h, "U")
        args = [v for pair in zip(xs, us, strict=True) for v in pair]
        body = f"~(ex2 {', '.join(us)}: {_call('rel', args)})"
    else:
        body = " & ".join(f"empty({x})" for x in xs)
    return f"pred terminal({params}) = {body};\n"


def _reach(
    shape: MoveShape, h: int, target: Callable[[list[str]], str], only: int | None = None
) -> str:
    """Some move from X reaches a position where ``target`` holds (only changed heaps quantified)."""
    xs = _xs(h)
    cases = []
    if shape.kind == "relation":
        news = _xs(h, "U")
        args = [v for pair in zip(xs, news, strict=True) for v in pair]
        cases.append(f"(ex2 {', '.join(news)}: {_call('rel', args)} & {target(news)})")
    elif shape.kind == "heaps":
        for i in range(h):
            if only is not None and i != only:
                continue
            cases.append(
                f"(ex2 U: {_call(shape.heap_preds[i], [xs[i], 'U'])} & {target(_replace(xs, {i: 'U'}))})"
            )
    elif shape.kind == "moore":
        for size in range(1, min(shape.k, h) + 1):
            for chosen in combinations(range(h), size):
                us = {i: f"U{i}" for i in chosen}
                lows = " & ".join(f"lt(U{i}, {xs[i]})" for i in chosen)
                cases.append(f"(ex2 {', '.join(us.values())}: {lows} & {target(_replace(xs, us))})")
    else:
        for i in range(h):
            if only is not None and i != only:
                continue
            if i == 0:
                cases.append(f"(ex2 U: lt(U, {xs[0]}) & {target(_replace(xs, {0: 'U'}))})")
            else:
                cases.append(
                    f"(ex2 C, U, W: ~empty(C) & plus(U, C, {xs[i]}) & plus({xs[i - 1]}, C, W)"
                    f" & {target(_replace(xs, {i: 'U', i - 1: 'W'}))})"
                )
    return "(" + "\n  | ".join(cases) + ")" if cases else "false"


def _decl(names: list[str]) -> str:
    return f"var2 {', '.join(names)};\n" if names else ""


def _env(ctx: ClaimContext, xs: list[str]) -> dict[str, object]:
    """The claim's names for :func:`~nimproof.expr.to_ws1s.compile_all`: its parameters, and
    its heaps (or an identity's variables) as the set variables ``xs``."""
    env: dict[str, object] = dict(ctx.params)
    if ctx.spec.is_identity:
        env.update(dict(zip(ctx.claim.variables, xs, strict=True)))
    elif ctx.one_heap:
        env["n"] = xs[0]
    else:
        env["h"] = tuple(xs)
    return env


def heap_count(ctx: ClaimContext) -> int:
    """The number of heap variables of the claim (identities: its variables)."""
    if ctx.spec.is_identity:
        return len(ctx.claim.variables)
    if ctx.one_heap:
        return 1
    if ctx.heaps is not None:
        return ctx.heaps
    fixed = ctx.heap_count
    if fixed is not None:
        return fixed
    raise NotExpressible("a claim without a fixed number of heaps")


def plan(ctx: ClaimContext, num: Numeration = BINARY) -> Plan:
    """The obligations that prove ``ctx``'s claim for every position (or NotExpressible),
    numbers written in the numeration ``num``."""
    if ctx.spec.formula_role is None:
        raise NotExpressible(f"{ctx.kind} claims (only P-positions, Grundy values and identities)")
    assert ctx.formula is not None
    if ctx.game is not None and not ctx.spec.is_identity:
        try:
            h = heap_count(ctx)
        except NotExpressible:
            # families outside the fragment are named before anything else
            move_shape(ctx.game, ctx.heap_count or 1, num)
            raise
        draft = _draft(ctx.game, h, num, ctx.description)
    else:
        h, draft = heap_count(ctx), _Draft("identity", [], lambda _: MoveShape("identity"))
    xs = _xs(h)
    params = ", ".join(f"var2 {x}" for x in xs)
    target = None if ctx.spec.states_p_positions or ctx.spec.is_identity else "V"
    # the claim's formula and the game's move relations (parsed when the claim was prepared),
    # compiled in one call
    requests = [
        (ctx.relations.get(src, src) if isinstance(src, str) else src, names, goal)
        for src, names, goal in draft.requests
    ]
    asked = [*requests, (ctx.formula, _env(ctx, xs), target)]
    *moves, claim = compile_all(asked, num.compiler, ctx.constants)
    header = "ws1s;\n" + num.prelude
    obligations: list[Obligation] = []
    if ctx.spec.is_identity:
        header += f"pred F({params}) = {claim.formula};\npred FG({params}) = {claim.guard};\n"
        if claim.guard != "true":
            obligations.append(Obligation("guard", _decl(xs) + _call("FG", xs) + ";\n"))
        obligations.append(Obligation("identity", _decl(xs) + _call("F", xs) + ";\n"))
        return Plan(h, obligations, header, xs, "value", num)
    shape = draft.finish(moves)
    header += shape.preds + _move_pred(shape, h) + _terminal_pred(shape, h)
    for g in shape.guards:
        obligations.append(Obligation("rule-guard", g + ";\n"))
    if shape.measure:
        obligations.append(Obligation("w", shape.measure + ";\n"))
    build = _Build(ctx, shape, h, claim, obligations)
    header += _p_obligations(build) if ctx.spec.states_p_positions else _g_obligations(build)
    measure = "total" if shape.kind == "staircase" else "heap"
    return Plan(h, obligations, header, xs, measure, num)


@dataclass(frozen=True)
class _Build:
    """What the obligations of a P-position or Grundy claim are built from; they are
    appended to ``out``."""

    ctx: ClaimContext
    shape: MoveShape
    h: int
    #: The claim compiled: a condition (P-positions) or "``V`` equals the formula" (Grundy).
    claim: Compiled
    out: list[Obligation]

    def parts(self) -> tuple[ClaimContext, MoveShape, int, Compiled, list[Obligation]]:
        """The fields, in order (``out`` itself, not a copy)."""
        return self.ctx, self.shape, self.h, self.claim, self.out


def _claim_predicates(
    name: str, args: list[str], declared: list[str], c: Compiled, out: list[Obligation]
) -> str:
    """``pred name(args)``, the compiled claim; when its terms need a guard, also
    ``pred nameG(args)`` and the obligation that the guard holds (``declared``: its variables)."""
    params = ", ".join(f"var2 {a}" for a in args)
    preds = f"pred {name}({params}) = {c.formula};\n"
    if c.guard != "true":
        preds += f"pred {name}G({params}) = {c.guard};\n"
        out.append(Obligation("guard", _decl(declared) + _call(f"{name}G", args) + ";\n"))
    return preds


def _p_obligations(build: _Build) -> str:
    ctx, shape, h, claim, out = build.parts()
    xs, ys, inter = _move_vars(h)
    preds = _claim_predicates("S", xs, xs, claim, out)
    move_args = inter
    out.append(
        Obligation(
            "a",
            _decl(inter) + f"{_call('S', xs)} & {_call('move', move_args)} => ~{_call('S', ys)};\n",
        )
    )
    not_term = f" & ~{_call('terminal', xs)}" if ctx.misere else ""
    b_text = (
        _decl(xs)
        + f"~{_call('S', xs)}{not_term} =>\n  {_reach(shape, h, lambda a: _call('S', a))};\n"
    )
    b = Obligation("b", b_text)
    if shape.kind == "staircase" and h >= HINT_FROM_STAIRS:
        b = _staircase_hint(shape, h, not_term, b)
    out.append(b)
    if ctx.misere:
        out.append(Obligation("c", _decl(xs) + f"{_call('terminal', xs)} => ~{_call('S', xs)};\n"))
    return preds


def _staircase_hint(shape: MoveShape, h: int, not_term: str, plain: Obligation) -> Obligation:
    """Split (b) for staircase Nim by a witness hint; the plain (b) is the fallback.

    The hint "the highest bit of the xor of the odd stairs lies in stair i" only
    chooses which moves are tried; the cover obligation checks that some hint
    applies to every position outside S, so the split proves the same (b).
    """
    xs = _xs(h)
    odd = [xs[i] for i in range(0, h, 2)]
    par = " <=> ".join(f"(t in {x})" for x in odd)
    parity = f"~({par})" if len(odd) % 2 == 0 else par
    parts = []
    for i in range(0, h, 2):
        guard = f"(ex1 t: {parity} & (all1 q: q > t => ~({_parity_at('q', odd)})) & (t in {xs[i]}))"
        parts.append(
            Obligation(
                f"b[hint {i}]",
                _decl(xs)
                + f"~{_call('S', xs)}{not_term} & {guard} =>\n  {_reach(shape, h, lambda a: _call('S', a), only=i)};\n",
            )
        )
    top = f"(ex1 t: {parity} & (all1 q: q > t => ~({_parity_at('q', odd)})))"
    cover = Obligation("b[hint cover]", _decl(xs) + f"~{_call('S', xs)}{not_term} => {top};\n")
    head = Obligation("b[hint]", "", [cover, *parts, plain])
    return head


def _parity_at(p: str, xs: list[str]) -> str:
    out = f"({p} in {xs[0]})"
    for x in xs[1:]:
        out = f"~({out} <=> ({p} in {x}))"
    return out


def _g_obligations(build: _Build) -> str:
    ctx, shape, h, c, out = build.parts()
    xs, ys, inter = _move_vars(h)
    preds = _claim_predicates("G", [*xs, "V"], ["V", *xs], c, out)
    out.append(
        Obligation(
            "g1",
            _decl(["V", *inter])
            + f"{_call('G', [*xs, 'V'])} & {_call('move', inter)} => ~{_call('G', [*ys, 'V'])};\n",
        )
    )
    not_term = f" & ~{_call('terminal', xs)}" if ctx.misere else ""
    out.append(
        Obligation(
            "g2",
            _decl(["V", "W", *xs])
            + f"{_call('G', [*xs, 'W'])} & lt(V, W){not_term} =>\n  "
            + _reach(shape, h, lambda a: _call("G", [*a, "V"]))
            + ";\n",
        )
    )
    if ctx.misere:
        out.append(
            Obligation(
                "g0", _decl(xs) + f"{_call('terminal', xs)} => {_call('G', [*xs, '{0}'])};\n"
            )
        )
    return preds


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------


def run(ctx: ClaimContext, options: Mapping[str, Any]) -> MethodResult:
    """Prove the claim for every position with MONA, refute it, or say why not.

    The plan (every obligation, compiled) is built first; MONA then decides all of
    them in one call (:func:`nimproof.provers.mona.decide`, which also shrinks a
    counterexample), and a counterexample becomes a candidate
    (:func:`nimproof.provers.automata_recheck.candidate`) that
    :func:`nimproof.provers.settle.settle` re-checks in one pass."""
    t0 = time.monotonic()
    rule = automata_parts.part_moves(ctx.game)
    if rule is not None:  # rules that leave several heaps: their own obligations
        if not mona.available():
            return MethodResult(NAME, "unknown", detail=mona.MISSING)
        return automata_parts.run(ctx, rule, options, NAME)
    try:
        p = _plan(ctx, str(options.get("numeration", "auto")))
    except (NotExpressible, Unsupported) as exc:
        return MethodResult(NAME, "unknown", detail=str(exc), seconds=time.monotonic() - t0)
    stats: dict[str, Any] = {"heaps": p.heaps, "mona_runs": 0, "mona_seconds": 0.0}
    limits = (
        float(options.get("timeout", DEFAULT_TIMEOUT)),
        int(options.get("memory_mb", mona.DEFAULT_MEMORY_MB)),
        ctx.deadline or 0.0,
    )
    # the shrinking is done on MONA's side: the re-check never calls back up
    shrink = (tuple(p.free), ("w", "rule-guard"))
    decision = mona.decide(p.header, p.obligations, p.numeration.numbers, limits, shrink, stats)
    if decision.missing:
        return MethodResult(NAME, "unknown", detail=mona.MISSING)
    name, answer = decision.failed, decision.answer
    if name is not None:
        if answer is None:
            return _unknown(f"out of time before obligation {name}", t0, stats)
        if answer.outcome not in ("counterexample", "unsatisfiable"):
            return _unknown(
                f"obligation {name}: MONA {answer.outcome} ({answer.message})", t0, stats
            )
        found = candidate(ctx, p, name, decision.assignment)
        if isinstance(found, str):
            return _unknown(f"obligation {name}: {found}", t0, stats)
        # an unconfirmed candidate: settle re-checks it (refuted) or says why not (unknown)
        return MethodResult(
            NAME,
            "refuted",
            detail=f"obligation {name} fails",
            seconds=time.monotonic() - t0,
            counterexample=found,
            stats=stats,
        )
    done = decision.done
    stats["obligations"] = done
    scope = Scope("all", measure=p.measure, heaps=None if ctx.one_heap else p.heaps)
    if ctx.spec.is_identity:
        scope = Scope("all", measure="value")
    numeration = "" if p.numeration is BINARY else f", {p.numeration.name} numeration"
    detail = f"WS1S obligations {', '.join(done)} valid (MONA{numeration}), every heap size"
    part = certificate_parts.ws1s(
        ctx.kind, p.heaps, ctx.misere, p.header, decision.record, p.numeration.name.lower()
    )
    seconds = time.monotonic() - t0
    return MethodResult(NAME, "proved", scope, detail, seconds, stats=stats, certificate=part)


def _plan(ctx: ClaimContext, choice: str) -> Plan:
    """The plan in the numeration ``choice``; ``auto`` tries binary, then Zeckendorf."""
    if choice in NUMERATIONS:
        return plan(ctx, NUMERATIONS[choice])
    if choice != "auto":
        raise NotExpressible(f"the numeration {choice!r} (choose binary, zeckendorf or auto)")
    try:
        return plan(ctx, BINARY)
    except (NotExpressible, Unsupported) as binary:
        try:
            return plan(ctx, NUMERATIONS["zeckendorf"])
        except (NotExpressible, Unsupported) as other:
            if str(other) == str(binary):
                raise binary from None
            raise NotExpressible(f"{binary} (binary); {other} (Zeckendorf)") from None


def _unknown(detail: str, t0: float, stats: dict[str, Any]) -> MethodResult:
    return MethodResult(NAME, "unknown", detail=detail, seconds=time.monotonic() - t0, stats=stats)


__all__ = ["NAME", "MoveShape", "Plan", "heap_count", "move_shape", "plan", "run"]
