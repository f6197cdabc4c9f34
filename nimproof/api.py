"""The Python API for notebooks and scripts: the command line's answers as Python values.

Everything here is also reachable as ``nimproof.NAME`` (imported on first use,
so ``import nimproof`` stays fast)::

    import nimproof

    nimproof.table("kayles", max_n=100)              # a pandas DataFrame: n, grundy
    nimproof.table("nim", heaps=2, max_heap=7)       # h0, h1, grundy, p_position
    nimproof.value("nim", 3, 4, 5)                   # Value(value=2, winning_moves=[...])
    nimproof.check("knim:3", grundy="n % 4")         # a Verdict: proved, for all positions
    nimproof.check("nim", p_positions="h[0] == h[1]", heaps=3)   # refuted, with a counterexample
    nimproof.period("kayles")                        # Period(period=12, preperiod=71, ...)
    nimproof.mine("knim:{k}", params={"k": range(1, 5)})   # RunResult, nothing written
    nimproof.verify("conjectures/seeds/bouton.toml") # {claim id: Verdict}
    nimproof.misere_quotient("octal:0.75")           # MisereQuotient: order 8, P-portion {a, b²}

Errors a user can cause (an unknown family, a malformed formula, an absurd
bound) raise :class:`nimproof.errors.UsageError` with a one-line message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from nimproof.claims import Claim, ClaimKind, load_paths
from nimproof.claims.kinds import Budget, Grundy, PPositions, Shape
from nimproof.engines.words import parse_position, value_and_moves
from nimproof.errors import UsageError
from nimproof.games import HeapGame, parse_spec
from nimproof.misere.bruteforce import compare
from nimproof.misere.quotient import misere_quotient as build
from nimproof.output import output_dir
from nimproof.verdict import Requirement
from nimproof.verification import PROFILES, Certify, verdict_of

if TYPE_CHECKING:
    import pandas as pd

    from nimproof.claims import Claim
    from nimproof.engines.move import Move
    from nimproof.miner.run import RunResult
    from nimproof.misere.bruteforce import Disagreement
    from nimproof.misere.quotient import MisereQuotient
    from nimproof.verdict import Requirement, Verdict

__all__ = [
    "Period",
    "Value",
    "check",
    "check_claim",
    "mine",
    "misere_check",
    "misere_quotient",
    "period",
    "table",
    "value",
    "verify",
]


def table(
    spec: str,
    max_n: int | None = None,
    *,
    heaps: int | None = None,
    max_heap: int | None = None,
    data_dir: str | None = None,
) -> pd.DataFrame:
    """The Grundy table of a game as a pandas DataFrame.

    One-heap games (``max_n``): columns ``n`` and ``grundy`` (misère
    nim-values for a ``misere:`` spec), one row per heap ``0..max_n``.
    Several heaps (``heaps`` and ``max_heap``): columns ``h0 .. h{H-1}``,
    ``grundy`` (absent when only outcomes are computed, as for Moore's Nim)
    and ``p_position``, one row per position of ``[0, max_heap]^H`` in
    row-major order. The values are those ``nimproof table`` prints (the
    reference implementation for small tables, the compiled engines
    otherwise; stored tables in ``data_dir`` are reused).
    """
    import pandas as pd  # lazy: start-up time (pandas)

    from nimproof import tables  # lazy: start-up time (numba engines)
    from nimproof.datasets.store import box_frame  # lazy: start-up time (pyarrow)

    game = parse_spec(spec)
    if heaps is None and max_heap is None and not tables.is_multi_heap(game):
        if max_n is None:
            raise UsageError(f"give max_n for the table of {game.spec} (heaps 0..max_n)")
        _bounded(max_n, "max_n", 10**8)
        got = tables.heap_table(game, max_n, data_dir=data_dir)
        return pd.DataFrame({"n": range(len(got.values)), "grundy": got.as_list()})
    if heaps is None or max_heap is None:
        raise UsageError(f"{game.spec}: a table of several heaps needs heaps and max_heap")
    box = tables.box_table(game, heaps, max_heap, data_dir=data_dir)
    assert box.multi is not None
    return box_frame(box.multi)


@dataclass(frozen=True, slots=True)
class Value:
    """The value of a position (Grundy value, or misère nim-value) and its winning moves."""

    spec: str
    position: tuple[Any, ...]
    value: int
    winning_moves: tuple[Move, ...]

    @property
    def p_position(self) -> bool:
        """True when the player to move loses (value 0)."""
        return self.value == 0


def value(spec: str, *position: Any) -> Value:
    """The value of ``position`` in ``spec`` and every winning move.

    ``value("nim", 3, 4, 5)`` values three Nim heaps (any size: Bouton's
    theorem); several heaps of a one-heap game are their sum; ``sum:`` specs
    take one heap per component; a plugin takes its own words
    (``value("plugin:chocolate", 5, 6, 2, 3)``).
    """
    game = parse_spec(spec)
    pos = parse_position(game, [str(p) for p in position])
    v, moves = value_and_moves(game, pos)
    shown = tuple(pos) if isinstance(pos, tuple) else (pos,)
    return Value(game.spec, shown, v, tuple(moves))


def check_claim(
    game: str,
    *,
    grundy: str | None = None,
    p_positions: str | None = None,
    heaps: int | None = None,
    max_n: int | None = None,
    max_heap: int | None = None,
    max_size: int | None = None,
    width: int | None = None,
    witness: str | None = None,
    timeout: float = 120,
    require: str | None = None,
) -> Claim:
    """The claim ``nimproof check`` decides: a Grundy formula in ``n`` (or ``h`` with ``heaps``)
    or a P-position predicate in ``h``, with methods chosen as the command chooses them.

    The strongest methods (the automata method first) are always tried; the
    bounded ones chosen here run only when none proves the claim for every
    position. The bounded checks' limits: ``max_n`` (one heap), ``max_heap``
    (each heap of several) and ``max_size`` (a plugin game's own size, as in
    ``table --max-size`` and a claim file's ``max_size``); a limit that does
    not fit the game is refused. ``require`` ("all", "width=W", "bound=B") is
    the scope the verdict must reach (default: the claim's whole domain)."""
    # lazy: start-up time (the formula language loads numpy, the provers z3 and numba)
    from nimproof.expr import uses_bitwise
    from nimproof.provers import prepare
    from nimproof.provers.moves import heap_moves

    if (grundy is None) == (p_positions is None):
        raise UsageError("give exactly one of grundy= (a formula) or p_positions= (a predicate)")
    spec = Grundy() if grundy is not None else PPositions()
    kind = cast(ClaimKind, spec.name)
    formula = str(grundy if grundy is not None else p_positions)
    if spec.states_p_positions and heaps is None:
        raise UsageError("p_positions needs heaps (the number of heaps)")
    required = _requirement(require)
    base = Claim(
        id="check",
        kind=kind,
        statement=f"{game}: {formula}",
        game=game,
        formula=formula,
        heaps=heaps,
        witness=witness,
    )
    ctx = prepare(base)
    _check_bounds(game, ctx.one_heap, max_n=max_n, max_heap=max_heap, max_size=max_size)
    shape = Shape(
        one_heap=ctx.one_heap,
        symbolic=ctx.heap_game is not None and heap_moves(ctx.heap_game) is not None,
        bitwise=ctx.formula is not None and uses_bitwise(ctx.formula),
        plugin=game.startswith("plugin:"),
    )
    budget = Budget(
        max_n=max_n if max_n is not None else 1000,
        max_heap=max_heap if max_heap is not None else 7,
        max_size=max_size if max_size is not None else 7,
        width=width,
        timeout=timeout,
        hunt=True,  # the rest of the time goes to looking for a counterexample
        multi_bitvec="built-in",  # runs only when no method proves every position
    )
    checks = spec.bounded_checks(shape, budget)
    return Claim(
        id="check",
        kind=kind,
        statement=base.statement,
        game=game,
        formula=formula,
        heaps=heaps,
        witness=witness,
        checks=checks,
        require=required,
    )


def _requirement(require: str | None) -> Requirement | None:
    """``require`` ("all", "width=W", "bound=B") read, or None; a one-line error otherwise."""
    if require is None:
        return None
    try:
        return Requirement.parse(require)
    except ValueError as exc:
        raise UsageError(f"--require: {exc}") from None


def _check_bounds(
    game: str, one_heap: bool, *, max_n: int | None, max_heap: int | None, max_size: int | None
) -> None:
    """Refuse a bound that does not fit the game (it would be ignored), in one line."""
    if game.startswith("plugin:"):
        wrong = "max_n" if max_n is not None else "max_heap" if max_heap is not None else None
        if wrong is not None:
            raise UsageError(
                f"{game} is a plugin game: its bound is max_size (--max-size S, the largest "
                f"position size), not {wrong}"
            )
    elif max_size is not None:
        what = "max_n (--max-n)" if one_heap else "max_heap (--max-heap)"
        raise UsageError(f"max_size (--max-size) is for plugin games; {game} takes {what}")


def check(game: str, **options: Any) -> Verdict:
    """Decide a claim about ``game`` given here, as ``nimproof check`` does; returns the Verdict.

    Options are those of :func:`check_claim` (``grundy=`` or ``p_positions=``,
    ``heaps``, ``max_n``, ``max_heap``, ``max_size``, ``width``, ``witness``,
    ``timeout``, ``require``). ``verdict.status`` is ``proved`` (the claim's whole
    domain), ``checked`` (no counterexample in the narrower ``verdict.scope``;
    not a proof), ``refuted`` (a counterexample re-checked by the reference
    implementation) or ``unknown``; ``verdict.scope_met`` says whether it reaches
    ``require`` (default: the whole domain), as ``check``'s exit code does.
    """
    from nimproof.provers import verify_claim  # lazy: start-up time (numba, z3, numpy)

    claim = check_claim(game, **options)
    return verify_claim(claim, timeout=float(options.get("timeout", 120)))


def verify(
    *paths: str | Path,
    profile: str = "default",
    timeout: float = 600,
    certify: bool = True,
    certificates: str | Path | None = None,
) -> dict[str, Verdict]:
    """Decide every claim in the conjecture files (or folders) ``paths``: ``{claim id: Verdict}``.

    The same pipeline as ``nimproof verify`` (:mod:`nimproof.verification`): each claim in
    a worker process within ``timeout`` seconds, then (``certify``) held to a second method
    and to its certificate, written to ``certificates`` when given; a proof whose certificate
    the independent checker rejects or cannot check is ``unknown``.
    """
    if profile not in PROFILES:
        raise UsageError(f"unknown profile {profile!r}: {' or '.join(PROFILES)}")
    claims = load_paths([Path(p) for p in paths] or [Path("conjectures")], profile=profile)
    folder = output_dir(str(certificates), "certificates folder") if certificates else None
    hold = Certify(profile, folder) if certify else None
    return {c.id: verdict_of(c, timeout, hold) for c in claims}


@dataclass(frozen=True, slots=True)
class Period:
    """What ``nimproof period`` finds: ``g(n + period) = g(n) + saltus`` for ``n >= preperiod``.

    ``status`` is ``proved`` (a periodicity theorem covers every ``n``;
    ``theorem`` names it, ``bound`` is the last heap it needed), ``apparent``
    (seen up to ``checked_to`` only) or ``none`` (no period seen).
    """

    spec: str
    status: str
    period: int | None
    preperiod: int | None
    saltus: int | None
    theorem: str | None
    bound: int | None
    checked_to: int


def period(spec: str, max_n: int = 2000) -> Period:
    """The periodicity of a one-heap game's Grundy values, as CGSuite's CheckPeriodicity reports."""
    from nimproof.periods import analyse  # lazy: loads numba and the dataset store

    game = parse_spec(spec)
    if not isinstance(game, HeapGame) or game.misere:
        raise UsageError(f"period takes a normal-play one-heap game; {game.spec} is not one")
    _bounded(max_n, "max_n", 10**6)
    a = analyse(game, max_n)
    return Period(
        a["spec"],
        a["status"],
        a.get("period"),
        a.get("preperiod"),
        a.get("saltus"),
        a.get("theorem"),
        a.get("bound"),
        int(a.get("checked_to", max_n)),
    )


def mine(
    spec: str,
    *,
    params: Mapping[str, Iterable[int]] | None = None,
    heaps: Iterable[int] | int | None = None,
    max_n: int | None = None,
    max_heap: int | None = None,
    verify: bool = True,
    timeout: float = 60,
    write_dir: str | Path | None = None,
) -> RunResult:
    """Guess closed forms for a family and hand each to the verifier, as ``nimproof mine`` does.

    ``params`` gives grid axes for ``{name}`` placeholders in ``spec``
    (``mine("knim:{k}", params={"k": range(1, 6)})``); ``heaps`` mines
    P-positions of that many heaps. Nothing is written unless ``write_dir``
    is given. ``result.conjectures`` lists each guess with its verdict.
    """
    # lazy: start-up time (numba, z3, sympy)
    from nimproof.miner.pipeline import DEFAULT_MAX_N, Request
    from nimproof.miner.run import run

    axes = {str(k): tuple(int(v) for v in values) for k, values in (params or {}).items()}
    counts = (heaps,) if isinstance(heaps, int) else tuple(heaps or ())
    request = Request(
        spec.strip(),
        axes=axes,
        heaps=counts,
        max_n=max_n if max_n is not None else DEFAULT_MAX_N,
        max_heap=max_heap,
    )
    folder = None
    if write_dir is not None:
        folder = output_dir(str(write_dir), "write_dir")
    return run(
        [request],
        write_dir=folder,
        verify=verify,
        timeout=float(timeout),
        command=f"nimproof.mine({spec!r})",
    )


def _bounded(x: int, what: str, high: int) -> None:
    if not isinstance(x, int) or isinstance(x, bool):
        raise UsageError(f"{what} must be a whole number in 0..{high:,}, got {x!r}")
    if x < 0:
        raise UsageError(f"{what} must be at least 0, got {x}")
    if x > high:
        shown = f"{x:,}" if x < 10**40 else f"a number of {len(str(x))} digits"
        raise UsageError(f"{what} is too large: at most {high:,} is allowed, got {shown}")


def misere_quotient(
    spec: str,
    max_heap: int = 200,
    *,
    max_positions: int = 3_000_000,
    max_order: int = 2000,
    progress: Any = None,
) -> MisereQuotient:
    """The misère quotient of a take-and-break game, heap by heap (see docs/misere.md).

    Each partial quotient is proved for every sum of heaps up to its bound;
    ``proved_all`` is set when the periodicity theorem for quotients carries it
    to every heap. The construction stops (``stopped`` says where) when a
    candidate passes ``max_order`` elements or the exact outcomes it plays out
    pass ``max_positions``. ``progress(heap, order)`` is called after each heap.
    """
    return build(
        spec, max_heap, max_positions=max_positions, max_order=max_order, progress=progress
    )


def misere_check(
    quotient: MisereQuotient, max_heaps: int = 4, max_total: int = 30
) -> tuple[int, list[Disagreement]]:
    """Play out every sum of ``<= max_heaps`` heaps of total ``<= max_total`` and compare.

    The brute force shares no code with the construction. Heaps beyond the
    computed bound are mapped through the proved period (and are left out when
    there is none). Returns the number of sums compared and the disagreements.
    """
    _bounded(max_heaps, "max_heaps", 8)
    _bounded(max_total, "max_total", 80)
    top = max_total if quotient.proved_all else min(max_total, quotient.heaps)
    heap_map = [quotient.element(h) for h in range(top + 1)]
    return compare(
        f"misere:{quotient.spec}",
        quotient.monoid.mul,
        sorted(quotient.monoid.p),
        heap_map,
        max_heaps,
        max_total,
    )
