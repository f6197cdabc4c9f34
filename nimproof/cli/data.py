"""``nimproof data``: the stored tables.

* ``list`` - the catalog: spec, bound, rows, engine, version, created, hash ok?
* ``verify`` - read and check every file (metadata, columns, content hash);
  ``--deep N`` also recomputes the first values with the reference
  implementation. Exit code 1 when a file fails.
* ``build`` - compute and store the standard tables (under a minute).
* ``path`` - print the data directory.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from nimproof import datasets  # its names load on first use (pandas, pyarrow)
from nimproof.cli.common import add_command, console, err_console, print_json, progress
from nimproof.errors import UsageError


def register(subparsers: Any) -> None:
    """Add the ``data`` command and its sub-commands."""
    p = add_command(subparsers, "data", run)
    sub = p.add_subparsers(dest="data_command", metavar="ACTION", parser_class=type(p))
    for name, help_text in (
        ("list", "list the stored tables"),
        ("verify", "check every stored table"),
        ("build", "compute and store the standard tables"),
        ("path", "print the data directory"),
    ):
        q = sub.add_parser(name, help=help_text)
        q.add_argument(
            "--data-dir", metavar="DIR", help="data directory (default: $NIMPROOF_DATA or ./data)"
        )
        q.add_argument("--json", action="store_true", help="print one JSON object")
        if name == "verify":
            q.add_argument(
                "--deep",
                type=int,
                default=0,
                metavar="N",
                help="also recompute about N values of each table with the reference",
            )
        q.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Dispatch the sub-command."""
    action = getattr(args, "data_command", None)
    if action is None:
        raise UsageError("nimproof data needs an action: list, verify, build or path")
    if action == "path":
        return _path(args)
    if action == "build":
        return _build(args)
    return _list(args, verify=action == "verify")


def _path(args: argparse.Namespace) -> int:
    root = datasets.data_directory(args.data_dir)
    if args.json:
        print_json({"data_dir": str(root.resolve())})
    else:
        console.print(str(root.resolve()), markup=False, soft_wrap=True)
    return 0


def _list(args: argparse.Namespace, *, verify: bool) -> int:
    from rich.console import Console
    from rich.table import Table

    entries = datasets.catalog(args.data_dir)
    deep = getattr(args, "deep", 0) if verify else 0
    reference: dict[str, str | None] = {}
    if deep > 0:
        for e in entries:
            if e.ok:
                reference[str(e.path)] = datasets.spot_check(datasets.read(e.path), deep)
    failed = [e for e in entries if not e.ok] + [e for e in entries if reference.get(str(e.path))]
    if args.json:
        rows = []
        for e in entries:
            row = e.to_json()
            if deep > 0 and e.ok:
                row["reference_problem"] = reference.get(str(e.path))
            rows.append(row)
        print_json({"data_dir": str(args.data_dir or ""), "tables": rows, "ok": not failed})
    else:
        table = Table(title=f"stored tables ({len(entries)})", title_justify="left")
        for col in ("spec", "layout", "bound", "rows", "engine", "version", "created", "hash ok?"):
            table.add_column(col, justify="right" if col in ("bound", "rows") else "left")
        for e in entries:
            if not e.ok:
                table.add_row(e.path.name, "", "", "", "", "", "", "[red]no[/red]")
                continue
            layout = "heap" if e.layout == "heap" else f"{e.heaps} heaps"
            ok = "[green]yes[/green]"
            if reference.get(str(e.path)):
                ok = "[red]reference differs[/red]"
            table.add_row(
                e.spec, layout, f"{e.bound:,}", f"{e.rows:,}", e.engine, e.version, e.created, ok
            )
        # Piped output is not cut to 80 columns: a catalog line is wider than that.
        wide = console if console.is_terminal else Console(highlight=False, width=160)
        wide.print(table)
        for e in entries:
            if not e.ok:
                console.print(f"[red]error[/red]: {e.problem}", soft_wrap=True)
            elif reference.get(str(e.path)):
                console.print(
                    f"[red]error[/red]: {e.path}: {reference[str(e.path)]}", soft_wrap=True
                )
        if verify and not failed:
            console.print(
                f"all {len(entries)} tables passed"
                + (" (and the reference spot check)" if deep else "")
            )
    return 1 if (verify and failed) else 0


def _build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    with progress(enabled=err_console.is_terminal) as bar:
        task = bar.add_task("standard tables", total=len(datasets.STANDARD))

        def on_start(item: Any) -> None:
            bar.update(task, description=item.label, completed=datasets.STANDARD.index(item))

        datasets.build(args.data_dir, items=datasets.STANDARD, on_start=on_start)
        bar.update(task, completed=len(datasets.STANDARD))
    elapsed = time.perf_counter() - started
    root = datasets.data_directory(args.data_dir)
    if args.json:
        print_json(
            {
                "data_dir": str(root),
                "built": [s.label for s in datasets.STANDARD],
                "seconds": round(elapsed, 2),
            }
        )
    else:
        console.print(
            f"{len(datasets.STANDARD)} standard tables in {root} ({elapsed:.1f} s)", markup=False
        )
    return 0
