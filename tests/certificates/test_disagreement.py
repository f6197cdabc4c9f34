"""Disagreement is news: a proof whose certificate does not check becomes unknown, both answers shown."""

from __future__ import annotations

from pathlib import Path

import pytest

import nimproof_check.smt
import nimproof_check.ws1s
from nimproof.certificates.build import CHECKER
from tests.certificates.helpers import certified
from tests.certificates.test_tampering import IDENTITY, KNIM3, NIM2


def _note(verdict: object) -> str:
    notes = [m for m in verdict.methods if m.method == CHECKER]  # type: ignore[attr-defined]
    assert len(notes) == 1
    return notes[0].detail


def test_accepted_certificates_keep_the_proof(tmp_path: Path) -> None:
    for c in (NIM2, IDENTITY):
        verdict = certified(c, tmp_path)
        assert verdict.status == "proved"
        assert "accepted" in _note(verdict)
        assert (tmp_path / f"{c.id}.json").exists()


def test_second_solver_disagrees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flipped = {"sat": "unsat", "unsat": "sat"}
    real = nimproof_check.smt.SECOND_SOLVER
    monkeypatch.setattr(nimproof_check.smt, "SECOND_SOLVER", lambda t, s: flipped[real(t, s)])
    verdict = certified(IDENTITY, tmp_path)
    assert verdict.status == "unknown"
    note = _note(verdict)
    assert "z3 says unsat, cvc5 says sat" in note


def test_mona_and_brute_force_disagree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MONA says every obligation is valid; the brute-force moves (here made wrong) differ."""
    real = nimproof_check.ws1s.moves

    def fewer(game: dict, pos: tuple[int, ...]) -> list[tuple[int, ...]]:
        return real(game, pos)[1:]

    monkeypatch.setattr(nimproof_check.ws1s, "moves", fewer)
    verdict = certified(KNIM3, tmp_path)
    assert verdict.status == "unknown"
    note = _note(verdict)
    assert "differs from brute force" in note and "valid" in _obligations(verdict)


def _obligations(verdict: object) -> str:
    return " ".join(m.detail for m in verdict.methods if m.method == "automata")  # type: ignore[attr-defined]


def test_cannot_check_is_not_proved(tmp_path: Path) -> None:
    """A rule given by a formula has no plain description; on two heaps the certificate
    carries no game graph either, so the checker cannot check its moves."""
    from tests.provers.helpers import claim

    c = claim("p_positions", "rule:m < n", "xor(h) == 0", {}, heaps=2, id="cert-rule")
    verdict = certified(c, tmp_path)
    assert verdict.status == "unknown"
    assert "cannot check" in _note(verdict)


def test_outside_strict_mode_an_uncheckable_proof_stands_marked_not_independently_checked(
    tmp_path: Path,
) -> None:
    """``verify --lenient-certificates`` keeps such a proof, with a row saying so;
    a rejected certificate still makes the verdict unknown (the tampering tests)."""
    from nimproof.certificates.build import NOT_CHECKED, certify
    from tests.certificates.helpers import proved
    from tests.provers.helpers import claim

    c = claim("p_positions", "rule:m < n", "xor(h) == 0", {}, heaps=2, id="cert-rule")
    verdict, ctx = proved(c)
    kept = certify(c, ctx, verdict, tmp_path, strict=False)
    assert kept.status == "proved" and kept.scope == verdict.scope
    assert _note(kept).startswith(NOT_CHECKED)
