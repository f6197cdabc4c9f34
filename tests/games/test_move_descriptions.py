"""Families describe their moves; nothing outside nimproof/games/ depends on a family's class."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from nimproof.games import (
    HeapGame,
    IntervalTakes,
    MultiHeapGame,
    PluginGame,
    PythonMoves,
    all_families,
    parse_spec,
)
from nimproof.provers.moves import heap_move_legal

PACKAGE = Path(__file__).resolve().parents[2] / "nimproof"
GAMES = PACKAGE / "games"


def _concrete_family_classes() -> set[str]:
    """Every class defined in nimproof/games/ except the model in base.py."""
    names: set[str] = set()
    for path in GAMES.rglob("*.py"):
        if path.name == "base.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names.add(node.name)
    return names


def test_no_module_outside_games_imports_a_concrete_family_class() -> None:
    concrete = _concrete_family_classes()
    assert {"Nim", "Misere", "Sum", "Moore", "Staircase", "Octal", "Rule"} <= concrete
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if GAMES in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "nimproof.games"
            ):
                for alias in node.names:
                    if alias.name in concrete:
                        offenders.append(f"{path.relative_to(PACKAGE)}: {alias.name}")
    assert offenders == []


@pytest.mark.parametrize("example", [f.info.example for f in all_families()])
def test_every_family_but_plugins_describes_its_moves(example: str) -> None:
    game = parse_spec(example)
    if isinstance(game, PluginGame):
        assert isinstance(game.moves_spec, PythonMoves)
        return
    assert not isinstance(game.moves_spec, PythonMoves), game.spec
    assert isinstance(game.normal, HeapGame | MultiHeapGame)


@pytest.mark.parametrize("spec", ["nim", "knim:3", "half-heap", "take-fraction:2/3", "kayles"])
def test_misere_play_keeps_the_rule_of_normal_play(spec: str) -> None:
    normal, misere = parse_spec(spec), parse_spec(f"misere:{spec}")
    assert misere.misere and not normal.misere
    assert misere.moves_spec == normal.moves_spec
    assert misere.normal == normal


@pytest.mark.parametrize(
    "spec",
    [
        "nim",
        "knim:3",
        "subtraction:1,3,4",
        "half-heap",
        "take-fraction:2/3",
        "subtraction:primes",
        "subtraction:all-but:1,2",
        "rule:(n+1)//2 <= m < n",
    ],
)
def test_a_described_move_is_legal_exactly_when_the_move_generator_makes_it(spec: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    for n in range(40):
        generated = {parts[0] if parts else 0 for parts in game.options(n)}
        described = {m for m in range(n) if heap_move_legal(game, n, m)}
        assert described == generated, (spec, n)


def test_interval_description_matches_take_fraction_bounds() -> None:
    spec = parse_spec("take-fraction:2/3").moves_spec
    assert isinstance(spec, IntervalTakes)
    assert [spec.lowest(n) for n in range(7)] == [n - (2 * n) // 3 for n in range(7)]


#: The move-description records (every subclass of MoveDescription in base.py).
def _description_names() -> set[str]:
    from nimproof.games import base

    return {
        name
        for name, obj in vars(base).items()
        if isinstance(obj, type) and issubclass(obj, base.MoveDescription)
    }


def _class_tests(tree: ast.AST, names: set[str]) -> int:
    """How many ``isinstance(x, D)`` calls (D a description, a tuple or ``A | B`` of them)."""

    def named(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Attribute):
            return node.attr in names
        if isinstance(node, ast.Tuple):
            return any(named(e) for e in node.elts)
        if isinstance(node, ast.BinOp):
            return named(node.left) or named(node.right)
        return False

    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and named(node.args[1])
    )


def test_no_isinstance_on_a_move_description_outside_games() -> None:
    names = _description_names()
    assert {"FiniteTakes", "UpToKHeaps", "HeapsRelation", "PythonMoves"} <= names
    found = {}
    for path in PACKAGE.rglob("*.py"):
        if GAMES in path.parents:
            continue
        count = _class_tests(ast.parse(path.read_text(encoding="utf-8")), names)
        if count:
            found[str(path.relative_to(PACKAGE))] = count
    assert found == {}, f"isinstance on a move description outside games/: {found}"


def test_the_class_test_counter_sees_a_ladder() -> None:
    names = _description_names()
    tree = ast.parse("isinstance(s, FiniteTakes | SetTakes)\nisinstance(s, (UpToKHeaps, int))\n")
    assert _class_tests(tree, names) == 2
    assert _class_tests(ast.parse("isinstance(s, int)"), names) == 0
