"""The proofs the checker covers beyond plain heap games, each accepted and then tampered with.

Zeckendorf numeration (Wythoff's game, Fibonacci Nim), move relations of named
families (Welter's game), Moore's Nim with obligation (b) split by the heaps a
move changes, part rules (Lasker's Nim, Ruler, Mock Turtles) and misère
quotients. Tampering: a value changed, a relation weakened, an obligation dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from pathlib import Path

import pytest

import nimproof_check.parts
from nimproof.expr import evaluate, parse
from nimproof_check import arith, check_path
from nimproof_check.ws1s import obligations
from tests.certificates.helpers import certificate, edit_file, load, save
from tests.certificates.test_tampering import accepted, rejected
from tests.provers.helpers import claim

WYTHOFF = claim(
    "p_positions",
    "wythoff",
    "(h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0]))"
    " or (h[1] <= h[0] and h[1] == phi_floor(h[0] - h[1]))",
    {"automata": {}},
    heaps=2,
    id="cov-wythoff",
)
FIBONACCI_NIM = claim(
    "p_positions",
    "fibonacci-nim",
    "h[0] == 0 or h[1] < zlow(h[0])",
    {"automata": {}},
    heaps=2,
    id="cov-fibonacci-nim",
)
WELTER2 = claim(
    "grundy",
    "welter:2",
    "(h[0] ^ h[1] ^ ((max(h[0], h[1]) - min(h[0], h[1])) ^ ((max(h[0], h[1]) - min(h[0], h[1])) - 1)))"
    " if h[0] != h[1] else 0",
    {"automata": {}},
    heaps=2,
    id="cov-welter2",
)
MOORE = claim(
    "p_positions",
    "moore:2",
    "all(colsum(h, b) % 3 == 0 for b in bits)",
    {"automata": {}},
    heaps=4,
    id="cov-moore",
)
LASKER = claim(
    "grundy",
    "lasker",
    "0 if n == 0 else (n + 1 if n % 4 == 3 else (n - 1 if n % 4 == 0 else n))",
    {"automata": {}},
    id="cov-lasker",
)
RULER = claim(
    "grundy",
    "ruler",
    "0 if n == 0 else n ^ (n & (n - 1))",
    {"automata": {"prefix_xor": "m ^ (m >> 1)"}},
    id="cov-ruler",
)
MOCK_TURTLES = claim(
    "grundy",
    "mock-turtles",
    "0 if n == 0 else (2 * n - 1 if popcount(n - 1) % 2 == 0 else 2 * n - 2)",
    {"automata": {}},
    id="cov-mock-turtles",
)
MISERE_075 = claim(
    "p_positions",
    "misere:octal:0.75",
    "(h[0] == 0 and (h[1] == 1 or h[1] == 3)) or (h[1] == 0 and (h[0] == 1 or h[0] == 3))"
    " or (h[0] > 0 and h[1] > 0 and h[0] % 2 == h[1] % 2"
    " and not (h[0] % 2 == 1 and min(h[0], h[1]) <= 3 and max(h[0], h[1]) <= 7))",
    {"misere_quotient": {}},
    heaps=2,
    id="cov-misere-075",
)


def _drop(path: Path, name: str) -> None:
    data = load(path)
    obs = data["proof"]["obligations"]
    data["proof"]["obligations"] = [o for o in obs if o["name"].split("[")[0] != name]
    save(path, data)


def test_wythoff_in_zeckendorf_numeration(tmp_path: Path) -> None:
    path = certificate(WYTHOFF, tmp_path)
    data = load(path)
    assert data["proof"]["numeration"] == "zeckendorf" and data["game"]["kind"] == "wythoff"
    accepted(path)
    _drop(path, "b")
    rejected(path, "no obligation b")
    path = certificate(WYTHOFF, tmp_path / "s")
    # one relation weakened: the claim's P-set also takes (1, 0)
    edit_file(
        path,
        "header.mona",
        "pred S(var2 X0, var2 X1) = ",
        "pred S(var2 X0, var2 X1) = (X0 = {0} & X1 = {}) | ",
    )
    rejected(path, "obligation")
    data = load(certificate(WYTHOFF, tmp_path / "r"))
    data["proof"]["numeration"] = "binary"  # the same sets read as binary numbers
    save(tmp_path / "r" / "cov-wythoff.json", data)
    assert check_path(tmp_path / "r" / "cov-wythoff.json").status == "rejected"


def test_fibonacci_nim_order_and_relation(tmp_path: Path) -> None:
    path = certificate(FIBONACCI_NIM, tmp_path)
    assert load(path)["game"]["kind"] == "fibonacci-nim"
    accepted(path)
    data = load(path)
    data["game"] = {"kind": "wythoff", "misere": False}  # another game's moves (and order)
    save(path, data)
    rejected(path, "well-founded")
    path = certificate(FIBONACCI_NIM, tmp_path / "m")
    # one relation weakened: the new limit is no longer twice the take
    edit_file(path, "header.mona", "plus(Y1, T2, T3)", "lt(Y1, T3)")
    rejected(path)
    path = certificate(FIBONACCI_NIM, tmp_path / "d")
    _drop(path, "a")
    rejected(path, "no obligation a")


def test_welter_relation(tmp_path: Path) -> None:
    path = certificate(WELTER2, tmp_path)
    assert load(path)["game"] == {"kind": "welter", "coins": 2, "misere": False}
    accepted(path)
    data = load(path)
    data["game"]["coins"] = 3
    save(path, data)
    assert check_path(path).status != "accepted"
    path = certificate(WELTER2, tmp_path / "g")
    _drop(path, "g2")
    rejected(path, "no obligation g2")
    path = certificate(WELTER2, tmp_path / "v")
    # one value changed: the claim gives 0 wherever the first coin is on square 1
    edit_file(
        path,
        "header.mona",
        "pred G(var2 X0, var2 X1, var2 V) = ",
        "pred G(var2 X0, var2 X1, var2 V) = (X0 = {0} & V = {}) | (~(X0 = {0}) & ",
    )
    edit_file(path, "header.mona", ";\npred GG(", ");\npred GG(")
    rejected(path)


def test_moore_obligation_b_is_split_by_the_heaps_a_move_changes(tmp_path: Path) -> None:
    text = obligations("p_positions", 4, False, None, 2)["b"]
    assert text.count("ex2 ") == 6 and "move(X0, Y0, X1, Y1, X2, X2, X3, X3)" in text
    path = certificate(MOORE, tmp_path)
    accepted(path)
    data = load(path)
    data["game"]["k"] = 1  # Nim's moves: MONA's relation is not the game's
    save(path, data)
    rejected(path)
    data["game"]["k"] = 2
    save(path, data)
    _drop(path, "b")
    rejected(path, "no obligation b")
    path = certificate(MOORE, tmp_path / "s")
    edit_file(
        path,
        "header.mona",
        "pred S(var2 X0, var2 X1, var2 X2, var2 X3) = ",
        "pred S(var2 X0, var2 X1, var2 X2, var2 X3) = (X0 = {0} & X1 = {} & X2 = {} & X3 = {}) | ",
    )
    rejected(path, "obligation")


def test_lasker_part_rule(tmp_path: Path) -> None:
    path = certificate(LASKER, tmp_path)
    data = load(path)
    assert data["proof"]["kind"] == "ws1s-parts" and data["proof"]["shapes"] == [1, 2]
    assert data["game"]["rule"] == {"rule": "lasker"}
    accepted(path)
    data["proof"]["shapes"] = [1]  # the splits dropped from the certificate's moves
    save(path, data)
    rejected(path)
    path = certificate(LASKER, tmp_path / "w")
    # one relation weakened: a split must leave two equal heaps
    edit_file(
        path,
        "header.mona",
        "pred S1(var2 N, var2 A1, var2 A2) = ",
        "pred S1(var2 N, var2 A1, var2 A2) = A1 = A2 & ",
    )
    rejected(path, "obligation g2")
    path = certificate(LASKER, tmp_path / "d")
    _drop(path, "g1")
    rejected(path, "no obligation g1")


def test_part_rule_moves_differ_from_brute_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MONA proves every obligation, but the game's moves (here made wrong: one split of each
    heap left out) are not the certificate's: news."""
    real = nimproof_check.parts.heap_options

    def fewer(rule: dict, n: int) -> Iterator[tuple[int, ...]]:
        options = list(real(rule, n))
        return iter([o for o in options if len(o) < 2] + [o for o in options if len(o) == 2][1:])

    path = certificate(LASKER, tmp_path)
    monkeypatch.setattr(nimproof_check.parts, "heap_options", fewer)
    rejected(path, "brute force")


def test_ruler_runs_and_prefix_xor(tmp_path: Path) -> None:
    path = certificate(RULER, tmp_path)
    data = load(path)
    assert data["proof"]["runs"] is True and data["proof"]["shapes"] == []
    accepted(path)
    _drop(path, "prefix step")
    rejected(path, "no obligation prefix step")
    path = certificate(RULER, tmp_path / "v")
    # one value changed: the prefix xor is off at m = 2
    edit_file(
        path,
        "header.mona",
        "pred Pre(var2 M, var2 V) = ",
        "pred Pre(var2 M, var2 V) = (M = {1} & V = {}) | (~(M = {1}) & ",
    )
    edit_file(path, "header.mona", ";\npred Opt(", ");\npred Opt(")
    rejected(path, "obligation")
    data = load(certificate(RULER, tmp_path / "r"))
    data["game"]["rule"] = {"rule": "mock-turtles"}
    save(tmp_path / "r" / "cov-ruler.json", data)
    rejected(tmp_path / "r" / "cov-ruler.json")


def test_mock_turtles_part_rule(tmp_path: Path) -> None:
    path = certificate(MOCK_TURTLES, tmp_path)
    accepted(path)
    # one relation weakened: two coins may now be turned only if they are adjacent
    edit_file(
        path,
        "header.mona",
        "pred S2(var2 N, var2 A1, var2 A2) = ",
        "pred S2(var2 N, var2 A1, var2 A2) = (ex2 Q: plus(A1, {0}, Q) & Q = A2) & ",
    )
    rejected(path)


def test_misere_quotient(tmp_path: Path) -> None:
    path = certificate(MISERE_075, tmp_path)
    data = load(path)
    assert data["proof"]["kind"] == "misere-quotient" and len(data["proof"]["mul"]) == 8
    accepted(path)
    proof = data["proof"]
    for key, change, why in (
        ("p_portion", lambda p: p["p_portion"].pop(), ""),
        ("phi", lambda p: p["phi"].__setitem__(3, p["phi"][2]), ""),
        ("mul", lambda p: p["mul"][1].__setitem__(1, p["mul"][1][2]), ""),
        ("phi", lambda p: p["phi"].__setitem__(slice(None), p["phi"][:15]), "theorem needs"),
        ("L", lambda p: p.__setitem__("L", 3), "multiple"),
        ("formula", lambda p: p["formula"].__setitem__("queries", []), "repeat_start"),
    ):
        tampered = load(path)
        tampered["proof"] = {**proof, key: _copy(proof[key])}
        change(tampered["proof"])
        save(path, tampered)
        rejected(path, why)
    save(path, data)
    edit_file(path, "claimed.txt", "0", "1")  # one value of the predicate changed
    rejected(path, "differ")


def _copy(x: object) -> object:
    import copy

    return copy.deepcopy(x)


def test_misere_predicate_read_by_the_checker(tmp_path: Path) -> None:
    """The checker reads the predicate itself: a claim that does not repeat, or whose values
    on the box are not the certificate's, is rejected."""
    path = certificate(MISERE_075, tmp_path)
    data = load(path)
    formula = data["claim"]["formula"]
    data["claim"]["formula"] = f"({formula}) or (h[0] == 100 and h[1] == 101)"
    save(path, data)
    rejected(path, "does not repeat")
    data["claim"]["formula"] = formula.replace("<= 7", "<= 5")
    save(path, data)
    rejected(path, "not the predicate's value")


@pytest.mark.parametrize(
    "text",
    [
        MISERE_075.formula,
        "h[0] // 3 - h[1] * 2 >= -4 if h[0] % 5 != 2 else max(h[0], 7) < abs(h[1] - 9)",
        "not (1 < h[0] <= h[1] < 9) or min(h[0], h[1], 4) == 3",
    ],
)
def test_the_checkers_arithmetic_agrees_with_nimproofs(text: str) -> None:
    node = arith.parse(text, {})
    parsed = parse(text, sequences=("h",))
    for pos in product(range(12), repeat=2):
        assert bool(arith.value(node, pos, {})) == bool(evaluate(parsed, {"h": pos})), pos


@pytest.mark.parametrize(
    "text", ["h[0] ^ h[1] == 0", "__import__('os')", "h[j] == 0", "h[0] % h[1] == 0", "1.5 < h[0]"]
)
def test_outside_the_checkers_arithmetic(text: str) -> None:
    with pytest.raises(arith.Outside):
        arith.parse(text, {})


def test_periodic_table_formula_read_by_the_checker(tmp_path: Path) -> None:
    """The checker reads a one-heap formula itself: one that does not repeat, or whose values
    are not the certificate's, is rejected."""
    from tests.certificates.test_tampering import KAYLES_P

    path = certificate(KAYLES_P, tmp_path)
    accepted(path)
    data = load(path)
    assert data["proof"]["M"] > 3
    data["claim"]["formula"] = "h[0] == 0 or h[0] == 1000"
    save(path, data)
    rejected(path, "does not repeat")
    data["claim"]["formula"] = "h[0] == 0 or h[0] == 3"
    save(path, data)
    rejected(path, "not the formula's")
