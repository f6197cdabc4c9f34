"""Families the miner was not tuned on: random subtraction sets and random octal codes.

Every mined formula must reproduce the table it came from, recomputed here by
the plain reference implementation; every conjecture the verifier proved is
re-checked by the reference inside the proved scope, on heaps up to three
times beyond what the miner saw.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from miner_known import scalar_values

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.games.base import HeapGame
from nimproof.miner.pipeline import Request
from nimproof.miner.run import run
from nimproof.miner.writer import QUICK

MAX_N = 120
BIG = 3 * MAX_N

subtraction_sets = st.sets(st.integers(1, 9), min_size=1, max_size=4).map(
    lambda s: "subtraction:" + ",".join(map(str, sorted(s)))
)
octal_codes = (
    st.lists(st.sampled_from("01234567"), min_size=1, max_size=3)
    .filter(lambda ds: any(d != "0" for d in ds) and ds[-1] != "0")
    .map(lambda ds: "octal:0." + "".join(ds))
)


def _check_family(spec: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    truth = reference.heap_table(game, MAX_N)
    result = run(
        [Request(spec, max_n=MAX_N)], write_dir=None, verify=True, timeout=20, bounds=QUICK
    )
    big: list[int] | None = None
    for c in result.conjectures:
        g = c.guess
        assert c.status in ("proved", "checked", "unknown", "refuted")
        if g.kind == "grundy":
            assert scalar_values(g.formula or "", MAX_N) == truth, (spec, g.formula)
        elif g.kind == "periodic":
            assert g.period is not None and g.preperiod is not None
            assert all(
                truth[n + g.period] == truth[n] + g.saltus
                for n in range(g.preperiod, MAX_N + 1 - g.period)
            )
        if c.status == "refuted":
            # The pattern held on the mined table, so it can only break beyond it.
            assert c.verdict is not None and c.verdict["counterexample"] is not None
            position = c.verdict["counterexample"]["position"]
            assert isinstance(position, int) and position + (g.period or 0) > MAX_N, (
                spec,
                c.verdict,
            )
        if c.status not in ("proved", "checked"):
            continue
        # Re-check inside the proved or checked scope, beyond what the miner saw.
        limit = _scope_limit(c.verdict)
        assert limit > MAX_N, (spec, c.verdict)
        big = big or reference.heap_table(game, BIG)
        if g.kind == "grundy":
            assert scalar_values(g.formula or "", limit) == big[: limit + 1], (spec, g.formula)
        elif g.kind == "periodic":
            assert g.period is not None and g.preperiod is not None
            assert all(
                big[n + g.period] == big[n] + g.saltus
                for n in range(g.preperiod, limit + 1 - g.period)
            )


def _scope_limit(verdict: dict | None) -> int:
    """The largest heap the verdict covers, capped at the re-check bound."""
    assert verdict is not None
    scope = verdict["scope"]
    if scope["kind"] == "all":
        return BIG
    if scope["kind"] == "width":
        return min((1 << scope["width"]) - 1, BIG)
    return min(int(scope["bound"]), BIG)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(subtraction_sets)
def test_random_subtraction_games_get_only_formulas_that_match_the_reference(spec):
    _check_family(spec)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(octal_codes)
def test_random_octal_games_get_only_formulas_that_match_the_reference(spec):
    _check_family(spec)
