"""Compile formulas to WS1S over Zeckendorf numeration (see :mod:`nimproof.expr.zeckendorf`).

A number is the finite set of its Zeckendorf positions, position ``i``
worth ``F(i + 2)``; only *valid* sets (no two consecutive positions) stand
for numbers, so every obligation assumes its free variables valid and every
quantified number is valid. What compiles:

* constants, ``+``, ``-`` (defined where the result is not negative, as in
  binary), products with a constant, ``//`` and ``%`` by a constant, ``min``,
  ``max``, ``abs``, ``ceil_div``, comparisons, ``and``/``or``/``not``, ``if``;
* three Zeckendorf functions: ``zlow(x)`` (the smallest term of ``x``),
  ``zshift(x)`` (every term ``F(i + 2)`` replaced by ``F(i + 3)``) and
  ``phi_floor(x) = floor(x * phi)``, which is ``zshift(x)`` less 1 when the
  lowest position of ``x`` is even.

Order is the same formula as in binary (the highest differing position
decides); addition is the run of :func:`nimproof.expr.zeckendorf.adder`,
written as a WS1S formula with the state in binary over four set variables:
the state at position ``p`` follows from the state at ``p + 1`` and the three
digits at ``p``; above the highest element every set is empty, which is the
start state; the state at position 0 must accept. Bitwise operations,
shifts and ``bits`` read binary digits and raise :class:`NotExpressible`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from nimproof.expr.nodes import Binary, BitsDomain, Call, Node, Reduce
from nimproof.expr.to_ws1s import (
    NotExpressible,
    Num,
    Value,
    Ws1sCompiler,
    _or,
)
from nimproof.expr.zeckendorf import adder, positions

__all__ = ["PRELUDE", "ZeckendorfCompiler", "const_set", "prelude"]

#: The Zeckendorf functions of the formula language.
FUNCTIONS = ("zlow", "zshift", "phi_floor")


def const_set(value: int) -> str:
    """The MONA set constant of ``value`` in Zeckendorf numeration (``4`` -> ``{0,2}``)."""
    if value < 0:
        raise NotExpressible(f"the negative constant {value}")
    return "{" + ",".join(str(i) for i in positions(value)) + "}"


def _state(code: int, bits: int, at: str, names: list[str]) -> str:
    return " & ".join(
        f"{at} in {names[j]}" if code >> j & 1 else f"{at} notin {names[j]}" for j in range(bits)
    )


def prelude() -> str:
    """The predicates every Zeckendorf obligation starts with: ``valid``, ``lt``, ``le``,
    ``plus`` (the adder), ``zshift``, ``zlow``, ``zeven`` and ``phifloor``."""
    a = adder()
    bits = max(1, (a.states - 1).bit_length())
    names = [f"Q{j}" for j in range(bits)]
    steps = []
    for (s, (x, y, z)), t in sorted(a.delta.items()):
        digits = " & ".join(
            f"p in {v}" if d else f"p notin {v}" for v, d in zip("ABZ", (x, y, z), strict=True)
        )
        steps.append(
            f"({_state(t, bits, 'p', names)} & {_state(s, bits, 'p+1', names)} & {digits})"
        )
    accept = " | ".join(f"({_state(s, bits, '0', names)})" for s in sorted(a.accepting))
    run = "\n      | ".join(steps)
    return f"""\
pred valid(var2 A) = all1 p: p in A => p+1 notin A;
pred lt(var2 A, var2 B) =
  ex1 p: (p in B & p notin A & (all1 q: q > p => (q in A <=> q in B)));
pred le(var2 A, var2 B) = ~lt(B, A);
pred plus(var2 A, var2 B, var2 Z) = valid(A) & valid(B) & valid(Z) &
  ex2 {", ".join(names)}: ((all1 p: {run})
    & ({accept}));
pred zshift(var2 A, var2 B) = 0 notin B & (all1 p: p+1 in B <=> p in A);
pred zlow(var2 A, var2 B) = (empty(A) & empty(B))
  | (ex1 p: p in A & (all1 q: q < p => q notin A) & p in B & (all1 q: q in B => q = p));
pred zeven(var2 A) = ex1 p: p in A & (all1 q: q < p => q notin A)
  & (ex2 E: 0 in E & p in E & (all1 q: q < p => (q+1 in E <=> q notin E)));
pred phifloor(var2 A, var2 B) = ex2 S: zshift(A, S)
  & ((zeven(A) & plus(B, {{0}}, S)) | (~zeven(A) & B = S));
"""


PRELUDE = prelude()


class ZeckendorfCompiler(Ws1sCompiler):
    """The WS1S compiler with numbers in Zeckendorf numeration (see the module docstring)."""

    binary = False

    def const_set(self, value: int) -> str:
        return const_set(value)

    def const_bit(self, value: int) -> Callable[[str], str]:
        ps = positions(value) if value >= 0 else ()

        def bit(p: str) -> str:
            return _or(*[f"({p} = {i})" for i in ps])

        return bit

    def doublings(self, a: Num, count: int) -> Iterator[Num]:
        """``a, 2a, 4a, ...`` (``count`` terms): each the previous added to itself."""
        power = a
        for j in range(count):
            if j:
                power = self.plus(power, power)
            yield power

    def shl(self, a: Num, c: int) -> Num:
        raise NotExpressible("a shift by bits (Zeckendorf numeration has no binary digits)")

    def shr(self, a: Num, c: int) -> Num:
        raise NotExpressible("a shift by bits (Zeckendorf numeration has no binary digits)")

    def walk_binary(self, node: Binary, env: Mapping[str, object]) -> Value:  # type: ignore[override]
        if node.op in ("&", "|", "^", "<<", ">>"):
            raise NotExpressible(f"'{node.op}' reads binary digits (not in Zeckendorf numeration)")
        return super().walk_binary(node, env)

    def walk_reduce(self, node: Reduce, env: Mapping[str, object]) -> Value:  # type: ignore[override]
        if isinstance(node.domain, BitsDomain) or node.func == "xor":
            raise NotExpressible(f"{node.func} over binary digits (not in Zeckendorf numeration)")
        return super().walk_reduce(node, env)

    def walk_call(self, node: Call, env: Mapping[str, object]) -> Value:  # type: ignore[override]
        pred = {"zlow": "zlow", "zshift": "zshift", "phi_floor": "phifloor"}.get(node.func)
        if pred is None:
            return super().walk_call(node, env)
        an, a = self.materialize(self.num(node.args[0], env))
        return self.defined("2", f"{pred}({an}, {{Z}})", a)


def is_zeckendorf_call(node: Node) -> bool:
    """True for a call of one of the Zeckendorf functions."""
    return isinstance(node, Call) and node.func in FUNCTIONS
