"""Quotient-order proofs (claim kind ``misere_quotient``): the certificate is accepted, and
rejected, with its reason, when the stated figures are wrong or the monoid is not the quotient
itself (a larger correct monoid, an element no sum reaches, a changed heap map)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from nimproof.claims import Claim
from tests.certificates.helpers import certificate, certified, load, save
from tests.certificates.test_tampering import accepted, rejected
from tests.provers.helpers import claim


def _order_claim(game: str, order: int, **figures: Any) -> Claim:
    return claim(
        "misere_quotient",
        game,
        None,
        {"misere_quotient": {}},
        order=order,
        id=f"cov-quotient-{game.rsplit(':', maxsplit=1)[-1]}-{order}",
        **figures,
    )


#: Plambeck's R8: order 8, P-portion {a, b^2}, heap map period 2 from heap 8.
ORDER_075 = _order_claim("misere:octal:0.75", 8, p_portion=2, period=2, preperiod=8)
ORDER_KAYLES = _order_claim("misere:kayles", 40, period=12, preperiod=71)


def _restate(path: Path, **figures: Any) -> None:
    """Change stated figures in both the claim and the proof part (they must agree)."""
    data = load(path)
    data["claim"].update(figures)
    data["proof"]["stated"].update(figures)
    save(path, data)


def test_order_certificates_are_accepted(tmp_path: Path) -> None:
    path = certificate(ORDER_075, tmp_path)
    proof = load(path)["proof"]
    assert proof["kind"] == "misere-quotient" and proof["claim_kind"] == "misere_quotient"
    assert len(proof["mul"]) == 8 and len(proof["reach"]) == 8 and len(proof["distinguish"]) == 28
    accepted(path)
    verdict = certified(ORDER_KAYLES, tmp_path / "k")
    assert verdict.status == "proved", verdict
    row = next(r for r in verdict.methods if r.method == "certificate")
    assert row.status == "proved", row


def test_stated_figures_are_checked_against_the_monoid(tmp_path: Path) -> None:
    path = certificate(ORDER_075, tmp_path)
    data = load(path)
    _restate(path, order=9)
    rejected(path, "the claim states order 9; the quotient has 8 elements")
    save(path, data)
    _restate(path, p_portion=3)
    rejected(path, "P-portion of 3; the quotient's has 2")
    save(path, data)
    _restate(path, period=2, preperiod=7)  # heaps 7 and 9 map to c and ab^2
    rejected(path, "does not have period 2 from heap 7")
    save(path, data)
    _restate(path, period=4, preperiod=10)  # a longer true period from a later heap counts
    accepted(path)
    save(path, data)
    data["claim"]["order"] = 9  # the part still states 8: not the claim's figure
    save(path, data)
    rejected(path, "stated order 8 is not the claim's 9")


def _tagged(proof: dict[str, Any], heap: int) -> dict[str, Any]:
    """The proof's monoid Q times the semilattice {1, e} (e e = e), heap ``heap`` mapped to
    (phi(heap), e) and every other heap to (phi(h), 1), cut down to the elements sums reach:
    a correct monoid (a sum is P exactly when its first component is in P) with duplicates."""
    mul, phi = proof["mul"], proof["phi"]
    gens = {(phi[h], h == heap) for h in range(1, len(phi))}
    index: dict[tuple[int, bool], int] = {(0, False): 0}
    reach: list[list[int]] = [[]]
    todo = [(0, False)]
    while todo:
        x = todo.pop(0)
        for g in sorted(gens):
            y = (mul[x[0]][g[0]], x[1] or g[1])
            if y not in index:
                index[y] = len(index)
                h = next(h for h in range(1, len(phi)) if (phi[h], h == heap) == g)
                reach.append([*reach[index[x]], h])
                todo.append(y)
    elements = sorted(index, key=index.__getitem__)
    out = copy.deepcopy(proof)
    out["mul"] = [[index[(mul[a][b], s or t)] for b, t in elements] for a, s in elements]
    out["p_portion"] = sorted(index[x] for x in elements if x[0] in proof["p_portion"])
    out["phi"] = [index[(x, h == heap)] for h, x in enumerate(phi)]
    out["reach"] = reach
    out["distinguish"] = []
    out["stated"].update(order=len(elements), p_portion=len(out["p_portion"]))
    return out


def test_a_larger_correct_monoid_is_not_the_quotient(tmp_path: Path) -> None:
    """Duplicate elements, order inflated, the misère rule still right on every sum: only the
    distinguishability check can reject it."""
    path = certificate(ORDER_075, tmp_path)
    data = load(path)
    data["proof"] = _tagged(data["proof"], 1)
    order = len(data["proof"]["mul"])
    assert order > 8
    data["claim"].update(order=order, p_portion=len(data["proof"]["p_portion"]))
    save(path, data)
    reason = rejected(path, "indistinguishable", "larger than the quotient")
    assert "misère rule" not in reason


def test_an_element_no_sum_reaches(tmp_path: Path) -> None:
    """A zero element adjoined (z x = z): still a commutative monoid predicting every sum."""
    path = certificate(ORDER_075, tmp_path)
    data = load(path)
    proof = data["proof"]
    z = len(proof["mul"])
    proof["mul"] = [[*row, z] for row in proof["mul"]] + [[z] * (z + 1)]
    proof["mul"][0][z] = z
    proof["reach"].append([1])
    proof["stated"]["order"] = data["claim"]["order"] = z + 1
    save(path, data)
    rejected(path, f"element {z} is reached by no sum given")


def test_a_heap_map_entry_changed(tmp_path: Path) -> None:
    path = certificate(ORDER_075, tmp_path)
    data = load(path)
    phi = data["proof"]["phi"]
    phi[3] = phi[2]  # heap 3 (a) given heap 2's element (b)
    save(path, data)
    rejected(path, "the local rule fails")


def test_the_distinguishing_elements_may_be_searched(tmp_path: Path) -> None:
    """Witnesses for the pairs are a help, not trusted: wrong ones are replaced by a search."""
    path = certificate(ORDER_075, tmp_path)
    data = load(path)
    data["proof"]["distinguish"] = [0] * 28
    save(path, data)
    accepted(path)


def test_the_kind_states_misere_play(tmp_path: Path) -> None:
    """``octal:0.75`` in a quotient-order claim means the code's misère quotient: the checker
    plays the game misère whatever the description says."""
    path = certificate(_order_claim("octal:0.75", 8, p_portion=2), tmp_path)
    assert load(path)["game"]["misere"] is False
    accepted(path)
