"""``nimproof check``: check a game family against a proposed formula, no file needed.

Prints the verdict in plain words; on a refutation, the position, the claimed
value, the true value and the move that shows it. ``--json`` prints one
verdict object instead.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nimproof.cli.common import MAX_N, bounded_int, console, print_json
from nimproof.errors import UsageError

if TYPE_CHECKING:
    from nimproof.claims import Claim


def register(sub: Any) -> None:
    """Add the ``check`` command."""
    p = sub.add_parser(
        "check",
        help="check a game against a proposed formula",
        description="Check a game family against a proposed Grundy formula or P-position rule.",
    )
    p.add_argument("--game", required=True, metavar="SPEC", help="the game spec, e.g. knim:3")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--grundy", metavar="EXPR", help="claimed Grundy value, in n (or h with --heaps)"
    )
    what.add_argument(
        "--p-positions", metavar="EXPR", help="predicate true exactly on P-positions, in h"
    )
    p.add_argument("--heaps", type=bounded_int(1, 64, "--heaps"), help="number of heaps")
    p.add_argument(
        "--max-n", type=bounded_int(0, MAX_N, "--max-n"), help="exhaustive bound for one heap"
    )
    p.add_argument(
        "--max-heap", type=bounded_int(0, 4096, "--max-heap"), help="exhaustive bound per heap"
    )
    p.add_argument("--width", type=bounded_int(1, 512, "--width"), help="z3 bit-vector width")
    p.add_argument(
        "--witness",
        metavar="W",
        help="winning-move witness: nim, misere-nim, moore, staircase or a formula",
    )
    p.add_argument(
        "--timeout",
        type=bounded_int(1, 86400, "--timeout"),
        default=120,
        help="seconds (default 120)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON verdict object")
    p.set_defaults(func=run)


def build_claim(args: argparse.Namespace) -> Claim:
    """The claim that ``nimproof check`` decides, with checks chosen from the flags."""
    from nimproof.claims import Claim
    from nimproof.expr import uses_bitwise
    from nimproof.provers import prepare
    from nimproof.provers.moves import heap_moves

    kind = "grundy" if args.grundy is not None else "p_positions"
    formula = args.grundy if args.grundy is not None else args.p_positions
    if kind == "p_positions" and args.heaps is None:
        raise UsageError("--p-positions needs --heaps")
    checks: dict[str, dict[str, Any]] = {}
    claim = Claim(
        id="check",
        kind=kind,
        statement=f"{args.game}: {formula}",
        game=args.game,
        formula=formula,
        heaps=args.heaps,
        witness=args.witness,
    )
    ctx = prepare(claim)
    if ctx.one_heap:
        checks["exhaustive"] = {"max_n": args.max_n if args.max_n is not None else 1000}
        base = ctx.heap_game
        symbolic = base is not None and heap_moves(base) is not None
        if symbolic and ctx.formula is not None and not uses_bitwise(ctx.formula):
            checks["z3_int"] = {"timeout": args.timeout}
        if symbolic and (args.width or (ctx.formula is not None and uses_bitwise(ctx.formula))):
            checks["z3_bitvec"] = {"width": args.width or 16, "timeout": args.timeout}
    else:
        key = "max_size" if claim.game and claim.game.startswith("plugin:") else "max_heap"
        checks["exhaustive"] = {key: args.max_heap if args.max_heap is not None else 7}
        if args.width:
            checks["z3_bitvec"] = {"width": args.width, "timeout": args.timeout}
    return Claim(
        id="check",
        kind=kind,
        statement=claim.statement,
        game=args.game,
        formula=formula,
        heaps=args.heaps,
        witness=args.witness,
        checks=checks,
    )


def run(args: argparse.Namespace) -> int:
    """Decide the claim and print the verdict (exit 1 when refuted)."""
    from rich.markup import escape

    from nimproof.provers.isolate import decide

    claim = build_claim(args)
    verdict = decide(claim, args.timeout)
    if args.json:
        print_json(verdict.to_json())
        return 0 if verdict.status != "refuted" else 1
    style = {"proved": "green", "refuted": "red", "unknown": "yellow"}[verdict.status]
    console.print(
        f"[bold {style}]{verdict.status.upper()}[/] {escape(claim.statement)}", soft_wrap=True
    )
    if verdict.status == "proved":
        console.print(f"  scope: {verdict.scope.describe()}", markup=False)
    for m in verdict.methods:
        console.print(
            f"  {m.method}: {m.status}"
            f"{' (' + m.scope.describe() + ')' if m.status == 'proved' else ''}"
            f"{' - ' + m.detail if m.detail else ''} [{m.seconds:.2f}s]",
            markup=False,
        )
    if verdict.counterexample:
        from nimproof.reports.text import counterexample_facts

        cx = verdict.counterexample.to_json()
        label = "counterexample" if cx["rechecked"] else "candidate counterexample (not confirmed)"
        console.print(f"  {label}: {cx['explanation']}", markup=False, soft_wrap=True)
        for fact, text in counterexample_facts(cx, claim.kind):
            console.print(f"    {fact}: {text}", markup=False, soft_wrap=True)
    return 0 if verdict.status != "refuted" else 1
