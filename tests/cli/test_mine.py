"""``nimproof mine`` on the command line: JSON shape, honest summaries, one-line errors."""

from __future__ import annotations

import json

import pytest

from nimproof.cli.main import main


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, "--json prints exactly one JSON object"
    return json.loads(lines[0])


def test_json_output_lists_the_knim_conjecture_with_its_evidence(tmp_path, capsys):
    data = _json(
        capsys,
        [
            "mine",
            "knim:{k}",
            "--param",
            "k=1..4",
            "--max-n",
            "100",
            "--json",
            "--no-verify",
            "--write",
            str(tmp_path),
        ],
    )
    top = data["conjectures"][0]
    assert top["formula"] == "n % (k + 1)"
    assert top["kind"] == "grundy" and top["game"] == "knim:{k}" and top["params"] == {"k": "1..4"}
    assert top["guesser"] == "param_fit" and top["rank"] == 1 and top["verdict"] is None
    for key in ("terms_fitted", "held_out_predicted", "grid_points"):
        assert key in top["evidence"]
    assert (tmp_path / "knim-k.toml").exists()


def test_json_output_carries_the_verdict_when_verifying(tmp_path, capsys):
    data = _json(
        capsys,
        ["mine", "nim", "--heaps", "2", "--max-heap", "7", "--json", "--write", str(tmp_path)],
    )
    c = data["conjectures"][0]
    assert c["formula"] == "xor(h) == 0" and c["witness"] == "nim"
    assert c["verdict"]["status"] == "proved" and c["role"] == "conjecture"
    # Rewritings that give the same P-positions are kept, ranked below, as alternatives.
    assert all(other["role"] == "alternative" for other in data["conjectures"][1:])


def test_no_closed_form_is_reported_honestly(tmp_path, capsys):
    data = _json(
        capsys,
        [
            "mine",
            "subtraction:squares",
            "--max-n",
            "100",
            "--json",
            "--no-verify",
            "--write",
            str(tmp_path),
        ],
    )
    assert data["conjectures"] == []
    assert "no closed form found up to n = 100" in data["summary"]


def test_the_table_output_names_formula_and_verdict(tmp_path, capsys):
    assert main(["mine", "knim:2", "--max-n", "60", "--no-verify", "--write", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "n % 3" in out and "verdict" in out and "unverified" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["mine", "no-such-game"],
        ["mine", "knim:{k}"],
        ["mine", "knim:{k}", "--param", "k"],
        ["mine", "knim:{k}", "--param", "k=1..x"],
        ["mine", "knim:{k}", "--param", "k=1..1000"],
        ["mine", "knim:3", "--param", "j=1..3"],
        ["mine", "knim:3", "--max-n", "1000000000000"],
        ["mine", "nim", "--heaps", "0"],
        ["mine", "nim", "--heaps", "12", "--max-heap", "30"],
        ["mine", "knim:3", "--defaults"],
        ["mine"],
        ["mine", "knim:{__import__('os')}", "--param", "k=1"],
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys, argv):
    assert main([*argv, "--write", str(tmp_path), "--no-verify"]) == 2
    captured = capsys.readouterr()
    err = [line for line in captured.err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("error:")
    assert "Traceback" not in captured.err
    assert list(tmp_path.iterdir()) == []
