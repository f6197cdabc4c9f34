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
