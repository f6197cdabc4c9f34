"""Re-check a ``ws1s-parts`` certificate part: a one-heap rule whose moves leave several heaps.

Lasker's Nim and the coin-turning games (Ruler, Mock Turtles) turn a heap of
``n`` into heaps ``a1, ..., ak``; by Sprague–Grundy the option's value is the
xor of the parts' values. The part's header defines, over numbers written as
finite sets of bit positions (binary):

* ``G(N, V)``: the claimed value ``V`` of a heap of ``N``;
* ``S<i>(N, A1, ..., Ak)`` for each shape ``i`` (``shapes[i] = k`` parts): the heap
  of ``N`` may become the heaps ``A1 .. Ak``;
* with ``runs``, ``Pre(M, V)``: the prefix xor ``G(1) xor ... xor G(M)``, for the
  moves that leave the heaps ``j + 1, ..., n - 1`` (a run of coins, as in Ruler).

The checker writes its own option relation ``ck_opt(N, V)`` ("some move of the
heap of ``N`` leaves parts whose values xor to ``V``", with its own xor and its
own successor for runs) and proves with MONA, for **every** heap:

* ``G`` and ``Pre`` are functions; ``Pre(0) = 0`` and ``Pre(m) = Pre(m - 1) xor G(m)``;
* every part of every move is smaller than the heap (so the induction is sound);
* no option value equals ``G(N)``, and every smaller value is one.

By strong induction ``G`` is then the mex of its options, i.e. the Grundy value.
On every heap below a small bound it checks that the shapes' relations are
exactly the game's moves of that many parts (as multisets, from its own
enumeration, :mod:`.games`), that the runs are moves of the game and the shapes
and runs together cover every move, and that ``G`` is the brute-force value.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from nimproof_check.games import CannotCheck, Rejected, check_game, heap_options, heap_values
from nimproof_check.ws1s import BOX_MOVES, PRIMITIVES, _set, plain_header, run_mona

OWN = """
pred ck_succ(var2 K, var2 N) = ex1 t: t notin K & (all1 q: q < t => q in K) & t in N
  & (all1 q: q < t => q notin N) & (all1 q: q > t => (q in N <=> q in K));
pred ck_zero(var2 A) = all1 p: p notin A;
"""

#: Heaps below this bound are compared with brute force in Python (runs, coverage).
PYTHON_BOX = 64


def _xor(out: str, ins: list[str]) -> str:
    """``out`` is the bitwise xor of ``ins`` (the empty xor is 0), the checker's own."""
    if not ins:
        return f"ck_zero({out})"
    par = f"(p in {ins[0]})"
    for x in ins[1:]:
        par = f"~({par} <=> (p in {x}))"
    return f"(all1 p: (p in {out}) <=> {par})"


def _opt(shapes: list[int], runs: bool) -> str:
    """The checker's ``ck_opt(N, V)``: some move of the heap ``N`` has the value ``V``."""
    cases = []
    for i, k in enumerate(shapes):
        parts = [f"A{j}" for j in range(1, k + 1)]
        ws = [f"W{j}" for j in range(1, k + 1)]
        body = " & ".join(
            [
                f"S{i}({', '.join(['N', *parts])})",
                *(f"G({a}, {w})" for a, w in zip(parts, ws, strict=True)),
                _xor("V", ws),
            ]
        )
        cases.append(f"(ex2 {', '.join(parts + ws)}: {body})" if parts else f"({body})")
    if runs:
        cases.append(
            "(ex2 J, K, P1, P2: ck_lt(J, N) & ck_succ(K, N) & Pre(K, P1) & Pre(J, P2) & "
            + _xor("V", ["P1", "P2"])
            + ")"
        )
    return "pred ck_opt(var2 N, var2 V) = " + (" | ".join(cases) or "false") + ";\n"


def obligations(shapes: list[int], runs: bool) -> dict[str, str]:
    """The checker's own obligations (MONA text after the header and its own predicates)."""
    out = {
        "function": "var2 N, V, W;\n(ex2 U: G(N, U)) & (G(N, V) & G(N, W) => V = W);\n",
    }
    if runs:
        out["prefix function"] = (
            "var2 M, V, W;\n(ex2 U: Pre(M, U)) & (Pre(M, V) & Pre(M, W) => V = W);\n"
        )
        out["prefix 0"] = "var2 M, V;\nck_zero(M) & Pre(M, V) => ck_zero(V);\n"
        out["prefix step"] = (
            "var2 M, K, P1, P0, W;\nck_succ(K, M) & Pre(M, P1) & Pre(K, P0) & G(M, W) => "
            + _xor("P1", ["P0", "W"])
            + ";\n"
        )
    for i, k in enumerate(shapes):
        if k:
            parts = [f"A{j}" for j in range(1, k + 1)]
            smaller = " & ".join(f"ck_lt({a}, N)" for a in parts)
            out[f"smaller {i}"] = (
                f"var2 N, {', '.join(parts)};\nS{i}(N, {', '.join(parts)}) => ({smaller});\n"
            )
    out["g1"] = "var2 N, V;\nG(N, V) => ~ck_opt(N, V);\n"
    out["g2"] = "var2 N, V, W;\nG(N, W) & ck_lt(V, W) => ck_opt(N, V);\n"
    return out


def _options(rule: dict[str, Any], top: int) -> list[set[tuple[int, ...]]]:
    return [{tuple(sorted(o)) for o in heap_options(rule, n)} for n in range(top)]


def _runs(n: int) -> set[tuple[int, ...]]:
    return {tuple(range(j + 1, n)) for j in range(n)}


def _box(opts: list[set[tuple[int, ...]]]) -> int:
    """The largest power of 2 (at most 32) below which the game has at most BOX_MOVES moves."""
    top = 2
    while top < 32 and sum(len(o) for o in opts[: 2 * top]) <= BOX_MOVES:
        top *= 2
    return top


def _padded(o: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Every order of the parts ``o`` written on ``k`` slots (an empty slot is a heap of 0)."""
    return sorted(set(permutations(o + (0,) * (k - len(o)))))


def instances(shapes: list[int], runs: bool, rule: dict[str, Any]) -> tuple[str, int]:
    """MONA text: below the small bound, the shapes are exactly the game's moves (multisets of
    non-empty parts; a part of 0 is no heap), the runs' moves aside, and ``G`` is the
    brute-force value; and the bound. Rejected when the runs are not moves of the game or a
    move has too many parts for every shape (checked in Python below PYTHON_BOX)."""
    opts = _options(rule, PYTHON_BOX)
    for n, here in enumerate(opts):
        ran = _runs(n) if runs else set()
        if not ran <= here:
            raise Rejected(f"heap {n}: a run move of the certificate is not a move of the game")
        lost = [o for o in sorted(here - ran) if len(o) > max(shapes, default=-1)]
        if lost:
            raise Rejected(f"heap {n}: the move to {list(lost[0])} has no shape in the certificate")
    top = _box(opts)
    values = heap_values(rule, top)
    small = f"ck_below(N, {top.bit_length() - 1})"
    slots = ", ".join(f"A{j}" for j in range(1, max([1, *shapes]) + 1))
    lines = [
        "pred ck_below(var2 A, var1 b) = all1 p: p in A => p < b;",
        f"var2 N, V, {slots};",
        f"{small} => (G(N, V) <=> ("
        + " | ".join(f"(N = {_set(n)} & V = {_set(values[n])})" for n in range(top))
        + "))",
    ]

    def at(names: list[str], xs: tuple[int, ...]) -> str:
        return " & ".join(f"{a} = {_set(x)}" for a, x in zip(names, xs, strict=True)) or "true"

    for k in sorted(set(shapes)):
        parts = [f"A{j}" for j in range(1, k + 1)]
        mine = " | ".join(
            f"S{i}({', '.join(['N', *parts])})" for i, s in enumerate(shapes) if s == k
        )
        theirs = [
            f"(N = {_set(n)} & ({' | '.join(f'({at(parts, q)})' for q in _padded(o, k))}))"
            for n in range(top)
            for o in sorted(opts[n])
            if len(o) <= k
        ]
        lines.append(f"& (({small} & ({mine})) => ({' | '.join(theirs) or 'false'}))")
    for n in range(top):
        for o in sorted(opts[n] - (_runs(n) if runs else set())):
            alts = [
                f"S{i}({', '.join([_set(n), *(_set(x) for x in q)])})"
                for i, k in enumerate(shapes)
                if k >= len(o)
                for q in _padded(o, k)
            ]
            lines.append(f"& ({' | '.join(alts)})")
    return "\n".join(lines) + ";\n", top


def check_part(part: dict[str, Any], game: Any, read: Any, timeout: float) -> list[str]:
    """Re-check one ``ws1s-parts`` part; the lines of what was checked. Raises Rejected /
    CannotCheck."""
    shapes, runs = part.get("shapes"), bool(part.get("runs", False))
    if part.get("claim_kind") != "grundy" or part.get("heaps") != 1 or part.get("misere"):
        raise CannotCheck("a ws1s-parts part other than a normal-play one-heap Grundy claim")
    if not isinstance(shapes, list) or not all(isinstance(k, int) and 0 <= k <= 3 for k in shapes):
        raise CannotCheck("ws1s-parts: shapes must be a list of part counts 0..3")
    if part.get("numeration", "binary") != "binary":
        raise CannotCheck(f"ws1s-parts proofs in {part.get('numeration')!r} numeration")
    check_game(game)
    if game.get("kind") != "heap" or game.get("misere"):
        raise CannotCheck("ws1s-parts proofs of a game other than one normal-play heap rule")
    header = plain_header(read(part["header"]))
    listed = [ob.get("name", "") for ob in part.get("obligations", [])]
    required = {"g1", "g2"} | ({"prefix 0", "prefix step"} if runs else set())
    missing = sorted(required - set(listed))
    if missing:
        raise Rejected(f"the certificate lists no obligation {', '.join(missing)}")
    done = []
    for ob in part.get("obligations", []):
        if ob.get("mona") != "valid":
            raise Rejected(
                f"obligation {ob.get('name')}: MONA's recorded answer is {ob.get('mona')!r}, not valid"
            )
        name = str(ob.get("name", ""))
        if name == "guard" or name.startswith(("rule-guard", "prefix guard")):
            answer, _ = run_mona(read(ob["file"]), timeout)
            if answer != "valid":
                raise Rejected(f"the prover's obligation {name} ({ob['file']}): MONA says {answer}")
            done.append(f"{name}: valid (MONA, as written)")
    own = header + PRIMITIVES + OWN + _opt(shapes, runs)
    for name, body in obligations(shapes, runs).items():
        answer, out = run_mona(own + body, timeout)
        if answer == "error":
            raise Rejected(
                f"MONA cannot read obligation {name} with this header: {out.strip()[:160]}"
            )
        if answer != "valid":
            raise Rejected(f"obligation {name}: MONA says {answer}, the certificate says valid")
        done.append(f"{name}: valid (MONA, checker's own obligation)")
    text, top = instances(shapes, runs, game["rule"])
    answer, out = run_mona(own + text, timeout)
    if answer != "valid":
        detail = " ".join(line.strip() for line in out.splitlines() if " = " in line)[:200]
        raise Rejected(
            f"small instances (heaps below {top}): the header's moves or values differ from "
            f"brute force ({answer}: {detail})"
        )
    done.append(
        f"small instances, heaps below {top}: moves (as multisets of parts) and values agree "
        f"with brute force; runs and shapes cover every move below {PYTHON_BOX}"
    )
    return done
