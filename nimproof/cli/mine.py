"""``nimproof mine``: guess closed forms from tables and hand every guess to the verifier.

::

    nimproof mine 'knim:{k}' --param k=1..8
    nimproof mine half-heap --max-n 500
    nimproof mine nim --heaps 2..4 --json
    nimproof mine --defaults --write conjectures/mined
"""

from __future__ import annotations

import argparse
import re
import shlex
from typing import TYPE_CHECKING

from nimproof.cli.common import (
    MAX_N,
    STATUS_STYLE,
    bounded_int,
    console,
    err_console,
    print_json,
    progress,
)
from nimproof.errors import UsageError
from nimproof.games import parse_spec
from nimproof.games.base import MultiHeapGame
from nimproof.output import output_dir, output_file, write_text

if TYPE_CHECKING:
    from nimproof.miner.pipeline import Request
    from nimproof.miner.run import RunResult

#: The miner's default bound for one-heap tables (``nimproof.miner.pipeline.DEFAULT_MAX_N``;
#: repeated here so that building the parser does not import the miner; a test compares).
DEFAULT_MAX_N = 300

MAX_AXIS = 64
MAX_SHOWN = 90  # longer formulas are cut in the table (files and --json have them whole)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def parse_values(text: str, what: str) -> tuple[int, ...]:
    """``3``, ``1..8`` or ``1,2,5`` (mixed: ``1..3,7``) as whole numbers, in the order given."""
    values: list[int] = []
    for raw in text.split(","):
        part = raw.strip()
        m = re.fullmatch(r"(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})", part)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < lo:
                raise UsageError(f"{what}: empty range {part!r}")
            if hi - lo >= MAX_AXIS:
                raise UsageError(f"{what}: range {part!r} has more than {MAX_AXIS} values")
            values.extend(range(lo, hi + 1))
        elif re.fullmatch(r"-?\d{1,9}", part):
            values.append(int(part))
        else:
            raise UsageError(
                f"{what}: expected a number, a range a..b or a list a,b,c; got {text!r}"
            )
    values = list(dict.fromkeys(values))
    if len(values) > MAX_AXIS:
        raise UsageError(f"{what}: more than {MAX_AXIS} values")
    return tuple(values)


def parse_param(text: str) -> tuple[str, tuple[int, ...]]:
    """``k=1..8`` -> ``("k", (1, ..., 8))``."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not _NAME.match(name):
        raise UsageError(f"--param expects NAME=VALUES such as k=1..8, got {text!r}")
    if name in ("n", "m", "h", "v", "heaps"):
        raise UsageError(f"--param: {name!r} cannot be a parameter name")
    return name, parse_values(values, f"--param {name}")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``mine`` command."""
    p = subparsers.add_parser(
        "mine",
        help="guess closed forms from Grundy tables and verify them",
        description=(
            "Compute tables of a game family, guess closed forms (periodicity, binary rules, "
            "formulas in a parameter, P-position rules), write them as conjecture files and "
            "run the verifier on each. Nothing is reported as true unless the verifier proved it."
        ),
    )
    p.add_argument(
        "spec", nargs="?", help="game spec; may contain {param} placeholders, e.g. 'knim:{k}'"
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUES",
        help="a parameter axis: k=1..8 or k=1,2,5 (repeatable)",
    )
    p.add_argument(
        "--max-n",
        type=bounded_int(8, min(MAX_N, 100_000), "--max-n"),
        default=None,
        help=f"largest heap of single-heap tables (default {DEFAULT_MAX_N})",
    )
    p.add_argument(
        "--heaps",
        default=None,
        metavar="H",
        help="mine P-positions of H heaps (or a range such as 2..4) instead of single heaps",
    )
    p.add_argument(
        "--max-heap",
        type=bounded_int(1, 4096, "--max-heap"),
        default=None,
        help="largest heap of the box [0, B]^H (default depends on H)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.add_argument(
        "--write",
        default=None,
        metavar="DIR",
        help="write the conjecture files into DIR (default: write nothing; "
        "'make mine' uses conjectures/mined)",
    )
    p.add_argument("--no-verify", action="store_true", help="do not run the verifier")
    p.add_argument(
        "--timeout",
        type=bounded_int(1, 3600, "--timeout"),
        default=60,
        help="seconds the verifier may spend on each claim instance (default 60)",
    )
    p.add_argument(
        "--defaults",
        action="store_true",
        help="mine the standard families (knim, half-heap, kayles, nim, moore, staircase, misère nim, "
        "all-but subtraction, take-fraction, take-one-or-half); with --write also writes --report",
    )
    p.add_argument(
        "--report",
        default="reports/mined.md",
        help="where --defaults --write writes the mining report (default reports/mined.md; "
        "the HTML page goes beside it, reports/mined.html)",
    )
    p.set_defaults(func=run)


def requests_from(args: argparse.Namespace) -> list[Request]:
    """The requests a command line asks for (UsageError for inconsistent options)."""
    # lazy: start-up time (numba, z3, sympy)
    from nimproof.miner.defaults import default_requests
    from nimproof.miner.pipeline import DEFAULT_HEAPS, Request

    if args.defaults:
        if args.spec or args.param or args.heaps:
            raise UsageError(
                "--defaults mines the standard families; do not give a SPEC, --param or --heaps"
            )
        return default_requests(args.max_n, args.max_heap)
    if not args.spec:
        raise UsageError("give a game SPEC to mine (or --defaults)")
    axes: dict[str, tuple[int, ...]] = {}
    for text in args.param:
        name, values = parse_param(text)
        if name in axes:
            raise UsageError(f"--param {name} is given twice")
        axes[name] = values
    heaps = parse_values(args.heaps, "--heaps") if args.heaps else ()
    spec = args.spec.strip()
    if spec.startswith("plugin:") and not axes:
        game = parse_spec(spec)  # an unknown plugin gets the registry's own message
        raise UsageError(
            f"{game.spec} is a plugin game: the miner reads heap tables and boxes of heaps; "
            f"see its values with 'nimproof table {game.spec} --max-size S'"
        )
    if not heaps and not axes and isinstance(parse_spec(spec), MultiHeapGame):
        heaps = DEFAULT_HEAPS
    return [
        Request(
            spec,
            axes=axes,
            heaps=heaps,
            max_n=args.max_n if args.max_n is not None else DEFAULT_MAX_N,
            max_heap=args.max_heap,
        )
    ]


def _command_line(args: argparse.Namespace) -> str:
    if args.defaults:
        return "nimproof mine --defaults" + (f" --write {args.write}" if args.write else "")
    words = ["nimproof", "mine", shlex.quote(args.spec)]
    words += [f"--param {shlex.quote(p)}" for p in args.param]
    if args.heaps:
        words.append(f"--heaps {args.heaps}")
    if args.max_n is not None:
        words.append(f"--max-n {args.max_n}")
    if args.max_heap is not None:
        words.append(f"--max-heap {args.max_heap}")
    return " ".join(words)


def run(args: argparse.Namespace) -> int:
    """Run ``nimproof mine``; 0 on success, 2 for bad input."""
    from nimproof.miner.run import run  # lazy: start-up time (numba, z3, sympy)

    requests = requests_from(args)
    write_dir = output_dir(args.write, "--write folder") if args.write else None
    if args.defaults and write_dir is not None:
        output_file(args.report, "--report file")  # a path that cannot be written fails now
    with progress(enabled=not args.json and err_console.is_terminal) as prog:
        task = prog.add_task("mining", total=len(requests))

        def step(spec: str) -> None:
            prog.update(task, description=f"mining {spec}", advance=0)

        result = run(
            requests,
            write_dir=write_dir,
            verify=not args.no_verify,
            timeout=float(args.timeout),
            command=_command_line(args),
            on_family=step,
        )
        prog.update(task, completed=len(requests))
    if args.defaults and write_dir is not None:
        _write_reports(args.report, result)
    if args.json:
        print_json(result.to_json())
    else:
        show(result)
    return 0


def _write_reports(report: str, result: RunResult) -> None:
    """The mining report as Markdown at ``report`` and as HTML beside it (``.html``)."""
    # lazy: start-up time (numba, z3, sympy)
    from pathlib import Path

    from nimproof.miner.report import mined_markdown
    from nimproof.miner.report_html import mined_html

    out = Path(report)
    if report != "-":
        out.parent.mkdir(parents=True, exist_ok=True)
    write_text(report, mined_markdown(result), "--report file")
    if report != "-" and out.suffix == ".md":
        write_text(str(out.with_suffix(".html")), mined_html(result), "--report file")


def show(result: RunResult) -> None:
    """The ranked table of conjectures, then per-family summaries and notes."""
    from rich.markup import escape
    from rich.table import Table

    if result.conjectures:
        table = Table(title="Mined conjectures", show_lines=False)
        for col in ("family", "#", "kind", "formula", "evidence", "verdict", "scope"):
            table.add_column(col, overflow="fold")
        for c in result.conjectures:
            verdict = c.status
            style = STATUS_STYLE.get(verdict, "yellow")
            if c.guess.point is not None and c.guess.game:
                family = c.guess.game
            else:
                params = ", ".join(f"{k} = {v}" for k, v in c.to_json()["params"].items())
                family = c.family + (f" ({params})" if params else "")
            if c.guess.heaps:
                family += f", {_axis_words(c.guess.heaps)} heaps"
            text = c.guess.description
            if len(text) > MAX_SHOWN:
                text = text[: MAX_SHOWN - 1] + "…"
            table.add_row(
                escape(family),
                str(c.rank),
                c.guess.kind,
                escape(text),
                c.guess.evidence.short(),
                f"[{style}]{verdict}[/{style}]",
                escape(c.scope),
            )
        console.print(table)
    for f in result.families:
        console.print(f.summary, markup=False)
        for note in f.notes:
            console.print(f"  note: {note}", markup=False)
        for reason in f.reasons if not f.guesses else ():
            console.print(f"  why: {reason}", markup=False)
    _show_residue_tables(result)
    files = sorted({c.file for c in result.conjectures if c.file})
    if files:
        console.print("written: " + ", ".join(files), markup=False)


def _show_residue_tables(result: RunResult) -> None:
    """Each conjectured one-heap rule that depends on ``n mod a``, as a residue table."""
    from nimproof.miner.readable import residue_table  # lazy: start-up time (numba, z3, sympy)

    for c in result.conjectures:
        if c.role != "conjecture" or not c.guess.spec.states_values or not c.guess.formula:
            continue
        table = residue_table(c.guess.formula)
        if table is not None:
            console.print(
                f"{c.guess.game or c.family} ({c.guess.guesser}), by residue:", markup=False
            )
            for line in table.text().splitlines():
                console.print(f"  {line}", markup=False)


def _axis_words(values: tuple[int, ...]) -> str:
    lo, hi = min(values), max(values)
    if len(values) > 1 and list(values) == list(range(lo, hi + 1)):
        return f"{lo}..{hi}"
    return ", ".join(map(str, values))
