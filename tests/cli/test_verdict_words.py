"""``check`` as a user runs it: verdict words that cannot be misread, and exit codes.

``proved`` is printed only for the claim's whole domain; a region is
``checked`` (never the word "proved"), and ``check`` exits 0 only when the
verdict reaches the required scope (``--require``, by default the whole
domain). Each command gets a ``--timeout`` so that the test stays bounded
whatever the methods do with the rest of a claim's time.
"""

from __future__ import annotations

import json

import pytest

from nimproof.cli.main import main

#: The issue's first example: false only at (2^45, 2^45, 0).
FAR_NIM = "(xor(h) == 0) != (h[0] == 2**45 and h[1] == 2**45 and h[2] == 0)"
#: A true claim no method proves for every heap (trailing_ones as a number is not in WS1S).
HALF_HEAP = ["check", "--game", "half-heap", "--grundy", "n >> (trailing_ones(n) + 1)"]
CHOCOLATE = "h[2] ^ (h[0] - 1 - h[2]) ^ h[3] ^ (h[1] - 1 - h[3])"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main([*argv, "--timeout", "20"])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_claim_false_far_away_is_not_proved_and_does_not_exit_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(["check", "--game", "nim", "--heaps", "3", "--p-positions", FAR_NIM], capsys)
    assert code == 1, out
    assert "PROVED" not in out
    assert out.startswith(("CHECKED", "UNKNOWN", "REFUTED")), out


def test_a_true_claim_checked_to_a_bound_says_checked_never_proved_and_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(HALF_HEAP, capsys)
    assert code == 1, out
    assert out.startswith("CHECKED: no counterexample for each heap <= "), out
    assert "not a proof" in out and "requires all positions" in out
    assert "proved" not in out.lower(), out
    code = main([*HALF_HEAP, "--timeout", "20", "--json"])
    v = json.loads(capsys.readouterr().out)
    assert code == 1 and v["status"] == "checked" and not v["scope_met"]
    assert v["domain"] == {"kind": "all"} and v["required"] == "all positions"
    assert {m["status"] for m in v["methods"]} <= {"checked", "unknown"}


def test_require_a_bound_gives_exit_0_for_a_checked_verdict_that_reaches_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run([*HALF_HEAP, "--require", "bound=1000"], capsys)
    assert code == 0, out
    assert out.startswith("CHECKED") and "proved" not in out.lower()
    code, out = run([*HALF_HEAP, "--require", "all"], capsys)
    assert code == 1, out


def test_a_proof_for_every_position_still_says_proved_and_exits_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from nimproof.provers import mona

    if not mona.available():
        pytest.skip("MONA is not installed: no method proves every position here")
    code, out = run(["check", "--game", "knim:3", "--grundy", "n % 4"], capsys)
    assert code == 0 and out.startswith("PROVED for all positions"), out


def test_a_refuted_claim_exits_1_and_names_the_wrong_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(["check", "--game", "knim:3", "--grundy", "n % 5"], capsys)
    assert code == 1 and out.startswith("REFUTED"), out
    assert "position: 4" in out and "claimed: 4" in out and "true: 0" in out


def test_a_half_heap_claim_wrong_only_at_5000_is_refuted_at_5000(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The known bug: the move 5002 -> 5000 was reported at 5002, where the claim is right."""
    formula = "(n >> (trailing_ones(n) + 1)) if n != 5000 else 2501"
    code = main(["check", "--game", "half-heap", "--grundy", formula, "--timeout", "60"])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith("REFUTED"), out
    assert "position: 5000" in out and "claimed: 2501" in out and "true: 2500" in out, out
    assert "what fails: the claimed value differs from the true value" in out


def test_a_plugin_game_takes_max_size_like_table_and_refuses_other_bounds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["check", "--game", "plugin:chocolate", "--heaps", "4", "--grundy", CHOCOLATE]
    for flag in ("--max-n", "--max-heap"):
        code, out = run([*base, flag, "9"], capsys)
        assert code == 2, out
        assert out.count("\n") == 1 and "--max-size" in out, out
    code, out = run([*base, "--max-size", "6", "--require", "bound=6"], capsys)
    assert code == 0, out
    # --max-size bounds the exhaustive method; the hunt may then grow the region further.
    assert out.startswith("CHECKED: no counterexample for size <= "), out
    assert "exhaustive: checked (size <= 6)" in out, out
    code, out = run(["check", "--game", "nim", "--grundy", "n", "--max-size", "5"], capsys)
    assert code == 2 and "--max-n" in out, out
