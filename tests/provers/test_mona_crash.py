"""A MONA run killed by a signal (Debian's MONA 1.4 now and then segfaults) is run again."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

import nimproof_check.ws1s
from nimproof.provers import mona

VALID = "ws1s;\nvar2 X;\nX = X;\n"


def _crash_first(times: int, monkeypatch: pytest.MonkeyPatch, module: Any) -> list[int]:
    real = subprocess.run
    calls: list[int] = []

    def fake(*args: Any, **kw: Any) -> subprocess.CompletedProcess[str]:
        calls.append(1)
        if len(calls) <= times:
            return subprocess.CompletedProcess(args[0], -11, "", "")
        return real(*args, **kw)

    monkeypatch.setattr(module.subprocess, "run", fake)
    return calls


@pytest.mark.skipif(not mona.available(), reason=mona.MISSING)
def test_the_prover_runs_a_crashed_mona_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _crash_first(2, monkeypatch, mona)
    assert mona.run_text(VALID, 30).outcome == "valid" and len(calls) == 3


@pytest.mark.skipif(not mona.available(), reason=mona.MISSING)
def test_the_prover_gives_up_after_three_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    _crash_first(3, monkeypatch, mona)
    assert mona.run_text(VALID, 30).outcome == "error"


@pytest.mark.skipif(not mona.available(), reason=mona.MISSING)
def test_the_checker_runs_a_crashed_mona_again_then_cannot_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _crash_first(1, monkeypatch, nimproof_check.ws1s)
    assert nimproof_check.ws1s.run_mona(VALID, 30)[0] == "valid"
    _crash_first(3, monkeypatch, nimproof_check.ws1s)
    with pytest.raises(nimproof_check.ws1s.CannotCheck, match="signal 11"):
        nimproof_check.ws1s.run_mona(VALID, 30)
