"""The independent check shares no code with the quotient construction."""

from __future__ import annotations

import ast
from pathlib import Path

from nimproof.misere import bruteforce
from nimproof.misere.bruteforce import compare, misere_p


def test_bruteforce_imports_nothing_from_the_construction() -> None:
    tree = ast.parse(Path(bruteforce.__file__).read_text())
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            imported.append(node.module or "")
    own = [m for m in imported if m.startswith("nimproof")]
    assert own == ["nimproof.games.registry"], own


def test_misere_nim_outcomes_follow_boutons_rule() -> None:
    memo: dict[tuple[int, ...], bool] = {}
    for a in range(6):
        for b in range(6):
            for c in range(4):
                heaps = (a, b, c)
                big = any(h > 1 for h in heaps)
                rule = (a ^ b ^ c) == 0 if big else sum(heaps) % 2 == 1
                assert misere_p("misere:nim", heaps, memo) == rule, heaps


def test_a_wrong_quotient_is_caught() -> None:
    # T1 (heaps 0 and 1 of misère Nim) used, wrongly, for heaps up to 2.
    mul = [[0, 1], [1, 0]]
    count, bad = compare("misere:nim", mul, [1], [0, 1, 1], 3, 6)
    assert count > 0 and bad and bad[0].heaps == (2,)
