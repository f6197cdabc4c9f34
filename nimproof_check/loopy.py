"""Re-check a ``loopy`` certificate part: the losses of Northcott's game, for every position.

The game (``{"kind": "northcott", "rows": R}``) is read from the mover's side:
a position is ``3 R`` numbers, per row the gap ``g``, the mover's room ``m``
and the opponent's room ``o``. A move picks one row and advances (``g -> g - t``,
``m -> m + t``, ``1 <= t <= g``) or retreats (``g -> g + t``, ``m -> m - t``,
``1 <= t <= m``); then the roles swap in every row (``m <-> o``). A play may go
on forever, so positions have outcomes (win, loss, draw), not values.

The claim: the mover loses (in finitely many moves, whatever they do) exactly
where the predicate ``S`` holds, and wins elsewhere; no draws. The part gives
the predicate, a rank (levels of terms in the position), optionally the
winner's answer as a hint, and the prover's WS1S files. The checker uses none
of the prover's text as truth. It

1. reads the predicate, the rank and the hint itself (Python's :mod:`ast`
   parser, a small fragment: whole-number constants, ``h[i]``, ``+ ^ & |``,
   comparisons, ``and``/``or``/``not``; the hint also ``-`` and ``x if c else y``);
2. writes its own WS1S move relation from the rows, its own ``S``, its own
   lexicographic ``rank(Z) < rank(X)`` and its own two obligations, and has
   MONA prove them for **every** position (the prover's header is not part of
   these files):

   * (win) outside ``S`` there is a move into ``S``;
   * (answer) after any move ``X -> Y`` from ``S`` there is a move ``Y -> Z``
     with ``Z`` in ``S`` and ``rank(Z) < rank(X)`` (the hint, one more conjunct
     inside ``ex2 Z``, can only make this harder);

3. checks the induction's side condition: every rank entry is a term of the
   natural-number fragment (no ``-``), so the rank is a tuple of naturals,
   compared lexicographically over the levels and, inside a level, entry by
   entry (all ``<=``, one ``<``): a well-founded order. By induction on it
   every position of ``S`` is a loss in finitely many moves, and by (win) every
   other position a win;
4. on the small boards (every position of total at most a bound; moves keep
   each row's total, so the set is closed), compares its own WS1S move relation
   and the prover's (``M``) with its own brute-force enumeration of the moves,
   and its own ``S`` and the prover's with its own retrograde outcomes; and
   in Python, on a larger bound, compares the predicate with the outcomes
   (losses exactly in ``S``, no draws);
5. proves with MONA that the prover's ``M`` and ``S`` are its own relation and
   set for every position (a disagreement is rejected as news).
"""

from __future__ import annotations

import ast
import itertools
import math
from collections import deque
from typing import Any

from nimproof_check.games import CannotCheck, Rejected
from nimproof_check.ws1s import PRIMITIVES, _set, plain_header, run_mona

OWN = """
pred ck_le(var2 A, var2 B) = ~ck_lt(B, A);
pred ck_add(var2 A, var2 B, var2 C) = ex2 K: 0 notin K & (all1 p:
    (p in C <=> (p in A <=> (p in B <=> p in K)))
  & (p + 1 in K <=> ((p in A & p in B) | (p in A & p in K) | (p in B & p in K))));
"""

#: Positions (and moves among them) of the small boards MONA compares with brute force.
MONA_POSITIONS = 256
MONA_MOVES = 1200
#: Positions whose outcomes the checker computes in Python and compares with the predicate.
PYTHON_POSITIONS = 30_000
#: Obligations the certificate must list with MONA's answer ``valid``.
REQUIRED = ("win", "answer")
MAX_ROWS = 8


def northcott_moves(rows: int, pos: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every position one move from ``pos`` (the checker's own enumeration, from the rows)."""
    out = []
    for i in range(rows):
        g, m, _ = pos[3 * i : 3 * i + 3]
        for new_gap in [*range(g), *range(g + 1, g + m + 1)]:
            q = []
            for j in range(rows):
                gj, mj, oj = pos[3 * j : 3 * j + 3]
                if j == i:  # the mover's piece moved; its room becomes the opponent's
                    q += [new_gap, oj, mj + gj - new_gap]
                else:
                    q += [gj, oj, mj]
            out.append(tuple(q))
    return out


def boards(n: int, total: int) -> list[tuple[int, ...]]:
    """Every tuple of ``n`` natural numbers with sum at most ``total``."""
    out = []
    for s in range(total + 1):
        for cut in itertools.combinations(range(s + n - 1), n - 1):
            edges = (-1, *cut, s + n - 1)
            out.append(tuple(edges[k + 1] - edges[k] - 1 for k in range(n)))
    return out


def outcomes(rows: int, positions: list[tuple[int, ...]]) -> dict[tuple[int, ...], str]:
    """Win / loss / draw of every position of a set closed under moves (retrograde analysis:
    no move is a loss; a move to a loss is a win; all moves to wins is a loss; else draw)."""
    options = {p: northcott_moves(rows, p) for p in positions}
    parents: dict[tuple[int, ...], list[tuple[int, ...]]] = {p: [] for p in positions}
    for p, targets in options.items():
        for q in targets:
            if q not in parents:
                raise Rejected(f"internal: the boards are not closed under moves ({p} -> {q})")
            parents[q].append(p)
    left = {p: len(t) for p, t in options.items()}
    label = {p: "loss" for p, n in left.items() if n == 0}
    queue = deque(label)
    while queue:
        q = queue.popleft()
        for p in parents[q]:
            if p in label:
                continue
            if label[q] == "loss":
                label[p] = "win"
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    label[p] = "loss"
                    queue.append(p)
    return {p: label.get(p, "draw") for p in positions}


# ---------------------------------------------------------------- the checker's own reading


class Outside(Exception):
    """A formula outside the checker's fragment."""


_BITS = {ast.BitXor: "^", ast.BitAnd: "&", ast.BitOr: "|"}
_CMP = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def read(text: str, sequences: tuple[str, ...], size: int, *, hint: bool = False) -> ast.expr:
    """``text``'s syntax tree after checking every node is in the fragment (``hint``: also
    ``-`` and ``x if c else y`` in terms)."""
    try:
        tree = ast.parse(str(text), mode="eval").body
    except SyntaxError as exc:
        raise Outside(f"cannot parse {text!r}: {exc.msg}") from None
    _check(tree, sequences, size, hint)
    return tree


def _check(node: ast.AST, seqs: tuple[str, ...], size: int, hint: bool) -> None:
    if isinstance(node, ast.Constant):
        if type(node.value) not in (int, bool) or (type(node.value) is int and node.value < 0):
            raise Outside(f"the constant {node.value!r}")
        return
    if isinstance(node, ast.Subscript):
        ok = isinstance(node.value, ast.Name) and node.value.id in seqs
        i = node.slice.value if isinstance(node.slice, ast.Constant) else None
        if not ok or type(i) is not int or not 0 <= i < size:
            raise Outside("a subscript other than h[i], i a constant index of the position")
        return
    if isinstance(node, ast.BinOp):
        allowed = (ast.Add, *_BITS, *((ast.Sub,) if hint else ()))
        if not isinstance(node.op, allowed):
            raise Outside(f"the operator {type(node.op).__name__}")
        children: list[ast.AST] = [node.left, node.right]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        children = [node.operand]
    elif isinstance(node, ast.BoolOp):
        children = list(node.values)
    elif isinstance(node, ast.Compare):
        if not all(isinstance(op, _CMP) for op in node.ops):
            raise Outside("a comparison other than == != < <= > >=")
        children = [node.left, *node.comparators]
    elif isinstance(node, ast.IfExp) and hint:
        children = [node.test, node.body, node.orelse]
    else:
        raise Outside(f"the construct {type(node).__name__}")
    for child in children:
        _check(child, seqs, size, hint)


def value(node: ast.expr, env: dict[str, tuple[int, ...]]) -> Any:
    """The formula's value on whole numbers (``env``: sequence name -> numbers)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Subscript):
        return env[node.value.id][node.slice.value]  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp):
        a, b = value(node.left, env), value(node.right, env)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        return {ast.BitXor: a ^ b, ast.BitAnd: a & b, ast.BitOr: a | b}[type(node.op)]
    if isinstance(node, ast.UnaryOp):
        return not value(node.operand, env)
    if isinstance(node, ast.BoolOp):
        parts = (bool(value(v, env)) for v in node.values)
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if isinstance(node, ast.Compare):
        left = value(node.left, env)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = value(right_node, env)
            ok = {
                ast.Eq: left == right,
                ast.NotEq: left != right,
                ast.Lt: left < right,
                ast.LtE: left <= right,
                ast.Gt: left > right,
                ast.GtE: left >= right,
            }[type(op)]
            if not ok:
                return False
            left = right
        return True
    assert isinstance(node, ast.IfExp)
    return value(node.body if value(node.test, env) else node.orelse, env)


class Encoder:
    """The checker's own WS1S for a formula: a number is the set of its 1 bits; a composite
    term is a fresh set variable with a functional definition, quantified at its atom."""

    def __init__(self, env: dict[str, list[str]]) -> None:
        self.env = env
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"ck_v{self.count}"

    def term(self, node: ast.expr) -> tuple[str, list[tuple[str, str]]]:
        """The variable holding the term and the definitions (variable, formula) it needs."""
        if isinstance(node, ast.Subscript):
            return self.env[node.value.id][node.slice.value], []  # type: ignore[attr-defined]
        v = self.fresh()
        if isinstance(node, ast.Constant):
            if type(node.value) is not int:
                raise Outside("a truth value used as a number")
            return v, [(v, f"{v} = {_set(node.value)}")]
        if isinstance(node, ast.BinOp):
            (a, da), (b, db) = self.term(node.left), self.term(node.right)
            if isinstance(node.op, ast.Add):
                return v, [*da, *db, (v, f"ck_add({a}, {b}, {v})")]
            if isinstance(node.op, ast.Sub):  # hints only: v is a - b where b <= a
                return v, [*da, *db, (v, f"ck_add({b}, {v}, {a})")]
            bit = {
                ast.BitXor: f"~(p in {a} <=> p in {b})",
                ast.BitAnd: f"(p in {a} & p in {b})",
                ast.BitOr: f"(p in {a} | p in {b})",
            }[type(node.op)]
            return v, [*da, *db, (v, f"(all1 p: p in {v} <=> {bit})")]
        if isinstance(node, ast.IfExp):
            test = self.formula(node.test)
            then, orelse = (self._local(v, x) for x in (node.body, node.orelse))
            return v, [(v, f"(({test}) & {then}) | (~({test}) & {orelse})")]
        raise Outside(f"{type(node).__name__} used as a number")

    def _local(self, target: str, node: ast.expr) -> str:
        """``target`` equals the term, its definitions quantified here (a branch's own)."""
        name, defs = self.term(node)
        return _bind(defs, f"{target} = {name}")

    def formula(self, node: ast.expr) -> str:
        """The WS1S formula of a truth-valued node."""
        if isinstance(node, ast.Constant) and type(node.value) is bool:
            return "true" if node.value else "false"
        if isinstance(node, ast.UnaryOp):
            return f"~({self.formula(node.operand)})"
        if isinstance(node, ast.BoolOp):
            glue = " & " if isinstance(node.op, ast.And) else " | "
            return "(" + glue.join(f"({self.formula(v)})" for v in node.values) + ")"
        if isinstance(node, ast.Compare):
            terms = [self.term(x) for x in (node.left, *node.comparators)]
            atoms = []
            for op, (a, _), (b, _) in zip(node.ops, terms, terms[1:], strict=False):
                atoms.append(
                    {
                        ast.Eq: f"{a} = {b}",
                        ast.NotEq: f"~({a} = {b})",
                        ast.Lt: f"ck_lt({a}, {b})",
                        ast.LtE: f"ck_le({a}, {b})",
                        ast.Gt: f"ck_lt({b}, {a})",
                        ast.GtE: f"ck_le({b}, {a})",
                    }[type(op)]
                )
            return _bind([d for _, defs in terms for d in defs], " & ".join(atoms))
        raise Outside(f"{type(node).__name__} used as a truth value")


def _bind(defs: list[tuple[str, str]], body: str) -> str:
    if not defs:
        return f"({body})"
    names = ", ".join(v for v, _ in defs)
    return f"(ex2 {names}: {' & '.join(f for _, f in defs)} & {body})"


def _names(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def _params(names: list[str]) -> str:
    return ", ".join(f"var2 {v}" for v in names)


def move_relation(rows: int) -> str:
    """``pred ck_move(X.., Y..)``: one move from ``X`` to ``Y``, written from the rows: in the
    moved row the gap changes, gap plus the new opponent's room is the old gap plus the mover's
    room, and the new mover's room is the old opponent's; every other row swaps the rooms."""
    n = 3 * rows
    xs, ys = _names("X", n), _names("Y", n)
    cases = []
    for i in range(rows):
        g, m, o = 3 * i, 3 * i + 1, 3 * i + 2
        parts = [
            f"~({ys[g]} = {xs[g]})",
            f"{ys[m]} = {xs[o]}",
            f"(ex2 ck_w: ck_add({ys[g]}, {ys[o]}, ck_w) & ck_add({xs[g]}, {xs[m]}, ck_w))",
        ]
        for j in range(rows):
            if j != i:
                a, b, c = 3 * j, 3 * j + 1, 3 * j + 2
                parts += [f"{ys[a]} = {xs[a]}", f"{ys[b]} = {xs[c]}", f"{ys[c]} = {xs[b]}"]
        cases.append("(" + " & ".join(parts) + ")")
    return f"pred ck_move({_params(xs + ys)}) =\n  " + "\n  | ".join(cases) + ";\n"


def claim_set(node: ast.expr, n: int) -> str:
    """``pred ck_S(X..)``: the predicate, in the checker's own encoding."""
    xs = _names("X", n)
    return f"pred ck_S({_params(xs)}) = {Encoder({'h': xs}).formula(node)};\n"


def answer_hint(nodes: list[ast.expr], n: int) -> str:
    """``pred ck_F(X.., Y.., Z..)``: ``Z`` is the answer the hint names to the move ``X -> Y``."""
    xs, ys, zs = _names("X", n), _names("Y", n), _names("Z", n)
    enc = Encoder({"x": xs, "h": ys})
    body = " & ".join(enc._local(z, node) for z, node in zip(zs, nodes, strict=True))
    return f"pred ck_F({_params(xs + ys + zs)}) = {body};\n"


def lower(levels: list[list[ast.expr]], n: int) -> str:
    """``pred ck_lower(X.., Z..)``: ``rank(Z) < rank(X)``: the earlier levels equal entry by
    entry, and at one level every entry ``<=`` and one ``<``."""
    xs, zs = _names("X", n), _names("Z", n)
    defs: list[tuple[str, str]] = []
    pairs: list[list[tuple[str, str]]] = []
    ex, ez = Encoder({"h": xs}), Encoder({"h": zs})
    ez.count = 10_000  # distinct fresh names on the two sides
    for level in levels:
        row = []
        for node in level:
            (p, dp), (q, dq) = ex.term(node), ez.term(node)
            defs += dp + dq
            row.append((p, q))
        pairs.append(row)
    cases = []
    for i, row in enumerate(pairs):
        same = [f"{q} = {p}" for earlier in pairs[:i] for p, q in earlier]
        le = [f"ck_le({q}, {p})" for p, q in row]
        some = " | ".join(f"ck_lt({q}, {p})" for p, q in row)
        cases.append("(" + " & ".join([*same, *le, f"({some})"]) + ")")
    body = _bind(defs, " | ".join(cases))
    return f"pred ck_lower({_params(xs + zs)}) = {body};\n"


def obligations(n: int, hint: bool) -> dict[str, str]:
    """The checker's own two obligations (MONA text after its predicates)."""
    xs, ys, zs = _names("X", n), _names("Y", n), _names("Z", n)
    X, Y, Z = ", ".join(xs), ", ".join(ys), ", ".join(zs)
    inter = ", ".join(v for pair in zip(xs, ys, strict=True) for v in pair)
    narrow = f"ck_F({X}, {Y}, {Z}) & " if hint else ""
    return {
        "win": f"var2 {X};\n~ck_S({X}) => (ex2 {Y}: ck_move({X}, {Y}) & ck_S({Y}));\n",
        "answer": f"var2 {inter};\nck_S({X}) & ck_move({X}, {Y}) =>\n  (ex2 {Z}: {narrow}"
        f"ck_move({Y}, {Z}) & ck_S({Z}) & ck_lower({X}, {Z}));\n",
    }


def agreement(n: int) -> dict[str, str]:
    """MONA text: the prover's ``M`` and ``S`` are the checker's, for every position."""
    xs, ys = _names("X", n), _names("Y", n)
    X, Y = ", ".join(xs), ", ".join(ys)
    inter = ", ".join(v for pair in zip(xs, ys, strict=True) for v in pair)
    return {
        "the prover's move relation M": f"var2 {inter};\nM({X}, {Y}) <=> ck_move({X}, {Y});\n",
        "the prover's claim S": f"var2 {X};\nS({X}) <=> ck_S({X});\n",
    }


def small_total(n: int, rows: int) -> int:
    """The largest total whose boards have at most MONA_POSITIONS positions and MONA_MOVES moves."""
    total = 0
    while True:
        box = boards(n, total + 1)
        if (
            len(box) > MONA_POSITIONS
            or sum(len(northcott_moves(rows, p)) for p in box) > MONA_MOVES
        ):
            return total
        total += 1


def instances(rows: int, total: int, labels: dict[tuple[int, ...], str]) -> str:
    """MONA text: on every position of total at most ``total``, the checker's and the prover's
    move relations are exactly the brute-force moves, and ``ck_S``/``S`` exactly the losses."""
    n = 3 * rows
    xs, ys = _names("X", n), _names("Y", n)
    X, Y = ", ".join(xs), ", ".join(ys)

    def at(vs: list[str], pos: tuple[int, ...]) -> str:
        return " & ".join(f"{v} = {_set(k)}" for v, k in zip(vs, pos, strict=True))

    lines = [f"var2 {X}, {Y};\ntrue"]
    for p in boards(n, total):
        targets = " | ".join(f"({at(ys, q)})" for q in northcott_moves(rows, p)) or "false"
        loss = "true" if labels[p] == "loss" else "false"
        lines.append(
            f"& (({at(xs, p)}) => ((ck_move({X}, {Y}) <=> ({targets})) & (M({X}, {Y}) <=> "
            f"({targets})) & (ck_S({X}) <=> {loss}) & (S({X}) <=> {loss})))"
        )
    return "\n".join(lines) + ";\n"


def _rows(game: Any, part: dict[str, Any], claim: dict[str, Any]) -> int:
    if not isinstance(game, dict) or game.get("kind") != "northcott":
        raise CannotCheck("a loopy part for a game other than Northcott's game")
    rows = game.get("rows")
    if type(rows) is not int or not 1 <= rows <= MAX_ROWS:
        raise CannotCheck(f"Northcott's game with rows = {rows!r}")
    if game.get("misere"):
        raise CannotCheck("Northcott's game in misère play")
    for what, n in (("the proof", part.get("heaps")), ("the claim", claim.get("heaps"))):
        if n != 3 * rows:
            raise Rejected(f"{what} is about {n!r} numbers; {rows} rows have {3 * rows}")
    if part.get("claim_kind") != "p_positions" or claim.get("kind") != "p_positions":
        raise Rejected("a loopy part proves P-position claims only")
    if part.get("predicate") != claim.get("formula"):
        raise Rejected("the proof's claimed set is not the claim's predicate")
    return rows


def _rank(part: dict[str, Any], n: int) -> list[list[ast.expr]]:
    """The rank's levels, read by the checker: natural-number terms only (well-founded)."""
    rank = part.get("rank")
    if not isinstance(rank, list) or not rank:
        raise Rejected("the proof gives no rank (a list of levels of terms)")
    levels = []
    for level in rank:
        if not isinstance(level, list) or not level:
            raise Rejected("a rank level must be a non-empty list of terms")
        try:
            nodes = [read(str(t), ("h",), n) for t in level]
        except Outside as exc:
            raise Rejected(f"a rank entry is not a natural-number term ({exc})") from None
        for node, text in zip(nodes, level, strict=True):
            if isinstance(node, ast.Compare | ast.BoolOp | ast.UnaryOp) or (
                isinstance(node, ast.Constant) and type(node.value) is bool
            ):
                raise Rejected(f"the rank entry {text!r} is not a number")
        levels.append(nodes)
    return levels


def _mona(text: str, name: str, timeout: float) -> None:
    answer, out = run_mona(text, timeout)
    if answer == "error":
        raise Rejected(f"MONA cannot read {name}: {out.strip()[:160]}")
    if answer != "valid":
        detail = " ".join(line.strip() for line in out.splitlines() if " = " in line)[:200]
        raise Rejected(f"{name}: MONA says {answer} ({detail})")


def check_part(
    part: dict[str, Any], game: Any, claim: dict[str, Any], read_file: Any, timeout: float
) -> list[str]:
    """Re-check one ``loopy`` part; the lines of what was checked. Raises Rejected / CannotCheck."""
    rows = _rows(game, part, claim)
    n = 3 * rows
    try:
        claimed = read(str(claim.get("formula")), ("h",), n)
    except Outside as exc:
        raise CannotCheck(f"the predicate is outside the checker's fragment ({exc})") from None
    if isinstance(claimed, ast.Constant) and type(claimed.value) is int:
        raise Rejected("the predicate is a number, not a truth value")
    levels = _rank(part, n)
    hint: list[ast.expr] | None = None
    if part.get("answer"):
        texts = part["answer"]
        if not isinstance(texts, list) or len(texts) != n:
            raise Rejected(f"the answer hint must give {n} terms")
        try:
            hint = [read(str(t), ("x", "h"), n, hint=True) for t in texts]
        except Outside:
            hint = None  # a hint the checker does not read: its search goes without it
    listed = {ob.get("name"): ob for ob in part.get("obligations", []) if isinstance(ob, dict)}
    missing = [r for r in REQUIRED if r not in listed]
    if missing:
        raise Rejected(f"the certificate lists no obligation {', '.join(missing)}")
    for name, ob in listed.items():
        if ob.get("mona") != "valid":
            raise Rejected(f"obligation {name}: MONA's recorded answer is {ob.get('mona')!r}")
        read_file(ob.get("file", ""))  # listed with its sha256
    header = plain_header(read_file(part.get("header", "")))
    try:
        own = PRIMITIVES + OWN + move_relation(rows) + claim_set(claimed, n) + lower(levels, n)
        own += answer_hint(hint, n) if hint else ""
    except Outside as exc:
        raise CannotCheck(f"the checker cannot encode the claim ({exc})") from None
    done = _outcomes(rows, claimed)
    for name, body in obligations(n, hint is not None).items():
        _mona("ws1s;\n" + own + body, f"obligation {name}", timeout)
        done.append(f"{name}: valid (MONA, the checker's own obligation and encoding)")
    if hint:
        done.append("the answer hint (read by the checker) narrowed obligation answer's search")
    done.append(
        f"rank: {len(levels)} level(s) of natural-number terms, lexicographic over the levels "
        "and entry by entry inside a level: well-founded, so the induction holds"
    )
    small = small_total(n, rows)
    labels = outcomes(rows, boards(n, small))
    _mona(
        header + own + instances(rows, small, labels),
        f"small instances (total <= {small}): move relation and claim against brute force",
        timeout,
    )
    count = math.comb(small + n, n)
    done.append(
        f"small instances, the {count} positions of total <= {small}: the checker's and the "
        "prover's move relations are the brute-force moves, both claims the brute-force losses"
    )
    for name, body in agreement(n).items():
        _mona(header + own + body, name, timeout)
        done.append(f"{name} is the checker's for every position (MONA)")
    return done


def _outcomes(rows: int, claimed: ast.expr) -> list[str]:
    """Compare the predicate with the checker's own outcomes on every position of total up to
    the largest that keeps PYTHON_POSITIONS positions; Rejected at the first disagreement."""
    n = 3 * rows
    total = 0
    while len(boards(n, total + 1)) <= PYTHON_POSITIONS:
        total += 1
    box = boards(n, total)
    labels = outcomes(rows, box)
    for p in box:
        says = bool(value(claimed, {"h": p}))
        if labels[p] == "draw" or says != (labels[p] == "loss"):
            raise Rejected(
                f"at {p} the claim says {'loss' if says else 'win'} for the mover; the checker's "
                f"retrograde analysis says {labels[p]}"
            )
    return [
        f"every position of total <= {total} ({len(box):,}): the checker's own retrograde "
        "outcomes are losses exactly where the predicate holds, wins elsewhere, no draws"
    ]
