"""``nimproof misere SPEC``: the misère quotient of a take-and-break game, in the literature's notation.

Prints the presentation (generators are the heaps whose element the smaller
heaps do not generate, named a, b, c, ...), the order, the P-portion, the
heap map (one row per period once it is periodic) and whether the periodicity
theorem for quotients proves it for every heap size (docs/misere.md). With
``--check`` every sum of up to ``--check-heaps`` heaps of total at most
``--check-total`` is also played out by brute force and compared.
``--heaps 3,5,7`` answers whether that sum is a misère P-position.
``--values N`` prints the misère nim-values of heaps ``0..N`` read from the
quotient joined with the nim heaps ``*1..*K`` (``--nim-heaps K``), or says
exactly where that computation stops (docs/misere.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from nimproof.api import misere_check, misere_quotient
from nimproof.cli.common import add_command, add_whole_number, console, print_json, progress
from nimproof.errors import UsageError
from nimproof.games.registry import parse_spec
from nimproof.misere.atlas import summary, sweep


def register(subparsers: Any) -> None:
    """Add the ``misere`` command."""
    p = add_command(
        subparsers,
        "misere",
        run,
        "Compute the misère quotient of a take-and-break game heap by heap: presentation, order, "
        "P-portion, heap map; proved for every heap when the periodicity theorem applies.",
    )
    p.add_argument("spec", nargs="?", help="an octal code or spec, e.g. 0.75, octal:0.07, kayles")
    add_whole_number(p, "--max-heap", 1, 5000, "largest heap computed (default 200)", 200)
    add_whole_number(
        p, "--max-positions", 1000, 10**8, "exact-outcome budget (default 3,000,000)", 3_000_000
    )
    add_whole_number(
        p, "--max-order", 2, 100_000, "largest candidate quotient (default 2000)", 2000
    )
    p.add_argument("--heaps", help="a sum of heaps to decide, e.g. 3,5,7")
    add_whole_number(
        p, "--values", 0, 10**7, "print the misère nim-values of heaps 0..N (see --nim-heaps)"
    )
    add_whole_number(p, "--nim-heaps", 1, 16, "nim heaps joined for --values (default 4)", 4)
    p.add_argument("--check", action="store_true", help="cross-check by brute-force outcomes")
    add_whole_number(p, "--check-heaps", 1, 8, "heaps per checked sum (default 4)", 4)
    add_whole_number(p, "--check-total", 1, 60, "largest checked total (default 30)", 30)
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.add_argument(
        "--atlas",
        action="store_true",
        help="sweep every octal code 0.d, 0.dd, 0.ddd (or --codes) on Dask into OUT/",
    )
    p.add_argument("--codes", metavar="LIST", help="with --atlas: octal codes, comma separated")
    p.add_argument("--out", default="misere-atlas", metavar="DIR", help="atlas folder")
    add_whole_number(
        p, "--workers", 0, 1024, "atlas worker processes (default: one per core; 0: no Dask)"
    )


def _spec(text: str) -> str:
    t = text.strip()
    if t.startswith("misere:"):
        t = t[len("misere:") :]
    return f"octal:{t}" if t[:1].isdigit() or t.startswith(".") else t


def _heaps(text: str) -> list[int]:
    try:
        heaps = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(
            f"--heaps must be whole numbers separated by commas, got {text!r}"
        ) from None
    if not heaps or any(h < 0 or h > 10**18 for h in heaps):
        raise UsageError(f"--heaps must list heap sizes from 0 to 10^18, got {text!r}")
    return heaps


def run(args: argparse.Namespace) -> int:
    """Compute, print, and (with ``--check``) cross-check; exit 1 when the check disagrees."""
    if args.atlas:
        return _atlas(args)
    if not args.spec:
        raise UsageError("misere: give a game (e.g. 0.75) or --atlas")
    heaps = _heaps(args.heaps) if args.heaps else None
    parse_spec(_spec(args.spec))  # a malformed spec is refused before any progress display
    if args.values is not None:
        return _values(args)
    with progress(not args.json) as prog:
        task = prog.add_task(f"quotient of {args.spec}", total=args.max_heap)

        def step(heap: int, order: int) -> None:
            prog.update(
                task, completed=heap, description=f"{args.spec}: heap {heap}, order {order}"
            )

        q = misere_quotient(
            _spec(args.spec),
            args.max_heap,
            max_positions=args.max_positions,
            max_order=args.max_order,
            progress=step,
        )
    out = q.to_json()
    code = 0
    if heaps is not None:
        out["position"] = heaps
        out["p_position"] = q.is_p(heaps)
    if args.check:
        count, bad = misere_check(q, args.check_heaps, args.check_total)
        out["check"] = {
            "sums": count,
            "max_heaps": args.check_heaps,
            "max_total": args.check_total,
            "disagreements": [list(d.heaps) for d in bad[:20]],
        }
        code = 1 if bad else 0
    if args.json:
        print_json(out)
    else:
        _show(q, out)
    return code


def _values(args: argparse.Namespace) -> int:
    """Misère nim-values of heaps 0..N from the joined quotient; exit 1 when they are not all decided."""
    from nimproof.misere.values import misere_values  # lazy: start-up time (the quotient code)

    v = misere_values(
        _spec(args.spec),
        args.nim_heaps,
        min(args.max_heap, 5000),
        max_positions=args.max_positions,
        max_order=args.max_order,
    )
    values: list[int] = []
    why = None
    for n in range(args.values + 1):
        try:
            values.append(v.value(n))
        except UsageError as exc:
            why = str(exc)
            break
    out = {
        "spec": v.spec,
        "nim_heaps": v.nim_heaps,
        "quotient_order": v.monoid.order,
        "heaps_computed": v.heaps,
        "period": list(v.period) if v.period else None,
        "proved_for_every_heap": v.proved_all,
        "stopped": v.stopped,
        "values": values,
        "limit": why,
    }
    if args.json:
        print_json(out)
    else:
        console.print(
            f"[bold]misère nim-values of {v.spec}[/bold], from its quotient joined with "
            f"*1..*{v.nim_heaps} (order {v.monoid.order}; {v.stopped})"
        )
        console.print(
            "  " + " ".join(map(str, values[:200])) + (" ..." if len(values) > 200 else "")
        )
        if why:
            console.print(f"  [yellow]stops after heap {len(values) - 1}: {why}[/yellow]")
        else:
            console.print(f"  heaps 0..{args.values}: all decided")
    return 1 if why else 0


def _show(q: Any, out: dict[str, Any]) -> None:
    c = console
    c.print(f"[bold]misère quotient of {q.spec}[/bold] (heaps <= {q.heaps})")
    c.print(f"  presentation: {q.presentation()}")
    gens = ", ".join(f"{k} = heap {v}" for k, v in out["generators"].items())
    c.print(f"  generators:   {gens or 'none'}")
    c.print(f"  order {q.order}, P-portion {{{', '.join(out['p_portion'])}}}")
    if q.period:
        n0, p = q.period
        status = (
            f"proved for every heap (periodicity theorem, heaps to {q.window})"
            if q.proved_all
            else f"seen to heap {q.heaps}, not proved"
        )
        c.print(f"  heap map: period {p} from heap {n0}; {status}")
        c.print(f"    heaps 0..{n0 - 1}: {' '.join(out['heap_map'][:n0]) or '-'}")
        c.print(
            f"    heaps {n0}..{n0 + p - 1} (repeating): {' '.join(out['heap_map'][n0 : n0 + p])}"
        )
    else:
        c.print(f"  heap map (no period found; quotient proved only for heaps <= {q.heaps}):")
        c.print("    " + " ".join(out["heap_map"]))
    c.print(f"  changes at heaps {out['changes']}; stopped: {q.stopped} ({q.seconds:.2f} s)")
    if "position" in out:
        word = "a P-position" if out["p_position"] else "an N-position"
        c.print(f"  {out['position']} is {word} in misère play")
    if "check" in out:
        ch = out["check"]
        verdict = "all agree" if not ch["disagreements"] else f"DISAGREE at {ch['disagreements']}"
        c.print(
            f"  brute-force check: {ch['sums']} sums of <= {ch['max_heaps']} heaps, "
            f"total <= {ch['max_total']}: {verdict}"
        )


def _atlas(args: argparse.Namespace) -> int:
    """The misère atlas (see :mod:`nimproof.misere.atlas`); writes OUT/misere_atlas.parquet and .md."""
    # lazy: start-up time (pandas, pyarrow, numpy, rich)
    from collections import Counter
    from pathlib import Path

    from nimproof.atlas.families import family_specs
    from nimproof.cli.progress import rate_progress

    if args.spec:
        raise UsageError("misere --atlas sweeps a family; use --codes to name games")
    specs = family_specs(None if args.codes else "octal", args.codes)
    with rate_progress("misère atlas: games") as cb:
        rows, computed = sweep(
            specs,
            args.out,
            max_heap=args.max_heap,
            max_positions=args.max_positions,
            workers=args.workers,
            progress=cb,
        )
    md = Path(args.out) / "misere_atlas.md"
    try:
        md.write_text(summary(rows))
    except OSError as exc:
        raise UsageError(f"cannot write {md}: {exc}") from None
    counts = Counter(str(r.get("status")) for r in rows)
    if args.json:
        print_json(
            {"out": str(args.out), "games": len(rows), "computed": computed, "counts": counts}
        )
    else:
        tally = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        console.print(
            f"misère atlas of {len(rows)} games ({tally}); {computed} computed now; see {md}"
        )
    return 1 if counts.get("error") else 0
