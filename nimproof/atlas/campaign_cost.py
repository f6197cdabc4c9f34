"""What each game of a campaign costs: the method of its doublings, their seconds, a projection.

Every campaign row (:mod:`nimproof.atlas.campaign`) carries, beside the published
figures, four columns about cost:

* ``method``: how the engine computed the heaps of that doubling, counted by the
  table itself (:attr:`nimproof.engines.sparse.SparseTable.counts`): ``"sparse"``
  (the rare-value method) or ``"dense"`` (every split), whichever computed more of
  the doubling's heaps. Rows written before the column existed have none; for them
  :func:`method_of` applies the engine's own rule to the row's figures (the dense
  method is used while more than :data:`nimproof.engines.sparse.DENSE_SHARE` of the
  heaps of one parity are rare) and says so (``by_rule``).
* ``doubling_seconds``: the game's seconds from the row before to this one (from
  heap 0 for a game's first row), over every run that worked on that doubling.
* ``projected_to`` and ``projected_seconds``: a **projection**, not a measurement,
  of the seconds still needed to reach ``2^projected_to`` heaps, made by
  :func:`project` from the rows up to that one (:func:`path`): the last doubling's
  seconds, multiplied at every further doubling by the growth per doubling. The
  growth is the one measured over the game's last doublings of the same method
  (:func:`growth`), kept between the method's own rate (:data:`GROWTH`: x2 a doubling
  for the sparse method, whose cost per heap stays flat while the rare set does; x4
  for the dense method, whose cost per heap grows with the heap) and twice that rate.
  A dense game's share of rare heaps is carried forward with its rare heaps' measured
  growth: when the rare heaps grow more slowly than the table, the share falls, and
  once it is under the engine's threshold the projected doublings are sparse.
  ``projected_seconds`` is 0 at the target depth and empty once the game's period is
  proved.

:func:`cost_summary` sorts the games still short of the target depth by the method
their next doubling is projected to take and sums their projections: the one line the
campaign prints; ``--skip-dense`` leaves out the games whose next doubling is dense.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

#: The columns this module fills, in order (after the published ones).
COST_COLUMNS = ("method", "doubling_seconds", "projected_to", "projected_seconds")
#: Each method's own growth of a doubling's seconds, per doubling.
GROWTH = {"sparse": 2.0, "dense": 4.0}
#: A measured growth is kept below this multiple of the method's own rate (noise of a
#: loaded machine, compilation in a short doubling).
GROWTH_CAP = 2.0
#: Growths (between consecutive doublings) averaged into a game's measured growth.
GROWTH_SPAN = 3
SECONDS_PER_YEAR = 365.25 * 86400


def method_of(row: dict[str, Any]) -> tuple[str, bool]:
    """The method of a row's doubling and whether it was inferred (``by_rule``).

    A row with a ``method`` gives it (measured); an older row gets the engine's rule
    applied to its figures: dense when its rare heaps pass the dense share of the heaps
    of one parity (heaps ``1..n``)."""
    if row.get("method") in GROWTH:
        return str(row["method"]), False
    return ("dense" if rare_share(row) > dense_from() else "sparse"), True


def dense_from() -> float:
    """The share of rare heaps above which the engine takes the dense method (half of
    :data:`nimproof.engines.sparse.DENSE_SHARE`: that share of the heaps of one parity)."""
    from nimproof.engines.sparse import DENSE_SHARE  # lazy: start-up time (numba)

    return DENSE_SHARE / 2


def rare_share(row: dict[str, Any]) -> float:
    """The row's rare heaps as a share of its heaps."""
    return int(row.get("num_rare") or 0) / (int(row.get("n") or 0) + 1)


def rare_growth(rows: list[dict[str, Any]]) -> float:
    """How the rare heaps of a game grow per doubling: the geometric mean over its last
    consecutive doublings (up to :data:`GROWTH_SPAN`), between 1 and 2 (2 when unknown:
    a rare set growing with the table, the dense case)."""
    ratios = [
        int(b["num_rare"]) / int(a["num_rare"])
        for a, b in itertools.pairwise(rows[-GROWTH_SPAN - 1 :])
        if b["log2_n"] == a["log2_n"] + 1 and a.get("num_rare") and b.get("num_rare")
    ]
    if not ratios:
        return 2.0
    return min(2.0, max(1.0, math.prod(ratios) ** (1 / len(ratios))))


def growth(rows: list[dict[str, Any]], method: str) -> float:
    """The growth per doubling of a game whose rows (in order, with ``doubling_seconds``)
    end with a doubling of ``method``: the geometric mean of the growths between its last
    doublings (up to :data:`GROWTH_SPAN` of them, consecutive, all of ``method``), kept
    between the method's own rate and :data:`GROWTH_CAP` times it; the method's own rate
    when there is none."""
    own = GROWTH[method]
    ratios: list[float] = []
    for a, b in itertools.pairwise(rows[-GROWTH_SPAN - 1 :]):
        ta, tb = a.get("doubling_seconds") or 0.0, b.get("doubling_seconds") or 0.0
        same = method_of(a)[0] == method_of(b)[0] == method
        if same and b["log2_n"] == a["log2_n"] + 1 and ta > 0 and tb > 0:
            ratios.append(tb / ta)
        else:
            ratios.clear()  # only the doublings after a change of method count
    if not ratios:
        return own
    mean = math.prod(ratios) ** (1 / len(ratios))
    return min(GROWTH_CAP * own, max(own, mean))


def project(rows: list[dict[str, Any]], depth: int) -> list[dict[str, Any]]:
    """One game's rows (in order) with their cost columns filled for a target of ``2^depth``.

    ``doubling_seconds`` is kept when the row has it, else taken from the game's
    seconds (the difference to the row before when it is positive; for a first row, or
    after a run that started the game again from heap 0, the share of the game's seconds
    that the last doubling takes under the method's growth). Returns new dicts."""
    out: list[dict[str, Any]] = []
    for given in rows:
        row = dict(given)
        method, _ = method_of(row)
        if row.get("doubling_seconds") is None:
            row["doubling_seconds"] = _doubling_seconds(out[-1] if out else None, row, method)
        out.append(row)
        row["projected_to"] = depth
        row["projected_seconds"] = _remaining(out, depth, method)
    return out


def _doubling_seconds(before: dict[str, Any] | None, row: dict[str, Any], method: str) -> float:
    """A doubling's seconds read from the game's running total (rows without the column)."""
    total = float(row.get("seconds") or 0.0)
    if before is not None and before["log2_n"] == row["log2_n"] - 1:
        step = total - float(before.get("seconds") or 0.0)
        if step > 0:
            return round(step, 3)
    g = GROWTH[method]
    return round(total * (g - 1) / g, 3)  # the last term of a geometric series summing to total


def _remaining(rows: list[dict[str, Any]], depth: int, method: str) -> float | None:
    """Projected seconds from the last row of ``rows`` to ``2^depth`` (0 there; None when
    the period is proved): the sum of :func:`path`."""
    if rows[-1].get("proved"):
        return None
    return round(sum(t for _, _, t in path(rows, depth, method)), 1)


def next_method(rows: list[dict[str, Any]], depth: int) -> str:
    """The method a game's next doubling is projected to take (:func:`path`): a dense game
    whose rare share is falling fast enough turns sparse."""
    ahead = path(rows, depth)
    return ahead[0][1] if ahead else method_of(rows[-1])[0]


def path(
    rows: list[dict[str, Any]], depth: int, method: str | None = None
) -> list[tuple[int, str, float]]:
    """The projected doublings after a game's last row, to ``2^depth``: (log2 of heaps,
    method, seconds) each.

    Each doubling costs the one before times the growth (:func:`growth`). A dense game's
    rare share is carried forward with its rare heaps' growth (:func:`rare_growth`; the
    heaps double): once it falls below the engine's threshold (:func:`dense_from`) the
    doublings are sparse, each costing the one before times twice the rare growth (the
    sparse method's cost per heap grows with the rare heaps), between 2 and 4. The first
    sparse doubling is charged as a dense one would be (at the threshold the engine finds
    the two methods alike)."""
    last = rows[-1]
    method = method or method_of(last)[0]
    g, t = growth(rows, method), float(last["doubling_seconds"] or 0.0)
    share, r = rare_share(last), rare_growth(rows)
    out = []
    for k in range(int(last["log2_n"]) + 1, depth + 1):
        t *= g
        if method == "dense":
            share *= r / 2
            if share <= dense_from():
                method, g = "sparse", min(2 * GROWTH["sparse"], max(GROWTH["sparse"], 2 * r))
        out.append((k, method, t))
    return out


@dataclass(frozen=True, slots=True)
class CostSummary:
    """The games of a campaign by what is left to do: those at the target depth or proved,
    and for the others the method their next doubling is projected to take and the seconds
    projected to the depth (codes in list order). ``turning``: the dense games projected to
    turn sparse before the depth, and where; ``inferred``: games whose deepest row has its
    method from the engine's rule (older rows)."""

    depth: int
    done: list[str]
    left: dict[str, tuple[str, float]]
    turning: dict[str, int]
    inferred: list[str]

    def games(self, method: str) -> list[str]:
        """The games short of the depth whose next doubling is projected ``method``."""
        return [c for c, (m, _) in self.left.items() if m == method]

    def seconds(self, method: str) -> float:
        """The projected seconds of those games, in all."""
        return sum(t for m, t in self.left.values() if m == method)

    def line(self) -> str:
        """One line: games done, then the sparse and the dense games with their projected
        time (and the game that takes the most of it)."""
        parts = [f"{len(self.done)} game(s) at 2^{self.depth} or proved"]
        for method in GROWTH:
            games = self.games(method)
            if not games:
                parts.append(f"0 {method}")
                continue
            total = self.seconds(method)
            top = max(games, key=lambda c: self.left[c][1])
            text = f"{len(games)} {method}, reaching 2^{self.depth} in about {core_time(total)}"
            if len(games) > 1 and self.left[top][1] > total / 2:
                text += f" ({core_time(self.left[top][1])} of it {top})"
            if method == "dense" and self.turning:
                text += f"; {len(self.turning)} of them turn sparse on the way"
            parts.append(text)
        return "; ".join(parts) + " (projections from the measured doublings)"

    def as_json(self) -> dict[str, Any]:
        """The summary as a JSON object (codes and projected seconds by method)."""
        out: dict[str, Any] = {"depth": self.depth, "done": self.done}
        for method in GROWTH:
            out[method] = {c: round(self.left[c][1], 1) for c in self.games(method)}
            out[f"{method}_projected_seconds"] = round(self.seconds(method), 1)
        out["dense_turning_sparse_at"] = self.turning
        out["method_by_rule"] = self.inferred
        return out


def cost_summary(by_game: dict[str, list[dict[str, Any]]], depth: int) -> CostSummary:
    """Each game's state for a target of ``2^depth``: at the depth or proved, or the method
    of its next doubling (:func:`next_method`) and the seconds projected from its rows
    (:func:`project`)."""
    done, inferred = [], []
    left: dict[str, tuple[str, float]] = {}
    turning: dict[str, int] = {}
    for code, given in by_game.items():
        if not given:
            continue
        rows = project(given, depth)
        last = rows[-1]
        if last.get("proved") or int(last["log2_n"]) >= depth:
            done.append(code)
            continue
        ahead = path(rows, depth)
        left[code] = (ahead[0][1], float(last["projected_seconds"] or 0.0))
        sparse_at = [k for k, m, _ in ahead if m == "sparse"]
        if ahead[0][1] == "dense" and sparse_at:
            turning[code] = sparse_at[0]
        if method_of(last)[1]:
            inferred.append(code)
    return CostSummary(depth, done, left, turning, inferred)


def core_time(seconds: float) -> str:
    """Seconds of one core in the largest unit that keeps the number readable."""
    for unit, size in (("years", SECONDS_PER_YEAR), ("days", 86400.0), ("hours", 3600.0)):
        if seconds >= size:
            return f"{_figure(seconds / size)} core-{unit}"
    if seconds >= 60:
        return f"{_figure(seconds / 60)} core-minutes"
    return f"{_figure(seconds)} core-seconds"


def _figure(x: float) -> str:
    """Two significant figures below 100, whole numbers (with commas) above."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.2g}" if x >= 1 else f"{x:.1g}"
