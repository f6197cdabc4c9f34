"""The classic families: CGSuite codes, Lasker's Nim, Ruler, Mock Turtles, Welter's game."""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement, product

import pytest

from nimproof.engines import grundy_table
from nimproof.engines.reference import heap_table
from nimproof.errors import SpecError
from nimproof.expr import parse
from nimproof.expr.evaluate import evaluate
from nimproof.games import HeapGame, PartMoves, parse_spec
from nimproof.games.base import mex


def _heap(spec: str) -> HeapGame:
    game = parse_spec(spec)
    assert isinstance(game, HeapGame)
    return game


# ---------------------------------------------------------------------------
# CGSuite's notation


def test_grundys_game_in_cgsuite_notation_is_grundys_game() -> None:
    for code in ("4!.0", "4?.0", "4!.000"):
        game = parse_spec(f"cgsuite:{code}")
        assert game == parse_spec("grundys-game")
    assert grundy_table(parse_spec("cgsuite:4!.0"), 300).tolist() == heap_table(
        _heap("grundys-game"), 300
    )


@pytest.mark.parametrize("code", ["0.137", "0.77", "0.07", "4.7", "0.f", "0.6"])
def test_octal_codes_are_the_octal_games(code: str) -> None:
    assert parse_spec(f"cgsuite:{code}") == parse_spec(f"octal:{code}")
    assert parse_spec(f"cgsuite:{code.upper()}") == parse_spec(f"octal:{code}")


def _independent_options(code: list[tuple[int, str]], n: int) -> set[tuple[int, ...]]:
    """The moves of a code by brute force over multisets of parts (no shared code)."""
    out: set[tuple[int, ...]] = set()
    for k, (mask, rule) in enumerate(code):
        rest = n - k
        if rest < 0:
            continue
        for j in range(mask.bit_length()):
            if not mask >> j & 1:
                continue
            if j == 0:
                if rest == 0 and k > 0:
                    out.add(())
                continue
            for parts in combinations_with_replacement(range(1, rest + 1), j):
                if sum(parts) != rest or (j == 1 and k == 0):
                    continue
                kinds = len(set(parts))
                ok = {
                    "": True,
                    "!": kinds == j,
                    "?": kinds > 1 or j < 2,
                    "=": kinds == 1,
                }[rule]
                if ok:
                    out.add(parts)
    return out


@pytest.mark.parametrize(
    ("code", "digits"),
    [
        ("4!.1", [(4, "!"), (1, "")]),
        ("0.4=", [(0, ""), (4, "=")]),
        ("0.g", [(0, ""), (16, "")]),
        ("0.v?", [(0, ""), (31, "?")]),
        ("0.&32;!", [(0, ""), (32, "!")]),
        ("8!.7", [(8, "!"), (7, "")]),
    ],
)
def test_codes_with_modifiers_move_as_the_notation_says(
    code: str, digits: list[tuple[int, str]]
) -> None:
    game = _heap(f"cgsuite:{code}")
    for n in range(16):
        assert set(game.options(n)) == _independent_options(digits, n), n
    assert grundy_table(game, 30).tolist() == heap_table(game, 30)


def test_a_two_heap_question_mark_is_an_exclamation_mark() -> None:
    assert parse_spec("cgsuite:0.7?").spec == "cgsuite:0.7!"


@pytest.mark.parametrize(
    "code",
    ["", "0", "0.w", "1.7", "44.0", "0.[3]", "0.*", "0.{2+}", "0.&x;", "0.&1024;", "0.0", "0.7!!"],
)
def test_malformed_codes_are_refused_in_one_line(code: str) -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(f"cgsuite:{code}")
    assert "\n" not in str(info.value)


# ---------------------------------------------------------------------------
# PartMoves descriptions say the same as the families' own moves


def _described_options(spec: PartMoves, n: int) -> set[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()
    for k, text in spec.shapes:
        names = tuple(f"a{j}" for j in range(1, k + 1))
        node = parse(text, scalars=("n", *names), result="bool")
        for parts in product(range(n + 1), repeat=k):
            if evaluate(node, {"n": n, **dict(zip(names, parts, strict=True))}):
                out.add(tuple(sorted(p for p in parts if p > 0)))
    if spec.runs:
        out |= {tuple(range(j + 1, n)) for j in range(n)}
    return out


@pytest.mark.parametrize("spec", ["lasker", "ruler", "mock-turtles"])
def test_the_move_description_matches_the_moves(spec: str) -> None:
    game = _heap(spec)
    desc = game.moves_spec
    assert isinstance(desc, PartMoves)
    for n in range(12):
        own = {tuple(sorted(p for p in parts if p > 0)) for parts in game.options(n)}
        assert own == _described_options(desc, n), n


# ---------------------------------------------------------------------------
# The coin-turning principle, by brute force on real rows of coins


def _coin_value(heads: frozenset[int], turns: object) -> int:
    @cache
    def g(h: frozenset[int]) -> int:
        opts = set()
        for n in h:
            for others in turns(n):  # type: ignore[operator]
                opts.add(g(h ^ frozenset((n, *others))))
        return mex(opts)

    return g(heads)


def _ruler_turns(n: int) -> list[tuple[int, ...]]:
    return [tuple(range(j + 1, n)) for j in range(n)]


def _mock_turns(n: int) -> list[tuple[int, ...]]:
    return [()] + [(b,) for b in range(1, n)] + list(combinations(range(1, n), 2))


@pytest.mark.parametrize(
    ("spec", "turns"), [("ruler", _ruler_turns), ("mock-turtles", _mock_turns)]
)
def test_a_row_of_coins_has_the_xor_of_its_single_coin_values(spec: str, turns: object) -> None:
    table = grundy_table(parse_spec(spec), 8).tolist()
    for size in range(5):
        for heads in combinations(range(1, 9), size):
            xor = 0
            for c in heads:
                xor ^= table[c]
            assert _coin_value(frozenset(heads), turns) == xor, heads


# ---------------------------------------------------------------------------
# The automata proofs: a wrong hint is never a verdict


def _automata(spec: str, formula: str, options: dict[str, str]) -> str:
    from nimproof.claims import Claim
    from nimproof.provers import mona, prepare, run_method

    if not mona.available():
        pytest.skip("mona is not installed")
    claim = Claim(id="t", kind="grundy", statement="t", game=spec, formula=formula)
    return run_method("automata", prepare(claim), options).status


def test_ruler_is_proved_with_the_gray_code_as_its_prefix_xor() -> None:
    ruler = "0 if n == 0 else n ^ (n & (n - 1))"
    assert _automata("ruler", ruler, {"prefix_xor": "m ^ (m >> 1)"}) == "proved"


def test_a_wrong_prefix_hint_leaves_a_true_claim_unknown() -> None:
    ruler = "0 if n == 0 else n ^ (n & (n - 1))"
    assert _automata("ruler", ruler, {"prefix_xor": "m"}) == "unknown"
    assert _automata("ruler", ruler, {}) == "unknown"


def test_lasker_values_far_out_are_refuted_by_the_reference() -> None:
    wrong = "0 if n == 0 or n == 257 else (n + 1 if n % 4 == 3 else (n - 1 if n % 4 == 0 else n))"
    assert _automata("lasker", wrong, {}) == "refuted"


@pytest.mark.parametrize("spec", ["lasker", "ruler", "mock-turtles"])
def test_the_part_kernels_agree_with_the_reference(spec: str) -> None:
    game = _heap(spec)
    want = heap_table(game, 300)
    assert grundy_table(game, 300).tolist() == want
    assert grundy_table(game, 300, prefix=grundy_table(game, 41)).tolist() == want
    calls: list[int] = []
    assert grundy_table(game, 300, progress=lambda a, b: calls.append(a)).tolist() == want


# ---------------------------------------------------------------------------
# Welter's game


def _welter_brute(coins: tuple[int, ...]) -> int:
    @cache
    def g(pos: frozenset[int]) -> int:
        return mex({g(pos - {a} | {b}) for a in pos for b in range(a) if b not in pos})

    return g(frozenset(coins))


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_welters_function_is_the_value_of_every_small_position(k: int) -> None:
    from nimproof.games.welter import welter_function

    node = parse(welter_function(k), sequences=("h",))
    for squares in product(range(7 if k < 4 else 6), repeat=k):
        want = _welter_brute(squares) if len(set(squares)) == k else 0
        assert evaluate(node, {"h": squares}) == want, squares


@pytest.mark.parametrize("k", [2, 3])
def test_welters_relation_is_its_moves(k: int) -> None:
    game = parse_spec(f"welter:{k}")
    desc = game.moves_spec
    for p in product(range(5), repeat=k):
        moves = set(game.moves(p))
        for q in product(range(5), repeat=k):
            assert desc.is_move(game, p, q) == (q in moves), (p, q)


def test_welter_needs_a_sensible_number_of_coins() -> None:
    for bad in ("welter", "welter:0", "welter:99", "welter:x"):
        with pytest.raises(SpecError):
            parse_spec(bad)


@pytest.mark.parametrize("spec", ["ruler", "mock-turtles"])
def test_misere_coin_turning_is_refused(spec: str) -> None:
    with pytest.raises(SpecError, match="normal play"):
        parse_spec(f"misere:{spec}")
