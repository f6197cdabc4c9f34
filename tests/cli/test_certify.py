"""``nimproof certify``: exit codes and output, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.cli.main import main
from tests.certificates.helpers import certificate, load, save
from tests.certificates.test_tampering import KNIM3, VALUES


def test_certify_accepts_then_rejects(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = certificate(KNIM3, tmp_path)
    certificate(VALUES, tmp_path)
    assert main(["certify", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "2 certificates: 2 accepted, 0 rejected" in out
    data = load(first)
    data["proof"]["obligations"] = data["proof"]["obligations"][1:]
    save(first, data)
    assert main(["certify", str(first)]) == 1
    out = capsys.readouterr().out
    assert "rejected: cert-knim3: the certificate lists no obligation" in out
    assert main(["certify", str(first), "--json"]) == 1
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["status"] == "rejected" and line["claim"] == "cert-knim3"


def test_certify_bad_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", str(tmp_path / "missing")]) == 2
    assert main(["certify", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "no certificate" in err
    assert err.count("\n") == 2  # one line each, no traceback


CLAIMS = """
[[claim]]
id = "nim-two"
statement = "Two-heap Nim: P iff equal heaps."
kind = "p_positions"
game = "nim"
heaps = 2
predicate = "h[0] == h[1]"

[[claim]]
id = "rule-nim"
statement = "A rule written as a formula: two-heap Nim again."
kind = "p_positions"
game = "rule:m < n"
heaps = 2
predicate = "xor(h) == 0"
"""


def _verify(tmp_path: Path, *extra: str) -> tuple[int, Path, Path]:
    (tmp_path / "c.toml").write_text(CLAIMS)
    certs, out = tmp_path / "certs", tmp_path / "r.json"
    argv = ["verify", str(tmp_path / "c.toml"), "--certificates", str(certs), "--json", str(out)]
    return main([*argv, "--jobs", "1", *extra]), certs, out


def _verdicts(out: Path) -> dict[str, dict[str, object]]:
    return {r["claim"]["id"]: r["verdict"] for r in json.loads(out.read_text())["results"]}


def test_verify_does_not_prove_what_it_cannot_certify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Strict by default (and with --strict-certificates, kept for old scripts): a proof whose
    certificate cannot be checked is unknown, with the reason."""
    for extra in ((), ("--strict-certificates",)):
        code, certs, out = _verify(tmp_path, *extra)
        said = capsys.readouterr().out
        assert "certificates: 1 accepted by the independent checker, 1 not accepted" in said
        assert code == 1  # the rule: claim cannot be certified, so it is not proved
        verdicts = _verdicts(out)
        rule = verdicts["rule-nim"]
        assert rule["status"] == "unknown"
        assert "cannot check" in rule["methods"][-1]["detail"]  # type: ignore[index]
        assert verdicts["nim-two"]["status"] == "proved"
        methods = {m["method"]: m for m in verdicts["nim-two"]["methods"]}  # type: ignore[attr-defined]
        assert "z3_bitvec" in methods  # the second, independent method, shown beside the proof
        assert methods["certificate"]["detail"].startswith("accepted")
        assert (certs / "nim-two.json").exists()
    assert main(["certify", str(certs / "nim-two.json"), "--quiet"]) == 0


def test_verify_lenient_keeps_an_uncheckable_proof_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, out = _verify(tmp_path, "--lenient-certificates")
    said = capsys.readouterr().out
    assert "certificates: 1 accepted by the independent checker, 1 proofs it cannot" in said
    assert code == 0  # a proof the checker cannot check yet stands, marked so
    rule = _verdicts(out)["rule-nim"]
    assert rule["status"] == "proved"
    note = rule["methods"][-1]  # type: ignore[index]
    assert note["method"] == "certificate" and "not independently checked" in note["detail"]
