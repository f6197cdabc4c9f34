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
