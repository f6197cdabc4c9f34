"""``python -m bench``: run every benchmark, print a table, exit 1 if a floor is missed.

``--full`` runs the automata benchmarks at every size (``make bench-full``);
``--automata`` runs only those, ``--evaluation`` only the exact-evaluation ones, ``--hunt``
only the hunt's examples and the share of formulas in the WS1S fragment, ``--misere`` only
the misère quotients, ``--trace`` only the modules one claim visits (bench/trace_claim.py),
``--certificates`` only the certificate benchmark (time to check
every certificate against the time to find the proofs).
"""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.table import Table

from bench.automata import LIMIT_SECONDS, run_automata_benchmarks
from bench.cases import BENCHMARKS, Result, python_info
from bench.certificates import run_certificate_benchmark
from bench.evaluation import run_evaluation_benchmarks
from bench.frontier import FRONTIER_TABLE, markdown, run_frontier_benchmarks
from bench.hunt import run_hunt_benchmarks, ws1s_share
from bench.misere import (
    MAX_ORDER,
    MAX_POSITIONS,
    run_misere_benchmarks,
    run_misere_value_benchmarks,
)
from bench.officers import markdown as officers_markdown
from bench.startup import run_startup_benchmarks
from bench.trace_claim import CLAIMS, trace
from bench.verifier import run_verifier_benchmarks


def _fmt_time(seconds: float) -> str:
    if seconds >= 100:
        return f"{seconds:,.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms"


def automata_table(out: Console, err: Console, full: bool) -> None:
    """Time the automata method per family and heap count; say where scaling stops."""
    err.print("running the automata (MONA) benchmarks ...", style="dim")
    rows = run_automata_benchmarks(full)
    if not rows:
        out.print("automata benchmarks skipped: mona is not installed (apt-get install mona)")
        return
    table = Table(
        title=f"automata method (MONA), proofs for every heap size ({'full' if full else 'quick'} set)",
        title_justify="left",
    )
    for col in ("family", "heaps", "status", "time", "MONA time", "MONA runs", "note"):
        table.add_column(
            col, justify="right" if col in ("heaps", "time", "MONA time", "MONA runs") else "left"
        )
    for r in rows:
        note = "" if r.status == "proved" else r.detail[:80]
        table.add_row(
            r.family,
            str(r.heaps),
            r.status,
            _fmt_time(r.seconds),
            _fmt_time(r.mona_seconds),
            str(r.mona_runs),
            note,
        )
    out.print(table)
    out.print(
        f"a family stops at its first size that is not proved or takes over {LIMIT_SECONDS:.0f} s"
    )


def evaluation_table(out: Console, err: Console) -> None:
    """Exact scalar evaluation of typical formulas: evaluations per second."""
    err.print("running the exact-evaluation benchmarks ...", style="dim")
    table = Table(title="exact evaluation of a formula (best of 5 runs)", title_justify="left")
    for col in ("formula", "evaluations", "time", "throughput"):
        table.add_column(col, justify="left" if col == "formula" else "right")
    for row in run_evaluation_benchmarks():
        table.add_row(
            row.formula, f"{row.evaluations:,}", _fmt_time(row.seconds), f"{row.rate:,.0f}/s"
        )
    out.print(table)


def hunt_table(out: Console, err: Console) -> None:
    """Issue 18's examples with default options: time to refute, region checked per second."""
    err.print("running the hunt examples (default timeout 120 s each) ...", style="dim")
    table = Table(title="the hunt (nimproof check, default options)", title_justify="left")
    for col in ("claim", "status", "by", "time", "position", "region checked", "rate"):
        table.add_column(col, justify="right" if col in ("time", "rate") else "left")
    for row in run_hunt_benchmarks():
        position = "-" if row.position is None else str(row.position)
        table.add_row(
            row.label,
            row.status,
            row.by,
            _fmt_time(row.seconds),
            position,
            row.region or "-",
            row.rate or "-",
        )
    out.print(table)
    compiled, total, reasons = ws1s_share()
    out.print(
        f"WS1S fragment: {compiled} of {total} soundness-suite formulas compile ({compiled / total:.0%})"
    )
    for why, count in sorted(reasons.items(), key=lambda kv: -kv[1]):
        out.print(f"  {count} not compiled: {why}")


def trace_table(out: Console, err: Console) -> None:
    """Issue 21: following one claim to its verdict, the modules visited and the returns up."""
    err.print("tracing three claims from verify_claim to the verdict ...", style="dim")
    table = Table(title="one claim, check to verdict (bench/trace_claim.py)", title_justify="left")
    cols = ("claim", "status", "modules", "returns to a module left", "in provers/engines")
    for col in (*cols, "calls back up"):
        table.add_column(col, justify="left" if col in ("claim", "status") else "right")
    for label, (game, options) in CLAIMS.items():
        status, t, _ = trace(game, options)
        row = t.summary()
        cells = [str(row[k]) for k in ("modules", "returns", "provers", "upward_calls")]
        table.add_row(label, status, *cells)
    out.print(table)


def misere_table(out: Console, err: Console) -> None:
    """The misère quotient of each game: time, where it stops (order, heap bound), memory."""
    err.print("running the misère quotient benchmarks ...", style="dim")
    table = Table(
        title=(
            f"misère quotients (budget per game: {MAX_POSITIONS:,} exact outcomes, "
            f"candidates of <= {MAX_ORDER} elements)"
        ),
        title_justify="left",
    )
    for col in ("game", "time", "peak memory", "order", "heaps", "proved", "stops", "check"):
        table.add_column(col, justify="left" if col in ("game", "stops", "proved") else "right")
    for r in run_misere_benchmarks():
        table.add_row(
            r.game,
            _fmt_time(r.seconds),
            f"{r.peak_mb:.1f} MB",
            str(r.order),
            str(r.heaps),
            "every heap" if r.proved else "no",
            r.stopped[:60],
            _fmt_time(r.check_seconds),
        )
    out.print(table)
    out.print(
        "check = brute-force outcomes of every sum of <= 4 heaps of total <= 30, same run; "
        "peak memory = Python allocations (tracemalloc) in a separate traced run"
    )


def misere_value_table(out: Console, err: Console) -> None:
    """Misère nim-values of single heaps of the seeds' codes: time of the table to the engine's limit."""
    err.print("running the misère nim-value tables to their limits ...", style="dim")
    table = Table(
        title="misère nim-values of one heap, exact evaluation of whole positions, to the limit",
        title_justify="left",
    )
    for col in ("game", "limit", "time to limit", "sums stored", "to 40", "to 40, plain"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for r in run_misere_value_benchmarks():
        table.add_row(
            r.game,
            f"heap {r.limit}",
            _fmt_time(r.seconds),
            f"{r.positions:,}",
            _fmt_time(r.seconds_40),
            _fmt_time(r.plain_seconds_40),
        )
    out.print(table)
    out.print(
        "limit = last heap before the memo passes its budget; "
        "to 40, plain = the reference evaluation without the rewriting of sums, same run"
    )


def certificate_table(out: Console, err: Console) -> None:
    """Time to check every certificate of the corpus against the time to find the proofs."""
    err.print("running the certificate benchmark (every certificate of the last verify) ...")
    try:
        t = run_certificate_benchmark()
    except FileNotFoundError as exc:
        out.print(f"certificates: not measured ({exc})")
        return
    table = Table(
        title="certificates: time to find the proofs (make verify's run) vs time for the "
        "independent checker (this run)",
        title_justify="left",
    )
    cols = (
        "certificate kind",
        "proofs",
        "proving method",
        "whole claim",
        "check",
        "check / method",
    )
    for col in cols:
        table.add_column(col, justify="left" if col == "certificate kind" else "right")

    def row(name: str, n: int, method: float, claim: float, check: float) -> None:
        ratio = f"{check / method:.2f}" if method else "-"
        table.add_row(name, str(n), _fmt_time(method), _fmt_time(claim), _fmt_time(check), ratio)

    for kind in sorted(t.count):
        row(kind, t.count[kind], t.method[kind], t.claim[kind], t.check[kind])
    row(
        "all",
        sum(t.count.values()),
        sum(t.method.values()),
        sum(t.claim.values()),
        sum(t.check.values()),
    )
    out.print(table)
    out.print(
        "proving method = the time of the method whose proof the certificate is; whole claim ="
        " every method verify ran on the claim (with the bounded second method); both from"
        " reports/results.json, measured by make verify under its own load; check = this run,"
        " one certificate at a time"
    )
    out.print("checker answers: " + ", ".join(f"{n} {s}" for s, n in sorted(t.statuses.items())))
    out.print("slowest checks: " + ", ".join(f"{c} {_fmt_time(s)}" for s, c in t.slowest))
    for line in t.not_accepted:
        out.print(f"- not accepted: {line}")
    if t.missing:
        out.print(f"- proved claims without a certificate: {', '.join(t.missing)}")


def main() -> int:
    """Run the benchmarks in :data:`BENCHMARKS` and report them."""
    out = Console(highlight=False, width=max(170, Console().width))
    err = Console(stderr=True, highlight=False)
    out.print(f"nimproof benchmarks - {python_info()}")
    full = "--full" in sys.argv[1:]
    if "--automata" in sys.argv[1:]:
        automata_table(out, err, full)
        return 0
    if "--certificates" in sys.argv[1:]:
        certificate_table(out, err)
        return 0
    if "--evaluation" in sys.argv[1:]:
        evaluation_table(out, err)
        return 0
    if "--hunt" in sys.argv[1:]:
        hunt_table(out, err)
        return 0
    if "--misere" in sys.argv[1:]:
        misere_table(out, err)
        misere_value_table(out, err)
        return 0
    if "--trace" in sys.argv[1:]:
        trace_table(out, err)
        return 0
    started = time.perf_counter()
    results: list[Result] = []
    for case in BENCHMARKS:
        err.print(f"running {case.__name__} ...", style="dim")
        results.append(case())
    table = Table(
        title="engines (baseline: seed 000's memoised recursion, same run)", title_justify="left"
    )
    for col in (
        "benchmark",
        "size",
        "time",
        "throughput",
        "first call",
        "baseline measured",
        "baseline extrapolated",
        "speed-up",
        "floor",
    ):
        table.add_column(col, justify="left" if col in ("benchmark", "size", "floor") else "right")
    for r in results:
        baseline = (
            f"{_fmt_time(r.baseline_seconds)} at {r.baseline_size}" if r.baseline_size else "-"
        )
        estimate = (
            f"{_fmt_time(r.baseline_estimate)} ({r.extrapolation})" if r.baseline_size else "-"
        )
        speed = f"{r.speedup:,.0f}x" if r.baseline_size else "-"
        floor = ""
        if r.floor:
            floor = f"{r.floor}: " + ("[green]ok[/green]" if r.passed else "[red]MISSED[/red]")
        table.add_row(
            r.name,
            r.size,
            _fmt_time(r.seconds),
            f"{r.rate:,.0f} {r.unit}/s",
            _fmt_time(r.warmup),
            baseline,
            estimate,
            speed,
            floor,
        )
    out.print(table)
    out.print(
        "time = best of up to 3 runs; first call = a small warm-up run including numba compilation "
        "or cache loading, excluded from time and throughput; baseline = best of up to 2 runs."
    )
    for r in results:
        for note in r.notes:
            out.print(f"- {r.name}: {note}")
    err.print("running the verifier benchmarks ...", style="dim")
    rows = run_verifier_benchmarks()
    vtable = Table(title="verifier (one method per claim)", title_justify="left")
    for col in ("claim", "method", "status", "scope", "time", "throughput", "solver calls"):
        vtable.add_column(
            col, justify="right" if col in ("time", "throughput", "solver calls") else "left"
        )
    for row in rows:
        vtable.add_row(
            row.name,
            row.method,
            row.status,
            row.scope,
            _fmt_time(row.seconds),
            row.rate,
            str(row.stats.get("solver_calls", "-")),
        )
    out.print(vtable)
    hunt_table(out, err)
    trace_table(out, err)
    evaluation_table(out, err)
    misere_table(out, err)
    misere_value_table(out, err)
    err.print("running the start-up benchmarks ...", style="dim")
    starts = run_startup_benchmarks()
    stable = Table(
        title="start-up (fresh process, best of 5 after a warm-up)", title_justify="left"
    )
    for col in ("command", "time", "floor"):
        stable.add_column(col, justify="right" if col == "time" else "left")
    for s in starts:
        verdict = (
            ""
            if s.floor is None
            else f"{s.floor} s: " + ("[green]ok[/green]" if s.passed else "[red]MISSED[/red]")
        )
        stable.add_row(s.command, _fmt_time(s.seconds), verdict)
    out.print(stable)
    err.print(
        "running the frontier benchmarks (long tables, one process per case) ...", style="dim"
    )
    frontier = markdown(run_frontier_benchmarks(full=full))
    out.print(frontier, markup=False)
    FRONTIER_TABLE.write_text(frontier, encoding="utf-8")
    out.print(f"(also written to {FRONTIER_TABLE})")
    err.print(
        "running the sparse-kernel and Officers benchmarks (fresh processes) ...", style="dim"
    )
    out.print(
        "Sparse-space kernels and Officers (0.6), values per second:\n" + officers_markdown(),
        markup=False,
    )
    automata_table(out, err, full)
    certificate_table(out, err)
    unproved = [row.name for row in rows if row.status != "proved"]
    out.print(f"total bench time {time.perf_counter() - started:.0f} s")
    if unproved:
        out.print(f"[red]verifier cases not proved:[/red] {', '.join(unproved)}")
        return 1
    missed = [r.name for r in results if r.passed is False]
    missed += [s.command for s in starts if s.passed is False]
    if missed:
        out.print(f"[red]floors missed:[/red] {', '.join(missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
