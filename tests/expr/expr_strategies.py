"""Hypothesis strategies: random well-typed formulas, as text, over ``n``, ``m`` and heaps ``h``.

Every construct of the language can appear: arithmetic, bitwise operations,
comparison chains, ``and``/``or``/``not``, ``a if c else b``, ``h[i]``,
``len``, the scalar functions and reductions over ``h``, slices, ``range``
and ``bits``. Each compound sub-formula is written in parentheses, so the
text means what the generator built whatever Python's precedence.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hypothesis import strategies as st

SCALARS = ("n", "m")
SEQUENCES = ("h",)


@dataclass(frozen=True)
class Ctx:
    """What a sub-formula may use."""

    bitwise: bool
    negative_consts: bool
    scalars: tuple[str, ...] = SCALARS
    shift_only: tuple[str, ...] = ()  # bit variables of an enclosing `for b in bits`
    bound: tuple[str, ...] = field(default=())

    def fresh(self) -> str:
        return f"v{len(self.bound)}"

    def binding(self, var: str) -> Ctx:
        """Inside ``... for var in <sequence or range>``."""
        return replace(self, scalars=(*self.scalars, var), bound=(*self.bound, var))

    def bits_binding(self, var: str) -> Ctx:
        """Inside ``... for var in bits``: var may only be a shift amount."""
        return replace(self, shift_only=(*self.shift_only, var), bound=(*self.bound, var))


def _const(draw: st.DrawFn, ctx: Ctx) -> str:
    low = -3 if ctx.negative_consts else 0
    return str(draw(st.integers(low, 6)))


def _int_leaf(draw: st.DrawFn, ctx: Ctx) -> str:
    choice = draw(st.integers(0, 5))
    if choice <= 1:
        return _const(draw, ctx)
    if choice <= 3:
        return draw(st.sampled_from(ctx.scalars))
    if choice == 4:
        return f"h[{draw(st.integers(0, 3))}]"
    return "len(h)"


def _domain(draw: st.DrawFn, ctx: Ctx) -> str:
    return draw(
        st.sampled_from(
            ["h", "h[::2]", "h[1:]", "h[::-1]", "range(len(h))", "range(0, len(h), 2)", "range(3)"]
        )
    )


def int_expr(draw: st.DrawFn, ctx: Ctx, depth: int) -> str:
    """A random formula of type int."""
    # (Hypothesis favours small draws, so "stop here" is the largest value, not 0.)
    if depth <= 0 or draw(st.integers(0, 4)) == 4:
        if ctx.shift_only:
            shift: bool = draw(st.booleans())
            if shift:
                return f"({_int_leaf(draw, ctx)} >> {draw(st.sampled_from(ctx.shift_only))})"
        return _int_leaf(draw, ctx)
    d = depth - 1
    kinds = [
        "arith",
        "arith",
        "arith",
        "arith",
        "pow",
        "neg",
        "call",
        "if",
        "index",
        "reduce",
        "count",
        "minmax",
    ]
    if ctx.bitwise:
        kinds += ["bit", "bit", "bitcall", "colsum", "bitbit", "bitsmax"]
        if ctx.shift_only:
            kinds += ["shift_only", "shift_only"]
    kind = draw(st.sampled_from(kinds))
    if kind == "arith":
        op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
        return f"({int_expr(draw, ctx, d)} {op} {int_expr(draw, ctx, d)})"
    if kind == "pow":
        return f"({int_expr(draw, ctx, d)} ** {draw(st.integers(0, 3))})"
    if kind == "neg":
        operand = int_expr(draw, ctx, d)
        if operand.lstrip("-").isdigit():  # the parser folds -(3) into the constant -3
            return operand
        return f"(-{operand})"
    if kind == "call":
        f = draw(st.sampled_from(["abs", "ceil_div", "floor_div"]))
        if f == "abs":
            return f"abs({int_expr(draw, ctx, d)})"
        return f"{f}({int_expr(draw, ctx, d)}, {int_expr(draw, ctx, d)})"
    if kind == "minmax":
        f = draw(st.sampled_from(["min", "max"]))
        return f"{f}({int_expr(draw, ctx, d)}, {int_expr(draw, ctx, d)})"
    if kind == "if":
        return (
            f"({int_expr(draw, ctx, d)} if {bool_expr(draw, ctx, d)} else {int_expr(draw, ctx, d)})"
        )
    if kind == "index":
        return f"h[{int_expr(draw, ctx, d)}]"
    if kind == "reduce":
        funcs = ["sum", "max", "min"] + (["xor"] if ctx.bitwise else [])
        f = draw(st.sampled_from(funcs))
        dom = _domain(draw, ctx)
        if dom.startswith("h") and draw(st.booleans()):
            return f"{f}({dom})"
        var = ctx.fresh()
        inner = ctx.binding(var)
        return f"{f}({int_expr(draw, inner, d)} for {var} in {dom})"
    if kind == "count":
        var = ctx.fresh()
        inner = ctx.binding(var)
        return f"count({bool_expr(draw, inner, d)} for {var} in {_domain(draw, ctx)})"
    if kind == "bit":
        op = draw(st.sampled_from(["&", "|", "^", "<<", ">>"]))
        right = (
            draw(st.integers(0, 3))
            if op == "<<" and draw(st.booleans())
            else int_expr(draw, ctx, d)
        )
        return f"({int_expr(draw, ctx, d)} {op} {right})"
    if kind == "bitcall":
        f = draw(st.sampled_from(["popcount", "trailing_ones", "trailing_zeros", "bit_length"]))
        return f"{f}({int_expr(draw, ctx, d)})"
    if kind == "bitbit":
        if draw(st.booleans()):
            return f"bit({int_expr(draw, ctx, d)}, {int_expr(draw, ctx, d)})"
        return f"xor({int_expr(draw, ctx, d)}, {int_expr(draw, ctx, d)}, {int_expr(draw, ctx, d)})"
    if kind == "bitsmax":
        var = ctx.fresh()
        inner = ctx.bits_binding(var)
        f = draw(st.sampled_from(["max", "min"]))
        return f"{f}({int_expr(draw, inner, d)} for {var} in bits)"
    if kind == "colsum":
        return f"colsum({draw(st.sampled_from(['h', 'h[1:]']))}, {int_expr(draw, ctx, d)})"
    # shift_only: use an enclosing bit variable as a shift amount
    return f"({int_expr(draw, ctx, d)} >> {draw(st.sampled_from(ctx.shift_only))})"


def bool_expr(draw: st.DrawFn, ctx: Ctx, depth: int) -> str:
    """A random formula of type bool."""
    if depth <= 0 or draw(st.integers(0, 5)) == 5:
        if draw(st.integers(0, 6)) == 6:
            return draw(st.sampled_from(["True", "False"]))
        op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        return f"({int_expr(draw, ctx, 0)} {op} {int_expr(draw, ctx, 0)})"
    d = depth - 1
    kinds = ["cmp", "cmp", "chain", "andor", "not", "booleq", "if", "implies", "quant"]
    if ctx.bitwise:
        kinds.append("bits")
    kind = draw(st.sampled_from(kinds))
    if kind == "cmp":
        op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        return f"({int_expr(draw, ctx, d)} {op} {int_expr(draw, ctx, d)})"
    if kind == "chain":
        a, b = draw(st.sampled_from(["<", "<=", "=="])), draw(st.sampled_from(["<", "<=", "!="]))
        return (
            f"({int_expr(draw, ctx, d)} {a} {int_expr(draw, ctx, d)} {b} {int_expr(draw, ctx, d)})"
        )
    if kind == "andor":
        op = draw(st.sampled_from(["and", "or"]))
        parts = [bool_expr(draw, ctx, d) for _ in range(draw(st.integers(2, 3)))]
        return "(" + f" {op} ".join(parts) + ")"
    if kind == "not":
        return f"(not {bool_expr(draw, ctx, d)})"
    if kind == "booleq":
        op = draw(st.sampled_from(["==", "!="]))
        return f"({bool_expr(draw, ctx, d)} {op} {bool_expr(draw, ctx, d)})"
    if kind == "if":
        return f"({bool_expr(draw, ctx, d)} if {bool_expr(draw, ctx, d)} else {bool_expr(draw, ctx, d)})"
    if kind == "implies":
        return f"implies({bool_expr(draw, ctx, d)}, {bool_expr(draw, ctx, d)})"
    var = ctx.fresh()
    f = draw(st.sampled_from(["all", "any"]))
    if kind == "quant":
        inner = ctx.binding(var)
        return f"{f}({bool_expr(draw, inner, d)} for {var} in {_domain(draw, ctx)})"
    # bits: the bit variable may only be a shift amount
    inner = ctx.bits_binding(var)
    return f"{f}({bool_expr(draw, inner, d)} for {var} in bits)"


@st.composite
def formulas(
    draw: st.DrawFn,
    *,
    bitwise: bool = True,
    negative_consts: bool = True,
    result: str | None = None,
    depth: int = 4,
) -> str:
    """Text of a random well-typed formula over ``n``, ``m`` and ``h``."""
    ctx = Ctx(bitwise, negative_consts)
    typ = result or draw(st.sampled_from(["int", "bool"]))
    return int_expr(draw, ctx, depth) if typ == "int" else bool_expr(draw, ctx, depth)
