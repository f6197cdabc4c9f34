"""The mining pipeline: tables -> guesses -> ranked conjectures.

:func:`mine` computes the tables of one family (a spec over a parameter grid
and, for P-position tables, over heap counts), runs every registered guesser,
re-checks every guess against every table it speaks about, drops duplicates
and narrower guesses, and ranks what is left: guesses that explain the whole
grid first, then the smallest description length. Nothing here decides
truth; :mod:`nimproof.miner.run` hands the result to the verifier.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from nimproof import tables
from nimproof.claims.kinds import NAMES as KIND_NAMES
from nimproof.errors import EvalError, SpecError, UsageError
from nimproof.games import parse_spec
from nimproof.games.base import Game, MultiHeapGame
from nimproof.miner.formula import heap_formula_values, periodic_holds, predicate_values, reproduces
from nimproof.miner.guessers import GUESSERS, Grid, Guesser
from nimproof.miner.model import Evidence, Guess, HeapTable, PointKey, PTable, Table

DEFAULT_MAX_N = 300
MAX_N = 100_000
MAX_BOX = 2_000_000
MAX_GRID_POINTS = 64
#: Heap counts mined for a multi-heap game when none are given.
DEFAULT_HEAPS = (2, 3)
#: Largest heap of the box ``[0, B]^H`` mined by default, by heap count.
DEFAULT_MAX_HEAP = {1: 63, 2: 15, 3: 7, 4: 5, 5: 3}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def kind_rank(kind: str) -> int:
    """Ties between guesses go to the kind listed first in the claim-kind registry
    (Grundy formulas, P-position rules, identities, periods); notes come last."""
    return KIND_NAMES.index(kind) if kind in KIND_NAMES else len(KIND_NAMES)


@dataclass(frozen=True, slots=True)
class Request:
    """What to mine: a spec (with ``{param}`` placeholders), its grid, and the table sizes.

    ``heaps`` empty means single-heap tables (``0..max_n``); otherwise
    P-position tables of the box ``[0, max_heap]^H`` for each heap count ``H``
    (``max_heap`` None: :data:`DEFAULT_MAX_HEAP`).
    """

    spec: str
    axes: dict[str, tuple[int, ...]] = field(default_factory=dict)
    heaps: tuple[int, ...] = ()
    max_n: int = DEFAULT_MAX_N
    max_heap: int | None = None

    def max_heap_for(self, heaps: int) -> int:
        """The box bound used for ``heaps`` heaps."""
        if self.max_heap is not None:
            return self.max_heap
        return DEFAULT_MAX_HEAP.get(heaps, 2)

    def describe_bound(self) -> str:
        """``n = 300`` or ``[0, 7]^3, [0, 5]^4`` for messages."""
        if not self.heaps:
            return f"n = {self.max_n}"
        return ", ".join(f"[0, {self.max_heap_for(h)}]^{h}" for h in self.heaps)


@dataclass(frozen=True, slots=True)
class FamilyResult:
    """The ranked conjectures of one family and what was looked at."""

    request: Request
    guesses: tuple[Guess, ...]
    notes: tuple[str, ...]
    points: int
    #: For each table no guess explains: each guesser's reason (``periodic: no period ...``).
    reasons: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """One sentence: how many conjectures, or that none was found up to the bound."""
        if not self.guesses:
            return (
                f"{self.request.spec}: no closed form found up to {self.request.describe_bound()}"
            )
        return f"{self.request.spec}: {len(self.guesses)} conjecture(s) from tables up to {self.request.describe_bound()}"


def placeholders(spec: str) -> list[str]:
    """The ``{param}`` names used in ``spec``, in order of first use."""
    return list(dict.fromkeys(_PLACEHOLDER.findall(spec)))


def fill(spec: str, values: Mapping[str, int]) -> str:
    """``spec`` with its placeholders replaced by ``values``."""
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), spec)


def validate(request: Request) -> None:
    """Raise :class:`UsageError` (one line) for requests that cannot or should not be mined."""
    used = placeholders(request.spec)
    missing = [p for p in used if p not in request.axes]
    if missing:
        raise UsageError(
            f"spec {request.spec!r} uses {{{missing[0]}}} but no --param {missing[0]}=... is given"
        )
    unused = [p for p in request.axes if p not in used]
    if unused:
        raise UsageError(f"--param {unused[0]} is not used in spec {request.spec!r}")
    for name, values in request.axes.items():
        if not values:
            raise UsageError(f"--param {name} has no values")
    points = 1
    for values in request.axes.values():
        points *= len(values)
    points *= max(1, len(request.heaps))
    if points > MAX_GRID_POINTS:
        raise UsageError(f"the grid has {points} points (at most {MAX_GRID_POINTS})")
    if not 8 <= request.max_n <= MAX_N:
        raise UsageError(f"--max-n must be between 8 and {MAX_N}, got {request.max_n}")
    for h in request.heaps:
        if not 1 <= h <= 16:
            raise UsageError(f"--heaps must be between 1 and 16, got {h}")
        b = request.max_heap_for(h)
        if b < 1:
            raise UsageError(f"--max-heap must be at least 1, got {b}")
        if (b + 1) ** h > MAX_BOX:
            raise UsageError(
                f"the box [0, {b}]^{h} has more than {MAX_BOX} positions; lower --max-heap"
            )


def _game(spec: str) -> Game:
    try:
        return parse_spec(spec)
    except (ValueError, TypeError) as exc:  # a family parser that failed without a SpecError
        raise SpecError(f"bad spec {spec!r}: {exc}") from None


def build_grid(request: Request) -> Grid:
    """Compute one table per grid point (validating the request first)."""
    validate(request)
    names = list(request.axes)
    out: list[Table] = []
    for combo in itertools.product(*(request.axes[n] for n in names)):
        params = dict(zip(names, combo, strict=True))
        spec = fill(request.spec, params)
        game = _game(spec)
        if not request.heaps:
            if isinstance(game, MultiHeapGame):
                raise UsageError(f"{spec} is a multi-heap game: give --heaps (e.g. --heaps 2..3)")
            if not tables.is_heap_game(game):
                raise UsageError(f"{game.spec} is not a one-heap game; mine it with --heaps")
            values = tables.heap_table(game, request.max_n, stored=False).as_array()
            out.append(HeapTable(spec=spec, game=game, values=values, params=params))
            continue
        for h in request.heaps:
            b = request.max_heap_for(h)
            p = tables.p_positions(game, h, b)
            out.append(PTable(spec=spec, game=game, heaps=h, max_heap=b, p=p, params=params))
    return Grid(
        spec=request.spec, axes=dict(request.axes), heaps=tuple(request.heaps), tables=tuple(out)
    )


def _holds(guess: Guess, grid: Grid) -> bool:
    """The pipeline's own gate: the guess reproduces every table it speaks about."""
    scope = [t for t in grid.tables if guess.point is None or t.key == guess.point]
    if guess.spec.is_identity:
        return guess.formula is not None  # checked numerically by the guesser that made it
    if guess.spec.states_period:
        return all(
            isinstance(t, HeapTable)
            and guess.period is not None
            and guess.preperiod is not None
            and periodic_holds(t.values, guess.period, guess.preperiod, guess.saltus)
            for t in scope
        )
    return (
        guess.formula is not None
        and bool(scope)
        and all(reproduces(guess.kind, guess.formula, t) for t in scope)
    )


def _point_label(key: PointKey) -> str:
    params, heaps = key
    parts = [f"{k}={v}" for k, v in params]
    if heaps is not None:
        parts.append(f"heaps={heaps}")
    return ", ".join(parts)


def _annotate(
    slots: dict[tuple[str, PointKey | None], list[Guess]],
    alternatives: dict[int, list[str]],
    rewritings: set[int],
    grid: Grid,
) -> list[Guess]:
    """The kept guesses with their notes: rewritings, rival formulas, grid point."""
    final = []
    for chosen_list in slots.values():
        for chosen in chosen_list:
            g = chosen
            if alternatives[id(chosen)]:
                g = _with_detail(
                    g,
                    "the same values, also beyond the data: "
                    + "; ".join(alternatives[id(chosen)][:4]),
                )
            if sum(id(c) not in rewritings for c in chosen_list) > 1:
                g = _with_detail(
                    g, "other formulas fit the same data but predict differently beyond it"
                )
            if g.point is not None and grid.is_grid:
                g = _with_detail(g, f"grid point {_point_label(g.point)}")
            final.append(g)
    return final


def select(grid: Grid, guesses: Iterable[Guess]) -> tuple[list[Guess], list[str]]:
    """Ranked conjectures and notes from raw guesses.

    Duplicates merge (the other guessers are named in the evidence); per
    kind and grid point the simplest survives, along with formulas that fit
    the same data but predict differently beyond it; a guess over the whole
    grid replaces the per-point guesses of its kind.
    """
    note_guesses: list[Guess] = []
    kept: list[Guess] = []
    for g in guesses:
        if g.kind == "note":
            note_guesses.append(g)
        elif _holds(g, grid):
            kept.append(g)
    # Merge exact duplicates.
    merged: dict[tuple[object, ...], Guess] = {}
    also: dict[tuple[object, ...], list[str]] = {}
    for g in sorted(kept, key=lambda g: (g.cost, g.guesser)):
        ident = (*g.identity(), g.point)
        if ident in merged:
            if g.guesser != merged[ident].guesser and g.guesser not in also[ident]:
                also[ident].append(g.guesser)
            continue
        merged[ident] = g
        also[ident] = []
    unique = [
        _with_detail(g, f"also found by: {', '.join(also[i])}") if also[i] else g
        for i, g in merged.items()
    ]
    grid_kinds = {g.kind for g in unique if g.point is None}
    # Per slot (kind, grid point): the simplest guess, plus any guess that agrees with
    # every kept one on the data but predicts differently beyond it (a different
    # conjecture: at most one of them can be true, and the verifier decides which).
    slots: dict[tuple[str, PointKey | None], list[Guess]] = {}
    alternatives: dict[int, list[str]] = {}
    rewritings: set[int] = set()
    for g in sorted(unique, key=lambda g: (g.cost, g.description)):
        if g.point is not None and g.kind in grid_kinds and grid.is_grid:
            continue
        kept_here = slots.setdefault((g.kind, g.point), [])
        same = next(
            (k for k in kept_here if id(k) not in rewritings and _same_beyond(k, g, grid)), None
        )
        if same is not None:
            alternatives[id(same)].append(f"{g.description} ({g.guesser})")
            if len(kept_here) >= MAX_PER_SLOT:
                continue
            # Kept as an alternative of its own: the verifier may prove one rewriting
            # for more positions than another (an arithmetic one for all n, say).
            rewriting = _with_detail(g, f"the same values as {same.description} ({same.guesser})")
            rewritings.add(id(rewriting))
            kept_here.append(rewriting)
            alternatives[id(rewriting)] = []
            continue
        kept_here.append(g)
        alternatives[id(g)] = []
    final = _annotate(slots, alternatives, rewritings, grid)
    final.sort(key=lambda g: (-g.evidence.grid_points, g.cost, kind_rank(g.kind), g.description))
    # A note about a grid point (say, relations without a closed form) only matters
    # when no formula explains that point.
    explained = {g.point for g in final if g.spec.about_positions}
    covered_all = any(g.point is None for g in final if g.spec.about_positions)
    notes = [
        d
        for g in note_guesses
        if g.point is None or not (covered_all or g.point in explained)
        for d in g.evidence.details
    ]
    return final, notes


EXTEND = 4
#: Most guesses kept per kind and grid point (rewritings of one formula included).
MAX_PER_SLOT = 4


def _same_beyond(a: Guess, b: Guess, grid: Grid) -> bool:
    """True when two formulas of one kind agree on a range :data:`EXTEND` times the tables.

    Only then is the longer one a mere rewriting of the simpler one; formulas
    that differ beyond the data are different conjectures.
    """
    if a.kind != b.kind or a.formula is None or b.formula is None:
        return a.kind == b.kind and a.spec.states_period
    scope = [t for t in grid.tables if a.point is None or t.key == a.point]
    for t in scope:
        if isinstance(t, HeapTable):
            n_max = EXTEND * (t.n_max + 1)
            try:
                va = heap_formula_values(a.formula, n_max, t.params)
                vb = heap_formula_values(b.formula, n_max, t.params)
            except EvalError:
                return False
        else:
            bound = EXTEND * (t.max_heap + 1)
            while bound > t.max_heap and (bound + 1) ** t.heaps > MAX_BOX:
                bound -= 1
            try:
                va = predicate_values(a.formula, t.heaps, bound, t.params)
                vb = predicate_values(b.formula, t.heaps, bound, t.params)
            except EvalError:
                return False
        if va is None or vb is None or not np.array_equal(va, vb):
            return False
    return True


def _with_detail(g: Guess, text: str) -> Guess:
    return replace(g, evidence=replace(g.evidence, details=(*g.evidence.details, text)))


def mine(request: Request, guessers: Sequence[Guesser] = GUESSERS) -> FamilyResult:
    """Mine one family: tables, every guesser, the pipeline's own re-check, ranking."""
    grid = build_grid(request)
    found: dict[PointKey, list[Guess]] = {}
    raw: list[Guess] = []
    reasons: list[str] = []
    for table in grid.tables:
        point: list[Guess] = []
        for g in guessers:
            if not g.fallback:
                point.extend(g.guess_point(table))
        if not _explained(point, grid):
            for g in guessers:
                if g.fallback:
                    point.extend(g.guess_point(table))
        if not _explained(point, grid, periodic=True):
            reasons.extend(_reasons(table, guessers, grid))
        found[table.key] = point
        raw.extend(point)
    for g in guessers:
        raw.extend(g.guess_grid(grid, found))
    ranked, notes = select(grid, raw)
    return FamilyResult(
        request=request,
        guesses=tuple(ranked),
        notes=tuple(dict.fromkeys(notes)),
        points=len(grid.tables),
        reasons=tuple(reasons),
    )


def _explained(point: Sequence[Guess], grid: Grid, *, periodic: bool = False) -> bool:
    """True when a formula (or, with ``periodic``, a period) among ``point`` reproduces its table."""
    return any(
        _holds(g, grid)
        for g in point
        if g.spec.about_positions or (periodic and g.spec.states_period)
    )


def _reasons(table: Table, guessers: Sequence[Guesser], grid: Grid) -> list[str]:
    """Each guesser's account of why it explained nothing at ``table`` (those that looked)."""
    label = f"{_point_label(table.key)}: " if grid.is_grid else ""
    out = []
    for g in guessers:
        why = g.why_not(table)
        if why is not None:
            out.append(f"{label}{g.name}: {why}")
    return out


__all__ = [
    "DEFAULT_MAX_N",
    "Evidence",
    "FamilyResult",
    "Request",
    "build_grid",
    "fill",
    "mine",
    "placeholders",
    "select",
    "validate",
]
