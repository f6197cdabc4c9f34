"""Certificate parts that proof methods attach to a ``proved`` result (``MethodResult.certificate``).

A part is a JSON-ready dict whose ``"kind"`` says how the independent checker
(:mod:`nimproof_check`) re-checks it; text files travel in ``"texts"`` (file
name -> content) and are written beside the certificate by
:mod:`nimproof.certificates.build`. The schema is ``docs/certificates.md``.
A method that proves something and attaches no part leaves its verdict
without a certificate, and ``verify`` does not count it as proved.

This module imports nothing from the rest of nimproof, so any prover may use it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any


def values_digest(values: Iterable[int]) -> str:
    """The sha256 of the values written as decimal numbers joined by commas."""
    return hashlib.sha256(",".join(str(int(v)) for v in values).encode()).hexdigest()


def ws1s(
    claim_kind: str,
    heaps: int,
    misere: bool,
    header: str,
    obligations: Sequence[tuple[str, str, str]],
    numeration: str = "binary",
) -> dict[str, Any]:
    """The automata method's part: the header (the prelude, ``move``, ``terminal`` and the
    claim's ``S``/``G``/``F``) and each obligation ``(name, body, MONA's answer)``; each
    obligation file is the whole text MONA read (header and body). ``numeration`` says how
    a set of positions stands for a number (``binary``, or ``zeckendorf``)."""
    texts = {"header.mona": header}
    listed = []
    for i, (name, body, answer) in enumerate(obligations):
        file = f"ob{i}-{''.join(c if c.isalnum() else '_' for c in name)}.mona"
        texts[file] = header + body
        listed.append({"name": name, "file": file, "mona": answer})
    return {
        "kind": "ws1s",
        "claim_kind": claim_kind,
        "heaps": heaps,
        "misere": misere,
        "numeration": numeration,
        "header": "header.mona",
        "obligations": listed,
        "texts": texts,
    }


def ws1s_parts(
    shapes: Sequence[int],
    runs: bool,
    header: str,
    obligations: Sequence[tuple[str, str, str]],
) -> dict[str, Any]:
    """The automata method's part for a one-heap rule whose moves leave several heaps
    (Lasker's Nim, coin turning): the header defines ``G(N, V)``, ``S<i>(N, A1, ..)`` (shape
    ``i`` leaves ``shapes[i]`` heaps) and, with ``runs``, ``Pre(M, V)`` (the prefix xor of the
    values, for moves leaving the heaps ``j + 1, ..., n - 1``)."""
    part = ws1s("grundy", 1, False, header, obligations)
    part.update(kind="ws1s-parts", shapes=[int(k) for k in shapes], runs=bool(runs))
    return part


def loopy(
    predicate: str,
    heaps: int,
    rank: Sequence[Sequence[str]],
    answer: Sequence[str],
    header: str,
    obligations: Sequence[tuple[str, str, str]],
    **facts: Any,
) -> dict[str, Any]:
    """The loopy method's part (P-positions of a loopy game, for every position): the claimed
    set (``predicate``), the ``rank`` (levels of terms, compared lexicographically), the
    winner's ``answer`` hint (may be empty), the header (``M``, ``S`` and their helpers) and
    each obligation ``(name, body, MONA's answer)`` as MONA read it (header and body)."""
    part = ws1s("p_positions", heaps, False, header, obligations)
    part.update(
        kind="loopy",
        predicate=predicate,
        rank=[[str(t) for t in level] for level in rank],
        answer=[str(a) for a in answer],
        **facts,
    )
    del part["numeration"]
    return part


def smt(claim_kind: str, queries: Sequence[dict[str, str]], **facts: Any) -> dict[str, Any]:
    """A z3 method's part: every query it decided, in SMT-LIB 2, with z3's answer and role."""
    texts = {}
    listed = []
    for i, q in enumerate(queries):
        file = f"q{i}-{q['role']}.smt2"
        texts[file] = q["smt2"]
        listed.append({"role": q["role"], "answer": q["answer"], "file": file})
    return {"kind": "smt", "claim_kind": claim_kind, "queries": listed, "texts": texts, **facts}


def misere_quotient(
    queries: Sequence[dict[str, str]],
    *,
    heaps: int,
    mul: Sequence[Sequence[int]],
    p_portion: Sequence[int],
    phi: Sequence[int],
    period: tuple[int, int],
    L: int,
    starts: Sequence[int],
    claimed: str,
) -> dict[str, Any]:
    """The misère-quotient method's part: the quotient (``mul``, its identity 0; the P-portion;
    the heap map ``phi`` up to the periodicity theorem's window, periodic with ``period`` =
    ``(n0, p)``), the predicate's period ``L`` in each heap from ``starts`` (z3's queries, role
    ``repeat_start``), and the predicate on the box ``0 <= h_i < starts[i] + L`` (a file of
    ``0``/``1`` in row-major order, ``1`` where the predicate says P)."""
    part = {
        "kind": "misere-quotient",
        "claim_kind": "p_positions",
        "heaps": int(heaps),
        "mul": [[int(x) for x in row] for row in mul],
        "p_portion": sorted(int(x) for x in p_portion),
        "phi": [int(x) for x in phi],
        "period_from": int(period[0]),
        "period": int(period[1]),
        "L": int(L),
        "starts": [int(m) for m in starts],
        "claimed": "claimed.txt",
        "formula": smt("misere-repeat", queries),
        "texts": {"claimed.txt": claimed},
    }
    return part


def misere_quotient_order(
    *,
    mul: Sequence[Sequence[int]],
    p_portion: Sequence[int],
    phi: Sequence[int],
    period: tuple[int, int],
    stated: dict[str, int | None],
    reach: Sequence[Sequence[int]],
    distinguish: Sequence[int],
) -> dict[str, Any]:
    """The part of a quotient-order proof (claim kind ``misere_quotient``): the quotient as in
    :func:`misere_quotient` (``mul``, identity 0; the P-portion; ``phi`` up to the periodicity
    theorem's window, periodic with ``period`` = ``(n0, p)``), the claim's ``stated`` figures
    (``order``, ``p_portion`` size, ``period``, ``preperiod``; None where not stated), a sum of
    heaps per element whose product is that element (``reach``), and, for each pair ``x < y``
    in lexicographic order, an element ``z`` with exactly one of ``x z``, ``y z`` in the
    P-portion (``distinguish``)."""
    return {
        "kind": "misere-quotient",
        "claim_kind": "misere_quotient",
        "mul": [[int(x) for x in row] for row in mul],
        "p_portion": sorted(int(x) for x in p_portion),
        "phi": [int(x) for x in phi],
        "period_from": int(period[0]),
        "period": int(period[1]),
        "stated": {k: (None if v is None else int(v)) for k, v in stated.items()},
        "reach": [[int(h) for h in heaps] for heaps in reach],
        "distinguish": [int(z) for z in distinguish],
    }


#: Theorem names of :mod:`nimproof.theory.periodicity` -> the checker's theorem ids.
THEOREM_IDS = (
    ("finite subtraction window (Golomb)", "golomb"),
    ("CGSuite's safer window", "guy-smith-cgsuite"),
    ("Guy–Smith theorem", "guy-smith"),
    ("periodicity theorem for", "splitting"),
    ("all-but window lemma", "all-but"),
)


def theorem_id(name: str) -> str:
    """The checker's id of a theorem named ``name`` (``""`` when unknown)."""
    for key, ident in THEOREM_IDS:
        if key in name:
            return ident
    return ""


def periodicity(
    theorem: str, period: int, preperiod: int, saltus: int, values: Sequence[int], least: bool
) -> dict[str, Any]:
    """A periodicity part: the relation, the theorem, and a hash of ``values`` (g(0), g(1), ...:
    every value the theorem's window reads)."""
    return {
        "kind": "periodicity",
        "theorem": theorem_id(theorem),
        "theorem_text": theorem,
        "period": int(period),
        "preperiod": int(preperiod),
        "saltus": int(saltus),
        "least": bool(least),
        "values_count": len(values),
        "values_sha256": values_digest(values),
    }
