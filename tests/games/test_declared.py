"""Games declared by a move formula (``moves:H:EXPR``): same tables and proofs as built-ins."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from nimproof.cli.main import main
from nimproof.engines.multi import multi_table
from nimproof.errors import SpecError
from nimproof.games import parse_spec
from nimproof.games.wythoff import MOVES as WYTHOFF_MOVES
from nimproof.provers import mona, prepare, run_method
from tests.conftest import claim
from tests.provers.false_claims import WYTHOFF_P

DECLARED_WYTHOFF = f"moves:2:{WYTHOFF_MOVES}"


def test_declared_wythoff_has_the_moves_and_table_of_the_built_in_family() -> None:
    declared, built_in = parse_spec(DECLARED_WYTHOFF), parse_spec("wythoff")
    for p in product(range(9), repeat=2):
        assert set(declared.moves(p)) == set(built_in.moves(p)), p
    a = multi_table(declared, 2, 25)
    b = multi_table(built_in, 2, 25)
    assert a.values is not None and b.values is not None
    assert np.array_equal(a.values, b.values)
    assert parse_spec(declared.spec) == declared  # the spec round-trips


@pytest.mark.skipif(not mona.available(), reason="mona is not installed")
def test_declared_wythoff_gets_the_same_proof() -> None:
    for spec in (DECLARED_WYTHOFF, "wythoff"):
        r = run_method("automata", prepare(claim("p_positions", spec, WYTHOFF_P, {}, heaps=2)), {})
        assert r.status == "proved" and r.scope.kind == "all", (spec, r)
        assert r.stats["obligations"] == ["w", "guard", "a", "b"]


@pytest.mark.skipif(not mona.available(), reason="mona is not installed")
def test_a_declared_nim_is_proved_in_binary() -> None:
    spec = "moves:3:" + " or ".join(
        f"(k[{i}] < h[{i}] and "
        + " and ".join(f"k[{j}] == h[{j}]" for j in range(3) if j != i)
        + ")"
        for i in range(3)
    )
    r = run_method("automata", prepare(claim("p_positions", spec, "xor(h) == 0", {}, heaps=3)), {})
    assert r.status == "proved" and "Zeckendorf" not in r.detail, r
    wrong = run_method(
        "automata", prepare(claim("p_positions", spec, "xor(h) == 1", {}, heaps=3)), {}
    )
    assert wrong.status == "refuted"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("moves:2:k[0] <= h[0] and k[1] < h[1] + 1", "does not lower the total"),
        ("moves:2:k[0] < h[0] and k[1] <= h[1] + 1", "(1, 0) -> (0, 1)"),
        ("moves:1:k[0] < h[0] or (h[0] == 1000 and k[0] == 5000)", "(1000,) -> (5000,)"),
        ("moves:2:", "H:EXPR"),
        ("moves", "needs"),
        ("moves:9:k[0] < h[0]", "between 1 and 6"),
        ("moves:x:k[0] < h[0]", "whole number"),
        ("moves:2:__import__('os')", "moves:2"),
        ("moves:2:k[0] < h[0] +", "moves:2"),
    ],
)
def test_bad_declarations_are_refused_in_one_line(spec: str, words: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(spec)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_the_command_line_refuses_an_endless_game_with_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        ["table", "moves:2:k[0] < h[0] and k[1] <= h[1] + 1", "--heaps", "2", "--max-heap", "3"]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "need not end" in err


def test_a_relation_outside_z3_is_checked_by_mona() -> None:
    if not mona.available():
        pytest.skip("mona is not installed")
    game = parse_spec("moves:1:k[0] < h[0] and (h[0] ^ k[0]) & 1 == 1")
    assert set(game.moves((5,))) == {(4,), (2,), (0,)}
