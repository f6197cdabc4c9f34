"""z3 bit-vector proofs of identities: the formula holds for every assignment below ``2**w``."""

from __future__ import annotations

import z3

from nimproof.expr.to_z3 import compile_bv
from nimproof.provers import settle
from nimproof.provers.context import ClaimContext
from nimproof.provers.solving import Solver, Undecided, all_of, value_of
from nimproof.provers.z3_bitvec.common import SHRINK_ROUNDS, Found


def prove_identity(ctx: ClaimContext, w: int, solver: Solver) -> Found | None:
    """None when the identity holds below ``2**w``; a re-checked counterexample otherwise."""
    assert ctx.formula is not None
    width = w + 2
    xs = {name: z3.BitVec(name, width) for name in ctx.claim.variables}
    dom = [z3.ULT(x, z3.BitVecVal(1 << w, width)) for x in xs.values()]
    c = compile_bv(ctx.formula, {**xs, **ctx.params}, width)
    query = [*dom, z3.Or(z3.Not(c.term), z3.Not(all_of(list(c.guards))))]
    model = solver.check(*query)
    if model is None:
        return None
    # Shrink: look for a model whose largest variable is smaller.
    for _ in range(SHRINK_ROUNDS):
        biggest = max(value_of(model, x) for x in xs.values())
        if biggest == 0:
            break
        smaller = solver.check(
            *query, *[z3.ULT(x, z3.BitVecVal(biggest, width)) for x in xs.values()]
        )
        if smaller is None:
            break
        model = smaller
    point = {name: value_of(model, x) for name, x in xs.items()}
    cx = settle.identity_fails_at(ctx, point)
    if cx is None:
        raise Undecided(
            f"the formula leaves the {width}-bit range at {point}; cannot decide at this width"
        )
    return Found(cx)
