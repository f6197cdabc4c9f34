"""Every example of issue 11's "Why", run as written through the command line.

Each must give the verdict a careful reader of the README expects: a
refutation that names a position where the claim is wrong (or says in words
which condition fails), ``proved`` for the true periodic and negative-index
claims, a one-line exit-2 error for bad input, and an answer within a few
seconds of ``--timeout``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.provers import mona
from tests.soundness.cli import nimproof, verify_file

HALF_HEAP_WITNESS = "(v << (bit_length(n) - bit_length(v) + j - 2)) | ((1 << (bit_length(n) - bit_length(v) + j - 3)) - 1)"


def test_counterexample_found_by_z3_refutes_instead_of_a_small_proof() -> None:
    run = nimproof(
        "check", "--game", "nim", "--heaps", "2",
        "--p-positions", "xor(h) == 0 and h[0] != 1000",
        "--width", "16", "--witness", "nim", "--json",
    )  # fmt: skip
    verdict = json.loads(run.out)
    assert run.code == 1, run
    assert verdict["status"] == "refuted"
    cx = verdict["counterexample"]
    assert cx["position"] == [1000, 1000] and cx["rechecked"]
    assert "(1000, 1000)" in cx["explanation"]


def test_half_heap_claim_wrong_only_at_10000_is_refuted(tmp_path: Path) -> None:
    toml = f"""
[[claim]]
id = "half-heap-far"
statement = "the closed form, wrong at heap 10000 only"
kind = "grundy"
game = "half-heap"
formula = "(n >> (trailing_ones(n) + 1)) + (1 if n == 10000 else 0)"
witness = "{HALF_HEAP_WITNESS}"
expect = "refuted"
[claim.checks]
exhaustive = {{ max_n = 20000 }}
z3_bitvec = {{ width = 12, witness_candidates = 5 }}
"""
    run, [verdict] = verify_file(tmp_path, toml)
    assert run.code == 0, run
    assert verdict["status"] == "refuted"
    cx = verdict["counterexample"]
    assert cx["position"] == 10000 and cx["rechecked"]
    assert "heap 10000" in cx["explanation"]


@pytest.mark.parametrize(("period", "preperiod"), [(24, 71), (12, 72), (12, 71)])
def test_valid_kayles_periods_are_proved(tmp_path: Path, period: int, preperiod: int) -> None:
    toml = f"""
[[claim]]
id = "kayles-period"
statement = "Kayles: g(n + {period}) = g(n) for n >= {preperiod}"
kind = "periodic"
game = "kayles"
period = {period}
preperiod = {preperiod}
"""
    run, [verdict] = verify_file(tmp_path, toml)
    assert run.code == 0, run
    assert verdict["status"] == "proved" and verdict["scope"]["kind"] == "all"
    stats = verdict["methods"][0]["stats"]
    assert (stats["least_period"], stats["least_preperiod"]) == (12, 71)


@pytest.mark.parametrize(
    ("period", "preperiod", "status"), [(24, 71, "refuted"), (12, 71, "proved")]
)
def test_least_true_asks_for_the_least_period(
    tmp_path: Path, period: int, preperiod: int, status: str
) -> None:
    toml = f"""
[[claim]]
id = "kayles-least"
statement = "Kayles has least period {period} and least preperiod {preperiod}"
kind = "periodic"
game = "kayles"
period = {period}
preperiod = {preperiod}
least = true
expect = "{status}"
"""
    run, [verdict] = verify_file(tmp_path, toml)
    assert run.code == 0, run
    assert verdict["status"] == status
    if status == "refuted":
        assert "least period is 12" in verdict["counterexample"]["explanation"]


def test_negative_indexes_follow_python() -> None:
    run = nimproof(
        "check", "--game", "nim", "--heaps", "3",
        "--p-positions", "h[-3] ^ h[-2] ^ h[-1] == 0", "--width", "8", "--witness", "nim", "--json",
    )  # fmt: skip
    assert run.code == 0, run
    verdict = json.loads(run.out)
    assert verdict["status"] == "proved"
    if mona.available():  # the automata method reads h[-1] as Python does: every position
        assert verdict["scope"]["kind"] == "all", verdict
    bad = nimproof(
        "check", "--game", "nim", "--heaps", "3", "--p-positions", "h[-4] == 0", "--json"
    )
    assert json.loads(bad.out)["counterexample"]["condition"] == "undefined"


@pytest.mark.parametrize(
    ("rule", "shown"), [("m >= n - 3", "n=0 -> m=0"), ("m < n or n > 100", "n=101 -> m=101")]
)
def test_rules_that_allow_a_larger_heap_are_refused(rule: str, shown: str) -> None:
    run = nimproof("check", "--game", f"rule:{rule}", "--grundy", "n")
    assert run.code == 2, run
    err = run.err.strip()
    assert err.startswith("error:") and "\n" not in err and "Traceback" not in err
    assert shown in err


def test_every_z3_width_is_tried_and_huge_shifts_are_decided(tmp_path: Path) -> None:
    toml = """
[[claim]]
id = "false-at-2-33"
statement = "x is never 2^33"
kind = "identity"
variables = ["x"]
predicate = "x != 8589934592"
expect = "refuted"
[claim.checks]
z3_bitvec = { widths = [8, 48] }
"""
    run, [verdict] = verify_file(tmp_path, toml)
    assert run.code == 0, run
    assert verdict["counterexample"]["position"] == {"x": 8589934592}
    shift = nimproof("check", "--game", "nim", "--grundy", "n << 100000", "--json")
    assert shift.code == 1, shift
    cx = json.loads(shift.out)["counterexample"]
    assert cx["condition"] == "undefined" and "shift by 100000" in cx["explanation"]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "--game", "", "--grundy", "n"], "game spec is empty"),
        (["check", "--game", "nim", "--grundy", ""], "formula is empty"),
        (["value", "knim:3", "1000000000000"], "too large for this engine: limit"),
    ],
)
def test_hostile_command_lines_get_one_line_errors(argv: list[str], needle: str) -> None:
    run = nimproof(*argv)
    assert run.code == 2, run
    err = run.err.strip()
    assert err.startswith("error:") and "\n" not in err and "Traceback" not in err
    assert needle in err


def test_malformed_winning_moves_are_an_input_error(tmp_path: Path) -> None:
    toml = """
[[claim]]
id = "bad-moves"
statement = "a winning move written as a table"
kind = "value"
game = "nim"
positions = [[1, 2]]
values = [3]
winning_moves = [[{a = 1}]]
"""
    run, _ = verify_file(tmp_path, toml)
    assert run.code == 2, run
    assert "winning_moves[0]" in run.err and "Traceback" not in run.err


@pytest.mark.parametrize(
    ("toml", "timeout"),
    [
        (
            'kind = "value"\ngame = "nim"\npositions = [[1048579, 1048576, 3]]\nvalues = [0]',
            5,
        ),
        ('kind = "value"\ngame = "nim"\npositions = [100000000000]\nvalues = [100000000000]', 5),
        (
            # Kayles sums are now proved by Sprague-Grundy composition without any table;
            # Grundy's game has no proved period, so the direct computation has to run.
            'kind = "sum_rule"\ncomponents = ["grundys-game", "grundys-game"]\n'
            "[claim.checks]\nexhaustive = { max_heap = 24 }",
            10,
        ),
    ],
)
def test_timeouts_bound_the_whole_claim(tmp_path: Path, toml: str, timeout: int) -> None:
    text = f'[[claim]]\nid = "slow"\nstatement = "slow"\n{toml}\n'
    run, [verdict] = verify_file(tmp_path, text, "--timeout", str(timeout))
    # Interpreter start-up and imports come on top of the claim's own limit.
    assert run.seconds < timeout + 15, run
    assert verdict["status"] == "unknown"


def test_recheck_of_255_255_is_quick(tmp_path: Path) -> None:
    toml = """
[[claim]]
id = "nim-255"
statement = "wrong at (255, 255) only"
kind = "p_positions"
game = "nim"
heaps = 2
predicate = "xor(h) == 0 and h[0] != 255"
witness = "nim"
expect = "refuted"
[claim.checks]
exhaustive = { max_heap = 7 }
z3_bitvec = { width = 8 }
"""
    run, [verdict] = verify_file(tmp_path, toml, "--timeout", "10")
    assert run.code == 0, run
    assert verdict["counterexample"]["position"] == [255, 255]
    assert verdict["seconds"] < 10
