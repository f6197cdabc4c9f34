"""Pictures for claim pages: Grundy sequences of heap games and P-position grids.

Every picture shows the *true* values, computed with the plain reference
implementation (:mod:`nimproof.engines.reference`), with the claim drawn over
them, so a wrong claim is visible at a glance. Figures are made without
pyplot (a :class:`~matplotlib.figure.Figure` on the Agg canvas) under fixed
style settings, and saved without a software or date stamp, so the same
claim gives a byte-identical PNG on every run.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from nimproof.claims.kinds import spec_of
from nimproof.engines import reference
from nimproof.errors import NimproofError
from nimproof.expr import evaluate, parse
from nimproof.games import (
    Game,
    HeapGame,
    MultiHeapGame,
    PluginGame,
    parse_spec,
)
from nimproof.output import atomic_write_bytes

DPI = 110
MAX_SEQUENCE = 1100  # heaps shown at most in a sequence plot
MAX_WORK = 5e7  # rough number of option visits a picture may cost
GRID = 32  # side of a P-position grid
SLICE = 16  # side of the grid when other heaps are held non-empty (their positions cost more)
#: Sizes of the heaps held outside a slice, by heap count (0: any other count).
HELD: dict[int, tuple[int, ...]] = {3: (5,), 4: (6,), 5: (3,), 6: (7,), 8: (9,), 0: (4,)}
#: Stairs held non-empty in staircase Nim slices (index: coins), those below the heap count.
STAIRS_HELD = {3: 2, 4: 3}

STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.grid": False,
    "svg.hashsalt": "nimproof",
    "path.simplify": False,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "image.interpolation": "nearest",
}

TRUE_COLOR = "#1f5a99"
CLAIM_COLOR = "#e08a00"
BAD_COLOR = "#c8102e"
SHADE = "#e9e9e9"
SHADE2 = "#f6f3e6"


@contextmanager
def _style() -> Iterator[None]:
    with matplotlib.rc_context(cast(Any, STYLE)):
        yield


def _save(fig: Figure, path: Path) -> None:
    """Write the picture atomically: a run killed meanwhile leaves the old file or the new one."""
    import io

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    atomic_write_bytes(path, buf.getvalue())


class Plotter:
    """Makes the picture for each claim; remembers computed tables between claims of one report."""

    def __init__(self) -> None:
        self._tables: dict[str, list[int]] = {}
        self._caches: dict[str, dict[Hashable, int]] = {}

    def picture(self, claim: dict[str, Any], verdict: dict[str, Any], path: Path) -> str | None:
        """Write the claim's picture to ``path``; return its caption, or None when it has none."""
        try:
            game = parse_spec(str(claim["game"])) if claim.get("game") else None
        except NimproofError:
            return None
        if game is None:
            return None
        kind = spec_of(claim.get("kind"))
        heap_game = _heap_base(game)
        try:
            if (
                heap_game is not None
                and (kind.states_values or kind.states_period or kind.lists_sequence)
                and not claim.get("heaps")
            ):
                return self._sequence(claim, verdict, game, path)
            if heap_game is not None and kind.lists_positions and _int_positions(claim):
                return self._sequence(claim, verdict, game, path)
            if isinstance(game, PluginGame) and kind.lists_positions and _int_positions(claim):
                return self._listed_values(claim, game, path)
            if kind.states_p_positions and _two_coordinates(game, claim):
                return self._grid(claim, verdict, game, path)
        except (NimproofError, RecursionError, MemoryError):
            return None
        return None

    # -- data ----------------------------------------------------------------

    def _table(self, game: Game, n_max: int) -> list[int]:
        """True values of single heaps ``0..n_max`` (misère nim-values for misère play)."""
        known = self._tables.get(game.spec)
        if known is not None and len(known) > n_max:
            return known[: n_max + 1]
        if isinstance(game, HeapGame):
            table = reference.heap_table(game, n_max)
        else:
            cache = self._caches.setdefault(game.spec, {})
            table = [reference.value(game, n, cache) for n in range(n_max + 1)]
        self._tables[game.spec] = table
        return table

    def _is_p(self, game: Game, position: tuple[int, ...]) -> bool:
        cache = self._caches.setdefault(game.spec, {})
        return reference.value(game, position, cache) == 0

    # -- pictures ---------------------------------------------------------------

    def _sequence(
        self, claim: dict[str, Any], verdict: dict[str, Any], game: Game, path: Path
    ) -> str | None:
        periodic = spec_of(claim.get("kind")).states_period
        claimed, n_max = _claimed_sequence(claim)
        if n_max > MAX_SEQUENCE or _work(game, n_max) > MAX_WORK:
            return None
        true = self._table(game, n_max)
        bad = sorted(n for n, v in claimed.items() if n < len(true) and true[n] != v)
        with _style():
            fig = Figure(figsize=(8.0, 3.8))
            ax = fig.add_subplot()
            top = max([*true, *claimed.values(), 1])
            if periodic:
                _shade_periods(
                    ax,
                    int(claim.get("preperiod") or 0),
                    int(claim.get("period") or 1),
                    len(true),
                    top,
                )
            _draw_values(ax, true, claimed, bad)
            ax.set_xlim(-1, len(true) - 1 + max(1.0, len(true) / 60))
            ax.set_ylim(-0.5, top + 1.5)
            ax.set_xlabel("heap size n")
            ax.set_ylabel("misère nim-value" if game.misere else "Grundy value g(n)")
            ax.set_title(_title(claim, game))
            handles = ax.get_legend_handles_labels()[0]
            if periodic:
                handles += [
                    Patch(color=SHADE, label="preperiod"),
                    Patch(color=SHADE2, label="one period"),
                ]
            ax.legend(
                handles=handles,
                loc="upper center",
                bbox_to_anchor=(0.5, -0.2),
                ncols=len(handles),
                fontsize=8,
                frameon=False,
            )
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            fig.tight_layout()
            _save(fig, path)
        if periodic:
            return (
                f"Grundy values of {game.spec} for heaps 0..{n_max}: the preperiod (grey) and the "
                f"blocks of one period from n = {claim.get('preperiod')} on."
            )
        what = "claimed values (crosses)" if claimed else "values"
        return f"True Grundy values of {game.spec} (dots) for heaps 0..{n_max} and the {what}."

    def _listed_values(self, claim: dict[str, Any], game: Game, path: Path) -> str:
        pairs = sorted(
            (int(p), int(v))
            for p, v in zip(claim.get("positions") or [], claim.get("values") or [], strict=False)
        )
        with _style():
            fig = Figure(figsize=(8.0, 3.4))
            ax = fig.add_subplot()
            xs, ys = [p for p, _ in pairs], [v for _, v in pairs]
            colors = [BAD_COLOR if v == 0 else TRUE_COLOR for v in ys]
            ax.bar(xs, ys, color=colors, width=0.7)
            for x, y in pairs:
                if y == 0:
                    ax.text(x, 0.08, "P", ha="center", va="bottom", fontsize=7, color=BAD_COLOR)
            ax.set_xticks(xs)
            ax.tick_params(axis="x", labelsize=7)
            ax.set_xlabel("position")
            ax.set_ylabel("claimed Grundy value")
            ax.set_title(_title(claim, game))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
            ax.legend(
                handles=[
                    Patch(color=TRUE_COLOR, label="value > 0: first player wins"),
                    Patch(color=BAD_COLOR, label="value 0 (P): second player wins"),
                ],
                loc="upper center",
                bbox_to_anchor=(0.5, -0.2),
                ncols=2,
                fontsize=8,
                frameon=False,
            )
            fig.tight_layout()
            _save(fig, path)
        return f"The listed values of {game.spec}; P-positions (value 0) in red."

    def _grid(
        self, claim: dict[str, Any], verdict: dict[str, Any], game: Game, path: Path
    ) -> str | None:
        """Three panels on one 2-D slice: the true P-positions, where the claim's predicate
        holds, and the true values (the nim-sum or column-sum structure), crosses where the
        claim errs. With three heaps or more the other heaps are held at small non-zero
        sizes, so that each heap count shows its own picture."""
        heaps = int(claim.get("heaps") or 2)
        plugin = isinstance(game, PluginGame)
        start = 1 if plugin else 0
        base = _heap_base(game)
        splits = base is not None and base.splits
        staircase = "staircase" in game.spec
        # The slice: heaps i and j vary. For staircase Nim the odd stairs 1 and 3 carry the
        # structure (stair 2 only feeds stair 1), and the other stairs stay empty.
        i, j = (0, 2) if staircase and heaps >= 3 else (0, 1)
        fixed = {} if (plugin or splits) else _held(heaps, i, j)
        if staircase:
            # Even stairs change values but not outcomes; odd stairs beyond 3 change both.
            fixed = {k: v for k, v in STAIRS_HELD.items() if k < heaps}
        size = GRID if not fixed else SLICE
        if splits:
            # Positions of take-and-break games are multisets of heaps: keep the slice small.
            size = 10 if game.misere else 16
        try:
            predicate = parse(
                str(claim["formula"]),
                scalars=sorted(map(str, claim.get("params") or {})),
                sequences=("h",),
                result="bool",
            )
        except NimproofError:
            return None
        params = {str(k): int(v) for k, v in (claim.get("params") or {}).items()}
        values = [[0] * size for _ in range(size)]
        said_p = [[False] * size for _ in range(size)]
        for a in range(size):
            for b in range(size):
                pos = [0] * heaps
                pos[i], pos[j] = a + start, b + start
                for k, v in fixed.items():
                    pos[k] = v
                # Empty heaps after the last non-empty one never move or receive tokens in
                # these families, so they are dropped: one computation serves many heap counts.
                last = max([j, *fixed]) + 1
                values[a][b] = self._value(game, tuple(pos[:last]))
                try:
                    said_p[a][b] = bool(evaluate(predicate, {"h": tuple(pos), **params}))
                except NimproofError:
                    said_p[a][b] = values[a][b] != 0
        true_p = [[v == 0 for v in row] for row in values]
        wrong = [(a, b) for a in range(size) for b in range(size) if true_p[a][b] != said_p[a][b]]
        if not wrong and sum(map(sum, true_p)) <= 1:
            return None  # a slice with at most one P-position shows nothing worth a picture
        axis = "stair" if staircase else "heap"
        labels = (
            (f"h[{i}]", f"h[{j}]")
            if plugin
            else (f"{axis} {i + 1}: h[{i}]", f"{axis} {j + 1}: h[{j}]")
        )
        held = ", ".join(f"h[{k}] = {v}" for k, v in sorted(fixed.items()))
        rest = f"{held}, other heaps 0" if held and len(fixed) < heaps - 2 else held
        if not held and heaps > 2:
            rest = "the other heaps 0"
        self._draw_grid(path, game, (start, size), (true_p, said_p, values), wrong, labels, rest)
        span = f"{start}..{start + size - 1}"
        return (
            f"{game.spec}, h[{i}] and h[{j}] in {span}"
            + (f" ({rest})" if rest else "")
            + ": the true P-positions, where the claim's predicate holds, and the true values"
            + ("; crosses mark positions where the claim errs." if wrong else "; the claim agrees.")
        )

    def _value(self, game: Game, position: tuple[int, ...]) -> int:
        cache = self._caches.setdefault(game.spec, {})
        return reference.value(game, position, cache)

    def _draw_grid(
        self,
        path: Path,
        game: Game,
        frame: tuple[int, int],
        data: tuple[list[list[bool]], list[list[bool]], list[list[int]]],
        wrong: list[tuple[int, int]],
        labels: tuple[str, str],
        rest: str,
    ) -> None:
        start, size = frame
        true_p, said_p, values = data
        extent = (start - 0.5, start + size - 0.5, start - 0.5, start + size - 0.5)
        with _style():
            fig = Figure(figsize=(11.5, 4.4))
            axes = fig.subplots(1, 3)
            panels = (
                ("true P-positions", true_p),
                ("where the claim's predicate holds", said_p),
            )
            for ax, (title, cells) in zip(axes[:2], panels, strict=True):
                image = [[1.0 if cells[a][b] else 0.0 for a in range(size)] for b in range(size)]
                ax.imshow(image, origin="lower", cmap="Blues", vmin=-0.15, vmax=1.25, extent=extent)
                ax.set_title(title, fontsize=10)
            grid = [[float(values[a][b]) for a in range(size)] for b in range(size)]
            shown = axes[2].imshow(grid, origin="lower", cmap="viridis", extent=extent)
            fig.colorbar(shown, ax=axes[2], fraction=0.046, pad=0.04)
            what = "misère nim-values" if game.misere else "Grundy values"
            axes[2].set_title(f"true {what} (0: a P-position)", fontsize=10)
            for ax in axes:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
                ax.set_xlabel(labels[0])
                ax.set_ylabel(labels[1])
                if wrong:
                    ax.plot(
                        [a + start for a, _ in wrong],
                        [b + start for _, b in wrong],
                        "x",
                        color=BAD_COLOR,
                        markersize=4,
                        markeredgewidth=1.2,
                    )
            fig.suptitle(f"{game.spec}" + (f" ({rest})" if rest else ""), fontsize=11)
            handles = [
                Patch(color="#1f4e8c", label="P-position"),
                Patch(color="#f0f4fa", label="N-position"),
            ]
            if wrong:
                handles.append(Patch(color=BAD_COLOR, label="the claim is wrong here"))
            fig.legend(handles=handles, loc="lower center", ncols=3, fontsize=8, frameon=False)
            # Fixed margins: tight_layout would measure every tick label of three panels.
            fig.subplots_adjust(left=0.06, right=0.96, bottom=0.2, top=0.84, wspace=0.32)
            _save(fig, path)


def _held(heaps: int, i: int, j: int) -> dict[int, int]:
    """Sizes for the heaps outside the slice: one non-empty, of a size that differs per heap count
    (one held heap already shifts the xor or column-sum pattern; more would cost far more
    positions to evaluate)."""
    others = [k for k in range(heaps) if k not in (i, j)]
    if not others:
        return {}
    sizes = HELD.get(heaps, HELD[0])
    return {k: v for k, v in zip(others, sizes, strict=False)}


def _claimed_sequence(claim: dict[str, Any]) -> tuple[dict[int, int], int]:
    """The values a one-heap claim states, by heap, and how far the picture should go."""
    kind = spec_of(claim.get("kind"))
    claimed: dict[int, int] = {}
    if kind.states_values:
        n_max = 64
        claimed = _formula_values(claim, n_max)
    elif kind.states_period:
        period, pre = int(claim.get("period") or 1), int(claim.get("preperiod") or 0)
        n_max = max(48, pre + 4 * period)
    elif kind.lists_sequence:
        offset = int(claim.get("offset") or 0)
        claimed = {offset + i: int(v) for i, v in enumerate(claim.get("values") or [])}
        n_max = max(claimed, default=0)
    else:
        claimed = {
            int(p if isinstance(p, int) else p[0]): int(v)
            for p, v in zip(claim.get("positions") or [], claim.get("values") or [], strict=False)
        }
        n_max = max(claimed, default=0)
    return claimed, n_max


def _draw_values(ax: Any, true: list[int], claimed: dict[int, int], bad: list[int]) -> None:
    """True values as dots (stems when few), claimed values as crosses, wrong ones circled."""
    xs = list(range(len(true)))
    dense = len(true) > 200
    if not dense:
        ax.vlines(xs, 0, true, color=TRUE_COLOR, linewidth=1.0, alpha=0.55)
    ax.plot(
        xs,
        true,
        "o",
        color=TRUE_COLOR,
        markersize=1.6 if dense else 3.2,
        label="true value (reference)",
    )
    if claimed:
        cx = sorted(claimed)
        ax.plot(
            cx,
            [claimed[n] for n in cx],
            "x",
            color=CLAIM_COLOR,
            markersize=10 if len(claimed) <= 5 else (4 if dense else 6),
            markeredgewidth=1.2,
            label="claimed",
        )
    if bad:
        ax.plot(
            bad,
            [claimed[n] for n in bad],
            "o",
            mfc="none",
            mec=BAD_COLOR,
            markersize=11,
            markeredgewidth=1.6,
            label="claim differs",
        )


def _heap_base(game: Game) -> HeapGame | None:
    normal = game.normal
    return normal if isinstance(normal, HeapGame) else None


def _work(game: Game, n_max: int) -> float:
    """A rough count of the option visits needed for the table of single heaps up to ``n_max``."""
    base = _heap_base(game)
    if base is None:
        return float(n_max)
    spec = base.moves_spec
    if spec.max_parts >= 3:
        return float(n_max) ** 3 / 6  # splits into three heaps
    if game.misere and base.splits:
        # Misère values are not additive: every heap is a whole multiset of heaps.
        return float(n_max) ** 2 / 2 if n_max <= 30 else float("inf")
    return float(n_max) ** 2 / 2


def _int_positions(claim: dict[str, Any]) -> bool:
    positions = claim.get("positions") or []
    ok = all(isinstance(p, int) or (isinstance(p, list) and len(p) == 1) for p in positions)
    return ok and len(positions) >= 5


def _two_coordinates(game: Game, claim: dict[str, Any]) -> bool:
    heaps = claim.get("heaps")
    if isinstance(game, PluginGame):
        return game.name == "easychomp"
    fixed = game.moves_spec.heap_count()
    if fixed is not None and game.moves_spec.parts(game, fixed) is not None:
        return False
    if game.misere:
        return (
            isinstance(game.normal, HeapGame | MultiHeapGame)
            and isinstance(heaps, int)
            and heaps >= 2
        )
    return isinstance(game, HeapGame | MultiHeapGame) and isinstance(heaps, int) and heaps >= 2


def _formula_values(claim: dict[str, Any], n_max: int) -> dict[int, int]:
    try:
        params = {str(k): int(v) for k, v in (claim.get("params") or {}).items()}
        node = parse(str(claim["formula"]), scalars=["n", *params], result="int")
    except NimproofError:
        return {}
    out = {}
    for n in range(n_max + 1):
        try:
            out[n] = int(evaluate(node, {"n": n, **params}))
        except NimproofError:
            continue
    return out


def _shade_periods(ax: Any, pre: int, period: int, length: int, top: int) -> None:
    ax.axvspan(-1, pre - 0.5, color=SHADE, zorder=0)
    start, odd = pre - 0.5, False
    while start < length:
        if odd:
            ax.axvspan(start, min(start + period, length), color=SHADE2, zorder=0)
        start += period
        odd = not odd
    ax.axvline(pre - 0.5, color="#777777", linewidth=0.8, linestyle="--", zorder=1)
    ax.text(
        pre,
        top + 1.0,
        f" n = {pre}: period {period} begins",
        fontsize=8,
        color="#444444",
        va="center",
    )


def _title(claim: dict[str, Any], game: Game) -> str:
    return f"{game.spec}  ({claim.get('id')})"
