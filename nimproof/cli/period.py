"""``nimproof period SPEC``: the period of a one-heap game, as CGSuite's CheckPeriodicity answers.

The table of ``SPEC`` is computed up to ``--max-n`` (default 2000); the
periodicity ``g(n + p) = g(n) + s`` (period ``p``, preperiod ``n0``, saltus
``s``) with the fewest stored values ``n0 + p`` that holds to the end of the
table, over at least three periods, is reported. When a periodicity theorem
applies, the answer says which, and the heap up to which it needs the table:

* a finite subtraction set with largest element ``k``: ``g(n + p) = g(n)``
  for ``n0 <= n < n0 + k`` implies it for every ``n >= n0`` (Golomb);
* an octal game (digits below 8, ``d0 = 0``) whose last non-zero digit has
  index ``t``: the same for ``n0 <= n < 2 n0 + 2 p + t + 2`` implies it for
  every ``n >= n0`` (Guy and Smith; the window is CGSuite's, a little wider
  than the theorem's ``2 n0 + p + t``).

The table is extended to that bound when needed; only then is the period
called *proved*. Otherwise it is *apparent*: seen up to ``--max-n``, no
more. The periodic table display follows: the values in rows of one period.

Above :data:`LONG_FROM` heaps (the hard games: ``nimproof period octal:0.16
--max-n 2000000``) the search runs on long tables instead
(:func:`nimproof.engines.periods.find_period`): the sparse-space engine for
two-way take-and-break codes and Grundy's game, a period looked for at every
quarter of each doubling in linear time, and the run stops as soon as the
theorem's window is covered (saltus 0 only). The JSON then also holds
``seconds``, ``checked`` (the cross-checks of the values against the
reference and the dense kernel) and ``figures`` (rare mask and counts, last
rare heap, largest value and where it first occurs); ``values`` holds only
the first :data:`LONG_VALUES_SHOWN` values.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimproof.cli.common import add_command, add_whole_number, console, print_json
from nimproof.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from nimproof.games import HeapGame

DEFAULT_MAX_N = 2000
#: Largest table the command extends to when a theorem asks for it.
MAX_THEOREM_N = 1_000_000
#: Above this --max-n the long-table search is used.
LONG_FROM = 100_000
#: Largest --max-n (the engines refuse, with the memory needed, what the machine cannot hold).
LONG_MAX_N = 1 << 31
#: Values kept in the JSON answer of a long-table search.
LONG_VALUES_SHOWN = 2000
#: Full periods that must follow the preperiod in the table.
MIN_PERIODS = 3


def register(subparsers: Any) -> None:
    """Add the ``period`` command."""
    p = add_command(
        subparsers,
        "period",
        run,
        "Find g(n + p) = g(n) + s in the Grundy table of a one-heap game, say "
        "whether a periodicity theorem proves it for every n, and show the values in rows of "
        "one period.",
    )
    p.add_argument("spec", help="a one-heap game spec, e.g. kayles, octal:0.137, knim:3")
    add_whole_number(
        p,
        "--max-n",
        10,
        LONG_MAX_N,
        f"largest heap searched (default {DEFAULT_MAX_N})",
        DEFAULT_MAX_N,
    )
    add_whole_number(
        p, "--rows", 1, 10**6, "rows of the periodic display after the preperiod (default 8)", 8
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass(frozen=True, slots=True)
class Periodicity:
    """``g(n + period) = g(n) + saltus`` for every ``preperiod <= n`` seen."""

    period: int
    preperiod: int
    saltus: int


def find_periodicity(values: list[int], min_periods: int = MIN_PERIODS) -> Periodicity | None:
    """The periodicity with the fewest stored values (``preperiod + period``) that holds to the
    end of ``values`` and is seen over at least ``min_periods`` periods after the preperiod."""
    from nimproof.provers.period_theorems import find_periodicity as least

    found = least(values, max_period=None, min_periods=min_periods)
    return Periodicity(*found) if found else None


def theorem_bound(game: HeapGame, per: Periodicity) -> tuple[str, int] | None:
    """The theorem that proves ``per`` from a finite table, and the largest heap it needs.

    The theorems ask for ``g(n + p) = g(n) + s`` for ``n0 <= n < W``; the
    bound returned is ``W - 1 + p``, the last heap that relation reads.
    """
    if per.saltus != 0:
        return None
    spec = game.moves_spec
    takes, digits = spec.finite_takes(), spec.octal_digits()
    if takes is not None:
        k = max(takes)
        window = per.preperiod + k
        return f"finite subtraction set, largest move {k} (Golomb)", window - 1 + per.period
    if digits is not None and digits[0] == 0 and all(d < 8 for d in digits):
        t = max(k for k, d in enumerate(digits) if d)
        return (
            f"octal game, last digit index {t} (Guy and Smith; CGSuite's window 2n0 + 2p + t + 2)",
            2 * per.preperiod + 2 * per.period + t + 2 - 1 + per.period,
        )
    return None


def analyse_long(game: HeapGame, max_n: int) -> dict[str, Any]:
    """The answer for a long table (see the module docstring), in the same JSON shape."""
    from nimproof.cli.progress import rate_progress
    from nimproof.engines.periods import find_period

    with rate_progress(f"{game.spec}: heaps") as cb:
        run, values = find_period(game, max_n, progress=cb)
    out: dict[str, Any] = {"spec": game.spec, "max_n": max_n, "engine": run.engine}
    extra = {"seconds": round(run.seconds, 3), "checked": run.checked, "figures": run.stats}
    shown = [int(v) for v in values[:LONG_VALUES_SHOWN]]
    f = run.found
    if f is None:
        out.update(status="none", checked_to=run.values - 1, values=shown, **extra)
        return out
    out.update(
        status="proved" if f.proved else "apparent",
        period=f.period,
        preperiod=f.preperiod,
        saltus=0,
        theorem=f.theorem or None,
        bound=f.window_end - 1 + f.period if f.theorem else None,
        checked_to=run.values - 1,
        values=shown,
        **extra,
    )
    return out


def analyse(game: HeapGame, max_n: int) -> dict[str, Any]:
    """The answer as JSON: periodicity found, theorem, bound, status and the values used."""
    from nimproof.cli.table import heap_values

    if max_n > LONG_FROM:
        return analyse_long(game, max_n)

    values, engine, _ = heap_values(game, max_n)
    per = find_periodicity(values)
    out: dict[str, Any] = {"spec": game.spec, "max_n": max_n, "engine": engine}
    if per is None:
        out.update(status="none", values=values)
        return out
    rule = theorem_bound(game, per)
    status = "apparent"
    if rule is not None and rule[1] <= MAX_THEOREM_N:
        if rule[1] > len(values) - 1:
            values, engine, _ = heap_values(game, rule[1])
            again = find_periodicity(values)
            if again != per:  # the longer table shows another periodicity: report that one
                per = again or per
                rule = theorem_bound(game, per) if again else None
        if rule is not None and rule[1] <= len(values) - 1 and _holds(values, per, rule[1]):
            status = "proved"
    out.update(
        status=status,
        period=per.period,
        preperiod=per.preperiod,
        saltus=per.saltus,
        theorem=rule[0] if rule else None,
        bound=rule[1] if rule else None,
        checked_to=len(values) - 1,
        engine=engine,
        values=values,
    )
    return out


def _holds(values: list[int], per: Periodicity, bound: int) -> bool:
    p, s = per.period, per.saltus
    return all(values[n + p] == values[n] + s for n in range(per.preperiod, bound - p + 1))


def run(args: argparse.Namespace) -> int:
    """Find the periodicity and print it (JSON: one object)."""
    from nimproof.games import HeapGame, parse_spec

    game = parse_spec(args.spec)
    if not isinstance(game, HeapGame) or game.misere:
        raise UsageError(f"period takes a normal-play one-heap game; {game.spec} is not one")
    answer = analyse(game, args.max_n)
    if args.json:
        print_json(answer)
        return 0
    say = lambda text: console.print(text, markup=False, soft_wrap=True)  # noqa: E731
    if answer["status"] == "none":
        say(f"{game.spec}: no period up to n = {args.max_n} (at least {MIN_PERIODS} periods seen)")
        return 0
    p, n0, s = answer["period"], answer["preperiod"], answer["saltus"]
    say(f"{game.spec}: preperiod {n0}, period {p}, saltus {s}")
    if answer["status"] == "proved":
        say(
            f"  proved for every n >= {n0}: {answer['theorem']}, table checked to n = {answer['bound']}"
        )
        if "seconds" in answer:
            _say_long(answer, say)
    elif answer["theorem"]:
        say(
            f"  apparent: seen up to n = {answer['checked_to']}; {answer['theorem']} would need "
            f"n = {answer['bound']}"
        )
    else:
        say(f"  apparent: seen up to n = {answer['checked_to']}; no periodicity theorem applies")
    if n0 + p > len(answer["values"]):
        say(
            f"  (no periodic display: preperiod and period exceed the {len(answer['values'])} values kept)"
        )
        return 0
    display(answer["values"], p, n0, args.rows)
    return 0


def _say_long(answer: dict[str, Any], say: Callable[[str], None]) -> None:
    fig = answer.get("figures") or {}
    if fig:
        pos = " with the heap's parity" if fig["rare_by_position"] else ""
        say(
            f"  rare mask {fig['rare_mask']:#x}{pos}: {fig['rare_heaps']:,} rare heaps "
            f"({fig['rare_values']} rare values), last rare heap {fig['last_rare']:,}; "
            f"largest value {fig['largest_value']} first at n = {fig['largest_at']:,}"
        )
    checks = ", ".join(f"{k} to n = {v:,}" for k, v in answer["checked"].items())
    say(
        f"  {answer['checked_to'] + 1:,} values in {answer['seconds']:.2f} s; cross-checked: {checks}"
    )


def display(values: list[int], p: int, n0: int, rows: int) -> None:
    """The periodic table display: the preperiod, then rows of one period each."""
    import sys

    end = min(len(values), n0 + rows * p)
    shown = values[:end]
    cell = max(len(str(v)) for v in shown)
    label = len(str(end))
    out = sys.stdout
    out.write(" " * label + "  " + " ".join(f"+{j}".rjust(cell) for j in range(p)) + "\n")
    start = 0
    while start < n0:  # the preperiod, in rows of p values, marked
        row = shown[start : min(start + p, n0)]
        out.write(f"{start:>{label}}: " + " ".join(str(v).rjust(cell) for v in row) + "   (pre)\n")
        start += p
    for first in range(n0, end, p):
        row = shown[first : first + p]
        out.write(f"{first:>{label}}: " + " ".join(str(v).rjust(cell) for v in row) + "\n")
    if end < len(values):
        out.write(f"... (--rows for more; values to n = {len(values) - 1} checked)\n")
