"""Scopes a claim can pin: ``require = "all" | { width = W } | { bound = B }`` and ``check --require``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nimproof.claims import load_file
from nimproof.cli.main import main
from nimproof.errors import ClaimError
from nimproof.provers import mona
from nimproof.verdict import Requirement, Scope

BOUTON = """
[[claim]]
id = "bouton"
statement = "Nim P-positions are those with xor 0."
kind = "p_positions"
game = "nim"
heaps = 3
predicate = "xor(h) == 0"
require = {require}
checks = {{ exhaustive = {{ max_heap = 5 }} }}
"""


def write(tmp_path: Path, require: str) -> Path:
    p = tmp_path / "c.toml"
    p.write_text(BOUTON.format(require=require), encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("raw", "scope", "met"),
    [
        ("all", Scope("all"), True),
        ("all", Scope("width", width=64), False),
        ({"width": 64}, Scope("width", width=64), True),
        ({"width": 64}, Scope("width", width=32), False),
        ({"width": 64}, Scope("all"), True),
        ({"width": 8}, Scope("bound", bound=1000), False),
        ({"bound": 1000}, Scope("bound", bound=999), False),
        ({"bound": 1000}, Scope("bound", bound=1000), True),
        ({"bound": 1000}, Scope("width", width=10), True),
        ({"bound": 1000}, Scope("width", width=9), False),
        ("bound=1000", Scope("all"), True),
        ("width=16", Scope("none"), False),
    ],
)
def test_requirement_is_met_only_by_a_scope_that_covers_it(
    raw: object, scope: Scope, met: bool
) -> None:
    assert Requirement.parse(raw).met_by(scope) is met


@pytest.mark.parametrize("raw", ["everything", {"width": 0}, {"bound": -1}, {"size": 3}, 64, True])
def test_malformed_requirement_is_refused(raw: object) -> None:
    with pytest.raises(ValueError, match="require must be"):
        Requirement.parse(raw)


def test_claim_file_with_a_bad_require_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(ClaimError, match="require must be"):
        load_file(write(tmp_path, '"some"'))
    assert load_file(write(tmp_path, "{ width = 64 }"))[0].require == Requirement("width", 64)


def test_missing_mona_fails_a_claim_that_requires_every_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(mona.shutil, "which", lambda name: None)
    out = tmp_path / "r.json"
    code = main(["verify", str(write(tmp_path, '"all"')), "--jobs", "1", "--json", str(out)])
    assert code == 1
    text = capsys.readouterr().out
    assert "bouton" in text and "mona is not installed (apt-get install mona)" in text
    v = json.loads(out.read_text())["results"][0]["verdict"]
    assert v["status"] == "checked" and v["scope"]["kind"] == "bound"
    assert not v["scope_met"] and not v["meets_expectation"]
    assert "requires all positions, reached checked for each heap <= 5" in v["shortfall"]


def test_a_bounded_requirement_is_met_by_the_bounded_method(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mona.shutil, "which", lambda name: None)
    assert main(["verify", str(write(tmp_path, "{ bound = 5 }")), "--jobs", "1", "--quiet"]) == 0
    assert main(["verify", str(write(tmp_path, "{ bound = 6 }")), "--jobs", "1", "--quiet"]) == 1


def test_check_require_all(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--game", "nim", "--heaps", "2", "--p-positions", "xor(h) == 0"]
    code = main([*argv, "--require", "all", "--json"])
    v = json.loads(capsys.readouterr().out)
    if mona.available():
        assert code == 0 and v["scope"]["kind"] == "all" and v["scope_met"]
    else:
        assert code == 1 and not v["scope_met"]
    assert main([*argv, "--require", "everything"]) == 2
