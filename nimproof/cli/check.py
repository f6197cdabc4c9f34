"""``nimproof check``: check a game family against a proposed formula, no file needed.

Prints the verdict in plain words; on a refutation, the position, the claimed
value, the true value and the move that shows it. ``--json`` prints one
verdict object instead.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nimproof.api import check_claim
from nimproof.cli.common import (
    MAX_N,
    STATUS_STYLE,
    add_command,
    add_whole_number,
    console,
    print_json,
)
from nimproof.errors import UsageError
from nimproof.reports.text import counterexample_facts
from nimproof.verification import verdict_of

if TYPE_CHECKING:
    from nimproof.claims import Claim
    from nimproof.verdict import Verdict


def register(sub: Any) -> None:
    """Add the ``check`` command."""
    p = add_command(
        sub,
        "check",
        run,
        "Check a game family against a proposed Grundy formula or P-position rule.",
    )
    p.add_argument("--game", required=True, metavar="SPEC", help="the game spec, e.g. knim:3")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--grundy", metavar="EXPR", help="claimed Grundy value, in n (or h with --heaps)"
    )
    what.add_argument(
        "--p-positions", metavar="EXPR", help="predicate true exactly on P-positions, in h"
    )
    add_whole_number(p, "--heaps", 1, 64, "number of heaps")
    add_whole_number(p, "--max-n", 0, MAX_N, "exhaustive bound for one heap")
    add_whole_number(p, "--max-heap", 0, 4096, "exhaustive bound per heap (several heaps)")
    add_whole_number(
        p, "--max-size", 0, 4096, "exhaustive bound on a plugin game's position size (as in table)"
    )
    add_whole_number(p, "--width", 1, 512, "z3 bit-vector width")
    p.add_argument(
        "--witness",
        metavar="W",
        help="winning-move witness: nim, misere-nim, moore, staircase or a formula",
    )
    add_whole_number(p, "--timeout", 1, 86400, "seconds (default 120)", 120)
    p.add_argument(
        "--require",
        metavar="SCOPE",
        help="scope the verdict must reach for exit 0: all, width=W or bound=B "
        "(default: the claim's whole domain, i.e. proved)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON verdict object")


def build_claim(args: argparse.Namespace) -> Claim:
    """The claim that ``nimproof check`` decides (:func:`nimproof.api.check_claim`)."""
    if args.p_positions is not None and args.heaps is None:
        raise UsageError("--p-positions needs --heaps")
    return check_claim(
        args.game,
        grundy=args.grundy,
        p_positions=args.p_positions,
        heaps=args.heaps,
        max_n=args.max_n,
        max_heap=args.max_heap,
        max_size=args.max_size,
        width=args.width,
        witness=args.witness,
        timeout=args.timeout,
        require=args.require,
    )


def run(args: argparse.Namespace) -> int:
    """Decide the claim and print the verdict: exit 0 only when it reaches the required scope
    (``--require``, else the claim's whole domain), 1 otherwise."""
    claim = build_claim(args)
    verdict = verdict_of(claim, args.timeout)  # the verify pipeline, without certification
    code = 0 if verdict.scope_met else 1
    if args.json:
        print_json(verdict.to_json())
        return code
    print_verdict(verdict, claim)
    return code


def print_verdict(verdict: Verdict, claim: Claim) -> None:
    """The verdict in plain words: its status and scope, why it falls short of the required
    scope, each method's row, and the counterexample in words."""
    from rich.markup import escape

    from nimproof.provers import ALL_SCOPE  # lazy: start-up time (numba, z3, numpy)

    style = STATUS_STYLE[verdict.status]
    scope = {
        "proved": f" for {verdict.scope.describe()}",
        "checked": f": no counterexample for {verdict.scope.describe()} (not a proof)",
    }.get(verdict.status, "")
    console.print(
        f"[bold {style}]{verdict.status.upper()}[/]{escape(scope)} {escape(claim.statement)}",
        soft_wrap=True,
    )
    if verdict.status == "checked" and verdict.scope_met:
        why = [
            f"{m.method}: {m.detail or m.status}"
            for m in verdict.methods
            if m.method in ALL_SCOPE and m.status not in ("proved", "checked")
        ]
        console.print(
            f"  no method covers {verdict.domain.describe()}"
            + (" (" + "; ".join(why) + ")" if why else ""),
            markup=False,
            soft_wrap=True,
        )
    if verdict.status == "checked" and not verdict.scope_met:
        console.print(
            f"  required scope not reached: {verdict.shortfall()}", markup=False, soft_wrap=True
        )
    for m in verdict.methods:
        shown = m.status in ("proved", "checked")
        console.print(
            f"  {m.method}: {m.status}"
            f"{' (' + m.scope.describe() + ')' if shown else ''}"
            f"{' - ' + m.detail if m.detail else ''} [{m.seconds:.2f}s]",
            markup=False,
            soft_wrap=True,
        )
    if verdict.counterexample:
        cx = verdict.counterexample.to_json()
        label = "counterexample" if cx["rechecked"] else "candidate counterexample (not confirmed)"
        console.print(f"  {label}: {cx['explanation']}", markup=False, soft_wrap=True)
        for fact, text in counterexample_facts(cx, claim.kind):
            console.print(f"    {fact}: {text}", markup=False, soft_wrap=True)
