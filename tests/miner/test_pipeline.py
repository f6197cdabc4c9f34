"""The whole pipeline: the standard families are mined, written, read back and verified."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest
from miner_known import predicate_holds, scalar_values

from nimproof.claims import load_file
from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.games.base import HeapGame
from nimproof.miner.defaults import default_requests
from nimproof.miner.guessers import GUESSERS, Guesser
from nimproof.miner.pipeline import Request, mine
from nimproof.miner.run import run
from nimproof.miner.writer import MARKER, QUICK
from nimproof.verdict import Counterexample, MethodResult, Scope, Verdict

# (request, the expected top conjecture as (kind, formula or period/preperiod)); answers from the
# source texts (MATH.md's table) and known_sequences.json, never from the miner.
STANDARD = [
    (Request("knim:{k}", axes={"k": (1, 2, 3, 4)}, max_n=120), ("grundy", "n % (k + 1)")),
    (Request("half-heap", max_n=200), ("grundy", "n >> (trailing_ones(n) + 1)")),
    (Request("kayles", max_n=300), ("periodic", (12, 71))),
    (Request("nim", heaps=(2, 3, 4)), ("p_positions", "xor(h) == 0")),
    (
        Request("moore:2", heaps=(3, 4), max_heap=4),
        ("p_positions", "all(colsum(h, b) % 3 == 0 for b in bits)"),
    ),
    (
        Request("moore:3", heaps=(3, 4), max_heap=4),
        ("p_positions", "all(colsum(h, b) % 4 == 0 for b in bits)"),
    ),
    (Request("staircase", heaps=(2, 3, 4)), ("p_positions", "xor(h[::2]) == 0")),
    (
        Request("misere:nim", heaps=(2, 3, 4)),
        (
            "p_positions",
            "count(x == 1 for x in h) % 2 == 1 if all(x <= 1 for x in h) else xor(h) == 0",
        ),
    ),
]


@pytest.mark.parametrize(("request_", "expected"), STANDARD, ids=[r.spec for r, _ in STANDARD])
def test_standard_family_gives_the_known_rule_and_the_verifier_proves_it(
    tmp_path, request_, expected
):
    result = run([request_], write_dir=tmp_path, verify=True, timeout=60, bounds=QUICK)
    top = result.conjectures[0]
    kind, what = expected
    assert top.guess.kind == kind
    if kind == "periodic":
        assert (top.guess.period, top.guess.preperiod) == what
    else:
        assert top.guess.formula == what
    assert top.verdict is not None and top.verdict["scope"]["kind"] in ("all", "width", "bound")
    # Proved for all positions, or checked (no counterexample) on a narrower region.
    assert top.status == ("proved" if top.verdict["scope"]["kind"] == "all" else "checked")
    # Nothing in the run is refuted: these are theorems.
    assert all(c.status != "refuted" for c in result.conjectures)


@pytest.mark.parametrize("spec", ["subtraction:squares", "grundys-game"])
def test_a_family_without_a_simple_rule_is_reported_honestly(tmp_path, spec):
    result = run(
        [Request(spec, max_n=200)], write_dir=tmp_path, verify=True, timeout=20, bounds=QUICK
    )
    if not result.conjectures:
        assert "no closed form found up to n = 200" in result.summary
        assert not (tmp_path / f"{spec.replace(':', '-')}.toml").exists()
        return
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    big = reference.heap_table(game, 600)
    for c in result.conjectures:
        if c.status in ("proved", "checked") and c.guess.kind == "grundy":
            assert scalar_values(c.guess.formula or "", 600) == big


def test_mined_files_read_back_with_the_claim_loader_and_are_deterministic(tmp_path):
    requests = [Request("knim:{k}", axes={"k": (1, 2, 3)}, max_n=100), Request("nim", heaps=(2, 3))]
    first = run(requests, write_dir=tmp_path / "a", verify=False)
    second = run(requests, write_dir=tmp_path / "b", verify=False)
    files_a = sorted((tmp_path / "a").glob("*.toml"))
    assert [p.name for p in files_a] == ["knim-k.toml", "nim.toml"]
    for p in files_a:
        text = p.read_text(encoding="utf-8")
        assert text == (tmp_path / "b" / p.name).read_text(encoding="utf-8")
        assert text.startswith(MARKER)
        claims = load_file(p)
        assert claims
        assert len({c.id for c in claims}) == len(claims)
    assert [c.claim_id for c in first.conjectures] == [c.claim_id for c in second.conjectures]
    assert all(c.verdict is None for c in first.conjectures)


def test_a_grid_claim_is_one_table_with_params(tmp_path):
    run([Request("knim:{k}", axes={"k": (1, 2, 3)}, max_n=100)], write_dir=tmp_path, verify=False)
    data = tomllib.loads((tmp_path / "knim-k.toml").read_text(encoding="utf-8"))
    grundy = [t for t in data["claim"] if t["kind"] == "grundy"]
    assert len(grundy) == 1
    assert grundy[0]["formula"] == "n % (k + 1)" and grundy[0]["params"] == {"k": "1..3"}
    assert grundy[0]["game"] == "knim:{k}"


def _refuting_verifier(claim, timeout):
    cx = Counterexample(
        position=5, condition="value", explanation="test", rechecked=True, recheck="test"
    )
    result = MethodResult("exhaustive", "refuted", Scope("none"), counterexample=cx)
    return Verdict.combine(claim.id, [result], claim.expect)


def test_a_refuted_guess_stays_in_the_file_marked_expect_refuted(tmp_path):
    result = run(
        [Request("nim", heaps=(2,))], write_dir=tmp_path, verify=True, verifier=_refuting_verifier
    )
    assert result.conjectures and all(c.status == "refuted" for c in result.conjectures)
    data = tomllib.loads((tmp_path / "nim.toml").read_text(encoding="utf-8"))
    assert all(t["expect"] == "refuted" and "refuted" in t["tags"] for t in data["claim"])


def test_a_file_the_miner_did_not_write_is_never_replaced(tmp_path):
    (tmp_path / "nim.toml").write_text("# hand-written\n", encoding="utf-8")
    from nimproof.errors import UsageError

    with pytest.raises(UsageError, match="not written by the miner"):
        run([Request("nim", heaps=(2,))], write_dir=tmp_path, verify=False)
    assert (tmp_path / "nim.toml").read_text(encoding="utf-8") == "# hand-written\n"


def test_a_stale_mined_file_is_removed_when_nothing_is_found_any_more(tmp_path):
    stale = tmp_path / "grundys-game.toml"
    stale.write_text(f"{MARKER}: `old`\n", encoding="utf-8")
    run([Request("grundys-game", max_n=60)], write_dir=tmp_path, verify=False)
    assert not stale.exists()


def test_every_ranked_guess_reproduces_the_reference_table():
    for spec in ("knim:3", "half-heap", "subtraction:1,3,4", "dawsons-kayles"):
        game = parse_spec(spec)
        assert isinstance(game, HeapGame)
        truth = reference.heap_table(game, 150)
        for g in mine(Request(spec, max_n=150)).guesses:
            if g.kind == "grundy":
                assert scalar_values(g.formula or "", 150) == truth, (spec, g.formula)
            elif g.kind == "periodic":
                assert g.period is not None and g.preperiod is not None
                assert all(
                    truth[n + g.period] == truth[n] + g.saltus
                    for n in range(g.preperiod, 151 - g.period)
                )


def test_p_position_guesses_reproduce_the_reference_box():
    game = parse_spec("moore:2")
    for g in mine(Request("moore:2", heaps=(3,), max_heap=3)).guesses:
        cache: dict = {}
        for heaps in itertools.product(range(4), repeat=3):
            assert predicate_holds(g.formula or "", heaps) == (
                reference.value(game, heaps, cache) == 0
            )


def test_ranking_puts_grid_wide_guesses_first():
    guesses = mine(Request("knim:{k}", axes={"k": (1, 2, 3)}, max_n=100)).guesses
    assert guesses[0].point is None
    assert [g.evidence.grid_points for g in guesses] == sorted(
        (g.evidence.grid_points for g in guesses), reverse=True
    )


def test_bad_requests_are_usage_errors():
    from nimproof.errors import UsageError

    for bad in (
        Request("knim:{k}"),
        Request("knim:3", axes={"k": (1, 2)}),
        Request("no-such-family"),
        Request("nim", max_n=10**9),
        Request("nim", heaps=(12,), max_heap=20),
        Request("moore:2"),
    ):
        with pytest.raises(UsageError):
            mine(bad)


def test_files_are_written_where_asked(tmp_path):
    target = tmp_path / "deep" / "dir"
    result = run([Request("nim", heaps=(2,))], write_dir=target, verify=False)
    assert result.conjectures[0].file == (target / "nim.toml").as_posix()
    assert Path(result.conjectures[0].file).exists()


@pytest.mark.slow
def test_the_default_set_is_proved_or_checked_at_full_bounds(tmp_path):
    result = run(default_requests(), write_dir=tmp_path, verify=True, timeout=120)
    assert len(result.families) == len(default_requests())
    by_family: dict[str, list[str]] = {}
    for c in result.conjectures:
        by_family.setdefault(c.family, []).append(c.status)
    # A default family may have no rule (Grundy's game): then it says why, per guesser.
    no_rule = {f.request.spec for f in result.families if not f.guesses}
    assert all(f.reasons for f in result.families if not f.guesses)
    assert set(by_family) | no_rule == {r.spec for r in default_requests()}
    assert not set(by_family) & no_rule
    assert len(no_rule) <= 1
    for family, statuses in by_family.items():
        assert statuses[0] in ("proved", "checked"), family
        assert "refuted" not in statuses, family


class _WrongGuesser(Guesser):
    """Proposes formulas that do not fit, to show the pipeline's own re-check."""

    name = "wrong"

    def guess_point(self, table):
        from nimproof.miner.model import Evidence, Guess

        ev = Evidence(fitted=1, held_out=0, checked=1)
        return [
            Guess(
                kind="grundy",
                game=table.spec,
                guesser=self.name,
                evidence=ev,
                cost=0.0,
                formula="n % 5",
                point=table.key,
            ),
            Guess(
                kind="periodic",
                game=table.spec,
                guesser=self.name,
                evidence=ev,
                cost=0.0,
                period=3,
                preperiod=0,
                point=table.key,
            ),
        ]


def test_a_guess_that_does_not_reproduce_its_table_never_leaves_the_pipeline():
    result = mine(Request("knim:3", max_n=60), guessers=[_WrongGuesser()])
    assert result.guesses == ()


def test_registered_guessers_have_distinct_names():
    names = [g.name for g in GUESSERS]
    assert len(set(names)) == len(names)
    assert {"periodic", "regular", "param_fit", "multiheap", "fallback"} <= set(names)
