"""The package's shape: small functions and one registry of proof methods."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from nimproof.methods import ORDER, REGISTRY
from nimproof.verdict import Scope

PACKAGE = Path(__file__).resolve().parents[1] / "nimproof"
MAX_FUNCTION_LINES = 80


def test_no_function_in_the_package_is_longer_than_eighty_lines() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({lines})")
    assert long == []


def test_every_registered_method_has_a_run_function_and_typed_options() -> None:
    assert len(set(ORDER)) == len(ORDER)
    for method in REGISTRY:
        module = importlib.import_module(method.module)
        assert method.name == module.NAME
        assert callable(method.run)
        assert isinstance(method.options.__annotations__, dict)  # a TypedDict


def test_methods_are_registered_strongest_scope_first() -> None:
    ranks = [Scope(m.reaches, width=1, bound=1).rank()[0] for m in REGISTRY if not m.runs_last]
    assert ranks == sorted(ranks, reverse=True)
    last = [m.runs_last for m in REGISTRY]
    assert last == sorted(last), "a method that runs last comes after every other one"


def test_the_claim_schema_accepts_exactly_the_registered_methods() -> None:
    from nimproof.claims.model import METHODS

    assert tuple(METHODS) == ORDER
