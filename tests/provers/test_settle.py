"""The one settling module: only it confirms counterexamples, and it names the wrong position.

* No module of the package but :mod:`nimproof.provers.settle` sets
  ``Counterexample.rechecked`` (a scan of the source's syntax trees).
* The theorems settle uses for Nim far away (Sprague–Grundy, Bouton's misère
  theorem) agree with the reference on every small position.
* Issue 18's misère Nim example is refuted at the exact wrong position,
  named with the condition that fails there.
"""

from __future__ import annotations

import ast
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nimproof.engines import reference
from nimproof.games import parse_spec
from nimproof.provers import recheck

ROOT = Path(__file__).resolve().parents[2]
SETTLE = ROOT / "nimproof" / "provers" / "settle.py"
#: The position of Counterexample's ``rechecked`` field among its constructor's arguments.
RECHECKED_ARG = 6


def _sets_flag(tree: ast.AST) -> list[int]:
    """Lines where ``tree`` sets the confirmed flag: an assignment to ``.rechecked``, a
    ``rechecked=`` argument other than ``False``, a ``Counterexample(...)`` call whose
    seventh positional argument is not ``False``, or ``setattr(..., "rechecked", ...)``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "rechecked" for t in targets):
                lines.append(node.lineno)
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg == "rechecked" and not _is_false(kw.value):
                lines.append(node.lineno)
        name = (
            node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        )
        args = node.args
        if name == "Counterexample" and len(args) > RECHECKED_ARG and not _is_false(args[6]):
            lines.append(node.lineno)
        if name == "setattr" and len(node.args) > 1:
            attr = node.args[1]
            if isinstance(attr, ast.Constant) and attr.value == "rechecked":
                lines.append(node.lineno)
    return lines


def _is_false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def test_the_scan_finds_each_way_of_setting_the_flag() -> None:
    samples = [
        "cx.rechecked = True",
        "replace(cx, rechecked=ok)",
        "Counterexample(p, 'value', text, 1, 0, None, True, 'reference')",
        "verdict.Counterexample(p, 'value', text, 1, 0, None, flag)",
        "setattr(cx, 'rechecked', True)",
    ]
    for text in samples:
        assert _sets_flag(ast.parse(text)) == [1], text
    harmless = "Counterexample(p, 'value', text, 1, 0, None, False, '')\nif cx.rechecked: pass"
    assert _sets_flag(ast.parse(harmless)) == []


def test_only_settle_marks_a_counterexample_confirmed() -> None:
    offenders = []
    for package in ("nimproof", "nimproof_check"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == SETTLE:
                continue
            for line in _sets_flag(ast.parse(path.read_text(), str(path))):
                offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == [], "only nimproof/provers/settle.py may set `rechecked`: " + ", ".join(
        offenders
    )
    assert _sets_flag(ast.parse(SETTLE.read_text())), "settle.py must be where the flag is set"


@pytest.mark.parametrize("spec", ["nim", "misere:nim"])
def test_nim_by_theorem_agrees_with_the_reference(spec: str) -> None:
    game = parse_spec(spec)
    cache: dict = {}
    for heaps in itertools.product(range(6), repeat=3):
        truth = recheck.nim_value(game, heaps)
        assert truth is not None
        assert truth[0] == reference.value(game, game.position(heaps), cache), heaps
        for v in range(4):
            found = set(recheck.nim_options_of_value(game, heaps, v))
            expected = {
                tuple(q)
                for i in range(3)
                for t in range(heaps[i])
                for q in [(*heaps[:i], t, *heaps[i + 1 :])]
                if reference.value(game, game.position(q), cache) == v
            }
            assert found == expected, (heaps, v)


def test_nim_by_theorem_is_only_for_nim() -> None:
    assert recheck.nim_value(parse_spec("moore:2"), (1, 2, 3)) is None
    assert recheck.nim_options_of_value(parse_spec("misere:moore:2"), (1, 2, 3), 0) == []


MISERE_NIM = "((xor(h) != 0) if all(x <= 1 for x in h) else (xor(h) == 0))"
ISSUE_18_CLAIM = (
    f"{MISERE_NIM} != (h[0] == 2**50 + 1 and h[1] == 2**50 + 1 and h[2] == 0 and h[3] == 0)"
)


def test_issue_18_misere_nim_is_refuted_at_the_exact_wrong_position() -> None:
    """The claim is false only at (2^50+1, 2^50+1, 0, 0); with a 60 s limit the refutation must
    name that position (the method finds a relation at a position one move away)."""
    out = subprocess.run(
        [sys.executable, "-m", "nimproof", "check", "--game", "misere:nim", "--heaps", "4",
         "--p-positions", ISSUE_18_CLAIM, "--timeout", "60", "--json"],
        check=False, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode != 2, out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["status"] == "refuted", verdict
    cx = verdict["counterexample"]
    assert cx["position"] == [2**50 + 1, 2**50 + 1, 0, 0]
    assert cx["rechecked"] and cx["condition"] == "value"
    assert cx["claimed"] is False and cx["actual"] == 0
    assert "Bouton's misère theorem" in cx["recheck"]
    assert "claim says not a P-position" in cx["explanation"]
    assert "P-position" in cx["explanation"].split("but", 1)[1]


def test_a_heap_games_listed_targets_are_its_moves() -> None:
    """``target_list`` and ``heap_terminal`` (one call each) agree with ``heap_targets``."""
    from nimproof.games import parse_spec

    for spec in ("subtraction:2,3", "nim", "half", "knim:3"):
        game = parse_spec(spec)
        for n in range(12):
            assert game.target_list(n) == sorted(set(game.heap_targets(n)))
            assert game.heap_terminal(n) == (not list(game.heap_targets(n)))


def test_formula_values_kept_for_a_claim_are_its_formulas_own() -> None:
    """``formula_at`` keeps each value once per claim, but a variant with another formula
    (sharing the kept values) gets its own, and an undefined point stays undefined."""
    import dataclasses

    from nimproof.api import check_claim
    from nimproof.errors import EvalError
    from nimproof.expr import parse
    from nimproof.provers import prepare

    ctx = prepare(check_claim("subtraction:1,2", grundy="6 // (n - 3)"))
    assert recheck.formula_at(ctx, 5) == 3 == recheck.formula_at(ctx, 5)
    for _ in range(2):
        with pytest.raises(EvalError):
            recheck.formula_at(ctx, 3)
    other = dataclasses.replace(ctx, formula=parse("n % 3", scalars=("n",)))
    assert other.memo is ctx.memo
    assert recheck.formula_at(other, 5) == 2 and recheck.formula_at(other, 3) == 0
    assert recheck.formula_at(ctx, 5) == 3
