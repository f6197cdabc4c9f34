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


def smt(claim_kind: str, queries: Sequence[dict[str, str]], **facts: Any) -> dict[str, Any]:
    """A z3 method's part: every query it decided, in SMT-LIB 2, with z3's answer and role."""
    texts = {}
    listed = []
    for i, q in enumerate(queries):
        file = f"q{i}-{q['role']}.smt2"
        texts[file] = q["smt2"]
        listed.append({"role": q["role"], "answer": q["answer"], "file": file})
    return {"kind": "smt", "claim_kind": claim_kind, "queries": listed, "texts": texts, **facts}


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
