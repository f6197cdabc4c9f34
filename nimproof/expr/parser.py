"""Parse Python-like formulas into the expression tree, with a whitelist.

The text is read by Python's own parser (:func:`ast.parse`, which only builds
a syntax tree and runs nothing) and then converted node by node; anything not
on the whitelist below is an :class:`~nimproof.errors.ExprError` that names
the column. Nothing is ever evaluated with ``eval``.

The language
------------
* integers and ``True``/``False``; scalar variables declared by the caller
  (``n``, ``m``, ``k``, ``x``, ...); sequence variables (``h``, the heaps),
  read as ``h[i]``, ``len(h)`` or as the domain of a reduction;
* ``+ - * // % **`` (constant exponent at most 64), ``& | ^ << >>`` (unsigned:
  ``~`` is refused because its value depends on a width), comparisons (chains
  allowed), ``and or not``, ``a if c else b``;
* reductions ``xor sum all any max min count``: ``xor(h)``, ``sum(h[1::2])``,
  ``all(x <= 1 for x in h)``, ``all(colsum(h, b) % 3 == 0 for b in bits)``,
  ``xor(h[i] for i in range(0, len(h), 2))``; ``max(a, b)`` and ``min(a, b)``
  on scalars; ``xor(a, b, ...)`` on scalars;
* scalar functions ``popcount trailing_ones trailing_zeros bit_length abs
  ceil_div(a, b) floor_div(a, b) bit(x, i) colsum(S, i) implies(p, q)``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from nimproof.errors import ExprError
from nimproof.expr import nodes
from nimproof.expr.walk import BUILTINS

MAX_TEXT = 4000
MAX_DEPTH = 60
MAX_CONST_BITS = 256
MAX_POW = 64

REDUCTIONS = frozenset({"xor", "sum", "all", "any", "max", "min", "count"})
#: name -> number of int arguments, from the one table of built-ins (max/min are variadic).
RESERVED = (
    REDUCTIONS
    | set(BUILTINS)
    | {
        "bits",
        "range",
        "len",
        "bit",
        "colsum",
        "implies",
        "floor_div",
        "True",
        "False",
    }
)

_BINOPS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_CMPOPS: dict[type, str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}


def parse(
    text: str,
    scalars: Iterable[str] = (),
    sequences: Iterable[str] = (),
    *,
    result: nodes.Type | None = None,
) -> nodes.Node:
    """Parse ``text`` into a type-checked tree.

    ``scalars`` and ``sequences`` are the free variable names the formula may
    use; any other name is an error. ``result`` (``"int"`` or ``"bool"``),
    when given, is the type the whole formula must have. Raises
    :class:`ExprError` (with the column) for anything outside the language.
    """
    if not isinstance(text, str):
        raise ExprError(f"a formula must be text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ExprError(f"formula longer than {MAX_TEXT} characters")
    if "\x00" in text:
        raise ExprError("formula contains a NUL character")
    source = text.strip()
    if not source:
        raise ExprError("empty formula")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise ExprError(
            f"syntax error: {exc.msg}", source, _syntax_error_column(source, exc)
        ) from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("formula is nested too deeply", source) from None
    conv = _Converter(source, set(scalars), set(sequences))
    try:
        node = conv.expr(tree.body, frozenset(), 0)
    except RecursionError:
        raise ExprError("formula is nested too deeply", source) from None
    if result is not None and node.type != result:
        want = "a true/false condition" if result == "bool" else "a number"
        raise ExprError(f"expected {want}, got a {node.type} expression", source, 0)
    return node


#: One formula to parse: its text, scalar names, sequence names and result type (as
#: :func:`parse` takes them).
Request = tuple[str, Iterable[str], Iterable[str], "nodes.Type | None"]


def parse_each(requests: Sequence[Request]) -> list[nodes.Node | ExprError]:
    """:func:`parse` of each request, in one call (a claim's formula and its game's move
    relations, when the claim is prepared): each tree, or the :class:`ExprError` it raised."""
    out: list[nodes.Node | ExprError] = []
    for text, scalars, sequences, result in requests:
        try:
            out.append(parse(text, scalars, sequences, result=result))
        except ExprError as exc:
            out.append(exc)
    return out


def _syntax_error_column(source: str, exc: SyntaxError) -> int | None:
    """The 0-based column of a syntax error (``SyntaxError.offset`` counts characters from 1).

    In ``eval`` mode Python reports an unexpected end of the formula with
    offset 0; the ``exec`` mode parser (which also runs nothing) locates it.
    """
    if not exc.offset:
        try:
            ast.parse(source, mode="exec")
        except SyntaxError as again:
            exc = again
        except (RecursionError, MemoryError, ValueError):
            return None
    if not exc.offset:
        return None
    return min(_offset(source, exc.lineno or 1, exc.offset - 1, utf8=False), len(source))


def _offset(text: str, lineno: int, col: int, *, utf8: bool = True) -> int:
    lines = text.splitlines(keepends=True) or [""]
    before = sum(len(line) for line in lines[: lineno - 1])
    line = lines[min(lineno - 1, len(lines) - 1)]
    if utf8:
        col = len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))
    return before + max(col, 0)


def _bit(p: int, x: nodes.Node, b: nodes.Node) -> nodes.Node:
    """The tree of ``(x >> b) & 1``, bit ``b`` of ``x`` (at source position ``p``)."""
    return nodes.Binary(p, "int", "&", nodes.Binary(p, "int", ">>", x, b), nodes.Const(p, "int", 1))


class _Converter:
    #: Python expression type -> the method that converts it (set below the class).
    _HANDLERS: ClassVar[dict[type, Callable[..., nodes.Node]]] = {}

    def __init__(self, text: str, scalars: set[str], sequences: set[str]) -> None:
        self.text = text
        self.scalars = scalars
        self.sequences = sequences
        for name in scalars | sequences:
            if name in RESERVED or not name.isidentifier():
                raise ExprError(f"{name!r} cannot be a variable name")

    # -- helpers -----------------------------------------------------------
    def pos(self, node: ast.AST) -> int:
        return _offset(self.text, getattr(node, "lineno", 1), getattr(node, "col_offset", 0))

    def fail(self, message: str, node: ast.AST) -> ExprError:
        return ExprError(message, self.text, self.pos(node))

    def want(self, node: nodes.Node, typ: nodes.Type, what: str, src: ast.AST) -> nodes.Node:
        if node.type != typ:
            kind = "a true/false condition" if typ == "bool" else "a number"
            raise self.fail(f"{what} must be {kind}", src)
        return node

    # -- expressions ---------------------------------------------------------
    def expr(self, node: ast.AST, bound: frozenset[str], depth: int) -> nodes.Node:
        """The tree for one Python expression node (dispatch on its type)."""
        if depth > MAX_DEPTH:
            raise self.fail("formula is nested too deeply", node)
        if isinstance(node, ast.Call):
            return self.call(node, bound, depth + 1)
        handler = self._HANDLERS.get(type(node))
        if handler is None:
            raise self.fail(f"{type(node).__name__} is not allowed in a formula", node)
        result: nodes.Node = handler(self, node, bound, depth + 1, self.pos(node))
        return result

    def constant(self, node: ast.Constant, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        v = node.value
        if isinstance(v, bool):
            return nodes.Const(p, "bool", v)
        if isinstance(v, int):
            if v.bit_length() > MAX_CONST_BITS:
                raise self.fail(f"integer constant wider than {MAX_CONST_BITS} bits", node)
            return nodes.Const(p, "int", v)
        raise self.fail(f"constant {v!r} is not allowed (only integers and True/False)", node)

    def name(self, node: ast.Name, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        name = node.id
        if name in bound or name in self.scalars:
            return nodes.Var(p, "int", name)
        if name in self.sequences:
            raise self.fail(
                f"{name!r} is a sequence: use it as {name}[i], len({name}) or in xor({name})",
                node,
            )
        if name in ("True", "False"):
            return nodes.Const(p, "bool", name == "True")
        allowed = ", ".join(sorted(self.scalars | self.sequences | bound)) or "none"
        raise self.fail(f"unknown name {name!r} (variables here: {allowed})", node)

    def unary(self, node: ast.UnaryOp, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        if isinstance(node.op, ast.Invert):
            raise self.fail(
                "'~' is not allowed: its value depends on a bit width; use x ^ mask", node
            )
        operand = self.expr(node.operand, bound, d)
        if isinstance(node.op, ast.Not):
            return nodes.Unary(
                p,
                "bool",
                "not",
                self.want(operand, "bool", "the operand of 'not'", node.operand),
            )
        self.want(operand, "int", "the operand of a sign", node.operand)
        if isinstance(node.op, ast.UAdd):
            return operand
        if isinstance(operand, nodes.Const):
            return nodes.Const(p, "int", -int(operand.value))
        return nodes.Unary(p, "int", "-", operand)

    def binop(self, node: ast.BinOp, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        op = _BINOPS.get(type(node.op))
        if op is None:
            sym = (
                "'/' is not allowed: use // for integer division"
                if isinstance(node.op, ast.Div)
                else (f"operator {type(node.op).__name__} is not allowed")
            )
            raise self.fail(sym, node)
        left = self.want(
            self.expr(node.left, bound, d), "int", f"the left side of '{op}'", node.left
        )
        right = self.want(
            self.expr(node.right, bound, d), "int", f"the right side of '{op}'", node.right
        )
        if op == "**" and not (isinstance(right, nodes.Const) and 0 <= int(right.value) <= MAX_POW):
            raise self.fail(
                f"the exponent of '**' must be a constant from 0 to {MAX_POW}", node.right
            )
        return nodes.Binary(p, "int", op, left, right)

    def compare(self, node: ast.Compare, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        ops = []
        for o in node.ops:
            cmp_sym = _CMPOPS.get(type(o))
            if cmp_sym is None:
                raise self.fail(f"comparison {type(o).__name__} is not allowed", node)
            ops.append(cmp_sym)
        sources = [node.left, *node.comparators]
        operands = [self.expr(x, bound, d) for x in sources]
        for i, (sym, a, b) in enumerate(zip(ops, operands, operands[1:], strict=False)):
            if sym in ("==", "!=") and a.type == b.type:
                continue
            if a.type != "int" or b.type != "int":
                culprit = sources[i] if a.type != "int" else sources[i + 1]
                raise self.fail(
                    f"'{sym}' compares numbers (or two conditions with == / !=)", culprit
                )
        return nodes.Compare(p, "bool", tuple(ops), tuple(operands))

    def boolop(self, node: ast.BoolOp, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        op = "and" if isinstance(node.op, ast.And) else "or"
        values = tuple(
            self.want(self.expr(v, bound, d), "bool", f"each side of '{op}'", v)
            for v in node.values
        )
        return nodes.BoolOp(p, "bool", op, values)  # type: ignore[arg-type]

    def ifexp(self, node: ast.IfExp, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        test = self.want(self.expr(node.test, bound, d), "bool", "the condition of 'if'", node.test)
        body = self.expr(node.body, bound, d)
        orelse = self.expr(node.orelse, bound, d)
        if body.type != orelse.type:
            raise self.fail("both branches of 'a if c else b' must have the same type", node)
        return nodes.IfElse(p, body.type, test, body, orelse)

    def subscript(self, node: ast.Subscript, bound: frozenset[str], d: int, p: int) -> nodes.Node:
        seq = self.sequence_name(node.value)
        if isinstance(node.slice, ast.Slice):
            raise self.fail(
                f"a slice of {seq} is only allowed inside xor(...), sum(...), ...", node
            )
        index = self.want(self.expr(node.slice, bound, d), "int", "an index", node.slice)
        return nodes.Index(p, "int", seq, index)

    def sequence_name(self, node: ast.AST) -> str:
        if isinstance(node, ast.Name) and node.id in self.sequences:
            return node.id
        raise self.fail("only a sequence variable (such as h) can be indexed or sliced", node)

    def const_int(self, node: ast.AST | None) -> int | None:
        if node is None:
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.const_int(node.operand)
            return None if inner is None else -inner
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and not isinstance(node.value, bool)
        ):
            if abs(node.value) > 10**6:
                raise self.fail("slice bounds must be small constants", node)
            return node.value
        raise self.fail("slice bounds must be integer constants", node)

    def domain(self, node: ast.AST, bound: frozenset[str], depth: int) -> nodes.Domain:
        if isinstance(node, ast.Name) and node.id == "bits":
            return nodes.BitsDomain()
        if isinstance(node, ast.Name) and node.id in self.sequences:
            return nodes.SeqDomain(node.id)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            name = self.sequence_name(node.value)
            sl = node.slice
            step = self.const_int(sl.step)
            if step == 0:
                raise self.fail("slice step cannot be zero", node)
            return nodes.SeqDomain(name, self.const_int(sl.lower), self.const_int(sl.upper), step)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "range"
        ):
            if node.keywords or not 1 <= len(node.args) <= 3:
                raise self.fail("range takes 1 to 3 arguments", node)
            args = [self.expr(a, frozenset(), depth + 1) for a in node.args]
            for a, src in zip(args, node.args, strict=True):
                self.want(a, "int", "a range bound", src)
                if not _is_static(a):
                    raise self.fail("range bounds may only use constants and len(...)", src)
            p = self.pos(node)
            one, zero = nodes.Const(p, "int", 1), nodes.Const(p, "int", 0)
            if len(args) == 1:
                return nodes.RangeDomain(zero, args[0], one)
            if len(args) == 2:
                return nodes.RangeDomain(args[0], args[1], one)
            if isinstance(args[2], nodes.Const) and args[2].value == 0:
                raise self.fail("range step cannot be zero", node)
            return nodes.RangeDomain(args[0], args[1], args[2])
        raise self.fail("expected a sequence to range over: h, h[a:b:c], bits or range(...)", node)

    def call(self, node: ast.Call, bound: frozenset[str], d: int) -> nodes.Node:
        """A call of a reduction, a sequence function, a shorthand or a scalar built-in."""
        if not isinstance(node.func, ast.Name):
            raise self.fail("only built-in functions can be called", node)
        if node.keywords:
            raise self.fail("keyword arguments are not allowed", node.keywords[0])
        for a in node.args:
            if isinstance(a, ast.Starred):
                raise self.fail("'*' arguments are not allowed", a)
        name = node.func.id
        p = self.pos(node)
        if name in REDUCTIONS:
            return self.reduction(name, node, bound, d, p)
        if name in ("len", "colsum"):
            return self.sequence_call(name, node, bound, d, p)
        if name in ("bit", "floor_div", "implies"):
            return self.shorthand(name, node, bound, d, p)
        # The scalar built-ins of fixed arity, from the one table of walk.BUILTINS (max and min,
        # of any arity, are reductions above).
        fn = BUILTINS.get(name)
        if fn is None or fn.arity is None:
            raise self.fail(f"unknown function {name!r}", node)
        usage = f"{name} takes {fn.arity} argument(s)"
        args = self.fixed_args(node, fn.arity, usage, "int", bound, d)
        return nodes.Call(p, "int", name, tuple(args))

    def fixed_args(
        self,
        node: ast.Call,
        count: int,
        usage: str,
        kind: nodes.Type,
        bound: frozenset[str],
        d: int,
    ) -> list[nodes.Node]:
        """The ``count`` arguments of a call, each of type ``kind`` (``usage``: the error for a
        call with another number of arguments)."""
        if len(node.args) != count:
            raise self.fail(usage, node)
        name = node.func.id if isinstance(node.func, ast.Name) else "the call"
        return [
            self.want(self.expr(a, bound, d), kind, f"an argument of {name}", a) for a in node.args
        ]

    def sequence_arg(
        self,
        node: ast.Call,
        count: int,
        usage: str,
        not_sequence: str,
        bound: frozenset[str],
        d: int,
    ) -> nodes.SeqDomain:
        """The sequence a call with ``count`` arguments takes first (``usage``, ``not_sequence``:
        the errors for another number of arguments and for a first argument that is no sequence)."""
        if len(node.args) != count:
            raise self.fail(usage, node)
        dom = self.domain(node.args[0], bound, d)
        if not isinstance(dom, nodes.SeqDomain):
            raise self.fail(not_sequence, node)
        return dom

    def reduction(
        self, name: str, node: ast.Call, bound: frozenset[str], d: int, p: int
    ) -> nodes.Node:
        """``xor(h)``, ``all(x > 0 for x in h)``, ``max(a, b)``, ..."""
        args = node.args
        if len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
            return self.generator(name, args[0], bound, d, p)
        if len(args) == 1:
            dom = self.domain(args[0], bound, d)
            if name in ("all", "any", "count"):
                raise self.fail(f"{name}(...) needs a condition: {name}(x > 0 for x in h)", node)
            var = "_x"
            return nodes.Reduce(p, "int", name, nodes.Var(p, "int", var), var, dom)
        if name in ("max", "min", "xor") and len(args) >= 2:
            values = [
                self.want(self.expr(a, bound, d), "int", f"an argument of {name}", a) for a in args
            ]
            if name == "xor":
                out = values[0]
                for v in values[1:]:
                    out = nodes.Binary(p, "int", "^", out, v)
                return out
            return nodes.Call(p, "int", name, tuple(values))
        raise self.fail(f"{name} takes a sequence or a generator", node)

    def sequence_call(
        self, name: str, node: ast.Call, bound: frozenset[str], d: int, p: int
    ) -> nodes.Node:
        """``len(S)`` and ``colsum(S, b)`` (the number of elements of S with bit b set)."""
        args = node.args
        if name == "len":
            usage = "len takes one sequence"
            dom = self.sequence_arg(node, 1, usage, "len takes a sequence such as h", bound, d)
            return nodes.Len(p, "int", dom)
        if name == "colsum":
            # colsum(S, b): how many elements of S have bit b set.
            usage = "colsum takes a sequence and a bit position: colsum(h, b)"
            not_seq = "colsum's first argument must be a sequence such as h"
            dom = self.sequence_arg(node, 2, usage, not_seq, bound, d)
            b = self.want(self.expr(args[1], bound, d), "int", "the bit position", args[1])
            var = "_c"
            while var in bound or var in self.scalars:  # the body must not capture a name of b
                var += "_"
            return nodes.Reduce(p, "int", "sum", _bit(p, nodes.Var(p, "int", var), b), var, dom)
        raise self.fail(f"unknown function {name!r}", node)

    def shorthand(
        self, name: str, node: ast.Call, bound: frozenset[str], d: int, p: int
    ) -> nodes.Node:
        """``bit``, ``floor_div`` and ``implies``, written with operators in the tree."""
        if name == "bit":
            usage = "bit takes a number and a bit position: bit(x, b)"
            x, b = self.fixed_args(node, 2, usage, "int", bound, d)
            return _bit(p, x, b)
        if name == "floor_div":
            num, den = self.fixed_args(node, 2, "floor_div takes two numbers", "int", bound, d)
            return nodes.Binary(p, "int", "//", num, den)
        if name == "implies":
            usage = "implies takes two conditions"
            premise, conclusion = self.fixed_args(node, 2, usage, "bool", bound, d)
            return nodes.BoolOp(
                p, "bool", "or", (nodes.Unary(p, "bool", "not", premise), conclusion)
            )
        raise self.fail(f"unknown function {name!r}", node)

    def generator(
        self, name: str, gen: ast.GeneratorExp, bound: frozenset[str], d: int, p: int
    ) -> nodes.Node:
        if len(gen.generators) != 1:
            raise self.fail("only one 'for' per generator", gen)
        comp = gen.generators[0]
        if comp.is_async:
            raise self.fail("'async for' is not allowed", gen)
        if comp.ifs:
            raise self.fail(
                "'if' inside a generator is not allowed; use a conditional body", comp.ifs[0]
            )
        if not isinstance(comp.target, ast.Name):
            raise self.fail("the loop variable must be a plain name", comp.target)
        var = comp.target.id
        if var in RESERVED or var in self.sequences or var in self.scalars or var in bound:
            raise self.fail(f"loop variable {var!r} hides another name", comp.target)
        dom = self.domain(comp.iter, bound, d)
        body = self.expr(gen.elt, bound | {var}, d)
        if isinstance(dom, nodes.BitsDomain):
            if name not in ("all", "any", "max", "min"):
                raise self.fail(
                    f"{name}(... for b in bits) is not allowed: use all, any, max or min", gen
                )
            _check_shift_only(body, var, self, gen.elt)
        if name in ("all", "any", "count"):
            self.want(body, "bool", f"the body of {name}", gen.elt)
            return nodes.Reduce(p, "bool" if name != "count" else "int", name, body, var, dom)
        self.want(body, "int", f"the body of {name}", gen.elt)
        return nodes.Reduce(p, "int", name, body, var, dom)


_Converter._HANDLERS = {
    ast.Constant: _Converter.constant,
    ast.Name: _Converter.name,
    ast.UnaryOp: _Converter.unary,
    ast.BinOp: _Converter.binop,
    ast.Compare: _Converter.compare,
    ast.BoolOp: _Converter.boolop,
    ast.IfExp: _Converter.ifexp,
    ast.Subscript: _Converter.subscript,
}


def _is_static(node: nodes.Node) -> bool:
    """True when ``node`` only uses constants, ``len(...)`` and arithmetic on them."""
    if isinstance(node, (nodes.Const, nodes.Len)):
        return True
    if isinstance(node, nodes.Binary) and node.op in ("+", "-", "*", "//"):
        return _is_static(node.left) and _is_static(node.right)
    if isinstance(node, nodes.Unary) and node.op == "-":
        return _is_static(node.operand)
    return False


def _check_shift_only(body: nodes.Node, var: str, conv: _Converter, src: ast.AST) -> None:
    """Require the bit variable to appear only as a shift amount (``x >> b``).

    Then the body is the same at every bit position above all values, so the
    reduction has the same value however far ``bits`` is unrolled (z3 unrolls
    it to the working width, numeric evaluation to 64 bits).
    """

    def visit(n: nodes.Node, as_shift: bool) -> None:
        if isinstance(n, nodes.Var) and n.name == var and not as_shift:
            raise conv.fail(
                f"the bit variable {var!r} may only be used as a shift amount (x >> {var})", src
            )
        if isinstance(n, nodes.Binary) and n.op == ">>":
            visit(n.left, False)
            visit(n.right, True)
            return
        for c in nodes.children(n):
            visit(c, False)

    visit(body, False)
