"""Built-in winning-move witnesses, as z3 terms.

A witness names, for a position ``p`` (and for Grundy claims a target value
``v``), a short list of candidate moves. The provers assert that one of the
candidates is a *legal* move (checked with the family's move relation) that
reaches the required value, so a wrong or incomplete witness can never make
a false claim pass: at worst a true claim stays ``unknown``. The witnesses
follow the source texts:

* ``nim`` (seeds 001, 002, 003): with ``S`` the xor of the heaps, move a heap
  ``a`` to ``a xor S`` (one candidate per heap; the heap with the top bit of
  ``S`` is the legal one). For a Grundy claim with target ``v``, ``a xor
  (F(p) xor v)``.
* ``misere-nim`` (seed 002): the Nim move, or a heap moved to 0 or 1 (which
  fixes the parity of the heaps of size 1 when only one heap exceeds 1).
* ``staircase`` (seed 004): ``S`` is the xor of the odd stairs; carry
  ``a - (a xor S)`` coins from an odd stair ``a`` one stair down.
* ``moore`` (seed 002): the greedy construction from the top bit down, which
  keeps the number of changed heaps at most ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatch
from typing import Any

import z3

from nimproof.games.base import Game, GameDescription, MoveDescription, StairToStair, UpToKHeaps

#: A z3 bit-vector term (z3's own classes are not precise enough for static typing).
Term = Any
Candidate = tuple[list[Term], Any]


def _xor_all(terms: Sequence[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = out ^ t
    return out


def nim(p: Sequence[Term], target: Term | None = None) -> list[Candidate]:
    """One candidate per heap: heap ``i`` becomes ``p_i xor S`` (``S`` = xor of ``p``, or ``target``)."""
    s = _xor_all(p) if target is None else target
    out = []
    for i in range(len(p)):
        q = list(p)
        q[i] = p[i] ^ s
        out.append((q, z3.BoolVal(True)))
    return out


def misere_nim(p: Sequence[Term]) -> list[Candidate]:
    """The Nim candidates plus, for each heap, moving it to 0 or to 1."""
    w = p[0].size()
    out = nim(p)
    for i in range(len(p)):
        for target in (0, 1):
            q = list(p)
            q[i] = z3.BitVecVal(target, w)
            out.append((q, z3.BoolVal(True)))
    return out


def staircase(p: Sequence[Term]) -> list[Candidate]:
    """For each odd stair (indices 0, 2, 4, ...), carry ``a - (a xor S)`` coins one stair down."""
    s = _xor_all([p[i] for i in range(0, len(p), 2)])
    out = []
    for i in range(0, len(p), 2):
        new = p[i] ^ s
        moved = p[i] - new
        q = list(p)
        q[i] = new
        if i > 0:
            q[i - 1] = p[i - 1] + moved
        # The subtraction and addition are exact only without wrap-around.
        guard = z3.ULE(new, p[i])
        if i > 0:
            guard = z3.And(guard, z3.BVAddNoOverflow(p[i - 1], moved, False))
        out.append((q, guard))
    return out


def moore(p: Sequence[Term], k: int) -> list[Candidate]:
    """The greedy Moore move (seed 002): process bits from the top, keeping at most ``k`` changed heaps.

    ``u`` is the set of heaps already lowered (free below). At each bit,
    with every heap of ``u`` set to 1, let ``s`` be the column sum modulo
    ``k+1``. If ``s <= |u|``, clear the bit in ``s`` heaps of ``u``; otherwise
    clear it in all of ``u`` and in ``s - |u|`` further heaps that have it set
    (they join ``u``). Ties go to the lowest heap index.
    """
    h = len(p)
    w = p[0].size()
    cw = max(8, (h + k + 2).bit_length() + 1)  # width of the small counters

    def one(b: z3.BoolRef) -> z3.BitVecRef:
        return z3.If(b, z3.BitVecVal(1, cw), z3.BitVecVal(0, cw))

    def total(bs: Sequence[z3.BoolRef]) -> z3.BitVecRef:
        out = z3.BitVecVal(0, cw)
        for b in bs:
            out = out + one(b)
        return out

    modulus = z3.BitVecVal(k + 1, cw)
    in_u: list[z3.BoolRef] = [z3.BoolVal(False)] * h
    new_bits: list[list[z3.BoolRef]] = [[] for _ in range(h)]
    for bit in range(w - 1, -1, -1):
        bits = [z3.Extract(bit, bit, x) == 1 for x in p]
        u_count = total(in_u)
        c_nonu = total([z3.And(z3.Not(in_u[i]), bits[i]) for i in range(h)])
        s = z3.URem(c_nonu + u_count, modulus)
        case_a = z3.ULE(s, u_count)
        need = s - u_count
        joins: list[z3.BoolRef] = []
        for i in range(h):
            rank_u = total([in_u[j] for j in range(i)])
            rank_set = total([z3.And(z3.Not(in_u[j]), bits[j]) for j in range(i)])
            join = z3.And(z3.Not(case_a), z3.Not(in_u[i]), bits[i], z3.ULT(rank_set, need))
            joins.append(join)
            bit_if_u = z3.If(case_a, z3.Not(z3.ULT(rank_u, s)), z3.BoolVal(False))
            new_bits[i].append(z3.If(in_u[i], bit_if_u, z3.If(join, z3.BoolVal(False), bits[i])))
        in_u = [z3.Or(in_u[i], joins[i]) for i in range(h)]
    q: list[Term] = []
    for i in range(h):
        bits_msb_first = [z3.If(b, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) for b in new_bits[i]]
        q.append(z3.Concat(*bits_msb_first) if len(bits_msb_first) > 1 else bits_msb_first[0])
    return [(q, z3.BoolVal(True))]


def witness_of(game: Game, described: GameDescription | None = None) -> str | None:
    """The name of the built-in witness for ``game``'s P-positions, if it has one
    (``described``: the game's description, read instead of asking the game)."""
    if described is not None and described.game is game:
        return _witness(described.moves, game.misere, described.nim)
    return _witness(game.moves_spec, game.misere, game.moves_spec.nim)


@singledispatch
def _witness(spec: MoveDescription, misere: bool, nim: bool) -> str | None:
    return ("misere-nim" if misere else "nim") if nim else None


@_witness.register
def _(spec: UpToKHeaps, misere: bool, nim: bool) -> str:
    return "moore"


@_witness.register
def _(spec: StairToStair, misere: bool, nim: bool) -> str:
    return "staircase"
