"""The verify and check commands: exit codes, JSON results, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.cli.main import main
from nimproof.provers import mona

TRUE_CLAIM = """
[[claim]]
id = "knim"
statement = "k-Nim values are n mod (k+1)."
kind = "grundy"
game = "knim:{k}"
formula = "n % (k + 1)"
params = { k = "1..3" }
checks = { exhaustive = { max_n = 200 }, z3_int = {} }
"""

FALSE_EXPECTED_REFUTED = """
[[claim]]
id = "typo"
statement = "A wrong modulus."
kind = "grundy"
game = "knim:3"
formula = "n % 5"
expect = "refuted"
checks = { exhaustive = { max_n = 50 } }
"""

FALSE_EXPECTED_PROVED = FALSE_EXPECTED_REFUTED.replace('expect = "refuted"\n', "")


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_verify_exits_zero_and_writes_one_json_object_per_claim(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", TRUE_CLAIM)
    write(tmp_path, "b.toml", FALSE_EXPECTED_REFUTED)
    out = tmp_path / "results.json"
    code = main(["verify", str(tmp_path), "--json", str(out), "--jobs", "1", "--quiet"])
    assert code == 0
    data = json.loads(out.read_text())
    verdicts = {r["verdict"]["id"]: r["verdict"] for r in data["results"]}
    assert set(verdicts) == {"knim[k=1]", "knim[k=2]", "knim[k=3]", "typo"}
    for vid in ("knim[k=1]", "knim[k=2]", "knim[k=3]"):
        v = verdicts[vid]
        assert v["status"] == "proved" and v["scope"]["kind"] == "all"
        assert v["methods_used"][0] in ("automata", "z3_int")
    typo = verdicts["typo"]
    assert typo["status"] == "refuted" and typo["meets_expectation"]
    assert typo["counterexample"]["position"] == 4 and typo["counterexample"]["actual"] == 0


def test_verify_exits_one_when_a_claim_misses_its_expectation(tmp_path: Path) -> None:
    write(tmp_path, "b.toml", FALSE_EXPECTED_PROVED)
    assert main(["verify", str(tmp_path), "--jobs", "1", "--quiet"]) == 1


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[[claim]\nid = 1", "malformed TOML"),
        (TRUE_CLAIM.replace("knim:{k}", "knimm:{k}"), "unknown game family"),
        (
            TRUE_CLAIM.replace("n % (k + 1)", "__import__('os').system('true')"),
            "only built-in functions",
        ),
        (TRUE_CLAIM.replace("n % (k + 1)", "n.real"), "not allowed"),
        (TRUE_CLAIM.replace("exhaustive", "brute"), "unknown check"),
        (TRUE_CLAIM.replace('"1..3"', '"1..99999999"'), "too long"),
        (TRUE_CLAIM.replace('kind = "grundy"', 'kind = "theorem"'), "unknown kind"),
        (TRUE_CLAIM.replace('id = "knim"', 'id = "a b"'), "id must be"),
    ],
)
def test_unusable_conjecture_file_is_a_one_line_error_with_exit_code_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    write(tmp_path, "bad.toml", text)
    assert main(["verify", str(tmp_path), "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert fragment in err
    assert "Traceback" not in err and len(err.splitlines()) <= 3


def test_verify_of_a_missing_path_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "/nonexistent/claims"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_check_explains_a_refutation_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--game", "subtraction:1,3,4", "--grundy", "n % 7"]) == 1
    out = capsys.readouterr().out
    assert "REFUTED" in out and "heap 2" in out and "true value is 0" in out


def test_check_json_prints_exactly_one_verdict_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "check",
            "--game",
            "nim",
            "--p-positions",
            "xor(h) == 0",
            "--heaps",
            "2",
            "--width",
            "16",
            "--witness",
            "nim",
            "--max-heap",
            "7",
            "--json",
        ]
    )
    assert code == 0
    v = json.loads(capsys.readouterr().out)
    bounded = {"kind": "width", "measure": "heap", "width": 16, "heaps": 2}
    every = {"kind": "all", "measure": "heap", "heaps": 2}
    # The strongest method comes first: with MONA the claim is proved for every position.
    assert v["status"] == "proved" and v["scope"] == (every if mona.available() else bounded)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--game", "nim", "--grundy", "n", "--max-n", "1000000000000"],
        ["check", "--game", "nim", "--grundy", "n", "--max-n", "-5"],
        ["check", "--game", "nim", "--p-positions", "xor(h) == 0"],
        ["check", "--game", "nim", "--grundy", "lambda: 1"],
        ["check", "--game", "moore:x", "--grundy", "n"],
    ],
)
def test_check_rejects_bad_input_with_exit_code_two(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "Traceback" not in err
