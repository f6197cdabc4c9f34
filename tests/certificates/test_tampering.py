"""Every kind of certificate is accepted as written and rejected, with the reason, once tampered.

Kinds: WS1S (automata), SMT (z3), periodicity, listed values, and compositions
(periodic-table reduction, Sprague–Grundy sums). Tampering: one value changed,
one relation weakened, one obligation dropped, one hash changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from nimproof_check import check_path
from tests.certificates.helpers import certificate, edit_file, load, save
from tests.provers.helpers import claim

NIM2 = claim("p_positions", "nim", "xor(h) == 0", {}, heaps=2, id="cert-nim2")
KNIM3 = claim("grundy", "knim:3", "n % 4", {}, id="cert-knim3")
KAYLES_PERIOD = claim(
    "periodic", "kayles", None, {"periodicity": {}}, period=12, preperiod=71, id="cert-kayles"
)
IDENTITY = claim(
    "identity", None, "(n % (k + 1)) >= 0", {"z3_int": {}}, variables=("n", "k"), id="cert-identity"
)
VALUES = claim("value", "kayles", None, {}, positions=(5, (3, 4)), values=(4, 2), id="cert-values")
KAYLES_P = claim(
    "p_positions", "kayles", "h[0] == 0", {"periodic_table": {}}, heaps=1, id="cert-kayles-p"
)
SUM = claim(
    "sum_rule", None, None, {"periodic_table": {}}, components=("knim:3", "kayles"), id="cert-sum"
)


def rejected(path: Path, *words: str) -> str:
    report = check_path(path)
    assert report.status == "rejected", report
    for w in words:
        assert w in report.reason, report.reason
    return report.reason


def accepted(path: Path) -> None:
    report = check_path(path)
    assert report.status == "accepted", report
    assert report.checked


def test_ws1s_certificate(tmp_path: Path) -> None:
    path = certificate(NIM2, tmp_path)
    accepted(path)
    data = load(path)
    assert data["proof"]["kind"] == "ws1s" and data["game"]["kind"] == "heap"
    # one relation weakened: the claim's P-set also takes (1, 0)
    edit_file(
        path,
        "header.mona",
        "pred S(var2 X0, var2 X1) = ",
        "pred S(var2 X0, var2 X1) = (X0 = {0} & X1 = {}) | ",
    )
    rejected(path, "obligation")


def test_ws1s_move_relation_weakened(tmp_path: Path) -> None:
    path = certificate(NIM2, tmp_path)
    edit_file(path, "header.mona", "pred move(", "pred movex(")
    edit_file(
        path,
        "header.mona",
        "pred terminal(",
        "pred move(var2 X0, var2 Y0, var2 X1, var2 Y1) = movex(X0, Y0, X1, Y1) & (lt(Y0, X0) => Y0 = {});\npred terminal(",
    )
    rejected(path)


def test_ws1s_header_may_only_define_predicates(tmp_path: Path) -> None:
    """A MONA statement that restricts every set variable to the empty set would make every
    obligation valid, the false claim (1, 0) included: the header is refused."""
    path = certificate(NIM2, tmp_path)
    edit_file(path, "header.mona", "ws1s;\n", "ws1s;\ndefaultwhere2(P) = P = {};\n")
    edit_file(
        path,
        "header.mona",
        "pred S(var2 X0, var2 X1) = ",
        "pred S(var2 X0, var2 X1) = (X0 = {0} & X1 = {}) | ",
    )
    rejected(path, "other than a definition")


def test_ws1s_obligation_dropped_and_hash(tmp_path: Path) -> None:
    path = certificate(NIM2, tmp_path)
    data = load(path)
    data["proof"]["obligations"] = [o for o in data["proof"]["obligations"] if o["name"] != "b"]
    save(path, data)
    rejected(path, "no obligation b")
    path = certificate(KNIM3, tmp_path / "g")
    accepted(path)
    data = load(path)
    data["files"]["header.mona"] = "0" * 64
    save(path, data)
    rejected(path, "sha256")


def test_ws1s_game_differs_from_the_relation(tmp_path: Path) -> None:
    """MONA proves the obligations, but the move relation is not the named game's: news."""
    path = certificate(KNIM3, tmp_path)
    data = load(path)
    data["game"]["rule"] = {"rule": "takes", "takes": [1, 2]}
    save(path, data)
    rejected(path, "brute force")


def test_smt_certificate(tmp_path: Path) -> None:
    path = certificate(IDENTITY, tmp_path)
    data = load(path)
    assert data["proof"]["kind"] == "smt" and data["proof"]["queries"]
    accepted(path)
    data["proof"]["queries"] = [q for q in data["proof"]["queries"] if q["answer"] != "unsat"]
    save(path, data)
    rejected(path, "missing")


def test_smt_answer_changed(tmp_path: Path) -> None:
    path = certificate(IDENTITY, tmp_path)
    data = load(path)
    data["proof"]["queries"][0]["answer"] = "sat"
    save(path, data)
    rejected(path)


def test_smt_query_changed(tmp_path: Path) -> None:
    """A query whose meaning changes (the claim's negation dropped) is no longer unsat for cvc5."""
    path = certificate(IDENTITY, tmp_path)
    query = next(q for q in load(path)["proof"]["queries"] if q["answer"] == "unsat")
    edit_file(path, query["file"], "(check-sat)", "(assert true)\n(check-sat)", rehash=False)
    rejected(path, "sha256")


def test_periodicity_certificate(tmp_path: Path) -> None:
    path = certificate(KAYLES_PERIOD, tmp_path)
    accepted(path)
    data = load(path)
    data["proof"]["values_sha256"] = "0" * 64
    save(path, data)
    rejected(path, "hash")
    data["proof"] = load(certificate(KAYLES_PERIOD, tmp_path / "b"))["proof"]
    data["proof"]["preperiod"] = 70  # one value changed: g(70 + 12) != g(70)
    save(path, data)
    rejected(path, "not the claim's")
    data["claim"]["preperiod"] = 70
    save(path, data)
    rejected(path, "window")
    data["proof"]["preperiod"] = data["claim"]["preperiod"] = 71
    data["proof"]["theorem"] = "guy-smith-tiny"
    save(path, data)
    assert check_path(path).status == "cannot check"


def test_listed_certificate(tmp_path: Path) -> None:
    path = certificate(VALUES, tmp_path)
    accepted(path)
    data = load(path)
    data["proof"]["values"][1] = 6
    save(path, data)
    rejected(path, "not the claim's")
    data["claim"]["values"][1] = 6
    save(path, data)
    rejected(path, "not 6")


def test_proof_about_another_claim(tmp_path: Path) -> None:
    path = certificate(NIM2, tmp_path)
    data = load(path)
    data["claim"]["heaps"] = 3
    save(path, data)
    rejected(path, "heaps")


def test_periodic_table_certificate(tmp_path: Path) -> None:
    path = certificate(KAYLES_P, tmp_path)
    accepted(path)
    data = load(path)
    assert data["proof"]["rule"] == "periodic-table"
    edit_file(path, "claimed.json", "[1,", "[0,")
    rejected(path, "n = 0")


def test_periodic_table_obligation_dropped(tmp_path: Path) -> None:
    path = certificate(KAYLES_P, tmp_path)
    data = load(path)
    data["proof"]["formula"]["queries"] = []
    save(path, data)
    rejected(path, "formula_start")


def test_sum_certificate(tmp_path: Path) -> None:
    path = certificate(SUM, tmp_path)
    accepted(path)
    data = load(path)
    parts = data["proof"]["parts"]
    kayles = next(p for p in parts if p["periodicity"] is not None)
    kayles["periodicity"] = None  # the splitting part loses its proved period
    save(path, data)
    rejected(path, "splits heaps")


@pytest.mark.parametrize(
    "text", ["{", '{"format": "other"}', '{"format": "nimproof-certificate", "version": 1}']
)
def test_malformed_certificates_are_not_accepted(tmp_path: Path, text: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text)
    assert check_path(path).status == "rejected"


def test_plugin_values_through_the_game_graph(tmp_path: Path) -> None:
    """A plugin's moves are known only through its Python code: the certificate lists the game
    graph below each listed position, and the checker computes the values on it."""
    c = claim(
        "value",
        "plugin:polygon",
        None,
        {},
        positions=(6, 7, 8),
        values=(2, 0, 3),
        id="cert-polygon",
    )
    path = certificate(c, tmp_path)
    data = load(path)
    assert data["game"]["kind"] == "graph"
    accepted(path)
    first = data["game"]["starts"][0]
    data["game"]["edges"][first] = []  # the first position's moves dropped: its value is 0
    save(path, data)
    rejected(path, "not 2")
    data = load(certificate(c, tmp_path / "b"))
    key = next(k for k, v in data["game"]["edges"].items() if v)
    data["game"]["edges"][key] = [*data["game"]["edges"][key], "[999]"]  # not closed
    save(path, data)
    rejected(path, "not closed")


def test_sequence_of_a_rule_game_through_its_graph(tmp_path: Path) -> None:
    c = claim("sequence", "rule:m < n", None, {}, values=(0, 1, 2, 3, 4), id="cert-seq")
    path = certificate(c, tmp_path)
    accepted(path)
    data = load(path)
    assert data["game"]["kind"] == "graph" and data["game"]["heaps"]
    data["proof"]["values"][3] = 9
    data["claim"]["values"][3] = 9
    save(path, data)
    rejected(path, "not 9")


def test_ws1s_one_heap_rule_through_its_graph(tmp_path: Path) -> None:
    """A one-heap game given by a formula: its moves on small heaps come as a game graph."""
    c = claim("grundy", "rule:m < n and n - m <= 2", "n % 3", {}, id="cert-rule-graph")
    path = certificate(c, tmp_path)
    accepted(path)
    data = load(path)
    assert data["game"]["kind"] == "graph"
    data["game"]["edges"]["[5]"] = ["[4]"]  # one move of heap 5 left out of the graph
    save(path, data)
    rejected(path, "brute force")


def test_a_zeckendorf_proof_is_never_accepted_as_binary(tmp_path: Path) -> None:
    """A Wythoff proof in Zeckendorf numeration is checked in that numeration (accepted);
    relabelled as binary, the same sets read as other numbers and it is rejected."""
    wythoff = claim(
        "p_positions",
        "wythoff",
        "(h[0] <= h[1] and h[0] == phi_floor(h[1] - h[0]))"
        " or (h[1] <= h[0] and h[1] == phi_floor(h[0] - h[1]))",
        {"automata": {}},
        heaps=2,
        id="cert-wythoff",
    )
    path = certificate(wythoff, tmp_path)
    assert load(path)["proof"]["numeration"] == "zeckendorf"
    accepted(path)
    data = load(path)
    data["proof"]["numeration"] = "binary"
    save(path, data)
    assert check_path(path).status == "rejected"
    data["proof"]["numeration"] = "ternary"
    save(path, data)
    assert check_path(path).status == "cannot check"
