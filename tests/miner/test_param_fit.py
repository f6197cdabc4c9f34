"""param_fit: one conjecture over a parameter grid, with the constants fitted by sympy."""

from __future__ import annotations

from miner_known import predicate_holds, scalar_values

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.miner.guessers.param_fit import fit_constant
from nimproof.miner.pipeline import Request, mine


def test_knim_over_k_1_to_8_gives_one_conjecture_n_mod_k_plus_1():
    result = mine(Request("knim:{k}", axes={"k": tuple(range(1, 9))}, max_n=120))
    grundy = [g for g in result.guesses if g.kind == "grundy"]
    assert len(grundy) == 1
    g = grundy[0]
    assert g.formula == "n % (k + 1)"
    assert g.game == "knim:{k}" and g.axes == {"k": tuple(range(1, 9))}
    assert g.evidence.grid_points == 8
    # Seed 004, formula (2), at k beyond the grid as well:
    for k in (1, 5, 11):
        game = parse_spec(f"knim:{k}")
        assert scalar_values(g.formula, 80, k=k) == reference.heap_table(game, 80)  # type: ignore[arg-type]


def test_knim_grid_also_states_the_local_conditions_for_every_k():
    result = mine(Request("knim:{k}", axes={"k": (1, 2, 3, 4)}, max_n=80))
    identities = [g for g in result.guesses if g.kind == "identity"]
    assert len(identities) == 1
    ident = identities[0]
    assert ident.variables[:2] == ("n", "k")
    # The identity must hold far outside the checked mesh too.
    from nimproof.expr import evaluate, parse

    node = parse(ident.formula or "", scalars=ident.variables)
    for n in (0, 57, 200):
        for k in (1, 30):
            for t in (0, 1, k, k + 1):
                for v in (0, 3, 29):
                    assert evaluate(node, dict(zip(ident.variables, (n, k, t, v), strict=True)))


def test_periods_across_the_grid_are_reported_as_a_function_of_k():
    result = mine(Request("knim:{k}", axes={"k": (1, 2, 3, 4, 5)}, max_n=100))
    assert any("period (k + 1)" in note for note in result.notes)


def test_moore_over_k_gives_the_column_rule_modulo_k_plus_1():
    result = mine(Request("moore:{k}", axes={"k": (1, 2, 3)}, heaps=(4,), max_heap=3))
    rules = [g for g in result.guesses if g.kind == "p_positions" and g.point is None]
    assert [g.formula for g in rules] == ["all(colsum(h, b) % (k + 1) == 0 for b in bits)"]
    assert rules[0].witness == "moore"
    game = parse_spec("moore:2")
    assert predicate_holds(rules[0].formula or "", (1, 2, 3, 0), k=2) == (
        reference.value(game, (1, 2, 3, 0)) == 0
    )


def test_fit_constant_finds_linear_and_quadratic_laws_and_needs_held_out_points():
    linear = [({"k": k}, 2 * k + 3) for k in range(1, 6)]
    assert fit_constant(linear, ["k"]) is not None
    assert fit_constant(linear, ["k"])[0] == "2 * k + 3"  # type: ignore[index]
    square = [({"k": k}, k * k) for k in range(1, 6)]
    assert fit_constant(square, ["k"])[0] == "k ** 2"  # type: ignore[index]
    # Two points fix a line but predict nothing: no fit.
    assert fit_constant([({"k": 1}, 2), ({"k": 2}, 3)], ["k"]) is None
    # Values that follow no low-degree law: no fit.
    assert (
        fit_constant(
            [({"k": k}, v) for k, v in zip(range(1, 7), (1, 4, 2, 8, 5, 7), strict=True)], ["k"]
        )
        is None
    )
