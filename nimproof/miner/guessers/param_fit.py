"""Across a grid: write a formula's constants as functions of the parameters.

The point guessers find, at each grid point, formulas such as ``n % 2``,
``n % 3``, ... Their *templates* (the formula with its integer literals
abstracted, :func:`nimproof.miner.formula.template`) coincide, and the
literals change with the parameter. For every constant that changes, this
guesser fits a polynomial in one grid variable with sympy's exact
interpolation on the first few grid values and demands that it predicts the
others (``4 = 3 + 1, 5 = 4 + 1, ...`` gives ``k + 1``). The result is one
conjecture over the whole grid, ``n % (k + 1)`` on ``knim:{k}`` with
``params = { k = "1..8" }``. For P-position tables the heap count is a grid
variable too (written ``len(h)``), and a rule whose constants do not change
becomes one claim over all heap counts.

Where the grid is a family of subtraction games whose set is ``1..c(k)``, the
guesser also states the local conditions for every ``k`` as one ``identity``
claim (the local conditions of the README, "How a verdict is reached"): if they hold for all ``n``, ``k``
and move sizes ``t``, with the mex witness ``t = f(n) - v`` for each value
``v < f(n)``, the formula is the Grundy value for every ``k``, not only on the
grid. The identity is checked numerically beyond the grid before it is
proposed.

Periods, preperiods and saltuses of the per-point periodic guesses are
fitted the same way and reported (a ``periodic`` claim needs numbers, so it
stays per point).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import sympy

from nimproof.claims.kinds import Identity, spec_of
from nimproof.errors import EvalError, ExprError
from nimproof.expr import evaluate_array, parse
from nimproof.miner.formula import formula_cost, polynomial_text, reproduces, substitute_name
from nimproof.miner.guessers.base import Grid, Guesser
from nimproof.miner.model import Evidence, Guess, HeapTable, PointKey, PTable, Table

MAX_DEGREE = 2
HEAPS_VAR = "len(h)"
IDENTITY_BEYOND = 12


def _axis_text(values: Sequence[int]) -> str:
    lo, hi = min(values), max(values)
    return f"{lo}..{hi}" if list(values) == list(range(lo, hi + 1)) else ", ".join(map(str, values))


def fit_constant(
    points: Sequence[tuple[dict[str, int], int]], variables: Sequence[str]
) -> tuple[str, str] | None:
    """A polynomial in one grid variable through every ``(point, value)``, as text, with a note.

    The polynomial of degree ``d`` is interpolated through the ``d + 1``
    smallest values of the variable and must predict every other point
    (at least one distinct value must be left over). Lower degrees first.
    """
    for var in variables:
        by_x: dict[int, int] = {}
        consistent = True
        for where, c in points:
            x = where[var]
            if by_x.setdefault(x, c) != c:
                consistent = False
                break
        if not consistent:
            continue
        xs = sorted(by_x)
        for degree in range(1, MAX_DEGREE + 1):
            if len(xs) < degree + 2:
                break
            sym = sympy.Symbol("x", integer=True)
            fit = xs[: degree + 1]
            poly = sympy.interpolate([(x, by_x[x]) for x in fit], sym)
            if any(poly.subs(sym, x) != by_x[x] for x in xs):
                continue
            text = polynomial_text(poly, sym, var)
            if text is None:
                continue
            note = (
                f"fitted on {var} = {', '.join(map(str, fit))}, "
                f"predicted {var} = {', '.join(map(str, xs[degree + 1 :]))}"
            )
            return text, note
    return None


def _wrap(text: str) -> str:
    return text if text.isidentifier() or text.isdigit() else f"({text})"


def _where(table: Table) -> dict[str, int]:
    out = dict(table.params)
    if isinstance(table, PTable):
        out[HEAPS_VAR] = table.heaps
    return out


class ParamFit(Guesser):
    """Constants of per-point formulas as functions of the grid parameters."""

    name = "param_fit"

    def why_not(self, table: Table) -> str | None:
        return None  # it works on the whole grid, with what the point guessers found

    def guess_grid(self, grid: Grid, found: Mapping[PointKey, Sequence[Guess]]) -> list[Guess]:
        if not grid.is_grid:
            return []
        keys = [t.key for t in grid.tables]
        groups: dict[tuple[str, str], dict[PointKey, Guess]] = {}
        for key in keys:
            for g in found.get(key, ()):
                if (g.spec.about_positions or g.spec.states_period) and g.template:
                    best = groups.setdefault((g.kind, g.template), {})
                    if key not in best or g.cost < best[key].cost:
                        best[key] = g
        variables = [name for name, values in grid.axes.items() if len(values) > 1]
        if len(grid.heaps) > 1:
            variables.append(HEAPS_VAR)
        out: list[Guess] = []
        for (kind, tpl), per_point in sorted(groups.items()):
            if len(per_point) != len(keys):
                continue
            tables = list(grid.tables)
            consts = [per_point[t.key].constants for t in tables]
            if len({len(c) for c in consts}) != 1:
                continue
            filled: list[str] = []
            notes: list[str] = []
            for j in range(len(consts[0])):
                column = [c[j] for c in consts]
                if len(set(column)) == 1:
                    filled.append(str(column[0]))
                    continue
                p_rule = spec_of(kind).states_p_positions
                usable = [v for v in variables if p_rule or v != HEAPS_VAR]
                fit = fit_constant(
                    [(_where(t), c) for t, c in zip(tables, column, strict=True)], usable
                )
                if fit is None:
                    break
                text, note = fit
                filled.append(_wrap(text))
                notes.append(f"constant #{j + 1} = {text}: {note}")
            else:
                if spec_of(kind).states_period:
                    out.append(self._periodic_note(grid, filled, notes))
                    continue
                formula = tpl.format(*filled)
                guess = self._grid_guess(grid, kind, formula, tables, per_point, notes)
                if guess is not None:
                    out.append(guess)
                    identity = self._all_k_identity(grid, guess)
                    if identity is not None:
                        out.append(identity)
        return out

    def _periodic_note(self, grid: Grid, filled: list[str], notes: list[str]) -> Guess:
        text = (
            f"{grid.spec}: at every grid point the table is periodic with period {filled[0]}, "
            f"preperiod {filled[1]}, saltus {filled[2]}"
            + (f" ({'; '.join(notes)})" if notes else "")
        )
        return Guess(
            kind="note",
            game=grid.spec,
            guesser=self.name,
            evidence=Evidence(fitted=0, held_out=0, checked=0, details=(text,)),
            cost=float("inf"),
            statement=text,
        )

    def _grid_guess(
        self,
        grid: Grid,
        kind: str,
        formula: str,
        tables: list[Table],
        per_point: Mapping[PointKey, Guess],
        notes: list[str],
    ) -> Guess | None:
        p_rule = spec_of(kind).states_p_positions
        if "len(h)" in formula and not p_rule:
            return None
        if not all(reproduces(kind, formula, t) for t in tables):
            return None
        params = tuple(grid.axes)
        try:
            cost = formula_cost(formula, predicate=p_rule, params=params)
        except ExprError:
            return None
        witnesses = {per_point[t.key].witness for t in tables}
        witness = witnesses.pop() if len(witnesses) == 1 else None
        checked = sum(per_point[t.key].evidence.checked for t in tables)
        data_fit = sum(per_point[t.key].evidence.fitted for t in tables)
        axes_text = ", ".join(f"{k} = {_axis_text(v)}" for k, v in grid.axes.items())
        heaps_text = f"heaps = {_axis_text(grid.heaps)}" if len(grid.heaps) > 1 else ""
        scope = "; ".join(x for x in (axes_text, heaps_text) if x)
        details = (
            f"the same formula reproduces all {len(tables)} grid points ({scope})",
            *notes,
            f"per point: {per_point[tables[0].key].evidence.details[0]}",
        )
        if p_rule:
            statement = (
                f"A position of {_heaps_words(grid)} in {grid.spec} is a P-position iff {formula}."
            )
        else:
            statement = f"The value of a heap of n in {grid.spec} is {formula}."
        return Guess(
            kind=kind,
            game=grid.spec,
            guesser=self.name,
            evidence=Evidence(
                fitted=data_fit,
                held_out=checked - data_fit,
                checked=checked,
                grid_points=len(tables),
                details=details,
            ),
            cost=cost,
            formula=formula,
            axes=dict(grid.axes),
            heaps=tuple(grid.heaps),
            witness=witness,
            statement=statement,
        )

    def _all_k_identity(self, grid: Grid, guess: Guess) -> Guess | None:
        """The local conditions of a subtraction family ``1..c(k)`` for every ``k``, if they hold."""
        if not guess.spec.states_values or len(grid.axes) != 1 or guess.formula is None:
            return None
        ((param, values),) = grid.axes.items()
        takes: list[tuple[dict[str, int], int]] = []
        for t in grid.tables:
            spec = t.game.moves_spec
            own = spec.finite_takes()
            if not isinstance(t, HeapTable) or t.game.misere or own is None:
                return None
            if own != tuple(range(1, len(own) + 1)):
                return None
            takes.append(({param: t.params[param]}, len(own)))
        if len({c for _, c in takes}) == 1:
            top = str(takes[0][1])
        else:
            fit = fit_constant(takes, [param])
            if fit is None:
                return None
            top = _wrap(fit[0])
        t_name, v_name = _fresh("t", param), _fresh("v", param)
        family = grid.spec.replace("{", "").replace("}", "")  # a statement has no placeholders here
        f = guess.formula
        after_t = substitute_name(f, "n", f"n - {t_name}")
        witness = f"{_wrap(f)} - {v_name}"
        after_w = substitute_name(f, "n", f"n - ({witness})")
        low = min(values)
        predicate = (
            f"implies({param} >= {low}, {_wrap(f)} >= 0"
            f" and implies(1 <= {t_name} <= {top} and {t_name} <= n, {after_t} != {f})"
            f" and implies({v_name} < {f}, 1 <= {witness} <= {top} and {witness} <= n and {after_w} == {v_name}))"
        )
        variables = ("n", param, t_name, v_name)
        hi = max(values) + IDENTITY_BEYOND
        try:
            node = parse(predicate, scalars=variables, result="bool")
            mesh = np.meshgrid(
                np.arange(0, 41),
                np.arange(low, hi + 1),
                np.arange(0, 16),
                np.arange(0, 16),
                indexing="ij",
            )
            ok, undefined = evaluate_array(node, dict(zip(variables, mesh, strict=True)))
        except (ExprError, EvalError):
            return None
        if undefined.any() or not ok.all():
            return None
        checked = int(ok.size)
        return Guess(
            kind=Identity.name,
            game=None,
            guesser=self.name,
            evidence=Evidence(
                fitted=guess.evidence.grid_points,
                held_out=IDENTITY_BEYOND,
                checked=checked,
                grid_points=guess.evidence.grid_points,
                details=(
                    f"the local conditions of g(n) = {f} for {family}, whose moves subtract "
                    f"{t_name} with 1 <= {t_name} <= {top} (checked for every grid point), "
                    f"with the mex witness {t_name} = {witness}",
                    f"true at all {checked} points with n <= 40, {low} <= {param} <= {hi}, "
                    f"{t_name}, {v_name} <= 15 ({param} <= {max(values)} is the mined grid)",
                ),
            ),
            cost=formula_cost(predicate, predicate=True, params=variables),
            formula=predicate,
            variables=variables,
            statement=(
                f"For every {param} >= {low}, g(n) = {f} satisfies the local conditions of "
                f"{family} (a move subtracts 1..{top} tokens), so it is the Grundy value of "
                f"every heap for every {param} >= {low}."
            ),
            axes={},
        )


def _fresh(name: str, taken: str) -> str:
    while name in (taken, "n"):
        name += "_"
    return name


def _heaps_words(grid: Grid) -> str:
    if len(grid.heaps) == 1:
        return f"{grid.heaps[0]} heaps"
    return f"{_axis_text(grid.heaps)} heaps"
