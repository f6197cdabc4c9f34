"""Compile formulas to WS1S, the input language of the MONA decision procedure.

A natural number is the finite set of the positions of its 1 bits
(``5 = {0, 2}``), a bijection with no width and no overflow. A formula about
heaps therefore becomes a formula of weak monadic second-order logic of one
successor, which MONA decides for **every** assignment of its set variables,
that is, for heaps of every size.

How a term is represented while compiling (:class:`Num`):

* ``bit(p)`` is a WS1S formula saying "bit ``p`` of the value is 1", so that
  ``^ & |``, shifts by constants and constants themselves need no new
  variable;
* ``defs`` are fresh set (``var2``) or boolean (``var0``) variables with a
  *functional* definition (exactly one value satisfies it): a sum ``Z = A + B``
  through a carry set, a quotient ``Q = A // m`` through ``m*Q + R = A``, a
  counter for ``count``/``colsum``. They are quantified existentially at the
  atom (the comparison) that uses them; because each definition is
  functional, this is the same as the universal reading;
* ``guard`` holds exactly where the term is a natural number. The only source
  of a negative value is ``-``: ``a - b`` is defined through ``b + Z = a``,
  which has no solution where ``b > a``. Comparisons are first brought into
  the form "sum of terms op sum of terms" (``x - 1 - k >= 0`` becomes
  ``x >= 1 + k``), so that a negative intermediate inside a comparison is
  exact; a negative value anywhere else leaves the guard false there, and the
  prover proves the guard everywhere before trusting the formula.

A :class:`Fin` is a term with finitely many values (``bit(x, b)``,
``colsum(h, b)``, ``count(...)``), kept as one formula per value.

What is not expressible in WS1S, whatever the encoding (products of two
variables, shifts by a variable, ``popcount`` and ``bit_length`` as numbers,
``xor``/``sum`` over ``bits``), raises :class:`NotExpressible`; the compiler
never produces an approximate translation.

``bits`` means every bit position here. The numeric evaluator ranges ``bits``
over the positions of the numbers in its environment (at least 0..63); the
two agree because a ``bits`` reduction is only compiled when its body reads
the loop variable as ``bit(x, b)`` / ``colsum(h, b)`` of heaps, which are 0 at
every position above the highest bit of every heap.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from types import MappingProxyType

from nimproof.errors import EvalError
from nimproof.expr.evaluate import MAX_SHIFT, evaluate
from nimproof.expr.nodes import (
    Binary,
    BitsDomain,
    BoolOp,
    Call,
    Compare,
    Const,
    IfElse,
    Index,
    Len,
    Node,
    RangeDomain,
    Reduce,
    SeqDomain,
    Unary,
    Var,
    children,
)
from nimproof.expr.parser import parse
from nimproof.expr.to_z3 import Unsupported
from nimproof.expr.walk import COMPARISONS, ZECKENDORF_CALLS, UnknownNode, Walker

__all__ = [
    "PRELUDE",
    "Compiled",
    "NotExpressible",
    "Pos",
    "Request",
    "SetVar",
    "compile_all",
    "compile_bool",
    "compile_equals",
    "const_set",
]

#: Largest formula text the compiler emits before it gives up (MONA would not cope anyway).
MAX_TEXT = 2_000_000

#: Predicates every MONA file starts with. ``lt``/``le`` compare numbers, ``plus``
#: is exact addition (the carry set is finite, so there is no carry out of the top).
PRELUDE = """\
pred lt(var2 A, var2 B) =
  ex1 p: (p in B & p notin A & (all1 q: q > p => (q in A <=> q in B)));
pred le(var2 A, var2 B) = ~lt(B, A);
pred plus(var2 A, var2 B, var2 Z) =
  ex2 C: (0 notin C & (all1 p:
      (p in Z <=> (p in A <=> (p in B <=> p in C)))
    & (p+1 in C <=> ((p in A & p in B) | (p in A & p in C) | (p in B & p in C)))));
"""


class NotExpressible(Unsupported):
    """The formula leaves the WS1S fragment; the message says which part and why."""

    def __init__(self, what: str) -> None:
        super().__init__(f"not expressible in WS1S: {what}")


@dataclass(frozen=True)
class SetVar:
    """A number held by a MONA set variable (a heap, a move target, a value)."""

    name: str


@dataclass(frozen=True)
class Pos:
    """A bit position held by a MONA first-order variable (a ``bits`` loop variable)."""

    name: str


Def = tuple[str, str, str]  # (kind "2" or "0", variable, defining formula)


@dataclass(frozen=True)
class Num:
    """A natural-number term: its bits, the definitions it needs, where it is defined."""

    bit: Callable[[str], str]
    defs: tuple[Def, ...] = ()
    guard: str = "true"
    setname: str | None = None
    const: int | None = None


@dataclass(frozen=True)
class Fin:
    """A term with finitely many values: ``cases[v]`` holds exactly where the value is ``v``."""

    cases: tuple[tuple[int, str], ...]
    defs: tuple[Def, ...] = ()
    guard: str = "true"


@dataclass(frozen=True)
class Compiled:
    """A compiled condition: ``formula`` is exact wherever ``guard`` holds."""

    formula: str
    guard: str = "true"


Value = Num | Fin | Compiled | SetVar | Pos | int | bool


def const_set(value: int) -> str:
    """The MONA set constant of a natural number (``5`` -> ``{0,2}``)."""
    if value < 0:
        raise NotExpressible(f"the negative constant {value}")
    bits = [str(i) for i in range(value.bit_length()) if value >> i & 1]
    return "{" + ",".join(bits) + "}"


def _and(*parts: str) -> str:
    return _junction(parts, "&", "true", "false")


def _or(*parts: str) -> str:
    return _junction(parts, "|", "false", "true")


def _junction(parts: tuple[str, ...], op: str, unit: str, zero: str) -> str:
    """``parts`` joined by ``op``, simplified: ``unit`` parts dropped, any ``zero`` part decides."""
    keep = [p for p in parts if p != unit]
    if zero in keep:
        return zero
    if not keep:
        return unit
    return keep[0] if len(keep) == 1 else "(" + f" {op} ".join(keep) + ")"


def _not(a: str) -> str:
    return {"true": "false", "false": "true"}.get(a, f"~({a})")


def _implies(a: str, b: str) -> str:
    if a == "false" or b == "true":
        return "true"
    if a == "true":
        return b
    return f"({a} => {b})"


def _iff(a: str, b: str) -> str:
    if a == b:
        return "true"
    return f"({a} <=> {b})"


def _xor(a: str, b: str) -> str:
    if a == "false":
        return b
    if b == "false":
        return a
    return f"~({a} <=> {b})"


def compile_bool(
    node: Node,
    env: Mapping[str, object],
    compiler_class: type[_Core] | None = None,
    folded: Mapping[int, tuple[Node, int | bool | None]] | None = None,
) -> Compiled:
    """Compile a condition; ``env`` maps names to :class:`SetVar`, ints or sequences.

    A sequence (the heaps ``h``) is a tuple of :class:`SetVar`. The result is
    exact wherever its guard holds. Raises :class:`NotExpressible` outside WS1S.
    ``compiler_class`` chooses the numeration (binary :class:`Ws1sCompiler` by default);
    ``folded``: constant subtrees of ``node`` already evaluated, by id
    (:func:`nimproof.expr.evaluate.constant_values`).
    """
    compiler = (compiler_class or Ws1sCompiler)(dict(env))
    if folded:
        compiler.folded = folded
    out = compiler.cond(node, compiler.env)
    if len(out.formula) + len(out.guard) > MAX_TEXT:
        raise NotExpressible("the formula is too large once unrolled")
    return out


def compile_equals(
    node: Node,
    target: SetVar,
    env: Mapping[str, object],
    compiler_class: type[_Core] | None = None,
    folded: Mapping[int, tuple[Node, int | bool | None]] | None = None,
) -> Compiled:
    """The condition "``target`` equals the int-valued ``node``" (exact where its guard holds;
    ``folded`` as in :func:`compile_bool`)."""
    name = "__target__"
    cmp = Compare(node.pos, "bool", ("==",), (Var(node.pos, "int", name), node))
    compiler = (compiler_class or Ws1sCompiler)({**env, name: target})
    if folded:
        compiler.folded = folded
    out = compiler.cond(cmp, compiler.env)
    if len(out.formula) + len(out.guard) > MAX_TEXT:
        raise NotExpressible("the formula is too large once unrolled")
    return out


#: One compilation asked of :func:`compile_all`: the formula (a tree, or a condition's text,
#: parsed with the names of ``names`` as its variables), the names (a str is a MONA set
#: variable, a tuple of str a sequence of them, an int a constant), and the set variable an
#: int-valued formula must equal (None: the formula is a condition).
Request = tuple["Node | str", Mapping[str, object], "str | None"]


def compile_all(
    requests: Sequence[Request],
    compiler_class: type[_Core] | None = None,
    folded: Mapping[int, tuple[Node, int | bool | None]] | None = None,
) -> list[Compiled]:
    """Compile every request, in order, in one call (a claim's formula and its game's move
    relations: what one proof by automata needs): each as :func:`compile_bool` (``target``
    None) or :func:`compile_equals` would, with a fresh compiler each (``folded``: as in
    :func:`compile_bool`, for every request)."""
    out = []
    for source, names, target in requests:
        env = {k: _named(v) for k, v in names.items()}
        if isinstance(source, str):
            scalars = [k for k, v in names.items() if isinstance(v, str)]
            sequences = [k for k, v in names.items() if isinstance(v, tuple)]
            node = parse(source, scalars, sequences, result="bool")
        else:
            node = source
        if target is None:
            out.append(compile_bool(node, env, compiler_class, folded))
        else:
            out.append(compile_equals(node, SetVar(target), env, compiler_class, folded))
    return out


def _named(value: object) -> object:
    """A name of :data:`Request` as the compiler's value (set variables from their names)."""
    if isinstance(value, str):
        return SetVar(value)
    if isinstance(value, tuple) and all(isinstance(x, str) for x in value):
        return tuple(SetVar(x) for x in value)
    return value


class _Core(Walker[Value]):
    """The compiler's building blocks; :class:`Ws1sCompiler` adds the node handlers."""

    #: True for binary numeration (bit positions); a subclass for another numeration sets False
    #: and its own constants (:meth:`const_set`, :meth:`const_bit`).
    binary = True

    #: Subtrees already folded (:func:`nimproof.expr.evaluate.constant_values`), by id.
    folded: Mapping[int, tuple[Node, int | bool | None]] = MappingProxyType({})

    def __init__(self, env: dict[str, object]) -> None:
        self.env = env
        self.counter = itertools.count()

    def const_set(self, value: int) -> str:
        """The MONA set constant of a natural number in this numeration."""
        return const_set(value)

    def const_bit(self, value: int) -> Callable[[str], str]:
        """ "Position ``p`` is in the set of ``value``", as a formula builder."""
        return _const_bit(value)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self.counter)}"

    # -- dispatch ----------------------------------------------------------------
    def cond(self, node: Node, env: Mapping[str, object]) -> Compiled:
        """Compile a bool-valued node."""
        value = self.value(node, env)
        if isinstance(value, Compiled):
            return value
        if isinstance(value, bool):
            return Compiled("true" if value else "false")
        raise NotExpressible("a number where a condition is expected")

    def value(self, node: Node, env: Mapping[str, object]) -> Value:
        """Compile any node: constants fold to Python values, conditions to :class:`Compiled`."""
        folded = self.fold(node, env)
        if folded is not None:
            return folded
        try:
            return self.walk(node, env)
        except UnknownNode:
            raise NotExpressible(f"{type(node).__name__} nodes") from None

    def fold(self, node: Node, env: Mapping[str, object]) -> int | bool | None:
        """The exact value of ``node`` when it reads only constants (and lengths); the
        constants folded when the claim was prepared (:attr:`folded`) are read, not
        evaluated again."""
        if isinstance(node, Const):
            return node.value  # a literal is its own exact value
        known = self.folded.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        if not _static(node, env):
            return None
        plain: dict[str, object] = {}
        for k, v in env.items():
            if isinstance(v, bool | int):
                plain[k] = v
            elif isinstance(v, tuple):
                plain[k] = (0,) * len(v)
        try:
            return evaluate(node, plain)
        except EvalError:
            return None  # undefined constants are compiled (and caught by a guard)

    # -- numbers ---------------------------------------------------------------------
    def num(self, node: Node, env: Mapping[str, object]) -> Num:
        """Compile an int-valued node to a :class:`Num`."""
        return self.as_num(self.value(node, env))

    def as_num(self, v: Value) -> Num:
        if isinstance(v, Num):
            return v
        if isinstance(v, bool):
            raise NotExpressible("a condition used as a number")
        if isinstance(v, int):
            if v < 0:
                raise NotExpressible(f"the negative value {v} outside a comparison")
            return Num(self.const_bit(v), const=v)
        if isinstance(v, SetVar):
            name = v.name
            return Num(lambda p: f"({p} in {name})", setname=name)
        if isinstance(v, Fin):
            if len(v.cases) == 1 and v.cases[0][1] == "true" and not v.defs:
                return self.as_num(v.cases[0][0])
            cases = [(c, f) for c, f in v.cases if c != 0]
            if any(c < 0 for c, _ in cases):
                raise NotExpressible("a negative value outside a comparison")

            def bit(p: str) -> str:
                return _or(*[_and(f, self.const_bit(c)(p)) for c, f in cases])

            return Num(bit, v.defs, v.guard)
        if isinstance(v, Pos):
            raise NotExpressible("a bit position used as a number")
        raise NotExpressible("a condition used as a number")

    def materialize(self, a: Num) -> tuple[str, Num]:
        """A set variable holding ``a`` (a new defined variable unless it already is one)."""
        if a.setname is not None:
            return a.setname, a
        if a.const is not None:
            return self.const_set(a.const), a
        z = self.fresh("T")
        p = self.fresh("p")
        d: Def = ("2", z, f"(all1 {p}: (({p} in {z}) <=> {a.bit(p)}))")
        return z, Num(lambda q: f"({q} in {z})", (*a.defs, d), a.guard, setname=z)

    def defined(self, kind: str, formula: str, *parts: Num | Fin) -> Num:
        """A new set variable ``Z`` defined by ``formula`` (which names it ``{Z}``)."""
        z = self.fresh("T")
        defs = tuple(d for part in parts for d in part.defs)
        guard = _and(*[part.guard for part in parts])
        return Num(
            lambda q: f"({q} in {z})",
            (*defs, (kind, z, formula.replace("{Z}", z))),
            guard,
            setname=z,
        )

    def plus(self, a: Num, b: Num) -> Num:
        if a.const == 0:
            return b
        if b.const == 0:
            return a
        if a.const is not None and b.const is not None:
            return self.as_num(a.const + b.const)
        an, a = self.materialize(a)
        bn, b = self.materialize(b)
        return self.defined("2", f"plus({an}, {bn}, {{Z}})", a, b)

    def times(self, c: int, a: Num) -> Num:
        """``c * a`` for a constant ``c >= 0``: the sum of ``2**j * a`` over the bits of ``c``."""
        if c == 0:
            return self.as_num(0)
        if a.const is not None:
            return self.as_num(c * a.const)
        out: Num | None = None
        for j, part in enumerate(self.doublings(a, c.bit_length())):
            if c >> j & 1:
                out = part if out is None else self.plus(out, part)
        assert out is not None
        return out

    def doublings(self, a: Num, count: int) -> Iterator[Num]:
        """``a, 2a, 4a, ...`` (``count`` terms): shifts by one bit each."""
        for j in range(count):
            yield self.shl(a, j)

    def shl(self, a: Num, c: int) -> Num:
        """``a << c``: bit ``p`` of the result is bit ``p - c`` of ``a``."""
        return self._shift(a, c, "{p} = {r} + {c}")

    def shr(self, a: Num, c: int) -> Num:
        """``a >> c``: bit ``p`` of the result is bit ``p + c`` of ``a``."""
        return self._shift(a, c, "{r} = {p} + {c}")

    def _shift(self, a: Num, c: int, relation: str) -> Num:
        """``a`` shifted by ``c``: bit ``p`` is bit ``r`` of ``a`` for the ``r`` in ``relation``."""
        if c == 0:
            return a
        r = self.fresh("p")

        def bit(p: str) -> str:
            return f"(ex1 {r}: ({relation.format(p=p, r=r, c=c)} & {a.bit(r)}))"

        return Num(bit, a.defs, a.guard)

    def divmod(self, a: Num, m: int) -> tuple[Num, Num]:
        """Quotient and remainder by a constant ``m >= 1``: ``m*Q + R = a``, ``R < m``."""
        if m & (m - 1) == 0 and (self.binary or m == 1):
            k = m.bit_length() - 1
            if k == 0:
                return a, self.as_num(0)
            rem = Num(lambda p: _and(f"({p} < {k})", a.bit(p)), a.defs, a.guard)
            return self.shr(a, k), rem
        an, a = self.materialize(a)
        q = self.fresh("T")
        r = self.fresh("T")
        mq = self.times(m, Num(lambda p: f"({p} in {q})", setname=q))
        mqn, mq = self.materialize(mq)
        # Q and R are defined together: one definition carries both (and the product's).
        body = _and(
            *[d[2] for d in mq.defs], f"plus({mqn}, {r}, {an})", f"lt({r}, {self.const_set(m)})"
        )
        inner = [d[1] for d in mq.defs]
        formula = f"(ex2 {', '.join(inner)}: {body})" if inner else body
        defs = (*a.defs, ("2", q, "true"), ("2", r, formula))
        quotient = Num(lambda p: f"({p} in {q})", defs, a.guard, setname=q)
        remainder = Num(lambda p: f"({p} in {r})", defs, a.guard, setname=r)
        return quotient, remainder

    # -- atoms ---------------------------------------------------------------------------
    def wrap(self, defs: tuple[Def, ...], body: str) -> str:
        """``body`` with the defined variables quantified existentially around it."""
        seen: dict[str, Def] = {}
        for d in defs:
            seen.setdefault(d[1], d)
        if not seen or (body in ("true", "false") and not seen):
            return body
        sets = [n for k, n, _ in seen.values() if k == "2"]
        bools = [n for k, n, _ in seen.values() if k == "0"]
        inner = _and(*[f for _, _, f in seen.values()], body)
        if bools:
            inner = f"(ex0 {', '.join(bools)}: {inner})"
        if sets:
            inner = f"(ex2 {', '.join(sets)}: {inner})"
        return inner

    def atom(self, parts: list[Num | Fin], body: str) -> Compiled:
        defs = tuple(d for part in parts for d in part.defs)
        guard = _and(*[part.guard for part in parts])
        return Compiled(self.wrap(defs, body), guard)


def _static(node: Node, env: Mapping[str, object]) -> bool:
    """True when ``node`` reads no variable value (constants, parameters and lengths only)."""
    if isinstance(node, Var):
        return isinstance(env.get(node.name), bool | int)
    if isinstance(node, Index):
        return False
    if isinstance(node, Len):
        return isinstance(env.get(node.domain.name), tuple)
    if isinstance(node, Reduce):
        if isinstance(node.domain, SeqDomain | BitsDomain):
            return False
        inner = {**env, node.var: 0}
        dom = node.domain
        return all(_static(x, env) for x in (dom.start, dom.stop, dom.step)) and _static(
            node.body, inner
        )

    return all(_static(c, env) for c in children(node))


def _const_bit(value: int) -> Callable[[str], str]:
    bits = [i for i in range(value.bit_length()) if value >> i & 1]

    def bit(p: str) -> str:
        return _or(*[f"({p} = {i})" for i in bits])

    return bit


# ---------------------------------------------------------------------------
# comparisons
# ---------------------------------------------------------------------------


@dataclass
class Linear:
    """A flattened sum: ``sum(k * leaf) + const``."""

    terms: list[tuple[int, Node]] = field(default_factory=list)
    const: int = 0


def _linear(c: _Core, node: Node, env: Mapping[str, object], coef: int, acc: Linear) -> None:
    """Flatten ``+ - *const`` into ``acc``: signed leaves and a constant."""
    folded = c.fold(node, env)
    if folded is not None:
        acc.const += coef * int(folded)  # a constant condition counts as 0 or 1
        return
    if isinstance(node, Binary) and node.op in ("+", "-"):
        _linear(c, node.left, env, coef, acc)
        _linear(c, node.right, env, coef if node.op == "+" else -coef, acc)
        return
    if isinstance(node, Unary) and node.op == "-":
        _linear(c, node.operand, env, -coef, acc)
        return
    if isinstance(node, Binary) and node.op == "*":
        left, right = c.fold(node.left, env), c.fold(node.right, env)
        if isinstance(left, int) and not isinstance(left, bool):
            _linear(c, node.right, env, coef * left, acc)
            return
        if isinstance(right, int) and not isinstance(right, bool):
            _linear(c, node.left, env, coef * right, acc)
            return
        raise NotExpressible("a product of two variables")
    if coef:
        acc.terms.append((coef, node))


def _split(acc: Linear) -> tuple[list[tuple[int, Node]], int]:
    return acc.terms, acc.const


def _side(c: _Core, leaves: list[tuple[int, Value]], const: int) -> Value:
    """The sum ``sum(k * leaf) + const`` of natural terms, as a Fin when every leaf is finite."""
    if not leaves:
        return c.as_num(const)
    if all(isinstance(v, Fin) for _, v in leaves) and len(leaves) <= 3:
        out: Fin = Fin(((const, "true"),))
        for k, v in leaves:
            assert isinstance(v, Fin)
            out = _fin_combine(out, v, partial(_scaled_add, k))
        return out
    total: Num = c.as_num(const)
    for k, v in leaves:
        total = c.plus(total, c.times(k, c.as_num(v)))
    return total


def _as_number(v: Value) -> Value:
    """A condition read as a number: the finite term that is 1 where it holds, 0 elsewhere
    (exact where the condition's guard holds, like every other term)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, Compiled):
        return Fin(((0, _not(v.formula)), (1, v.formula)), guard=v.guard)
    return v


def _scaled_add(k: int, a: int, b: int) -> int:
    return a + k * b


def _fin_combine(a: Fin, b: Fin, op: Callable[[int, int], int]) -> Fin:
    cases: dict[int, list[str]] = {}
    for va, fa in a.cases:
        for vb, fb in b.cases:
            f = _and(fa, fb)
            if f != "false":
                cases.setdefault(op(va, vb), []).append(f)
    if len(cases) > 256:
        raise NotExpressible("a finite-valued term with too many values")
    return Fin(
        tuple((v, _or(*fs)) for v, fs in sorted(cases.items())),
        (*a.defs, *b.defs),
        _and(a.guard, b.guard),
    )


def _compare_pair(
    c: _Core, op: str, left: Node, right: Node, env: Mapping[str, object]
) -> Compiled:
    acc = Linear()
    _linear(c, left, env, 1, acc)
    _linear(c, right, env, -1, acc)
    leaves, const = _split(acc)
    values = [(k, _as_number(c.value(n, env))) for k, n in leaves]
    pos = [(k, v) for k, v in values if k > 0]
    neg = [(-k, v) for k, v in values if k < 0]
    a = _side(c, pos, max(const, 0))
    b = _side(c, neg, max(-const, 0))
    if isinstance(a, Fin) and isinstance(b, Fin):
        both = _fin_combine(a, b, lambda x, y: int(COMPARISONS[op](x, y)))
        yes = _or(*[f for v, f in both.cases if v])
        return c.atom([both], yes)
    x, y = c.as_num(a), c.as_num(b)
    return c.atom([x, y], _num_cmp(c, op, x, y))


def _num_cmp(c: _Core, op: str, a: Num, b: Num) -> str:
    if op in ("==", "!="):
        eq = _eq(c, a, b)
        return eq if op == "==" else _not(eq)
    if op == "<":
        return _lt(c, a, b)
    if op == ">":
        return _lt(c, b, a)
    if op == "<=":
        return _not(_lt(c, b, a))
    return _not(_lt(c, a, b))


def _name(c: _Core, a: Num) -> str | None:
    if a.setname is not None:
        return a.setname
    if a.const is not None:
        return c.const_set(a.const)
    return None


def _eq(c: _Core, a: Num, b: Num) -> str:
    an, bn = _name(c, a), _name(c, b)
    if an is not None and bn is not None:
        return f"{an} = {bn}"
    p = c.fresh("p")
    if b.const == 0:
        return f"(all1 {p}: ~{a.bit(p)})"
    if a.const == 0:
        return f"(all1 {p}: ~{b.bit(p)})"
    return f"(all1 {p}: ({a.bit(p)} <=> {b.bit(p)}))"


def _lt(c: _Core, a: Num, b: Num) -> str:
    an, bn = _name(c, a), _name(c, b)
    if an is not None and bn is not None:
        return f"lt({an}, {bn})"
    p, q = c.fresh("p"), c.fresh("p")
    return (
        f"(ex1 {p}: ({_not(a.bit(p))} & {b.bit(p)} & "
        f"(all1 {q}: {q} > {p} => ({a.bit(q)} <=> {b.bit(q)}))))"
    )


def _compare(c: _Core, node: Compare, env: Mapping[str, object]) -> Compiled:
    parts = [
        _compare_pair(c, op, node.operands[i], node.operands[i + 1], env)
        for i, op in enumerate(node.ops)
    ]
    return _conjoin(parts)


def _conjoin(parts: list[Compiled]) -> Compiled:
    """Short-circuit ``and``: a later part need only be defined where the earlier ones hold."""
    formula = "true"
    guard = "true"
    for part in parts:
        guard = _and(guard, _implies(formula, part.guard))
        formula = _and(formula, part.formula)
    return Compiled(formula, guard)


def _disjoin(parts: list[Compiled]) -> Compiled:
    formula = "false"
    guard = "true"
    for part in parts:
        guard = _and(guard, _implies(_not(formula), part.guard))
        formula = _or(formula, part.formula)
    return Compiled(formula, guard)


# ---------------------------------------------------------------------------
# node handlers (one per node type)
# ---------------------------------------------------------------------------


def _h_const(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Const)
    return node.value


def _h_var(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Var)
    v = env.get(node.name)
    if isinstance(v, SetVar | Pos | bool | int):
        return v
    raise NotExpressible(f"the variable {node.name!r} has no WS1S value")


def _h_index(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Index)
    seq = env.get(node.seq)
    i = c.fold(node.index, env)
    if not isinstance(seq, tuple) or not isinstance(i, int) or isinstance(i, bool):
        raise NotExpressible(f"{node.seq}[...] with an index that is not a constant")
    if not -len(seq) <= i < len(seq):  # Python's rule: h[-1] is the last heap
        raise NotExpressible(f"the index {i} is out of range")
    return seq[i]


def _h_len(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    raise NotExpressible("len of a sequence without a fixed length")


def _h_unary(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Unary)
    if node.op == "not":
        inner = c.cond(node.operand, env)
        return Compiled(_not(inner.formula), inner.guard)
    raise NotExpressible("a negative number outside a comparison")


def _h_boolop(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, BoolOp)
    parts = [c.cond(v, env) for v in node.values]
    return _conjoin(parts) if node.op == "and" else _disjoin(parts)


def _h_compare(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Compare)
    return _compare(c, node, env)


def _h_ifelse(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, IfElse)
    test = c.cond(node.test, env)
    t = test.formula
    if node.type == "bool":
        yes, no = c.cond(node.body, env), c.cond(node.orelse, env)
        formula = _or(_and(t, yes.formula), _and(_not(t), no.formula))
        guard = _and(test.guard, _implies(t, yes.guard), _implies(_not(t), no.guard))
        return Compiled(formula, guard)
    body, orelse = c.value(node.body, env), c.value(node.orelse, env)
    if (
        isinstance(body, Fin | int)
        and isinstance(orelse, Fin | int)
        and not (isinstance(body, bool) or isinstance(orelse, bool))
    ):
        fa = body if isinstance(body, Fin) else Fin(((body, "true"),))
        fb = orelse if isinstance(orelse, Fin) else Fin(((orelse, "true"),))
        cases: dict[int, list[str]] = {}
        for v, f in fa.cases:
            cases.setdefault(v, []).append(_and(t, f))
        for v, f in fb.cases:
            cases.setdefault(v, []).append(_and(_not(t), f))
        defs = (*_conditional(fa.defs, t), *_conditional(fb.defs, _not(t)))
        guard = _and(test.guard, _implies(t, fa.guard), _implies(_not(t), fb.guard))
        return Fin(tuple((v, _or(*fs)) for v, fs in sorted(cases.items())), defs, guard)
    a, b = c.as_num(body), c.as_num(orelse)

    def bit(p: str) -> str:
        return _or(_and(t, a.bit(p)), _and(_not(t), b.bit(p)))

    defs = (*_conditional(a.defs, t), *_conditional(b.defs, _not(t)))
    guard = _and(test.guard, _implies(t, a.guard), _implies(_not(t), b.guard))
    return Num(bit, defs, guard)


def _conditional(defs: tuple[Def, ...], cond: str) -> tuple[Def, ...]:
    """Definitions that only bind where ``cond`` holds (a branch that is not taken is free)."""
    return tuple((k, n, _implies(cond, f)) for k, n, f in defs)


def _h_binary(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Binary)
    op = node.op
    if op in ("+", "-", "*"):
        acc = Linear()
        _linear(c, node, env, 1, acc)
        leaves, const = _split(acc)
        values = [(k, c.value(n, env)) for k, n in leaves]
        pos = [(k, v) for k, v in values if k > 0]
        neg = [(-k, v) for k, v in values if k < 0]
        a = _side(c, pos, max(const, 0))
        if not neg and const >= 0:
            return a
        b = _side(c, neg, max(-const, 0))
        if isinstance(a, Fin) and isinstance(b, Fin):
            return _fin_combine(a, b, lambda x, y: x - y)
        x, y = c.as_num(a), c.as_num(b)
        xn, x = c.materialize(x)
        yn, y = c.materialize(y)
        out = c.defined("2", f"plus({yn}, {{Z}}, {xn})", x, y)
        # Defined (a natural number) exactly where y <= x.
        ok = c.wrap((*x.defs, *y.defs), f"le({yn}, {xn})")
        return replace(out, guard=_and(out.guard, ok))
    if op == "**":
        raise NotExpressible("a power with a variable base or exponent")
    right = c.fold(node.right, env)
    if op in ("//", "%"):
        if not isinstance(right, int) or isinstance(right, bool):
            raise NotExpressible(f"'{op}' by a variable")
        if right <= 0:
            raise NotExpressible(f"'{op}' by the constant {right}")
        return _divmod(c, node, env, right)
    if op in ("<<", ">>"):
        return _shift(c, node, env, right)
    return _bitwise(c, op, c.value(node.left, env), c.value(node.right, env))


def _divmod(c: _Core, node: Binary, env: Mapping[str, object], m: int) -> Value:
    if node.op == "%" and m == 2 and isinstance(node.left, Call) and node.left.func == "popcount":
        return _popcount_parity(c, node.left.args[0], env)
    counted = _counter_items(c, node.left, env) if node.op == "%" else None
    if counted is not None:
        return _counter(c, counted, m)
    left = c.value(node.left, env)
    if isinstance(left, Fin):
        if any(v < 0 for v, _ in left.cases):
            raise NotExpressible("'%' of a possibly negative finite term")
        return _fin_combine(
            left, Fin(((m, "true"),)), lambda a, b: a // b if node.op == "//" else a % b
        )
    q, r = c.divmod(c.as_num(left), m)
    return q if node.op == "//" else r


def _popcount_parity(c: _Core, arg: Node, env: Mapping[str, object]) -> Fin:
    """``popcount(arg) % 2``: a set ``P`` with ``p in P`` iff the bits of ``arg`` at ``p``
    and above have odd parity (unique: ``P`` is finite, so empty above the top bit);
    the count is odd iff ``0 in P``."""
    x, a = c.materialize(c.num(arg, env))
    z, p = c.fresh("T"), c.fresh("p")
    d: Def = ("2", z, f"(all1 {p}: (({p} in {z}) <=> ~(({p} in {x}) <=> ({p} + 1 in {z}))))")
    return Fin(((0, f"(0 notin {z})"), (1, f"(0 in {z})")), (*a.defs, d), a.guard)


def _shift(c: _Core, node: Binary, env: Mapping[str, object], right: object) -> Value:
    if isinstance(right, int) and not isinstance(right, bool):
        if right < 0:
            raise NotExpressible("a shift by a negative amount")
        if node.op == "<<" and right > MAX_SHIFT:  # undefined in the formula language
            raise NotExpressible(f"a shift by {right} (more than {MAX_SHIFT} is undefined)")
        a = c.num(node.left, env)
        return c.shl(a, right) if node.op == "<<" else c.shr(a, right)
    r = c.value(node.right, env)
    if isinstance(r, Pos) and node.op == ">>":
        left = c.value(node.left, env)
        if isinstance(left, SetVar):
            inside = f"({r.name} in {left.name})"
            return Fin(((0, _not(inside)), (1, inside)))
        raise NotExpressible("a bit position applied to a computed number")
    raise NotExpressible("a shift by a variable amount")


def _bitwise(c: _Core, op: str, left: Value, right: Value) -> Value:
    if isinstance(left, Fin) and isinstance(right, int) and not isinstance(right, bool):
        right = Fin(((right, "true"),))
    if isinstance(right, Fin) and isinstance(left, int) and not isinstance(left, bool):
        left = Fin(((left, "true"),))
    fn: dict[str, Callable[[int, int], int]] = {
        "&": lambda x, y: x & y,
        "|": lambda x, y: x | y,
        "^": lambda x, y: x ^ y,
    }
    if isinstance(left, Fin) and isinstance(right, Fin):
        if any(v < 0 for v, _ in (*left.cases, *right.cases)):
            raise NotExpressible("a bitwise operation on a possibly negative term")
        return _fin_combine(left, right, fn[op])
    a, b = c.as_num(left), c.as_num(right)
    join = _JOIN[op]
    return Num(lambda p: join(a.bit(p), b.bit(p)), (*a.defs, *b.defs), _and(a.guard, b.guard))


def _and2(a: str, b: str) -> str:
    return _and(a, b)


def _or2(a: str, b: str) -> str:
    return _or(a, b)


_JOIN: dict[str, Callable[[str, str], str]] = {"&": _and2, "|": _or2, "^": _xor}


def _h_call(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Call)
    if node.func in ("max", "min"):
        values = [c.num(a, env) for a in node.args]
        out = values[0]
        for v in values[1:]:
            out = _pick(c, node.func, out, v)
        return out
    if node.func == "abs":
        return c.num(node.args[0], env)  # a natural number is its own absolute value
    if node.func == "ceil_div":
        m = c.fold(node.args[1], env)
        if not isinstance(m, int) or isinstance(m, bool) or m <= 0:
            raise NotExpressible("ceil_div by a variable or a non-positive constant")
        a = c.num(node.args[0], env)
        q, _ = c.divmod(c.plus(a, c.as_num(m - 1)), m)
        return q
    if node.func in ZECKENDORF_CALLS:
        raise NotExpressible(f"{node.func} in binary numeration (it reads Zeckendorf digits)")
    raise NotExpressible(f"{node.func} as a number (counting is not regular)")


def _pick(c: _Core, func: str, a: Num, b: Num) -> Num:
    an, a = c.materialize(a)
    bn, b = c.materialize(b)
    first = f"le({bn}, {an})" if func == "max" else f"le({an}, {bn})"
    return c.defined("2", f"(({first} & {{Z}} = {an}) | (~{first} & {{Z}} = {bn}))", a, b)


def _items(c: _Core, node: Reduce, env: Mapping[str, object]) -> list[object]:
    dom = node.domain
    if isinstance(dom, SeqDomain):
        seq = env.get(dom.name)
        if not isinstance(seq, tuple):
            raise NotExpressible(f"the sequence {dom.name!r} has no fixed length")
        return [seq[i] for i in dom.indices(len(seq))]
    if isinstance(dom, RangeDomain):
        bounds = [c.fold(x, env) for x in (dom.start, dom.stop, dom.step)]
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
            raise NotExpressible("a range whose bounds are not constants")
        start, stop, step = (int(b) for b in bounds)  # type: ignore[arg-type]
        if step == 0 or len(range(start, stop, step)) > 4096:
            raise NotExpressible("a range that is empty-stepped or too long to unroll")
        return list(range(start, stop, step))
    raise NotExpressible(f"{node.func} over bits")


def _counter_items(c: _Core, node: Node, env: Mapping[str, object]) -> list[Compiled] | None:
    """For ``count(...)`` or a ``sum`` of 0/1 terms over a finite domain: each item's "is 1"."""
    if not isinstance(node, Reduce) or node.func not in ("count", "sum"):
        return None
    if isinstance(node.domain, BitsDomain):
        return None
    out = []
    for item in _items(c, node, env):
        local = {**env, node.var: item}
        if node.func == "count":
            out.append(c.cond(node.body, local))
            continue
        v = c.value(node.body, local)
        if isinstance(v, bool) or not (
            (isinstance(v, Fin) and {x for x, _ in v.cases} <= {0, 1}) or v in (0, 1)
        ):
            return None
        if isinstance(v, int):
            out.append(Compiled("true" if v else "false"))
        else:
            if v.defs:
                return None
            one = _or(*[f for x, f in v.cases if x == 1])
            out.append(Compiled(one, v.guard))
    return out


def _counter(c: _Core, items: list[Compiled], modulus: int | None) -> Fin:
    """How many items hold (mod ``modulus``), with one boolean per (item, count) cell.

    Modulo 2 the count is a parity: a chain of xors, with no cells at all.
    """
    if modulus in (1, 2):
        parity = "false"
        for item in items:
            parity = _xor(parity, item.formula) if modulus == 2 else "false"
        guard2 = _and(*[i.guard for i in items]) if items else "true"
        return Fin(((0, _not(parity)), (1, parity)), (), guard2)
    top = len(items) + 1 if modulus is None else modulus
    prev: dict[int, str] = {0: "true"}
    defs: list[Def] = []
    for item in items:
        cur: dict[int, str] = {}
        for j in range(min(top, len(prev) + 1)):
            stay = _and(prev.get(j, "false"), _not(item.formula))
            src = (j - 1) % top if modulus is not None else j - 1
            step = _and(prev.get(src, "false"), item.formula)
            cell = _or(stay, step)
            if cell in ("true", "false"):
                cur[j] = cell
                continue
            b = c.fresh("c")
            defs.append(("0", b, f"({b} <=> {cell})"))
            cur[j] = b
        prev = cur
    guard = _and(*[i.guard for i in items]) if items else "true"
    return Fin(tuple(sorted(prev.items())), tuple(defs), guard)


def _h_reduce(c: _Core, node: Node, env: Mapping[str, object]) -> Value:
    assert isinstance(node, Reduce)
    if isinstance(node.domain, BitsDomain):
        if node.func not in ("all", "any"):
            raise NotExpressible(f"{node.func} over bits")
        p = c.fresh("b")
        body = c.cond(node.body, {**env, node.var: Pos(p)})
        if body.guard != "true":
            raise NotExpressible("a condition over bits that may be undefined")
        q = "all1" if node.func == "all" else "ex1"
        return Compiled(f"({q} {p}: {body.formula})")
    counted = _counter_items(c, node, env)
    if counted is not None:
        return _counter(c, counted, None)
    items = _items(c, node, env)
    if node.func in ("all", "any"):
        parts = [c.cond(node.body, {**env, node.var: it}) for it in items]
        return _conjoin(parts) if node.func == "all" else _disjoin(parts)
    values = [c.num(node.body, {**env, node.var: it}) for it in items]
    if not values:
        return 0
    if node.func == "xor":
        out = values[0]
        for v in values[1:]:
            out = _bitwise(c, "^", out, v)  # type: ignore[assignment]
        return out
    if node.func == "sum":
        total = values[0]
        for v in values[1:]:
            total = c.plus(total, v)
        return total
    if node.func in ("max", "min"):
        out = values[0]
        for v in values[1:]:
            out = _pick(c, node.func, out, v)
        return out
    raise NotExpressible(f"the reduction {node.func}")


class Ws1sCompiler(_Core):
    """One compilation, a back end of :class:`~nimproof.expr.walk.Walker`.

    Each handler takes the environment as its extra argument (names to
    :class:`SetVar`, :class:`Pos`, ints, or tuples of :class:`SetVar`); fresh
    variable names are numbered per compiler.
    """

    walk_const = _h_const
    walk_var = _h_var
    walk_index = _h_index
    walk_len = _h_len
    walk_unary = _h_unary
    walk_binary = _h_binary
    walk_compare = _h_compare
    walk_boolop = _h_boolop
    walk_ifelse = _h_ifelse
    walk_call = _h_call
    walk_reduce = _h_reduce
