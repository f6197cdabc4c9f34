"""Automata (MONA) benchmarks: time to prove each family for every heap size, by heap count.

Each row runs the ``automata`` method alone on one true claim and reports
the wall time, the MONA time and the number of MONA runs. A family's sizes
grow until a run is not proved (timeout, an automaton beyond MONA's tables)
or takes longer than ``LIMIT_SECONDS``: where scaling stops.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from nimproof.claims import Claim
from nimproof.provers import automata, mona, prepare

LIMIT_SECONDS = 60.0
MISERE = "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0"
WYTHOFF = (
    "(h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0]))"
    " or (h[1] <= h[0] and h[1] == phi_floor(h[0] - h[1]))"
)


def take_one_or_two(h: int) -> str:
    """A declared game on ``h`` heaps: lower the total by 1 or 2, raising no heap."""
    kept = " and ".join(f"k[{i}] <= h[{i}]" for i in range(h))
    return f"moves:{h}:{kept} and 1 <= sum(h) - sum(k) <= 2"


#: Golden-ratio and declared games: (label, game of h, predicate, heap counts, options).
GOLDEN: list[tuple[str, str, str, list[int], dict[str, str]]] = [
    ("Wythoff (Zeckendorf)", "wythoff", WYTHOFF, [2], {}),
    ("Fibonacci Nim (Zeckendorf)", "fibonacci-nim", "h[0] == 0 or h[1] < zlow(h[0])", [2], {}),
    ("declared total-1-or-2, binary", "take12", "sum(h) % 3 == 0", [1, 2, 3, 4, 5, 6, 8], {}),
    (
        "declared total-1-or-2, Zeckendorf",
        "take12",
        "sum(h) % 3 == 0",
        [1, 2, 3, 4, 5, 6, 8],
        {"numeration": "zeckendorf"},
    ),
]


@dataclass
class AutomataRow:
    """One measurement: a family at one size."""

    family: str
    heaps: int
    status: str
    seconds: float
    mona_seconds: float
    mona_runs: int
    detail: str


def _families(full: bool) -> list[tuple[str, str, str, list[int]]]:
    """(label, game, predicate, heap counts) per family; the quick set is a subset."""
    if full:
        return [
            ("Bouton", "nim", "xor(h) == 0", list(range(2, 17))),
            ("misère Nim", "misere:nim", MISERE, list(range(2, 9))),
            *[
                (
                    f"Moore Nim_{k}",
                    f"moore:{k}",
                    f"all(colsum(h, b) % {k + 1} == 0 for b in bits)",
                    list(range(2, 13)),
                )
                for k in (1, 2, 3)
            ],
            ("staircase", "staircase", "xor(h[::2]) == 0", list(range(2, 9))),
        ]
    return [
        ("Bouton", "nim", "xor(h) == 0", [2, 4, 8, 16]),
        ("misère Nim", "misere:nim", MISERE, [2, 4, 8]),
        *[
            (
                f"Moore Nim_{k}",
                f"moore:{k}",
                f"all(colsum(h, b) % {k + 1} == 0 for b in bits)",
                [2, 3, 4, 5],
            )
            for k in (1, 2, 3)
        ],
        ("staircase", "staircase", "xor(h[::2]) == 0", [2, 4, 8]),
    ]


#: One-heap Grundy claims of the classic families (one proof covers every heap):
#: label, game, formula, automata options.
CLASSICS: list[tuple[str, str, str, dict[str, str]]] = [
    (
        "Lasker's Nim",
        "lasker",
        "0 if n == 0 else (n + 1 if n % 4 == 3 else (n - 1 if n % 4 == 0 else n))",
        {},
    ),
    ("Ruler", "ruler", "0 if n == 0 else n ^ (n & (n - 1))", {"prefix_xor": "m ^ (m >> 1)"}),
    (
        "Mock Turtles",
        "mock-turtles",
        "0 if n == 0 else (2 * n - 1 if popcount(n - 1) % 2 == 0 else 2 * n - 2)",
        {},
    ),
]


def _measure(label: str, heaps: int, claim: Claim, options: dict[str, str]) -> AutomataRow:
    """Run the automata method alone on ``claim`` and time it."""
    ctx = prepare(claim, deadline=time.monotonic() + LIMIT_SECONDS)
    t0 = time.perf_counter()
    result = automata.run(ctx, {"timeout": LIMIT_SECONDS, **options})
    return AutomataRow(
        label,
        heaps,
        result.status,
        time.perf_counter() - t0,
        float(result.stats.get("mona_seconds", 0.0)),
        int(result.stats.get("mona_runs", 0)),
        result.detail,
    )


def _stops(row: AutomataRow) -> bool:
    return row.status != "proved" or row.seconds > LIMIT_SECONDS


def _classics_rows() -> list[AutomataRow]:
    rows = []
    for label, game, formula, options in CLASSICS:
        claim = Claim(
            id=f"bench-{game}", kind="grundy", statement=label, game=game, formula=formula
        )
        rows.append(_measure(label, 1, claim, options))
    return rows


def _welter_rows() -> list[AutomataRow]:
    """Welter's function for 2, 3, 4, ... coins until a proof fails or passes the limit."""
    from nimproof.games.welter import welter_function

    rows: list[AutomataRow] = []
    for k in range(2, 6):
        formula = welter_function(k)
        claim = Claim(
            id=f"bench-welter-{k}",
            kind="grundy",
            statement="Welter",
            game=f"welter:{k}",
            formula=formula,
            heaps=k,
        )
        rows.append(_measure("Welter", k, claim, {}))
        if _stops(rows[-1]):
            break
    return rows


def _northcott_rows() -> list[AutomataRow]:
    """Northcott's game as Nim on the gaps (the loopy method) for 2, 3, 4 rows, until one fails.

    The exact part is kept small (positions of total <= 3); the row times the MONA proof.
    """
    from nimproof.provers import loopy

    rows: list[AutomataRow] = []
    for r in range(2, 5):
        gaps = " ^ ".join(f"h[{3 * i}]" for i in range(r))
        claim = Claim(
            id=f"bench-northcott-{r}",
            kind="p_positions",
            statement="Northcott",
            game=f"northcott:{r}",
            formula=f"({gaps}) == 0",
            heaps=3 * r,
        )
        ctx = prepare(claim, deadline=time.monotonic() + LIMIT_SECONDS)
        t0 = time.perf_counter()
        result = loopy.run(ctx, {"timeout": LIMIT_SECONDS, "max_total": 3})
        status = result.status if result.scope.kind == "all" else "checked"
        rows.append(
            AutomataRow(
                "Northcott (rows)",
                r,
                status,
                time.perf_counter() - t0,
                float(result.stats.get("mona_seconds", 0.0)),
                int(result.stats.get("mona_runs", 0)),
                result.detail,
            )
        )
        if _stops(rows[-1]):
            break
    return rows


def run_automata_benchmarks(full: bool = False) -> list[AutomataRow]:
    """Measure every family; a family stops at its first size not proved within the limit."""
    if not mona.available():
        return []
    rows: list[AutomataRow] = _classics_rows() + _welter_rows() + _northcott_rows()
    plain = [(label, g, p, sizes, {}) for label, g, p, sizes in _families(full)]
    for label, game, predicate, sizes, options in [*plain, *GOLDEN]:
        for h in sizes:
            spec = take_one_or_two(h) if game == "take12" else game
            claim = Claim(
                id=f"bench-{game}-{h}",
                kind="p_positions",
                statement=label,
                game=spec,
                formula=predicate,
                heaps=h,
            )
            rows.append(_measure(label, h, claim, options))
            if _stops(rows[-1]):
                break
    return rows
